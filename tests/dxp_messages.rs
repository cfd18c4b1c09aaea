//! DXP's wire format: the examples of `docs/protocol/dxp.md` read and
//! written exactly, every message kind written and read back, squares numbered as Hub numbers.

use damka::core::Color;
use damka::game::Game;
use damka::protocol::dxp::board::{find_move, move_message, position_of, setup_of};
use damka::protocol::dxp::message::{AccCode, BackCode, EndReason, GameReq, Message, Setup};
use damka::protocol::dxp::wire::{Event, Framer};
use damka::variant::{Notation, Position, RussianPosition, TurkishPosition};

#[test]
fn the_gamereq_example_reads_and_writes_back() {
    let text = "R01DXP Client                      W001000BWzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";
    assert_eq!(text.len(), 76);
    let m = Message::parse(text.as_bytes()).unwrap();
    let Message::GameReq(r) = &m else {
        panic!("{m:?}")
    };
    assert_eq!(r.version, 1);
    assert_eq!(r.name, "DXP Client");
    assert_eq!(r.follower_color, Color::White);
    assert_eq!((r.minutes, r.moves), (1, 0));
    let setup = r.setup.as_ref().unwrap();
    assert_eq!(
        position_of::<RussianPosition>(setup),
        Ok(RussianPosition::start())
    );
    assert_eq!(m.to_wire(), text);
    assert_eq!(setup_of(&RussianPosition::start()), *setup);
    // The Turkish start: 64 squares, a8 first.
    let t = setup_of(&TurkishPosition::start());
    assert_eq!(
        t.squares,
        format!(
            "{}{}{}{}",
            "e".repeat(8),
            "z".repeat(16),
            "e".repeat(16),
            "w".repeat(16)
        ) + &"e".repeat(8)
    );
    assert_eq!(
        position_of::<TurkishPosition>(&t),
        Ok(TurkishPosition::start())
    );
    // The wrong game's layout is named as such.
    let e = position_of::<TurkishPosition>(setup).unwrap_err();
    assert!(e.contains("wrong variant layout"), "{e}");
}

#[test]
fn moves_are_hub_numbers_with_every_captured_square() {
    let start = RussianPosition::start();
    let mv = start.parse_move("c3-d4").unwrap();
    assert_eq!(
        move_message::<RussianPosition>(&mv, 0).to_wire(),
        "M0000101400"
    );
    let t = TurkishPosition::start();
    let mv = t.parse_move("a3-a4").unwrap();
    assert_eq!(
        move_message::<TurkishPosition>(&mv, 0).to_wire(),
        "M0000172500"
    );
    // The king d2 takes e3, e5 and c5 and lands on b4: captured squares in any order are read,
    // and written in increasing order.
    let pos = RussianPosition::from_fen("W:WKd2:Be3,e5,c5").unwrap();
    let Message::Move {
        from, to, captured, ..
    } = Message::parse(b"M0000061303111918").unwrap()
    else {
        panic!()
    };
    let mv = find_move(&pos, from, to, &captured).unwrap();
    assert_eq!(pos.move_to_algebraic(&mv), "d2:f4:d6:b4");
    assert_eq!(
        move_message::<RussianPosition>(&mv, 12).to_wire(),
        "M0012061303111819"
    );
    // A missing captured square is no move.
    assert!(find_move(&pos, 6, 13, &[11, 19])
        .unwrap_err()
        .contains("illegal move"));
    assert!(find_move(&pos, 6, 13, &[11, 11, 19])
        .unwrap_err()
        .contains("twice"));
    assert!(find_move(&pos, 6, 33, &[])
        .unwrap_err()
        .contains("no square 33"));
    // A Turkish capture with its squares.
    let mut g = Game::<TurkishPosition>::from_fen("W:Wd3:Bd4,d6").unwrap();
    let mv = g.play_text("d3xd5xd7").unwrap();
    let hub =
        |s: &str| TurkishPosition::hub_number(damka::core::Square::parse(s).unwrap()).unwrap();
    assert_eq!(
        move_message::<TurkishPosition>(&mv, 0),
        Message::Move {
            time: 0,
            from: hub("d3"),
            to: hub("d7"),
            captured: vec![hub("d4"), hub("d6")],
        }
    );
}

