//! `damka egtb positions`: random endgame positions for a match of the engine with databases
//! against the engine without. Pieces are placed at random (a quarter of them kings, men
//! where a man of their colour can stand), sides within one piece of each other, White to
//! move with no capture; a fixed-depth search (one thread, so the same seed gives the same
//! file) keeps only positions it scores within a margin of equal.
//!
//! ```text
//! damka egtb positions --variant russian --count 100 --min 6 --max 9 --seed 1 > ru-endings.txt
//! ```

use crate::core::{Color, Rng};
use crate::egtb::index::Geometry;
use crate::egtb::{Endgames, Value};
use crate::engine::GameSession;
use crate::engine::{GoMode, Limits};
use crate::eval::Evaluate;
use crate::game::pdn::read_all;
use crate::game::Game;
use crate::variant::{Notation, Outcome, Pieces};
use clap::Args;

fn random_side(rng: &mut Rng, n: u32, men_squares: u64, playable: u64, taken: &mut u64) -> Pieces {
    let mut p = Pieces::default();
    for _ in 0..n {
        let king = rng.below(4) == 0;
        let allowed = if king { playable } else { men_squares } & !*taken;
        let count = allowed.count_ones() as u64;
        let mut k = rng.below(count);
        let mut a = allowed;
        while k > 0 {
            a &= a - 1;
            k -= 1;
        }
        let bit = a & a.wrapping_neg();
        *taken |= bit;
        if king {
            p.kings |= bit;
        } else {
            p.men |= bit;
        }
    }
    p
}

/// Arguments of `egtb positions`.
#[derive(Args, Debug)]
pub struct PositionsArgs {
    /// Game: russian or turkish.
    #[arg(long, default_value = "russian")]
    pub variant: String,
    /// Number of positions.
    #[arg(long, default_value_t = 100)]
    pub count: usize,
    /// Fewest pieces.
    #[arg(long, default_value_t = 6)]
    pub min: u32,
    /// Most pieces.
    #[arg(long, default_value_t = 9)]
    pub max: u32,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the search that keeps only positions within --margin of equal.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Largest absolute score kept, centi-men.
    #[arg(long, default_value_t = 100)]
    pub margin: i32,
}

/// Runs `damka egtb positions`; prints one FEN per line.
pub fn run<P: Evaluate>(a: PositionsArgs) -> i32 {
    if a.min < 2 || a.max < a.min || a.max > 24 {
        eprintln!("damka egtb positions: expected 2 <= --min <= --max <= 24");
        return 2;
    }
    let g = Geometry::of::<P>();
    let mut rng = Rng::new(a.seed);
    let mut session = GameSession::<P>::new(1, 16);
    let limits = Limits {
        depth: Some(a.depth.max(1)),
        ..Limits::default()
    };
    println!(
        "# damka egtb positions --variant {} --count {} --min {} --max {} --seed {} --depth {} --margin {}",
        P::VARIANT, a.count, a.min, a.max, a.seed, a.depth, a.margin
    );
    let mut found = 0;
    let mut tries = 0u64;
    while found < a.count && tries < 1_000_000 {
        tries += 1;
        let n = a.min + rng.below((a.max - a.min + 1) as u64) as u32;
        let (nw, nb) = (n.div_ceil(2), n / 2);
        let (nw, nb) = if rng.below(2) == 0 {
            (nw, nb)
        } else {
            (nb, nw)
        };
        let mut taken = 0;
        let w = random_side(&mut rng, nw, g.white_men, g.playable, &mut taken);
        let b = random_side(&mut rng, nb, g.black_men, g.playable, &mut taken);
        let Ok(pos) = P::from_pieces(w, b, Color::White) else {
            continue;
        };
        if pos.has_capture() || pos.count_moves() == 0 {
            continue;
        }
        session.searcher_mut().clear();
        session.set_game(Game::new(pos));
        let Ok(f) = session.search_blocking(&limits, GoMode::Analyze, |_| {}) else {
            continue;
        };
        if f.score.abs() <= a.margin {
            println!("{}", pos.to_fen());
            found += 1;
        }
    }
    if found < a.count {
        eprintln!("damka egtb positions: only {found} positions found");
        return 1;
    }
    0
}

/// Runs `damka egtb check-games`: prints, for the named player, how many games reached a
/// database win under the rules and how many of those it won; exit status 1 if one was not.
pub fn check_games<P: Evaluate>(pdn: &std::path::Path, player: &str, eg: &dyn Endgames<P>) -> i32 {
    let text = match crate::core::file::read_text(pdn, "a PDN file") {
        Ok(t) => t,
        Err(e) => {
            eprintln!("damka egtb check-games: {e}");
            return 2;
        }
    };
    let records = match read_all::<P>(&text) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("damka egtb check-games: {e}");
            return 2;
        }
    };
    let (mut reached, mut converted) = (0, 0);
    for (k, r) in records.iter().enumerate() {
        let colour = match (r.tag("White"), r.tag("Black")) {
            (Some(w), _) if w == player => Color::White,
            (_, Some(b)) if b == player => Color::Black,
            _ => continue,
        };
        let mut g = Game::new(*r.game.start());
        let mut won_at = None;
        for (ply, m) in std::iter::once(None)
            .chain(r.game.moves().iter().map(Some))
            .enumerate()
        {
            if let Some(m) = m {
                if g.play(*m).is_err() {
                    break;
                }
            }
            let pos = *g.position();
            if !eg.covers(&pos) {
                continue;
            }
            let mine = pos.side_to_move() == colour;
            match eg.value(&pos, g.rule_state()) {
                Some(Value::Win(_)) if mine => won_at = Some(ply),
                Some(Value::Loss(_)) if !mine => won_at = Some(ply),
                _ => {}
            }
            if won_at.is_some() {
                break;
            }
        }
        let Some(ply) = won_at else { continue };
        reached += 1;
        if r.result == Some(Outcome::Win(colour)) {
            converted += 1;
        } else {
            println!(
                "game {}: database win at ply {ply} not converted ({:?})",
                k + 1,
                r.result
            );
        }
    }
    println!(
        "{} games, {reached} reached a database win for {}, {converted} converted",
        records.len(),
        player
    );
    i32::from(converted < reached)
}
