//! Turkish position and move text: FEN, Hub position strings, Hub move numbers and algebraic
//! moves, both ways, and the typed errors for bad input.

use damka::core::{Color, Square};
use damka::variant::{GameMove, MoveError, Notation, Pieces, Position, TurkishPosition};

const START_HUB: &str = "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee";
const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/turkish.epd");
/// The rules' example of a king capturing two pieces on one line, pausing between them.
const KING_PAUSES: &str = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,b3,c3,d3,e3,f3,g3,h3,Ka5:\
                           Bb5,e5,c6,d6,f6,g6,h6,b7,c7,d7,e7,f7,g7,h7";

fn epd_positions() -> Vec<TurkishPosition> {
    std::fs::read_to_string(EPD)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| TurkishPosition::from_fen(l.split(';').next().unwrap()).unwrap())
        .collect()
}

#[test]
fn start_position_texts() {
    let start = TurkishPosition::start();
    assert_eq!(start.to_hub(), START_HUB);
    assert_eq!(TurkishPosition::from_hub(START_HUB).unwrap(), start);
    assert_eq!(
        start.to_fen(),
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:\
         Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7"
    );
    assert_eq!(TurkishPosition::from_fen(&start.to_fen()).unwrap(), start);
    assert_eq!(TurkishPosition::parse_any(START_HUB).unwrap(), start);
    // Numeric squares and ranges in a FEN (Hub numbers: 9 = a2 ... 24 = h3).
    assert_eq!(TurkishPosition::from_fen("W:W9-24:B41-56").unwrap(), start);
    assert_eq!(start.side_to_move(), Color::White);
    assert_eq!(start.key(), start.compute_key());
}

#[test]
fn round_trips_on_every_epd_position() {
    for pos in epd_positions() {
        assert_eq!(TurkishPosition::from_fen(&pos.to_fen()).unwrap(), pos);
        assert_eq!(TurkishPosition::from_hub(&pos.to_hub()).unwrap(), pos);
        for m in pos.legal_moves() {
            let alg = pos.move_to_algebraic(&m);
            let hub = pos.move_to_hub(&m);
            assert_eq!(pos.parse_move(&alg), Ok(m), "{pos} {alg}");
            assert_eq!(pos.parse_move(&hub), Ok(m), "{pos} {hub}");
        }
    }
}

#[test]
fn hub_move_numbers() {
    let start = TurkishPosition::start();
    let m = start.parse_move("b3-b4").unwrap();
    assert_eq!(start.move_to_hub(&m), "18-26");
    assert_eq!(start.parse_move("18-26"), Ok(m));
    assert_eq!(
        TurkishPosition::hub_number(Square::parse("a1").unwrap()),
        Some(1)
    );
    assert_eq!(
        TurkishPosition::hub_number(Square::parse("h8").unwrap()),
        Some(64)
    );
    assert_eq!(TurkishPosition::hub_square(64), Square::parse("h8"));
    assert_eq!(TurkishPosition::hub_square(65), None);
    // A capture lists every captured square: d3xd5xf5 taking d4 and e5.
    let pos = TurkishPosition::from_fen("W:Wd3:Bd4,e5,a7").unwrap();
    let m = pos.parse_move("d3xd5xf5").unwrap();
    assert_eq!(pos.move_to_hub(&m), "20x38x28x37");
    // Captured squares in any order, or the ends only.
    let texts = ["20x38x37x28", "20x38", "d3xf5"];
    assert!(
        texts.iter().all(|t| pos.parse_move(t) == Ok(m)),
        "{texts:?}"
    );
}

#[test]
fn bad_positions_are_errors() {
    let cases = [
        "W:Wa8:Bb7",     // white man on its crowning rank
        "B:Wa2:Bh1",     // black man on its crowning rank
        "W:Wa2,a2:Bb7",  // square given twice
        "W:Wa2:Ba2",     // both colours on one square
        "X:Wa2:Bb7",     // bad side
        "W:Wz9:Bb7",     // bad square
        "W:W65:Bb7",     // number out of range
        "W:Wa2:Bb7:Wc2", // colour twice
        "W:W1-17:Bb7",   // seventeen white pieces
    ];
    for c in cases {
        assert!(TurkishPosition::from_fen(c).is_err(), "{c}");
    }
    assert!(TurkishPosition::from_hub("W").is_err());
    assert!(TurkishPosition::from_hub(&START_HUB[..64]).is_err());
    assert!(TurkishPosition::from_hub(&START_HUB.replace("W", "X")).is_err());
    let mut bad = START_HUB.to_string();
    bad.replace_range(1..2, "w"); // a white man on a8
    assert!(TurkishPosition::from_hub(&bad).is_err());
    bad.replace_range(1..2, "q");
    assert!(TurkishPosition::from_hub(&bad).is_err());
    let overlap = Pieces {
        men: 1 << 8,
        kings: 1 << 8,
    };
    assert!(TurkishPosition::from_pieces(overlap, Pieces::default(), Color::White).is_err());
}

