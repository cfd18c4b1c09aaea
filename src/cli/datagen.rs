//! `damka datagen`: self-play games at a fixed node budget per move, one record per position
//! ([`crate::eval::data`]) appended to a file, for training the evaluation.
//!
//! Each game starts from a line of the opening file (`src/data/openings`, compiled in) followed
//! by a few random legal plies, both drawn from a generator seeded by `--seed` and the game's
//! number, so a game is the same whichever thread plays it; with one thread the whole file is
//! the same for one seed. Games are played out to their end by the rules, except that a side
//! whose score stays above [`ADJUDICATE_SCORE`] for [`ADJUDICATE_PLIES`] plies in a row is
//! declared the winner and a game reaching [`MAX_PLIES`] is declared drawn (both marked
//! adjudicated in the records). With `--label-from-tables DIR` the endgame databases in DIR
//! give the results: a position they decide under the rules is labelled with its own value,
//! and a position before it with the value of the first decided position after it (not
//! marked adjudicated), so that the labels of endings do not depend on how a search of a
//! few thousand nodes plays them out.

use super::search_opts::EvalArgs;
use crate::core::{is_decisive, Color, Rng, Variant};
use crate::dispatch::{dispatch, GameTask};
use crate::egtb::endgames::{as_endgames, Endgames};
use crate::egtb::{Tablebase, Value};
use crate::eval::data::{RecordRules, ScoredPosition};
use crate::eval::{Evaluate, Evaluator};
use crate::game::Game;
use crate::search::{Job, SearchLimits, Searcher};
use crate::variant::{Outcome, Position};
use clap::Args;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Default node budget per move.
pub const DEFAULT_NODES: u64 = 3000;
/// Score (centi-men, for the side to move) beyond which a game may be adjudicated.
pub const ADJUDICATE_SCORE: i32 = 700;
/// Plies in a row beyond [`ADJUDICATE_SCORE`] (same winner) that end a game.
pub const ADJUDICATE_PLIES: u32 = 6;
/// Plies after which a game is declared drawn.
pub const MAX_PLIES: usize = 300;
/// Most random plies played after the opening line.
pub const MAX_RANDOM_PLIES: u64 = 4;

/// Arguments of `damka datagen`.
#[derive(Args, Debug)]
pub struct DatagenArgs {
    /// The game.
    #[arg(long)]
    pub variant: Variant,
    /// File the records are appended to.
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Number of games (one of --games, --positions and --rescore is needed).
    #[arg(long, required_unless_present_any = ["positions", "rescore"])]
    pub games: Option<u64>,
    /// Stop starting games once this many positions are written.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Games played at once, one per thread.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Seed of the openings and random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Node budget per move.
    #[arg(long, default_value_t = DEFAULT_NODES)]
    pub nodes: u64,
    /// Transposition table per thread, MiB.
    #[arg(long, default_value_t = 4)]
    pub hash: usize,
    /// Play no games: search every position of this datagen file (records of the chosen
    /// game, in their order) with `--nodes` and write it to `--out` with the new score, all
    /// else kept. Deeper labels for positions of cheaper games. The history is not in a
    /// record, so repetitions and the rule counters are not seen by these searches.
    #[arg(long, conflicts_with_all = ["games", "positions"])]
    pub rescore: Option<std::path::PathBuf>,
    /// Take the results from the endgame databases in this folder (as given to `damka egtb
    /// build --dir`): a position they decide is labelled with its value, the positions before
    /// it with the value of the first decided one after them. Only a folder named here is
    /// used, so that the same seed gives the same file whatever the user has built.
    #[arg(long, value_name = "DIR", conflicts_with = "rescore")]
    pub label_from_tables: Option<std::path::PathBuf>,
    /// The evaluation playing the games.
    #[command(flatten)]
    pub eval: EvalArgs,
}

/// The records of one game.
pub struct PlayedGame {
    /// Its positions, each with its result.
    pub records: Vec<ScoredPosition>,
    /// How many of them the endgame databases decide.
    pub decided: usize,
}

/// The compiled-in opening lines of a game ([`crate::data::openings`], moves as text).
pub fn openings(variant: Variant) -> Vec<Vec<&'static str>> {
    crate::data::openings(variant)
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|l| !l.is_empty())
        .collect()
}

