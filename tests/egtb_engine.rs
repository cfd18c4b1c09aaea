//! Endgame databases in the engine: self-play converts every database win the rules allow,
//! the search scores database positions exactly, and the Hub session takes `egtb-path`,
//! counts hits and says once when tables are missing.

use crate::egtb_support;

use damka::core::{Color, Rng, Variant};
use damka::egtb::build::build_all;
use damka::egtb::endgames::{Endgames, TB_WIN};
use damka::egtb::rules::{under_rules, CountedDraws};
use damka::egtb::{Tablebase, Value};
use damka::engine::{Engine, GameSession, GoMode, Limits};
use damka::eval::Evaluate;
use damka::game::Game;
use damka::variant::{Notation, Outcome, Position, RussianPosition, TurkishPosition};
use egtb_support::{positions, temp_dir};
use std::sync::Arc;

fn tables<P: CountedDraws>(name: &str, pieces: u32) -> (std::path::PathBuf, Arc<Tablebase>) {
    let dir = temp_dir(name);
    build_all::<P>(&dir, pieces, |_, _, _| {}).unwrap();
    let tb = Arc::new(Tablebase::open(&dir, P::VARIANT, 8).unwrap());
    (dir, tb)
}

/// Plays each position out with the tables on both sides; every one that the tables call a
/// win under the rules (counters fresh) must be won by the side to move.
fn converts<P: CountedDraws + Evaluate>(tb: Arc<Tablebase>, starts: &[P]) -> usize {
    let mut session = GameSession::<P>::new(1, 4);
    session
        .searcher_mut()
        .set_endgames(Some(tb.clone() as Arc<dyn Endgames<P>>));
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let mut won = 0;
    for &p in starts {
        let v = tb.probe(&p).unwrap();
        if !matches!(
            under_rules(v, p.plies_left(&p.rule_state_new())),
            Some(Value::Win(_))
        ) {
            continue;
        }
        session.set_game(Game::new(p));
        while session.game().result().is_none() && session.game().ply() < 300 {
            let f = session
                .search_blocking(&limits, GoMode::Think, |_| {})
                .unwrap();
            let mut g = session.game().clone();
            g.play(f.best.unwrap()).unwrap();
            session.set_game(g);
        }
        let end = session.game().result();
        assert_eq!(
            end.map(|e| e.outcome),
            Some(Outcome::Win(p.side_to_move())),
            "{} ended {end:?}",
            p.to_fen()
        );
        won += 1;
    }
    won
}

fn sample<P: Position>(all: Vec<P>, n: usize, seed: u64) -> Vec<P> {
    let mut all: Vec<P> = all
        .into_iter()
        .filter(|p| p.side_to_move() == Color::White)
        .collect();
    Rng::new(seed).shuffle(&mut all);
    all.truncate(n);
    all
}

/// Self-play from `per_sig` database wins of each signature of `sigs` (databases up to
/// `pieces`): at least `least` of them must be converted.
fn self_play_converts<P: CountedDraws + Evaluate>(
    name: &str,
    pieces: u32,
    sigs: &[[u32; 4]],
    per_sig: usize,
    least: usize,
) {
    let (_dir, tb) = tables::<P>(name, pieces);
    let mut won = 0;
    for (k, s) in sigs.iter().enumerate() {
        let starts = sample(positions::<P>(pieces, |c| c == *s), per_sig, k as u64);
        won += converts(tb.clone(), &starts);
    }
    assert!(won >= least, "{won} wins played");
}

#[test]
fn russian_self_play_converts_every_database_win() {
    // Three kings against one, king and man against king, two kings and a man against king.
    let sigs = [[0, 3, 0, 1], [1, 1, 0, 1], [1, 2, 0, 1], [0, 2, 1, 0]];
    self_play_converts::<RussianPosition>("engine-ru", 4, &sigs, 40, 60);
}

#[test]
fn turkish_self_play_converts_every_database_win() {
    let sigs = [[0, 2, 0, 1], [0, 2, 1, 0], [1, 1, 1, 0]];
    self_play_converts::<TurkishPosition>("engine-tu", 3, &sigs, 30, 30);
}

#[test]
fn hub_takes_the_path_counts_hits_and_reports_missing_tables_once() {
    let (dir, _tb) = tables::<RussianPosition>("engine-hub", 3);
    let mut e = Engine::new(Variant::Russian);
    assert!(e.options().iter().any(|o| o.name == "egtb-path"));
    e.set_option("egtb-path", dir.to_str().unwrap()).unwrap();
    assert!(e.take_notices().is_empty());
    // Four pieces: beyond these tables, the search probes the three-piece positions below.
    e.set_position("W:WKa1,Kc1:BKh2,h6", &[]).unwrap();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let hits = Arc::new(std::sync::Mutex::new(None));
    let h2 = hits.clone();
    let out = e
        .search_blocking(
            limits.clone(),
            GoMode::Analyze,
            Box::new(move |i| *h2.lock().unwrap() = i.egtb_hits),
        )
        .unwrap();
    assert!(out.best.is_some());
    assert!(hits.lock().unwrap().unwrap() > 0);
    // A root the tables decide is scored in the database band.
    e.set_position("W:WKc1,Ke1:BKd4", &[]).unwrap();
    let out = e
        .search_blocking(limits.clone(), GoMode::Think, Box::new(|_| {}))
        .unwrap();
    let v = Tablebase::open(&dir, Variant::Russian, 1)
        .unwrap()
        .probe(&RussianPosition::from_fen("W:WKc1,Ke1:BKd4").unwrap())
        .unwrap();
    match v {
        Value::Win(_) => assert!(out.score > TB_WIN - 100, "{}", out.score),
        _ => assert!(out.score.abs() < TB_WIN - 1000),
    }
    // Missing tables: one message, and play goes on.
    e.set_option("egtb-path", "/nonexistent/damka-egtb")
        .unwrap();
    assert_eq!(e.take_notices().len(), 1);
    assert!(e.take_notices().is_empty());
    assert!(e
        .search_blocking(limits, GoMode::Think, Box::new(|_| {}))
        .unwrap()
        .best
        .is_some());
}