#[test]
fn bad_moves_are_typed_errors() {
    let start = TurkishPosition::start();
    let kind = |text: &str| match start.parse_move(text) {
        Err(MoveError::Syntax(_)) => "syntax",
        Err(MoveError::Illegal(_)) => "illegal",
        other => panic!("{text}: {other:?}"),
    };
    for text in ["", "a3", "a3-z4", "0-5", "17-99"] {
        assert_eq!(kind(text), "syntax", "{text}");
    }
    for text in ["a3-a5", "a2-a3", "17-33"] {
        assert_eq!(kind(text), "illegal", "{text}");
    }
}

#[test]
fn capture_given_by_its_ends_only_may_be_ambiguous() {
    // The black king on h6 takes two pieces and can reach a6 with two different captured sets
    // (found by a random search over positions).
    let pos = TurkishPosition::from_fen("B:Wg3,d4,a5,h5:Bd5,Kh6").unwrap();
    let both: Vec<_> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.to() == Square::parse("a6").unwrap())
        .collect();
    assert_eq!(both.len(), 2, "{:?}", pos.legal_moves());
    assert_ne!(both[0].captured(), both[1].captured());
    assert!(matches!(
        pos.parse_move("h6xa6"),
        Err(MoveError::Ambiguous(_))
    ));
    assert!(matches!(
        pos.parse_move("48x41"),
        Err(MoveError::Ambiguous(_))
    ));
    for m in both {
        assert_eq!(pos.parse_move(&pos.move_to_hub(&m)), Ok(m));
        assert_eq!(pos.parse_move(&pos.move_to_algebraic(&m)), Ok(m));
    }
}

#[test]
fn a_king_may_be_written_pausing_on_any_square_of_the_line() {
    let pos = TurkishPosition::from_fen(KING_PAUSES).unwrap();
    let m = pos.parse_move("a5xc5xg5").unwrap();
    assert_eq!(pos.parse_move("a5xd5xg5"), Ok(m));
    assert_eq!(pos.parse_move("a5xg5"), Ok(m));
    assert_eq!(pos.move_to_hub(&m), "33x39x34x37");
    for bad in ["a5xe5xg5", "a5xb5xg5", "a5xc5xd5xg5", "a5xc5"] {
        assert!(
            matches!(pos.parse_move(bad), Err(MoveError::Illegal(_))),
            "{bad}"
        );
    }
}

#[test]
fn reversible_moves() {
    let pos = TurkishPosition::from_fen("W:Wc3,Kd5:Bh7,Kg6").unwrap();
    for m in pos.legal_moves() {
        let sideways = m.from().rank() == m.to().rank();
        let king = m.from() == Square::parse("d5").unwrap();
        assert_eq!(pos.is_reversible(&m), king || sideways, "{m:?}");
    }
    let pos = TurkishPosition::from_fen("W:Wc7:Bh7").unwrap();
    let m = pos.parse_move("c7-c8").unwrap();
    assert!(m.promotes());
    assert!(!pos.is_reversible(&m));
}

#[test]
fn diagram_of_the_start_position() {
    let d = TurkishPosition::start().diagram();
    let lines: Vec<&str> = d.lines().collect();
    assert_eq!(lines.len(), 10);
    assert_eq!(lines[0], "    a b c d e f g h");
    assert_eq!(lines[1], " 8  . . . . . . . .  8");
    assert_eq!(lines[2], " 7  b b b b b b b b  7");
    assert_eq!(lines[6], " 3  w w w w w w w w  3");
    assert_eq!(lines[8], " 1  . . . . . . . .  1");
    assert_eq!(lines[9], lines[0]);
}