/// The generator of game `index` under `seed`.
fn game_rng(seed: u64, index: u64) -> Rng {
    let mut r = Rng::new(seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    r.next_u64();
    r
}

/// Plays game number `index` and returns its records (none if the start could not be made);
/// with `tables`, a record's result is the value of the first position at or after it that
/// they decide, the game's result if none.
pub fn play_game<P: Evaluate + RecordRules>(
    searcher: &mut Searcher<P>,
    tables: Option<&dyn Endgames<P>>,
    lines: &[Vec<&str>],
    seed: u64,
    index: u64,
    nodes: u64,
) -> PlayedGame {
    let none = || PlayedGame {
        records: Vec::new(),
        decided: 0,
    };
    let mut rng = game_rng(seed, index);
    let mut game = Game::<P>::from_start();
    let line = &lines[rng.below(lines.len() as u64) as usize];
    for m in line {
        if game.play_text(m).is_err() {
            return none();
        }
    }
    for _ in 0..rng.below(MAX_RANDOM_PLIES + 1) {
        let moves = game.legal_moves();
        if moves.is_empty() || game.is_over() {
            return none();
        }
        game.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
    }
    searcher.clear();
    let mut records = Vec::new();
    let mut reversible = 0u32;
    let mut streak: (i8, u32) = (0, 0);
    // White's result of each record the tables decide.
    let mut decided: Vec<Option<i8>> = Vec::new();
    let (outcome, adjudicated) = loop {
        if let Some(end) = game.result() {
            break (end.outcome, false);
        }
        if game.ply() >= MAX_PLIES {
            break (Outcome::Draw, true);
        }
        let pos = *game.position();
        let job = Job {
            root: pos,
            root_state: *game.rule_state(),
            history: game.history_keys(),
            root_moves: Vec::new(),
            limits: SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            },
        };
        let f = searcher.search(job, |_| {});
        let Some(best) = f.best else {
            break (Outcome::Win(pos.side_to_move().opposite()), false);
        };
        let white_score = match pos.side_to_move() {
            Color::White => f.score,
            Color::Black => -f.score,
        };
        records.push(ScoredPosition {
            variant: P::VARIANT,
            white: pos.pieces(Color::White),
            black: pos.pieces(Color::Black),
            side: pos.side_to_move(),
            capture: pos.has_capture(),
            adjudicated: false,
            result: 0,
            reversible_plies: reversible.min(255) as u8,
            score: f.score.clamp(-30000, 30000) as i16,
            ply: game.ply().min(u16::MAX as usize) as u16,
            rules: P::rule_bytes(game.rule_state()),
        });
        decided.push(tables.and_then(|t| white_result(t, &pos, game.rule_state())));
        let sign = if white_score.abs() >= ADJUDICATE_SCORE || is_decisive(white_score) {
            white_score.signum() as i8
        } else {
            0
        };
        streak = if sign != 0 && sign == streak.0 {
            (sign, streak.1 + 1)
        } else {
            (sign, (sign != 0) as u32)
        };
        if streak.1 >= ADJUDICATE_PLIES {
            let winner = if streak.0 > 0 {
                Color::White
            } else {
                Color::Black
            };
            break (Outcome::Win(winner), true);
        }
        reversible = if pos.is_reversible(&best) {
            reversible + 1
        } else {
            0
        };
        game.play_unchecked(best);
    };
    let result = match outcome {
        Outcome::Win(Color::White) => 1,
        Outcome::Win(Color::Black) => -1,
        Outcome::Draw => 0,
    };
    label(&mut records, &decided, (result, adjudicated));
    PlayedGame {
        decided: decided.iter().flatten().count(),
        records,
    }
}

/// The result for White of `pos` if the tables decide it under the rules.
fn white_result<P: Position>(
    tables: &dyn Endgames<P>,
    pos: &P,
    state: &P::RuleState,
) -> Option<i8> {
    if !tables.covers(pos) {
        return None;
    }
    let white = if pos.side_to_move() == Color::White {
        1
    } else {
        -1
    };
    Some(match tables.value(pos, state)? {
        Value::Win(_) => white,
        Value::Loss(_) => -white,
        Value::Draw => 0,
    })
}

/// Gives each record the (result, adjudicated) of the first position at or after it that the
/// tables decide (`decided`, one per record), `end` where none is.
fn label(records: &mut [ScoredPosition], decided: &[Option<i8>], end: (i8, bool)) {
    let mut label = end;
    for (r, d) in records.iter_mut().zip(decided).rev() {
        if let Some(v) = *d {
            label = (v, false);
        }
        (r.result, r.adjudicated) = label;
    }
}

struct DatagenTally {
    start: Instant,
    positions: u64,
    games: u64,
    wins: [u64; 3],
    /// Games with a position the endgame databases decide, and such positions.
    in_tables: (u64, u64),
    last: Instant,
}

