//! The rules of one online room, with the time given: clocks and increments, loss on time,
//! resignation, draw offers, spectators' proposals.

use damka::core::{Color, Variant};
use damka_web::game::PageGame;
use damka_web::online::room::{Ending, Room, TimeControl};
use std::time::Instant;

use std::time::Duration;

fn room(base_ms: i64, inc_ms: i64, t0: Instant) -> Room {
    let game = PageGame::new(Variant::Russian, None).unwrap();
    let mut r = Room::new("r".into(), game, TimeControl { base_ms, inc_ms }, 0);
    assert!(r.take_seat(Color::White, "w".repeat(32), t0));
    assert!(
        r.running().is_none(),
        "the clock waits for the second player"
    );
    assert!(r.take_seat(Color::Black, "b".repeat(32), t0));
    assert!(!r.take_seat(Color::Black, "x".repeat(32), t0));
    r
}

/// White's first move `deadline` ms after `t0`: no flag a millisecond before, refused with
/// `why` a millisecond after, the game ended as `ending`.
fn too_late(r: &mut Room, t0: Instant, deadline: u64, why: &str, ending: Ending) {
    assert!(!r.flag(t0 + Duration::from_millis(deadline - 1)));
    let late = t0 + Duration::from_millis(deadline + 1);
    assert_eq!(
        r.play(Color::White, None, Some("c3-d4"), late),
        Err(why.into())
    );
    assert_eq!(r.ending, Some(ending));
}

