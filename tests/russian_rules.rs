//! The four test positions of `docs/rules/russian.md`, with their exact move lists, and
//! the text formats both ways.

use damka::core::{Bits, Color, Rng};
use damka::game::sorted_legal_texts;
use damka::variant::russian::square::DARK;
use damka::variant::{GameMove, MoveError, Notation, Pieces, Position, RussianPosition};

fn moves_of(fen: &str) -> Vec<String> {
    let pos = RussianPosition::from_fen(fen).unwrap();
    sorted_legal_texts(&pos, RussianPosition::move_to_algebraic)
}

fn sorted(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn rules_position_1_king_landing_rule() {
    assert_eq!(
        moves_of("W:WKd2:Bf6,c5,e5,e3"),
        sorted(&["d2:f4:d6:b4", "d2:f4:d6:a3", "d2:g5:e7:b4", "d2:g5:e7:a3"])
    );
}

#[test]
fn rules_position_2_men_capture_backwards_no_majority() {
    assert_eq!(
        moves_of("W:We3,g3,h4,a5,b2,h2,a3,Kf8:Bc5,e5,g5,g7,h8"),
        sorted(&["h4:f6:d4:b6", "f8:h6:f4:d6:b4", "f8:b4"])
    );
}

#[test]
fn rules_position_3_circuits_are_one_move() {
    let pos = RussianPosition::from_fen("W:WKd2:Bc5,e5,c3,e3").unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 3, "{:?}", moves_of("W:WKd2:Bc5,e5,c3,e3"));
    let mut ends: Vec<String> = moves.iter().map(|m| m.to().to_string()).collect();
    ends.sort();
    assert_eq!(ends, vec!["c1", "d2", "e1"]);
    for m in &moves {
        assert_eq!(m.capture_count(), 4);
        assert!(!m.promotes());
        // The written path must parse back to the same move.
        assert_eq!(pos.parse_move(&pos.move_to_algebraic(m)), Ok(*m));
    }
}

#[test]
fn rules_position_4_promotion_mid_capture() {
    assert_eq!(moves_of("W:Wh6:Bg7,c5,d2"), sorted(&["h6:f8:b4:e1"]));
    let pos = RussianPosition::from_fen("W:Wh6:Bg7,c5,d2").unwrap();
    let m = pos.legal_moves()[0];
    assert!(m.promotes());
    let next = pos.play(&m);
    assert_eq!(next.to_fen(), "B:WKe1:B");
}

#[test]
fn start_position_texts() {
    let start = RussianPosition::start();
    assert_eq!(
        start.to_fen(),
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    );
    assert_eq!(start.to_hub(), "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    assert_eq!(RussianPosition::from_hub(&start.to_hub()), Ok(start));
    assert_eq!(RussianPosition::from_fen(&start.to_fen()), Ok(start));
    assert_eq!(RussianPosition::from_fen("W:W1-12:B21-32"), Ok(start));
    assert_eq!(
        RussianPosition::parse_any("W:W1-12:B21-32:H0:F1"),
        Ok(start)
    );
    assert_eq!(
        sorted_legal_texts(&start, RussianPosition::move_to_hub),
        sorted(&["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"])
    );
    let mv = start.parse_move("c3-d4").unwrap();
    assert_eq!(start.parse_move("10-14"), Ok(mv));
    assert_eq!(start.move_to_algebraic(&mv), "c3-d4");
    for (text, syntax) in [("c3-e5", false), ("c3-z9", true), ("33-14", true)] {
        match start.parse_move(text) {
            Err(MoveError::Syntax(_)) => assert!(syntax, "{text}"),
            Err(MoveError::Illegal(_)) => assert!(!syntax, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn capture_texts() {
    // d4 takes c3 landing on b2 is written 14x5x10 on the Hub side.
    let pos = RussianPosition::from_fen("B:Wc3:Bd4").unwrap();
    let m = pos.parse_move("d4:b2").unwrap();
    assert_eq!(pos.move_to_hub(&m), "14x5x10");
    for text in ["14x5x10", "14x5", "d4xb2"] {
        assert_eq!(pos.parse_move(text), Ok(m), "{text}");
    }
    assert!(matches!(
        pos.parse_move("14x5x11"),
        Err(MoveError::Illegal(_))
    ));
    // Two captures with the same ends but different captured sets: ends alone are ambiguous.
    let pos = RussianPosition::from_fen("W:WKd2:Bf6,c5,e5,e3").unwrap();
    assert!(matches!(
        pos.parse_move("d2:b4"),
        Err(MoveError::Ambiguous(_))
    ));
    let m = pos.parse_move("d2:g5:e7:b4").unwrap();
    assert_eq!(pos.move_to_algebraic(&m), "d2:g5:e7:b4");
    assert_eq!(pos.parse_move(&pos.move_to_hub(&m)), Ok(m));
}

#[test]
fn bad_positions_are_errors() {
    for bad in [
        "",
        "X:Wa1:Bb8",
        "W:Wa2:Bb8",
        "W:Wa1,a1:Bb8",
        "W:Wa1:Ba1",
        "W:Wb8:Bd8",
        "W:Wa1:Bc1",
        "W:W33:B1",
        "W:Wz9",
        "Wbbbb",
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx",
    ] {
        assert!(RussianPosition::parse_any(bad).is_err(), "{bad:?} accepted");
    }
}

#[test]
fn fen_and_hub_round_trip_on_random_positions() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    for _ in 0..2000 {
        let (mut w, mut b) = (Pieces::default(), Pieces::default());
        for sq in Bits(DARK) {
            match rng.next_u64() % 8 {
                0 if sq.rank() != 7 => w.men |= sq.bit(),
                1 if sq.rank() != 0 => b.men |= sq.bit(),
                2 => w.kings |= sq.bit(),
                3 => b.kings |= sq.bit(),
                _ => {}
            }
        }
        let side = if rng.next_u64() & 1 != 0 {
            Color::White
        } else {
            Color::Black
        };
        let pos = RussianPosition::from_pieces(w, b, side).unwrap();
        assert_eq!(RussianPosition::from_fen(&pos.to_fen()), Ok(pos));
        assert_eq!(RussianPosition::from_hub(&pos.to_hub()), Ok(pos));
        assert_eq!(pos.key(), pos.compute_key());
        for m in pos.legal_moves() {
            assert_eq!(pos.parse_move(&pos.move_to_algebraic(&m)), Ok(m));
            assert_eq!(pos.parse_move(&pos.move_to_hub(&m)), Ok(m));
            let next = pos.play(&m);
            assert_eq!(next.key(), next.compute_key());
        }
    }
}