#[test]
fn every_message_kind_is_written_exactly_and_read_back() {
    let cases = [
        (
            Message::GameReq(GameReq {
                version: 1,
                name: "damka".into(),
                follower_color: Color::Black,
                minutes: 90,
                moves: 50,
                setup: None,
            }),
            "R01damka                           Z090050A",
        ),
        (
            Message::GameReq(GameReq {
                version: 1,
                name: "x".into(),
                follower_color: Color::White,
                minutes: 0,
                moves: 0,
                setup: Some(Setup {
                    to_move: Color::Black,
                    squares: "eeeeeeeeeeeeeeeeeeeeeeeeeeeeewzZ".into(),
                }),
            }),
            "R01x                               W000000BZeeeeeeeeeeeeeeeeeeeeeeeeeeeeewzZ",
        ),
        (
            Message::GameAcc {
                name: "damka 0.1.0".into(),
                code: AccCode::Accept,
            },
            "Adamka 0.1.0                     0",
        ),
        (
            Message::GameAcc {
                name: "n".into(),
                code: AccCode::RefuseAll,
            },
            "An                               3",
        ),
        (
            Message::Move {
                time: 3,
                from: 22,
                to: 18,
                captured: vec![],
            },
            "M0003221800",
        ),
        (
            Message::GameEnd {
                reason: EndReason::IWin,
                stop: true,
            },
            "E31",
        ),
        (
            Message::GameEnd {
                reason: EndReason::Unknown,
                stop: false,
            },
            "E00",
        ),
        (Message::Chat("good game".into()), "Cgood game"),
        (
            Message::BackReq {
                move_number: 5,
                side: Color::Black,
            },
            "B005Z",
        ),
        (Message::BackAcc(BackCode::Continue), "K2"),
        (Message::BackAcc(BackCode::NotSupported), "K1"),
    ];
    for (m, wire) in cases {
        assert_eq!(m.to_wire(), wire);
        assert_eq!(Message::parse(wire.as_bytes()), Ok(m));
    }
    // Names are cut to 32 characters, and non-ASCII text is made ASCII.
    let long = Message::GameAcc {
        name: "n".repeat(40),
        code: AccCode::WrongVersion,
    };
    assert_eq!(long.to_wire().len(), 34);
    assert_eq!(Message::Chat("été".into()).to_wire(), "C?t?");
    // A time that does not fit is kept at 9999.
    let slow = Message::Move {
        time: 12345,
        from: 1,
        to: 5,
        captured: vec![],
    };
    assert_eq!(slow.to_wire(), "M9999010500");
}

#[test]
fn bad_messages_are_errors_with_their_reason() {
    let bad_code = format!("A{:<32}7", "name");
    for (bytes, want) in [
        (&b""[..], "empty"),
        (b"Q", "unknown message type"),
        (b"R01short", "too short"),
        (b"A", "too short"),
        (bad_code.as_bytes(), "acceptance code"),
        (b"M000110140", "too short"),
        (b"M00011014011", "too short"),
        (b"M0001101400x", "expected 11"),
        (b"E", "too short"),
        (b"E4", "reason"),
        (b"B005X", "W or Z"),
        (b"K", "too short"),
        (
            b"R01DXP Client                      X001000A",
            "follower's colour",
        ),
        (
            b"R01DXP Client                      W001000C",
            "position indicator",
        ),
        (
            b"R01DXP Client                      W001000BWzzq",
            "not one of",
        ),
        (b"\xff", "not DXP text"),
    ] {
        let e = Message::parse(bytes).unwrap_err();
        assert!(e.message.contains(want), "{bytes:?}: {e}");
    }
    assert!(Message::parse(&[b'C'; 128])
        .unwrap_err()
        .message
        .contains("at most 127"));
    // A GAMEREQ error keeps its letter (the follower answers it with a refusal).
    assert_eq!(Message::parse(b"R0").unwrap_err().letter, Some('R'));
}

#[test]
fn framing_splits_joins_and_resynchronises() {
    let mut f = Framer::default();
    // Two messages in one read, one split over two reads, line ends around a message.
    let mut events = f.feed(b"K0\0E0");
    events.extend(f.feed(b"1\0\r\nCok\r\n\0"));
    assert_eq!(
        events,
        vec![
            Event::Message(Message::BackAcc(BackCode::Accept)),
            Event::Message(Message::GameEnd {
                reason: EndReason::Unknown,
                stop: true
            }),
            Event::Message(Message::Chat("ok".into())),
        ]
    );
    // 127 characters is a message; 128 without a NUL is reported once and skipped.
    let chat = format!("C{}", "x".repeat(126));
    let mut bytes = chat.clone().into_bytes();
    bytes.push(0);
    assert_eq!(
        f.feed(&bytes),
        vec![Event::Message(Message::Chat("x".repeat(126)))]
    );
    let mut junk = vec![b'y'; 500];
    junk.push(0);
    junk.extend(b"K1\0");
    let events = f.feed(&junk);
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(matches!(&events[0], Event::Bad(e) if e.message.contains("without a terminator")));
    assert_eq!(
        events[1],
        Event::Message(Message::BackAcc(BackCode::NotSupported))
    );
}
