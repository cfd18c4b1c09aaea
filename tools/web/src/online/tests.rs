//! Which rooms make way for new ones.

use super::*;

fn room(id: &str, created: u64) -> Room {
    let game = PageGame::new(Variant::Russian, None).unwrap();
    let control = TimeControl {
        base_ms: 60_000,
        inc_ms: 0,
    };
    Room::new(id.into(), game, control, created)
}

#[test]
fn finished_rooms_then_abandoned_open_ones_make_way() {
    let db = Db::open(":memory:").unwrap();
    let now = unix_now();
    let t = Instant::now();
    let mut rooms = HashMap::new();
    let mut playing = room("playing", now - 2 * OPEN_ROOM_TTL);
    playing.take_seat(Color::White, "a".into(), t);
    playing.take_seat(Color::Black, "b".into(), t);
    let mut done = room("done", now);
    done.resign(Color::White, t).unwrap();
    let mut fresh = room("fresh", now);
    fresh.take_seat(Color::White, "c".into(), t);
    let mut old = room("old", now - OPEN_ROOM_TTL);
    old.take_seat(Color::White, "d".into(), t);
    db.save(&mut old, t).unwrap();
    for r in [playing, done, fresh, old] {
        rooms.insert(r.id.clone(), r);
    }
    assert!(make_space(&mut rooms, 4, &db));
    assert!(!rooms.contains_key("done"), "the finished room goes first");
    assert!(make_space(&mut rooms, 3, &db));
    assert!(
        !rooms.contains_key("old"),
        "then the open room nobody joined for an hour"
    );
    assert!(db.load("old").unwrap().is_none(), "and it is forgotten");
    assert!(
        !make_space(&mut rooms, 2, &db),
        "a game being played and a new room stay"
    );
    assert_eq!(rooms.len(), 2);
}