fn generate<P: Evaluate + RecordRules>(
    args: &DatagenArgs,
    eval: &Evaluator,
    tables: Option<Arc<Tablebase>>,
    out: &mut dyn Write,
) -> Result<DatagenTally, String> {
    let lines = Arc::new(openings(P::VARIANT));
    let next_game = Arc::new(AtomicU64::new(0));
    let written = Arc::new(AtomicU64::new(0));
    let max_games = args.games.unwrap_or(u64::MAX);
    let max_positions = args.positions.unwrap_or(u64::MAX);
    let tables = tables.map(as_endgames::<P>).transpose()?;
    let (tx, rx) = crossbeam_channel::bounded::<(u64, PlayedGame)>(64);
    let mut handles = Vec::new();
    for _ in 0..args.threads.max(1) {
        let (lines, next_game, written, tx, tables) = (
            lines.clone(),
            next_game.clone(),
            written.clone(),
            tx.clone(),
            tables.clone(),
        );
        let (seed, nodes, hash, eval) = (args.seed, args.nodes, args.hash, eval.clone());
        handles.push(std::thread::spawn(move || {
            let mut searcher = Searcher::<P>::new(1, hash);
            let _ = searcher.set_evaluator(eval);
            loop {
                if written.load(Ordering::SeqCst) >= max_positions {
                    break;
                }
                let i = next_game.fetch_add(1, Ordering::SeqCst);
                if i >= max_games {
                    break;
                }
                let played = play_game(&mut searcher, tables.as_deref(), &lines, seed, i, nodes);
                written.fetch_add(played.records.len() as u64, Ordering::SeqCst);
                if tx.send((i, played)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let now = Instant::now();
    let mut p = DatagenTally {
        start: now,
        positions: 0,
        games: 0,
        wins: [0; 3],
        in_tables: (0, 0),
        last: now,
    };
    for (_, played) in rx {
        let recs = played.records;
        p.in_tables.0 += (played.decided > 0) as u64;
        p.in_tables.1 += played.decided as u64;
        for r in &recs {
            r.write_to(out)
                .map_err(|e| format!("{}: {e}", args.out.display()))?;
        }
        if let Some(r) = recs.first() {
            p.wins[(r.result + 1) as usize] += 1;
            p.games += 1;
        }
        p.positions += recs.len() as u64;
        if p.last.elapsed().as_secs_f64() >= 10.0 {
            p.last = Instant::now();
            report(&p, args, false);
        }
    }
    for h in handles {
        h.join()
            .map_err(|_| "a datagen thread panicked".to_string())?;
    }
    out.flush()
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(p)
}

/// Searches every record of `input` again (one chunk of records per thread, written back in
/// their order) and writes each with its new score.
fn rescore<P: Evaluate + RecordRules>(
    args: &DatagenArgs,
    eval: &Evaluator,
    records: Vec<ScoredPosition>,
    out: &mut dyn Write,
) -> Result<DatagenTally, String> {
    let records: Vec<ScoredPosition> = records
        .into_iter()
        .filter(|r| r.variant == P::VARIANT)
        .collect();
    let records = Arc::new(records);
    let threads = args.threads.max(1);
    let chunk = records.len().div_ceil(threads).max(1);
    let done = Arc::new(AtomicU64::new(0));
    let mut handles = Vec::new();
    for t in 0..threads {
        let (records, done) = (records.clone(), done.clone());
        let (nodes, hash, eval) = (args.nodes, args.hash, eval.clone());
        handles.push(std::thread::spawn(
            move || -> Result<Vec<ScoredPosition>, String> {
                let mut searcher = Searcher::<P>::new(1, hash);
                searcher.set_evaluator(eval)?;
                let part = records.iter().skip(t * chunk).take(chunk);
                let mut outv = Vec::new();
                for r in part {
                    let mut r = *r;
                    if r.capture {
                        // The trainer skips these: no search.
                        outv.push(r);
                        done.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    let pos: P = r.position()?;
                    let job = Job {
                        root: pos,
                        root_state: Default::default(),
                        history: Vec::new(),
                        root_moves: Vec::new(),
                        limits: SearchLimits {
                            nodes: Some(nodes),
                            ..SearchLimits::default()
                        },
                    };
                    let f = searcher.search(job, |_| {});
                    if f.best.is_some() {
                        r.score = f.score.clamp(-30000, 30000) as i16;
                    }
                    outv.push(r);
                    done.fetch_add(1, Ordering::Relaxed);
                }
                Ok(outv)
            },
        ));
    }
    let start = Instant::now();
    let mut p = DatagenTally {
        start,
        positions: 0,
        games: 0,
        wins: [0; 3],
        in_tables: (0, 0),
        last: start,
    };
    while handles.iter().any(|h| !h.is_finished()) {
        std::thread::sleep(std::time::Duration::from_millis(200));
        if p.last.elapsed().as_secs_f64() >= 10.0 {
            p.last = Instant::now();
            p.positions = done.load(Ordering::Relaxed);
            let t = start.elapsed().as_secs_f64();
            let left = (records.len() as u64).saturating_sub(p.positions) as f64 * t
                / p.positions.max(1) as f64;
            eprintln!(
                "rescore: {} of {} positions, {:.0} positions/s, about {left:.0} s left",
                p.positions,
                records.len(),
                p.positions as f64 / t
            );
        }
    }
    for h in handles {
        let part = h
            .join()
            .map_err(|_| "a rescore thread panicked".to_string())??;
        for r in &part {
            r.write_to(out)
                .map_err(|e| format!("{}: {e}", args.out.display()))?;
        }
    }
    p.positions = records.len() as u64;
    out.flush()
        .map_err(|e| format!("{}: {e}", args.out.display()))?;
    Ok(p)
}

fn report(p: &DatagenTally, args: &DatagenArgs, last: bool) {
    let t = p.start.elapsed().as_secs_f64().max(1e-9);
    if args.rescore.is_some() {
        eprintln!(
            "datagen done: {} positions rescored, {:.0} positions/s, {t:.0} s elapsed",
            p.positions,
            p.positions as f64 / t
        );
        return;
    }
    let gps = p.games as f64 / t;
    let left = match (args.games, args.positions) {
        (Some(g), _) => (g.saturating_sub(p.games)) as f64 / gps.max(1e-9),
        (None, Some(n)) => n.saturating_sub(p.positions) as f64 * t / (p.positions.max(1) as f64),
        _ => 0.0,
    };
    let head = if last { "datagen done:" } else { "datagen:" };
    let tables = if args.label_from_tables.is_some() {
        format!(
            ", {} reached the tables, {} positions decided by them",
            p.in_tables.0, p.in_tables.1
        )
    } else {
        String::new()
    };
    eprintln!(
        "{head} {} positions, {} games (White {} / draws {} / Black {}{tables}), {:.2} games/s, \
         {:.0} positions/s, {:.0} s elapsed{}",
        p.positions,
        p.games,
        p.wins[2],
        p.wins[1],
        p.wins[0],
        gps,
        p.positions as f64 / t,
        t,
        if last {
            String::new()
        } else {
            format!(", about {left:.0} s left")
        }
    );
}

/// Runs `damka datagen`; returns the exit status.
pub fn run(args: DatagenArgs) -> i32 {
    let eval = match args.eval.evaluators() {
        Ok(e) => e.get(args.variant).clone(),
        Err(e) => {
            eprintln!("damka datagen: {e}");
            return 2;
        }
    };
    // The file to rescore is read first: a missing or malformed one leaves `--out` alone.
    let input = match args.rescore.as_deref().map(crate::eval::data::read_file) {
        None => None,
        Some(Ok(records)) => Some(records),
        Some(Err(e)) => {
            eprintln!("damka datagen: {e}");
            return 2;
        }
    };
    // Tables that cannot be opened leave `--out` alone too.
    let tables = match &args.label_from_tables {
        None => None,
        Some(dir) => {
            match Tablebase::open(dir, args.variant, crate::engine::DEFAULT_EGTB_CACHE_MB) {
                Ok(tb) => Some(Arc::new(tb)),
                Err(e) => {
                    eprintln!("damka datagen: --label-from-tables: {e}");
                    return 2;
                }
            }
        }
    };
    let file = match std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
    {
        Ok(f) => f,
        Err(e) => {
            eprintln!("damka datagen: {}: {e}", args.out.display());
            return 2;
        }
    };
    let mut out = BufWriter::new(file);
    struct Generate<'a>(
        &'a DatagenArgs,
        Evaluator,
        Option<Vec<ScoredPosition>>,
        Option<Arc<Tablebase>>,
        &'a mut dyn Write,
    );
    impl GameTask for Generate<'_> {
        type Output = Result<DatagenTally, String>;
        fn run<P: Evaluate + RecordRules>(self) -> Self::Output {
            match self.2 {
                Some(records) => rescore::<P>(self.0, &self.1, records, self.4),
                None => generate::<P>(self.0, &self.1, self.3, self.4),
            }
        }
    }
    let res = dispatch(args.variant, Generate(&args, eval, input, tables, &mut out));
    match res {
        Ok(p) => {
            report(&p, &args, true);
            0
        }
        Err(e) => {
            eprintln!("damka datagen: {e}");
            1
        }
    }
}