fn path(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

#[test]
fn clocks_run_for_the_side_to_move_with_the_increment() {
    let t0 = Instant::now();
    let mut r = room(10_000, 1_000, t0);
    assert_eq!(r.seat_of(&"b".repeat(32)), Some(Color::Black));
    assert_eq!(r.seat_of(&"b".repeat(31)), None);
    let t1 = t0 + Duration::from_millis(3_000);
    assert_eq!(r.clocks(t1), [7_000, 10_000]);
    assert!(r.play(Color::Black, None, Some("c3-d4"), t1).is_err());
    r.play(Color::White, Some(&path(&["c3", "d4"])), None, t1)
        .unwrap();
    assert_eq!(r.clocks(t1), [8_000, 10_000]);
    let t2 = t1 + Duration::from_millis(500);
    assert_eq!(r.clocks(t2), [8_000, 9_500]);
    assert_eq!(r.running(), Some(Color::Black));
}

#[test]
fn time_runs_out() {
    let t0 = Instant::now();
    let mut r = room(1_000, 0, t0);
    too_late(
        &mut r,
        t0,
        1_000,
        "your time ran out",
        Ending::Time(Color::White),
    );
    let s = r.status();
    assert_eq!(
        (s.result.as_str(), s.text.as_str()),
        ("0-2", "Black wins (White's time ran out)")
    );
    let later = t0 + Duration::from_millis(2_000);
    assert!(r.play(Color::White, None, Some("c3-d4"), later).is_err());
    assert_eq!(r.running(), None);
}

#[test]
fn resign_draw_offer_accept_and_decline() {
    let t0 = Instant::now();
    let mut r = room(60_000, 0, t0);
    assert_eq!(r.offer_draw(Color::White, t0), Ok(false));
    assert!(r.offer_draw(Color::White, t0).is_err());
    assert!(r.decline_draw(Color::White).is_err());
    r.decline_draw(Color::Black).unwrap();
    assert_eq!(r.offer_draw(Color::White, t0), Ok(false));
    // Black moves... no: White is to move; White's move keeps White's own offer.
    r.play(Color::White, None, Some("c3-d4"), t0).unwrap();
    assert_eq!(r.draw_offer, Some(Color::White));
    assert_eq!(r.offer_draw(Color::Black, t0), Ok(true));
    assert_eq!(r.status().text, "draw (draw agreed)");
    assert!(r.resign(Color::Black, t0).is_err());
    let mut r = room(60_000, 0, t0);
    r.resign(Color::Black, t0).unwrap();
    assert_eq!(r.status().result, "2-0");
    assert_eq!(
        Ending::from_code(Ending::Time(Color::Black).code()),
        Some(Ending::Time(Color::Black))
    );
}

#[test]
fn proposals_are_tallied_and_matched() {
    let t0 = Instant::now();
    let mut r = room(60_000, 0, t0);
    assert_eq!(
        r.propose(1, Some(&path(&["c3", "d4"])), None),
        Ok("c3-d4".into())
    );
    r.propose(2, None, Some("c3-d4")).unwrap();
    r.propose(3, None, Some("g3-h4")).unwrap();
    assert!(r.propose(4, None, Some("c3-c4")).is_err());
    r.propose(3, None, Some("a3-b4")).unwrap(); // replaces 3's proposal
    let t = r.tally();
    assert_eq!((t[0].text.as_str(), t[0].count), ("c3-d4", 2));
    assert_eq!(t.len(), 2);
    r.play(Color::White, None, Some("a3-b4"), t0).unwrap();
    let last = r.last_tally.clone().unwrap();
    assert_eq!(last.ply, 1);
    assert_eq!(last.played, "a3-b4");
    assert!(last
        .proposals
        .iter()
        .any(|p| p.text == "a3-b4" && p.matched));
    assert!(last
        .proposals
        .iter()
        .any(|p| p.text == "c3-d4" && !p.matched));
    assert!(r.tally().is_empty(), "a new move, new proposals");
}

#[test]
fn a_game_without_a_first_move_is_aborted() {
    let t0 = Instant::now();
    let mut r = room(300_000, 3_000, t0);
    r.first_move_ms = 30_000;
    assert_eq!(
        r.time_to_flag(t0),
        Some(30_000),
        "the first move's deadline comes first"
    );
    too_late(
        &mut r,
        t0,
        30_000,
        "the game was aborted: no first move in time",
        Ending::Aborted(Color::White),
    );
    assert_eq!(r.ending.unwrap().outcome(), None, "no result: not scored");
    let s = r.status();
    assert_eq!(
        (s.over, s.result.as_str(), s.text.as_str()),
        (true, "*", "game aborted (White made no first move)")
    );
    assert_eq!(Ending::from_code("aborted-white"), r.ending);
}

#[test]
fn a_first_move_in_time_ends_the_deadline() {
    let t0 = Instant::now();
    let mut r = room(300_000, 0, t0);
    r.first_move_ms = 30_000;
    let t1 = t0 + Duration::from_millis(20_000);
    r.play(Color::White, None, Some("c3-d4"), t1).unwrap();
    // Black's reply has no deadline of its own: only the clock.
    assert_eq!(r.time_to_flag(t1), Some(300_000));
    assert!(!r.flag(t1 + Duration::from_millis(60_000)));
    assert!(r.ending.is_none());
}

#[test]
fn a_held_clock_waits_for_its_player_or_the_grace() {
    let t0 = Instant::now();
    let mut r = room(10_000, 0, t0);
    r.hold(t0, 2_000);
    let t1 = t0 + Duration::from_millis(1_500);
    assert_eq!(r.clocks(t1), [10_000, 10_000], "held: nothing charged");
    assert_eq!(
        r.time_to_flag(t1),
        Some(10_500),
        "the flag waits for the hold too"
    );
    assert!(
        !r.release(Color::Black, t1),
        "only the player to move releases it"
    );
    assert!(r.release(Color::White, t1));
    assert_eq!(r.clocks(t1 + Duration::from_millis(700)), [9_300, 10_000]);
    // Nobody back: the clock runs from the grace's end.
    let mut r = room(10_000, 0, t0);
    r.hold(t0, 2_000);
    assert_eq!(r.clocks(t0 + Duration::from_millis(3_000)), [9_000, 10_000]);
    assert!(!r.flag(t0 + Duration::from_millis(11_999)));
    assert!(
        r.flag(t0 + Duration::from_millis(12_001)),
        "away too long: lost on time"
    );
    assert_eq!(r.ending, Some(Ending::Time(Color::White)));
}

#[test]
fn abort_and_rematch_follow_their_rules() {
    let t0 = Instant::now();
    let mut r = room(10_000, 0, t0);
    assert!(r
        .offer_rematch(Color::White)
        .unwrap_err()
        .contains("once the game is over"));
    r.play(Color::White, None, Some("c3-d4"), t0).unwrap();
    assert!(r
        .abort(Color::Black, t0)
        .unwrap_err()
        .contains("only before its first move"));
    r.resign(Color::Black, t0).unwrap();
    assert!(r
        .offer_rematch(Color::White)
        .unwrap_err()
        .contains("opponent left"));
    r.present = [1, 1];
    assert_eq!(r.offer_rematch(Color::White), Ok(false));
    assert!(r
        .offer_rematch(Color::White)
        .unwrap_err()
        .contains("stands already"));
    assert_eq!(r.offer_rematch(Color::Black), Ok(true), "accepted");
    let next = r.rematch_room("r2".into(), 1, t0).unwrap();
    assert_eq!(next.seat_of(&"w".repeat(32)), Some(Color::Black));
    assert_eq!(next.seat_of(&"b".repeat(32)), Some(Color::White));
    assert_eq!(next.running(), Some(Color::White));
    let mut fresh = room(10_000, 0, t0);
    fresh.abort(Color::Black, t0).unwrap();
    assert_eq!(fresh.status().text, "game aborted by Black");
    assert_eq!(fresh.status().result, "*");
}
