//! DXP sessions in memory against a scripted peer: every message kind, every error, the
//! follower's games from start to end in both games (the initiator: `dxp_initiator.rs`).

use crate::dxp_support;

use damka::core::{Color, Rng};
use damka::eval::Evaluate;
use damka::game::Game;
use damka::protocol::dxp::message::{AccCode, BackCode, EndReason, Message};
use damka::protocol::dxp::GameOver;
use damka::variant::{Position, RussianPosition, TurkishPosition};
use dxp_support::*;
use std::time::{Duration, Instant};

/// Plays one whole game as a random mover against the follower; returns the number of plies.
/// The peer checks every move of damka, answers damka's GAMEEND, and ends the game itself
/// when damka's move leaves it lost.
fn whole_game<P: Evaluate>(peer: &mut Peer, color: Color, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut game = Game::<P>::from_start();
    peer.send(&gamereq(&P::start(), color, 0));
    let acc = peer.expect();
    let wire = acc.to_wire();
    assert_eq!(wire.len(), 34, "GAMEACC is 34 characters: {wire:?}");
    assert!(
        matches!(
            acc,
            Message::GameAcc {
                code: AccCode::Accept,
                ..
            }
        ),
        "{acc:?}"
    );
    let acc_at = *peer.arrivals.last().unwrap();
    let mut first = true;
    loop {
        if game.position().side_to_move() == color {
            match peer.expect() {
                Message::GameEnd { reason, stop } => {
                    let end = game.result().expect("damka ends only a finished game");
                    let expected = match end.outcome {
                        damka::variant::Outcome::Draw => EndReason::Draw,
                        damka::variant::Outcome::Win(c) if c == color => EndReason::IWin,
                        _ => EndReason::ILose,
                    };
                    assert_eq!(reason, expected);
                    assert!(!stop, "the follower welcomes another game");
                    peer.send(&Message::GameEnd { reason, stop: true });
                    return game.ply();
                }
                m => take_move(&mut game, &m),
            }
            if first {
                let gap = peer.arrivals.last().unwrap().duration_since(acc_at);
                assert!(
                    gap >= Duration::from_millis(90),
                    "GAMEACC and MOVE {gap:?} apart"
                );
                first = false;
            }
        } else if let Some(end) = game.result() {
            assert!(
                matches!(end.outcome, damka::variant::Outcome::Win(c) if c == color)
                    || end.outcome == damka::variant::Outcome::Draw
            );
            peer.send(&Message::GameEnd {
                reason: EndReason::Unknown,
                stop: false,
            });
            peer.expect_gameend(EndReason::Unknown, false);
            return game.ply();
        } else {
            first = false;
            let m = random_move(&mut game, &mut rng);
            peer.send(&m);
        }
    }
}

fn several_whole_games<P: Evaluate>() {
    let (mut peer, handle, lines) = follower::<P>(|_| {});
    let a = whole_game::<P>(&mut peer, Color::White, 1);
    let b = whole_game::<P>(&mut peer, Color::Black, 2);
    peer.close();
    let records = handle.join().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].moves.len(), a);
    assert_eq!(records[1].moves.len(), b);
    for r in &records {
        assert!(matches!(r.end, GameOver::Rules(_)), "{:?}", r.end);
        assert!(r.used < r.clock, "{} s of {} s", r.used, r.clock);
    }
    assert!(logged(&lines, "connection ends after 2 game(s)"));
}

#[test]
fn russian_follower_plays_whole_games_with_both_colours() {
    several_whole_games::<RussianPosition>();
}

#[test]
fn turkish_follower_plays_whole_games_with_both_colours() {
    several_whole_games::<TurkishPosition>();
}

#[test]
fn start_position_indicator_a_and_given_positions() {
    let (mut peer, handle, _) = follower::<RussianPosition>(|_| {});
    // `A`: the game's initial position; damka is Black, so it waits for White's move.
    peer.text("R01scripted peer                   Z001000A");
    peer.expect_acc(AccCode::Accept);
    peer.text("M0000101400"); // c3-d4, the example of dxp.md
    let mut game = Game::<RussianPosition>::from_start();
    game.play_text("c3-d4").unwrap();
    take_move(&mut game, &peer.expect());
    peer.close();
    handle.join().unwrap();
}

