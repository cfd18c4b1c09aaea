//! Shared by the search and engine integration tests: a plain minimax "oracle" (no pruning,
//! no table) that decides forced wins independently of the engine's search.

use damka::core::{is_decisive, WIN};
use damka::eval::Evaluate;
use damka::search::{Job, SearchLimits, Searcher};
use damka::variant::{Notation, Outcome, Position};

/// Whether the side to move can force a win within `plies` plies.
pub fn wins<P: Position>(pos: &P, st: P::RuleState, plies: u32) -> bool {
    if let Some(end) = pos.rule_end(&st) {
        return end.outcome == Outcome::Win(pos.side_to_move());
    }
    if plies == 0 {
        return false;
    }
    pos.legal_moves().iter().any(|m| {
        let c = pos.play(m);
        let cs = pos.rule_state_after(st, m, &c);
        loses(&c, cs, plies - 1)
    })
}

/// Whether the side to move loses by force within `plies` plies.
pub fn loses<P: Position>(pos: &P, st: P::RuleState, plies: u32) -> bool {
    if let Some(end) = pos.rule_end(&st) {
        return end.outcome == Outcome::Win(!pos.side_to_move());
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    if plies == 0 {
        return false;
    }
    moves.iter().all(|m| {
        let c = pos.play(m);
        let cs = pos.rule_state_after(st, m, &c);
        wins(&c, cs, plies - 1)
    })
}

/// Checks that the position (a forced win in `plies`, with `answer` the only winning first
/// move) is what the oracle says, and that the engine finds `answer` with a win score at
/// `depth` with `threads` threads.
pub fn check_forced_win<P: Evaluate>(
    fen: &str,
    answer: &str,
    plies: u32,
    depth: u32,
    threads: usize,
) {
    let pos = P::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    let st = pos.rule_state_new();
    // The oracle first: the test data itself must be right.
    assert!(wins(&pos, st, plies), "{fen}: no forced win in {plies}");
    let winning: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| {
            let c = pos.play(m);
            loses(&c, pos.rule_state_after(st, m, &c), plies - 1)
        })
        .map(|m| pos.move_to_algebraic(m))
        .collect();
    assert_eq!(
        winning,
        vec![answer.to_string()],
        "{fen}: oracle's winning moves"
    );

    let mut s = Searcher::<P>::new(threads, 8);
    let f = s.search(Job::new(pos, SearchLimits::to_depth(depth)), |_| {});
    let best = f.best.expect("a move");
    assert_eq!(pos.move_to_algebraic(&best), answer, "{fen}: engine move");
    assert!(
        is_decisive(f.score) && f.score > 0,
        "{fen}: score {} is not a win",
        f.score
    );
    assert!(
        WIN - f.score <= plies as i32,
        "{fen}: win in {} plies reported, {plies} exist",
        WIN - f.score
    );
}

/// An analysis search of the engine's position to `depth`, reporting each iteration to
/// `on_info`.
pub fn analyse_to_depth(
    e: &mut damka::engine::Engine,
    depth: u32,
    on_info: damka::engine::InfoCallback,
) -> damka::engine::SearchOutcome {
    let limits = damka::engine::Limits {
        depth: Some(depth),
        ..damka::engine::Limits::default()
    };
    e.search_blocking(limits, damka::engine::GoMode::Analyze, on_info)
        .unwrap()
}

/// Checks repetition along the game history: after `history` from `fen`, the side to move is
/// lost but saves itself by `repeat`, which goes back to a position already seen (a draw, score
/// 0); without the history the same position is simply lost.
pub fn check_repetition_draw(
    variant: damka::core::Variant,
    fen: &str,
    history: &[&str],
    repeat: &str,
) {
    let mut e = damka::engine::Engine::new(variant);
    e.set_position(fen, history).unwrap();
    let out = analyse_to_depth(&mut e, 3, Box::new(|_| {}));
    assert_eq!(out.best.unwrap().algebraic, repeat);
    assert_eq!(out.score, 0);

    e.set_position(fen, &[]).unwrap();
    let out = analyse_to_depth(&mut e, 3, Box::new(|_| {}));
    assert!(out.score < -200, "{}", out.score);
}

/// Checks that `damka bench` of one game at `depth` (at least 20 positions) searches the same
/// node counts on two runs.
pub fn check_bench_deterministic(variant: damka::core::Variant, depth: u32) {
    let run = || {
        damka::cli::bench::bench(Some(variant), Some(depth), 1, 4, &mut |_| {})
            .unwrap()
            .iter()
            .map(|l| l.nodes)
            .collect::<Vec<_>>()
    };
    let a = run();
    assert!(a.len() >= 20);
    assert!(a.iter().all(|&n| n > 0));
    assert_eq!(a, run());
}

/// Checks capture-threat resolution at the horizon: in `fen` the move `fork` threatens two
/// captures at once and the opponent can parry only one, winning a man for the side to move
/// (from an even position). A depth-1 search must see it: its principal variation is the
/// fork, a reply and a capture, and its score is at least `min_score` centi-men. A search
/// that evaluated the position after the fork as quiet would stop after one move.
pub fn check_threat_seen_at_depth_one(
    variant: damka::core::Variant,
    fen: &str,
    fork: &str,
    min_score: damka::core::Score,
) {
    use std::sync::{Arc, Mutex};
    let mut e = damka::engine::Engine::new(variant);
    e.set_position(fen, &[]).unwrap();
    let pv = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&pv);
    let out = analyse_to_depth(
        &mut e,
        1,
        Box::new(move |info| {
            *seen.lock().unwrap() = info.pv.iter().map(|m| m.algebraic.clone()).collect();
        }),
    );
    let pv = pv.lock().unwrap().clone();
    assert_eq!(out.best.unwrap().algebraic, fork, "{fen}: pv {pv:?}");
    assert_eq!(pv.len(), 3, "{fen}: pv {pv:?}");
    assert_eq!(pv[0], fork, "{fen}");
    assert!(
        pv[2].contains(':') || pv[2].contains('x'),
        "{fen}: pv {pv:?}"
    );
    assert!(out.score >= min_score, "{fen}: score {}", out.score);
}
