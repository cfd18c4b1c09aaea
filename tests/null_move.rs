//! `Position::null_move` (what the search asks capture threats of) in both games, over every
//! position of a small tree from the start and from a few middle-game positions.

use damka::core::Color;
use damka::variant::{Notation, Position, RussianPosition, TurkishPosition};

fn check_tree<P: Position>(pos: &P, depth: u32, seen: &mut usize) {
    let n = pos.null_move();
    assert_eq!(n.side_to_move(), !pos.side_to_move(), "{pos}");
    assert_eq!(n.pieces(Color::White), pos.pieces(Color::White), "{pos}");
    assert_eq!(n.pieces(Color::Black), pos.pieces(Color::Black), "{pos}");
    assert_eq!(n.key(), n.compute_key(), "{pos}");
    assert_ne!(n.key(), pos.key(), "{pos}");
    assert_eq!(n.null_move(), *pos, "{pos}");
    // The same board built from its pieces with the other side to move.
    let other = P::from_pieces(
        pos.pieces(Color::White),
        pos.pieces(Color::Black),
        !pos.side_to_move(),
    )
    .unwrap();
    assert_eq!(other, n, "{pos}");
    *seen += usize::from(n.has_capture());
    if depth > 0 {
        for m in pos.legal_moves() {
            check_tree(&pos.play(&m), depth - 1, seen);
        }
    }
}

fn check<P: Position>(fens: &[&str], depth: u32) {
    let mut threats = 0;
    check_tree(&P::start(), depth, &mut threats);
    for fen in fens {
        check_tree(&P::from_fen(fen).unwrap(), depth - 1, &mut threats);
    }
    // The trees must contain threats, or the comparison above proved little.
    assert!(threats > 100, "only {threats} threatened positions");
}

#[test]
fn russian_null_move() {
    check::<RussianPosition>(
        &[
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,g3,d4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,e5",
            "B:WKa1,c3,e3,f4:Bd6,Kh8,b6,g5",
        ],
        5,
    );
}

#[test]
fn turkish_null_move() {
    check::<TurkishPosition>(
        &[
            "W:Wa2,b2,c2,d3,e3,f2,g2,h2,a3,b3,c4:Ba6,b6,c6,d5,e6,f6,g6,h6,a7,b7,c5",
            "B:WKa1,c3,e3,f4:Bd6,Kh8,b6,g5",
        ],
        4,
    );
}