#[test]
fn refusals_name_their_reason_and_the_follower_goes_on() {
    let (mut peer, handle, lines) = follower::<RussianPosition>(|_| {});
    // Wrong version.
    peer.text("R02scripted peer                   W001000A");
    peer.expect_acc(AccCode::WrongVersion);
    peer.expect_chat("version");
    // A Turkish (64-square) position to a Russian follower.
    peer.send(&gamereq(&TurkishPosition::start(), Color::White, 1));
    peer.expect_acc(AccCode::RefuseGame);
    peer.expect_chat("wrong variant layout");
    // A position that is not one: a white man on its crowning row.
    let mut bad = "w".to_string() + &"e".repeat(31);
    peer.text(&format!(
        "R01scripted peer                   W001000BW{bad}"
    ));
    peer.expect_acc(AccCode::RefuseGame);
    peer.expect_chat("refused");
    // A malformed GAMEREQ (letters where the minutes go) is refused too.
    bad = "R01scripted peer                   W0x1000A".into();
    peer.text(&bad);
    peer.expect_acc(AccCode::RefuseGame);
    peer.expect_chat("minutes");
    // And then a good one is accepted.
    peer.send(&gamereq(&RussianPosition::start(), Color::Black, 1));
    peer.expect_acc(AccCode::Accept);
    peer.close();
    handle.join().unwrap();
    assert!(logged(&lines, "game refused: wrong variant layout"));
}

#[test]
fn malformed_messages_get_a_chat_and_a_log_line() {
    let (mut peer, handle, lines) = follower::<TurkishPosition>(|_| {});
    let cases: [(&[u8], &str); 8] = [
        (b"X123\0", "unknown message type"),
        (b"E1\0", "too short"),
        (b"E103\0", "4 characters, expected 3"),
        (b"K9\0", "answer code"),
        (b"M00001725\0", "too short"),
        (b"B01xW\0", "move number"),
        (b"C\xc3\xa9t\xc3\xa9\0", "not DXP text"),
        (b"\0", "empty message"),
    ];
    for (bytes, want) in cases {
        peer.raw(bytes);
        peer.expect_chat(want);
    }
    // Garbage without a terminator: one error, then the stream is in step again.
    peer.raw(&[b'Z'; 300]);
    peer.expect_chat("without a terminator");
    peer.raw(b"more garbage\0");
    peer.send(&gamereq(&TurkishPosition::start(), Color::White, 1));
    peer.expect_acc(AccCode::Accept);
    assert!(matches!(peer.expect(), Message::Move { .. }));
    // A bad message during the game, then the game goes on.
    peer.text("Mxyz");
    peer.expect_chat("error");
    peer.close();
    let records = handle.join().unwrap();
    assert!(matches!(records[0].end, GameOver::Disconnected(_)));
    // How it ended, as the log and `damka dxp`'s summary say it: words, not the enum.
    let said = records[0].end.to_string();
    assert!(said.starts_with("disconnected: "), "{said}");
    assert!(logged(&lines, &format!("plies: {said} (used")));
    assert!(logged(&lines, "bad message: unknown message type"));
}

#[test]
fn too_many_bad_messages_close_the_connection() {
    let (mut peer, handle, lines) = follower::<RussianPosition>(|cfg| cfg.max_bad = 3);
    for _ in 0..3 {
        peer.raw(b"?\0");
    }
    handle.join().unwrap();
    assert!(logged(&lines, "connection ends after 0 game(s)"));
}

#[test]
fn illegal_move_and_move_out_of_turn() {
    let (mut peer, handle, lines) = follower::<RussianPosition>(|cfg| cfg.movetime = Some(0.5));
    peer.start_game(&RussianPosition::start(), Color::White, 1);
    // damka (White) thinks: a move now is out of turn.
    peer.text("M0000222600");
    peer.expect_chat("out of turn");
    let mut game = Game::<RussianPosition>::from_start();
    take_move(&mut game, &peer.expect());
    // An illegal move: a CHAT naming it, then damka ends the game.
    peer.text("M0000090100");
    peer.expect_chat("illegal move 9-1");
    peer.expect_gameend(EndReason::Unknown, false);
    peer.text("E01");
    // A square that does not exist.
    peer.start_game(&RussianPosition::start(), Color::Black, 1);
    peer.text("M0000104000");
    peer.expect_chat("no square 40");
    assert!(matches!(peer.expect(), Message::GameEnd { .. }));
    peer.close();
    let records = handle.join().unwrap();
    assert!(matches!(&records[0].end, GameOver::IllegalMove(m) if m.contains("9-1")));
    assert!(logged(&lines, "move out of turn"));
}

