//! Search on Turkish positions: forced wins (checked by a plain minimax oracle), repetition,
//! bench determinism, several threads.

mod search_common;

use damka::core::Variant;
use damka::variant::TurkishPosition;
use search_common::{
    check_bench_deterministic, check_forced_win, check_repetition_draw,
    check_threat_seen_at_depth_one,
};

/// Wins in 5 plies with exactly one winning first move (found by a random search over small
/// positions and confirmed by the oracle in every run): majority captures, king sweeps and the
/// lone-king-against-man rule.
const WINS: &[(&str, &str)] = &[
    ("W:WKd8:Bg5,h6", "d8-h8"),
    ("W:WKc4,g7:Bg6,e7", "g7-f7"),
    ("W:Wb4,Kh4:Ba5,c5,f5", "b4-a4"),
    ("W:WKc4:Bg6,f7", "c4-c7"),
    ("W:WKf1,c7,Kg8:BKa2,d2,Kc3,e3", "g8-g1"),
    ("W:WKb3,f6:Bg5,h5,e7", "f6-f7"),
    ("W:Wa5,c5,Ka8:BKa4,b5,g5", "a8-a6"),
    ("W:WKa6:Bd3,e4", "a6-a4"),
    ("W:Wh6,Kc7:Be4,g5,Kh5,e6", "c7-h7"),
    ("W:WKh6,Kh8:Bd2,b3,Ke3", "h6-h7"),
    ("W:WKc3,Kf8:Be4,h4", "c3-c4"),
    ("W:Wd2,Kh2,d4:Bb4,a5,f6", "d4-c4"),
];

#[test]
fn finds_forced_wins_with_win_scores() {
    for (fen, mv) in WINS {
        check_forced_win::<TurkishPosition>(fen, mv, 5, 6, 1);
    }
}

#[test]
fn finds_forced_wins_with_two_threads() {
    for (fen, mv) in WINS.iter().take(6) {
        check_forced_win::<TurkishPosition>(fen, mv, 5, 7, 2);
    }
}

#[test]
fn repetition_is_a_draw() {
    // Black, a king down, can only save itself by going back to a position already seen:
    // h8-h7 repeats the position after the first move of the history.
    check_repetition_draw(
        Variant::Turkish,
        "B:WKa1,Kc3:BKh8",
        &["h8-h7", "a1-a2", "h7-h8", "a2-a1"],
        "h8-h7",
    );
}

#[test]
fn bench_is_deterministic() {
    check_bench_deterministic(Variant::Turkish, 4);
}

#[test]
fn capture_threats_are_searched_at_the_horizon() {
    // d5-d6 attacks two men and only one can be saved (a deep search wins the man too).
    check_threat_seen_at_depth_one(Variant::Turkish, "W:Wd5,a2,b2,h2:Bc6,e6,a7,h7", "d5-d6", 60);
}
