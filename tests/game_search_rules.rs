//! The draw rules as the engine sees them: the history given to `set_position` carries the
//! rule counters into the search, so a position whose counter is near its limit scores as the
//! draw it is, while the same position with a fresh counter does not.

use damka::core::Variant;
use damka::engine::{Engine, GoMode, Limits};

fn score(fen: &str, moves: &[&str], depth: u32) -> i32 {
    let mut e = Engine::new(Variant::Russian);
    e.set_position(fen, moves).unwrap();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    e.search_blocking(limits, GoMode::Think, Box::new(|_| {}))
        .unwrap()
        .score
}

#[test]
fn small_ending_counter_reaches_into_the_search() {
    // Two kings against a king: 7.2.8, drawn after 10 plies. Two kings cannot take the lone
    // king from here within the horizon.
    let fen = "W:WKc1,Ke1:BKf8";
    let shuffle = [
        "c1-d2", "f8-g7", "d2-c1", "g7-f8", "e1-f2", "f8-g7", "f2-e1", "g7-f8",
    ];
    // With the count fresh (or 2 plies in) the draw is beyond a depth-4 search: White is
    // better by material (this relies on the evaluation counting two kings above one; if it
    // learns that this ending is drawn, compare with another ending instead).
    assert!(score(fen, &[], 4) > 50);
    assert!(score(fen, &shuffle[..2], 4) > 50);
    // With 8 plies behind, the draw is 2 plies away whatever White does.
    assert_eq!(score(fen, &shuffle, 4), 0);
}
