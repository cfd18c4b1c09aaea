//! The store's tests: eviction, watchers, flag timers, quotas.

use super::*;
use damka::core::Variant;

fn entry() -> Entry {
    let setup = Setup {
        opponent: Opponent::Human,
        human: Color::White,
        skill: 10,
        movetime: 1.0,
        clock: None,
    };
    Entry::new(PageGame::new(Variant::Russian, None).unwrap(), setup)
}

#[test]
fn the_least_recently_used_game_is_dropped_when_full() {
    let store = Store::new(2);
    let a = store.insert(entry()).unwrap();
    let b = store.insert(entry()).unwrap();
    assert_ne!(a, b);
    std::thread::sleep(std::time::Duration::from_millis(2));
    assert!(store.with(&a, |_| ()).is_some()); // a is now used more recently than b
    let c = store.insert(entry()).unwrap();
    assert_eq!(store.len(), 2);
    assert!(store.with(&b, |_| ()).is_none());
    assert!(store.with(&a, |_| ()).is_some() && store.with(&c, |_| ()).is_some());
}

#[test]
fn every_change_reaches_the_watchers() {
    let store = Store::new(4);
    let id = store.insert(entry()).unwrap();
    let mut rx = store.with(&id, |e| e.events.subscribe()).unwrap();
    store
        .with(&id, |e| {
            e.game.play_text("c3-d4").unwrap();
            e.changed(&id);
        })
        .unwrap();
    let msg: serde_json::Value = serde_json::from_str(&rx.try_recv().unwrap()).unwrap();
    assert_eq!(msg["type"], "state");
    assert_eq!(msg["game"]["version"], 1);
    assert_eq!(msg["game"]["moves"][0]["text"], "c3-d4");
}

#[test]
fn one_flag_timer_a_turn_however_often_asked() {
    let mut e = entry();
    assert_eq!(e.arm(), None, "no clock, no timer");
    e.clocks = Some(Clocks::start(
        TimeControl {
            base_ms: 60_000,
            inc_ms: 0,
        },
        Instant::now(),
    ));
    let (deadline, ms) = e.arm().expect("a timer for White's clock");
    assert!(ms > 59_000, "{ms}");
    assert_eq!(e.arm(), None, "armed already");
    // Black's zero comes later: the timer armed fires first and arms the next.
    e.game.play_text("c3-d4").unwrap();
    e.clock_moved(Color::White, Instant::now());
    assert_eq!(e.arm(), None);
    e.armed = None; // the timer fired
    assert!(e.arm().is_some_and(|(d, _)| d > deadline));
}

#[test]
fn a_client_cannot_evict_the_games_of_others() {
    let store = Store::new(50);
    let owned = |ip: [u8; 4]| {
        let mut e = entry();
        e.owner = Some(IpAddr::from(ip));
        e
    };
    let mine: Vec<String> = (0..GAMES_PER_CLIENT)
        .map(|_| store.insert(owned([10, 0, 0, 1])).unwrap())
        .collect();
    // A thousand games from another address: they make way for each other.
    for _ in 0..1000 {
        store.insert(owned([10, 0, 0, 2])).unwrap();
    }
    assert_eq!(store.len(), 50);
    for id in &mine {
        assert!(store.with(id, |_| ()).is_some(), "game {id} was evicted");
    }
    // Its owner may start one more: the other address, over its quota, makes way.
    store.insert(owned([10, 0, 0, 1])).unwrap();
    assert!(mine.iter().all(|id| store.with(id, |_| ()).is_some()));
    // A full store of games within their owners' quotas refuses a newcomer.
    let full = Store::new(2);
    full.insert(owned([10, 0, 0, 1])).unwrap();
    full.insert(owned([10, 0, 0, 2])).unwrap();
    let e = full.insert(owned([10, 0, 0, 3])).unwrap_err();
    assert!(e.contains("none of which may make way"), "{e}");
}

/// A store filled by a few games from many addresses still takes a newcomer's game
/// (before, it was refused for an hour), and finished games make way first.
#[test]
fn newcomers_get_a_place_and_finished_games_go_first() {
    let owned = |n: u8| {
        let mut e = entry();
        e.owner = Some(IpAddr::from([10, 0, 0, n]));
        e
    };
    let store = Store::new(8);
    let mut finished = owned(1);
    finished.ending = Some(Ending::Time(Color::White));
    let done = store.insert(finished).unwrap();
    let ids: Vec<String> = (0..7)
        .map(|i| store.insert(owned(2 + i / 2)).unwrap())
        .collect();
    store.insert(owned(50)).expect("a newcomer gets a place");
    assert!(
        store.with(&done, |_| ()).is_none(),
        "the finished game made way"
    );
    store.insert(owned(51)).expect("and the next newcomer too");
    assert_eq!(store.len(), 8);
    assert_eq!(
        ids.iter()
            .filter(|i| store.with(i, |_| ()).is_some())
            .count(),
        6
    );
}