#[test]
fn gameend_while_thinking_is_acknowledged_and_no_move_follows() {
    let (mut peer, handle, _) = follower::<TurkishPosition>(|cfg| cfg.movetime = Some(30.0));
    peer.start_game(&TurkishPosition::start(), Color::White, 5);
    std::thread::sleep(Duration::from_millis(300));
    let t0 = Instant::now();
    peer.text("E01"); // what pydraughts' quit() sends
    peer.expect_gameend(EndReason::Unknown, false);
    assert!(t0.elapsed() < Duration::from_secs(2), "{:?}", t0.elapsed());
    peer.expect_silence(Duration::from_millis(500));
    // A late GAMEEND between games is not answered.
    peer.text("E01");
    peer.expect_silence(Duration::from_millis(300));
    peer.close();
    let records = handle.join().unwrap();
    assert_eq!(records[0].end, GameOver::PeerEnded(EndReason::Unknown));
    assert_eq!(records[0].end.to_string(), "the peer ended it");
    assert!(records[0].moves.is_empty());
}

/// A game from `fen` (damka plays `color`); the peer plays `moves` (algebraic) when it is its
/// turn and returns what damka sends after them.
fn from_position<P: Evaluate>(fen: &str, color: Color, moves: &[&str]) -> (Vec<Message>, Game<P>) {
    let (mut peer, handle, _) = follower::<P>(|_| {});
    let mut game = Game::<P>::from_fen(fen).unwrap();
    peer.start_game(game.start(), color, 1);
    let mut out = Vec::new();
    for m in moves {
        if game.position().side_to_move() == color {
            let msg = peer.expect();
            take_move(&mut game, &msg);
            out.push(msg);
        }
        let mv = game.play_text(m).unwrap();
        peer.send(&damka::protocol::dxp::board::move_message::<P>(&mv, 1));
    }
    let last = peer.expect();
    if let Message::GameEnd { reason, .. } = last {
        peer.send(&Message::GameEnd { reason, stop: true });
    }
    out.push(last);
    peer.close();
    handle.join().unwrap();
    (out, game)
}

#[test]
fn damka_ends_the_game_by_the_rules_on_its_turn() {
    // Russian: White's capture takes Black's (damka's) last man: damka has no move and loses.
    let russian = from_position::<RussianPosition>("W:Wc3:Bd4", Color::Black, &["c3:e5"]).0;
    // Turkish: a capture leaves one man against one man: a draw, said by damka.
    let turkish = from_position::<TurkishPosition>("W:Wd3:Bd4,a6", Color::Black, &["d3xd5"]).0;
    for (out, reason) in [(russian, EndReason::ILose), (turkish, EndReason::Draw)] {
        assert_eq!(
            out.last(),
            Some(&Message::GameEnd {
                reason,
                stop: false
            })
        );
    }
}

#[test]
fn a_move_after_damka_won_is_answered_by_gameend() {
    // damka (White) must capture Black's last man; then it is Black's turn, and Black, with no
    // piece left, sends a move anyway: damka answers that the game is over, won.
    let (mut peer, handle, _) = follower::<RussianPosition>(|_| {});
    let mut game = Game::<RussianPosition>::from_fen("W:Wc3:Bd4").unwrap();
    peer.start_game(game.start(), Color::White, 1);
    take_move(&mut game, &peer.expect());
    assert!(game.is_over());
    peer.text("M0000282400");
    peer.expect_gameend(EndReason::IWin, false);
    peer.text("E31");
    peer.close();
    let records = handle.join().unwrap();
    assert!(matches!(records[0].end, GameOver::Rules(_)));
}

#[test]
fn backreq_takes_moves_back_or_is_refused() {
    let (mut peer, handle, _) = follower::<RussianPosition>(|_| {});
    let mut game = Game::<RussianPosition>::from_start();
    peer.start_game(game.start(), Color::Black, 1);
    let mut rng = Rng::new(5);
    for _ in 0..2 {
        let m = random_move(&mut game, &mut rng);
        peer.send(&m);
        take_move(&mut game, &peer.expect());
    }
    // No such position (move 9) and no move 0: refused, the game goes on.
    peer.text("B009W");
    assert_eq!(peer.expect(), Message::BackAcc(BackCode::Continue));
    peer.text("B000W");
    assert_eq!(peer.expect(), Message::BackAcc(BackCode::Continue));
    // Back to move 2, White to move: two plies taken back; White plays another move.
    peer.text("B002W");
    assert_eq!(peer.expect(), Message::BackAcc(BackCode::Accept));
    game.undo();
    game.undo();
    let m = random_move(&mut game, &mut rng);
    peer.send(&m);
    take_move(&mut game, &peer.expect());
    // Back to move 1 with Black (damka) to move: damka moves again from there.
    peer.text("B001Z");
    assert_eq!(peer.expect(), Message::BackAcc(BackCode::Accept));
    while game.ply() > 1 {
        game.undo();
    }
    take_move(&mut game, &peer.expect());
    // CHAT is ignored, in a game and out of one.
    peer.text("Chello, damka");
    peer.expect_silence(Duration::from_millis(300));
    peer.close();
    let records = handle.join().unwrap();
    assert_eq!(records[0].moves.len(), 2);
}

