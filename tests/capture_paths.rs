//! Capture paths, one check for both games: a king pausing on different squares between two
//! captures on one line makes one move (the same captured set) with every path listed, and
//! each path is accepted as that move's.

use damka::core::Square;
use damka::variant::{GameMove, Notation, Position, RussianPosition, TurkishPosition};

/// In `fen`, the move `from`-`to` has exactly the paths `want` (landing squares, space
/// separated, in any order), and each of them is accepted.
fn every_path<P: Position + Notation>(fen: &str, from: &str, to: &str, want: &[&str]) {
    let pos = P::from_fen(fen).unwrap();
    let list = pos.legal_moves();
    let m = list
        .iter()
        .find(|m| m.from().to_string() == from && m.to().to_string() == to)
        .unwrap_or_else(|| panic!("{from}-{to} is legal in {fen}"));
    let names = |p: &Vec<Square>| {
        p.iter()
            .map(Square::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut got: Vec<String> = pos.paths(m).iter().map(names).collect();
    got.sort();
    assert_eq!(got, want, "{fen}");
    for p in pos.paths(m) {
        assert!(pos.has_path(m, &p), "{fen}: {p:?}");
    }
}

#[test]
fn russian_king_pausing_on_the_long_diagonal() {
    // a1 takes c3 and f6, pausing on d4 or e5 in between: a1:g7 by two paths.
    every_path::<RussianPosition>("W:WKa1:Bc3,f6,h2", "a1", "g7", &["d4 g7", "e5 g7"]);
}

#[test]
fn turkish_king_pausing_on_a_file() {
    // a1 takes a3 and a6, pausing on a4 or a5 in between: a1xa7 by two paths.
    every_path::<TurkishPosition>("W:WKa1:Ba3,a6,h8", "a1", "a7", &["a4 a7", "a5 a7"]);
}
