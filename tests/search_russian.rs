//! Search on Russian positions: shots and king endings with a forced win (checked by a plain
//! minimax oracle), repetition, bench determinism.

mod search_common;

use damka::core::Variant;
use damka::variant::RussianPosition;
use search_common::{
    check_bench_deterministic, check_forced_win, check_repetition_draw,
    check_threat_seen_at_depth_one,
};

/// Men endings and shots won in 7 plies with exactly one winning first move (found by a random
/// search over small positions, confirmed by the oracle in every run).
const SHOTS: &[(&str, &str)] = &[
    ("W:Wf2,h4,f6,c7:Bd2,h2,g5,h6", "f2-g3"),
    ("W:Wb2,f2,a3,e5:Bd2,h4,g5,a7", "b2-c3"),
    ("W:Wh2,d4,c5:Bf2,e3,c7", "h2-g3"),
    ("W:Wd2,c3,f4,g5,g7:Ba3,h4,e5,b6,d6", "g7-f8"),
    ("W:Wb4,f6,a7:Ba3,e3,c7", "a7-b8"),
    ("W:Wf2,g3,a7,g7:Bb2,d2,f4,c5,e5,b6", "g7-f8"),
];

/// Three kings against one: won in 7 plies with exactly one winning first move.
const KINGS: &[(&str, &str)] = &[
    ("W:WKa1,Kd6,Kf6:BKd8", "f6-h4"),
    ("W:WKg3,Kd4,Kg7:BKc1", "g7-h6"),
    ("W:WKb2,Kd4,Kg5:BKf8", "b2-a3"),
    ("W:WKc5,Ke5,Ke7:BKd8", "e7-h4"),
];

#[test]
fn finds_shots_with_win_scores() {
    for (fen, mv) in SHOTS {
        check_forced_win::<RussianPosition>(fen, mv, 7, 8, 1);
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn finds_king_wins_with_one_and_two_threads() {
    for (fen, mv) in KINGS {
        check_forced_win::<RussianPosition>(fen, mv, 7, 8, 1);
        check_forced_win::<RussianPosition>(fen, mv, 7, 9, 2);
    }
}

#[test]
fn repetition_is_a_draw() {
    // Black, two kings down, saves itself only by repeating: after the history, d8-e7 goes back
    // to the position after its first move.
    check_repetition_draw(
        Variant::Russian,
        "B:WKa1,Kc1,Ke1:BKd8",
        &["d8-e7", "a1-b2", "e7-d8", "b2-a1"],
        "d8-e7",
    );
}

#[test]
fn bench_is_deterministic() {
    check_bench_deterministic(Variant::Russian, 5);
}

#[test]
fn capture_threats_are_searched_at_the_horizon() {
    // d4-e5 attacks two men and only one can be saved (a deep search wins the man too).
    check_threat_seen_at_depth_one(Variant::Russian, "W:Wd4,a1,c1,h2:Bd6,f4,h8,a7", "d4-e5", 60);
}