#[test]
fn silent_and_vanishing_peers_do_not_block() {
    // Silent in a game: the peer's clock (0.5 s) and the grace (0.3 s) run out.
    let (mut peer, handle, lines) = follower::<TurkishPosition>(|cfg| {
        cfg.zero_minute_clock = 0.5;
        cfg.grace = Duration::from_millis(300);
    });
    peer.start_game(&TurkishPosition::start(), Color::Black, 0);
    let t0 = Instant::now();
    let records = handle.join().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(5));
    assert!(matches!(&records[0].end, GameOver::Disconnected(w) if w.contains("sent nothing")));
    assert!(logged(&lines, "sent nothing"));
    // Silent with no game: the idle timeout.
    let (_peer, handle, _) =
        follower::<TurkishPosition>(|cfg| cfg.idle_timeout = Duration::from_millis(300));
    assert!(handle.join().unwrap().is_empty());
    // Gone in mid-game.
    let (mut peer, handle, _) = follower::<RussianPosition>(|_| {});
    peer.start_game(&RussianPosition::start(), Color::White, 1);
    peer.close();
    let records = handle.join().unwrap();
    assert!(matches!(&records[0].end, GameOver::Disconnected(w) if w.contains("closed")));
}

#[test]
fn damka_keeps_within_its_clock() {
    // 0 minutes with a 2 s clock, no fixed move time: damka plans from the clock alone.
    let (mut peer, handle, _) = follower::<RussianPosition>(|cfg| {
        cfg.movetime = None;
        cfg.zero_minute_clock = 2.0;
    });
    whole_game::<RussianPosition>(&mut peer, Color::White, 7);
    peer.close();
    let records = handle.join().unwrap();
    let r = &records[0];
    assert!(r.used < 2.0 - 0.5, "used {} s of 2 s", r.used);
    assert!(
        r.used > 0.3,
        "used only {} s: the clock was not used",
        r.used
    );
}

#[test]
fn messages_out_of_place_are_answered_and_a_new_gamereq_starts_a_new_game() {
    let (mut peer, handle, _) = follower::<RussianPosition>(|_| {});
    // Between games: a MOVE, a GAMEACC and a BACKACC get a CHAT; a BACKREQ its refusal.
    peer.text("M0000101400");
    peer.expect_chat("unexpected MOVE with no game in progress");
    peer.send(&Message::GameAcc {
        name: "x".into(),
        code: AccCode::Accept,
    });
    peer.expect_chat("unexpected GAMEACC");
    peer.text("K0");
    peer.expect_chat("unexpected BACKACC");
    peer.text("B001W");
    assert_eq!(peer.expect(), Message::BackAcc(BackCode::Continue));
    peer.expect_chat("no game in progress");
    // In a game: a BACKACC nobody asked for gets a CHAT and the game goes on.
    let mut game = Game::<RussianPosition>::from_start();
    peer.start_game(game.start(), Color::Black, 1);
    peer.text("K0");
    peer.expect_chat("unexpected BACKACC during a game");
    let mv = game.play_text("c3-d4").unwrap();
    peer.send(&damka::protocol::dxp::board::move_message::<RussianPosition>(&mv, 0));
    take_move(&mut game, &peer.expect());
    // A new GAMEREQ in the middle of the game: that game is abandoned, the new one starts.
    peer.send(&gamereq(&RussianPosition::start(), Color::White, 1));
    peer.expect_acc(AccCode::Accept);
    let mut fresh = Game::<RussianPosition>::from_start();
    take_move(&mut fresh, &peer.expect());
    peer.close();
    let records = handle.join().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].end, GameOver::NewRequest);
    assert_eq!(records[0].moves.len(), 2);
}
