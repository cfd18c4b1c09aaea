//! What players say to each other about an online game, over the WebSocket against a real
//! server: abort before the first move, a declined draw told to the offerer, a rematch
//! offered and accepted (colours swapped, a new room both tokens hold), each refused with a
//! reason when it does not apply; and the grace after a restart (the clock of the player to
//! move waits for them, up to `grace_ms`).

use crate::server_support;

use damka_web::Config;
use serde_json::{json, Value};
use server_support::{
    db_path, enter, next, play, refused, send, serve, state_at, wait_for, Player,
};
use std::time::Duration;

/// A room with White (the creator), Black and one spectator seated.
async fn room(url: &str, form: Value) -> (String, Player, Player, Player) {
    let (id, w, b, mut s) = server_support::room(url, form, 1).await;
    assert_eq!(s[0].role, "spectator");
    (id, w, b, s.remove(0))
}

fn over(v: &Value) -> bool {
    v["room"]["status"]["over"] == true
}

#[tokio::test]
async fn either_player_aborts_before_the_first_move_and_nobody_after() {
    let (url, _, _) = serve(Config::new(1, 1)).await;
    let (id, mut w, mut b, mut s) = room(&url, json!({})).await;
    assert!(refused(&mut s.ws, json!({"type": "abort", "room": id}))
        .await
        .contains("spectators cannot"));
    send(&mut b.ws, json!({"type": "abort", "room": id})).await;
    for ws in [&mut w.ws, &mut b.ws, &mut s.ws] {
        let r = wait_for(ws, "room", over).await;
        assert_eq!(r["room"]["status"]["text"], "game aborted by Black");
        assert_eq!(r["room"]["status"]["result"], "*");
        assert_eq!(r["room"]["running"], Value::Null);
    }
    assert!(refused(&mut w.ws, json!({"type": "abort", "room": id}))
        .await
        .contains("the game is over"));

    let (id, mut w, mut b, _) = room(&url, json!({})).await;
    play(&mut w.ws, &id, "c3-d4").await;
    state_at(&mut b.ws, 1).await;
    assert!(refused(&mut b.ws, json!({"type": "abort", "room": id}))
        .await
        .contains("only before its first move"));
    assert!(refused(&mut w.ws, json!({"type": "abort", "room": id}))
        .await
        .contains("only before its first move"));
}

#[tokio::test]
async fn a_declined_draw_is_told_to_the_offerer_until_the_next_move() {
    let (url, _, _) = serve(Config::new(1, 1)).await;
    let (id, mut w, mut b, mut s) = room(&url, json!({})).await;
    send(&mut w.ws, json!({"type": "draw", "room": id})).await;
    wait_for(&mut b.ws, "room", |v| v["room"]["draw_offer"] == "white").await;
    send(&mut b.ws, json!({"type": "decline", "room": id})).await;
    for ws in [&mut w.ws, &mut s.ws] {
        let r = wait_for(ws, "room", |v| v["room"]["draw_declined"] == "white").await;
        assert_eq!(r["room"]["draw_offer"], Value::Null);
    }
    play(&mut w.ws, &id, "c3-d4").await;
    let r = state_at(&mut w.ws, 1).await;
    assert_eq!(r["room"]["draw_declined"], Value::Null);
}

#[tokio::test]
async fn a_rematch_offered_and_accepted_swaps_the_colours_in_a_new_room() {
    let (url, _, _) = serve(Config::new(1, 1)).await;
    let (id, mut w, mut b, mut s) = room(&url, json!({"variant": "turkish", "time": 60})).await;
    assert!(refused(&mut w.ws, json!({"type": "rematch", "room": id}))
        .await
        .contains("once the game is over"));
    send(&mut b.ws, json!({"type": "resign", "room": id})).await;
    wait_for(&mut w.ws, "room", over).await;
    assert!(refused(&mut s.ws, json!({"type": "rematch", "room": id}))
        .await
        .contains("spectators cannot"));
    send(&mut w.ws, json!({"type": "rematch", "room": id})).await;
    for ws in [&mut b.ws, &mut s.ws] {
        wait_for(ws, "room", |v| v["room"]["rematch_offer"] == "white").await;
    }
    assert!(refused(&mut w.ws, json!({"type": "rematch", "room": id}))
        .await
        .contains("stands already"));
    send(&mut b.ws, json!({"type": "rematch", "room": id})).await;
    let mut new = String::new();
    for ws in [&mut w.ws, &mut b.ws, &mut s.ws] {
        let r = wait_for(ws, "room", |v| v["room"]["rematch"].is_string()).await;
        new = r["room"]["rematch"].as_str().unwrap().to_string();
        assert_eq!(r["room"]["rematch_offer"], Value::Null);
    }
    assert_ne!(new, id);
    assert!(refused(&mut b.ws, json!({"type": "rematch", "room": id}))
        .await
        .contains("the rematch is on already"));
    // Each token holds the other colour in the new room; the clocks run at once.
    let mut w2 = enter(&url, &new, w.token.as_deref()).await;
    assert_eq!(w2.role, "black");
    let b2 = enter(&url, &new, b.token.as_deref()).await;
    assert_eq!(b2.role, "white");
    let r = wait_for(&mut w2.ws, "room", |_| true).await;
    assert_eq!(r["room"]["variant"], "turkish");
    assert_eq!(r["room"]["time"][0], 60.0);
    assert_eq!(r["room"]["seats"], json!([true, true]));
    assert_eq!(r["room"]["running"], "white");
    assert_eq!(r["room"]["status"]["over"], false);
    // A stranger cannot take a seat of the rematch.
    let stranger = enter(&url, &new, None).await;
    assert_eq!(stranger.role, "spectator");
}

#[tokio::test]
async fn no_rematch_once_the_opponent_left() {
    let (url, _, _) = serve(Config::new(1, 1)).await;
    let (id, mut w, mut b, _) = room(&url, json!({})).await;
    send(&mut b.ws, json!({"type": "resign", "room": id})).await;
    wait_for(&mut w.ws, "room", over).await;
    b.ws.close(None).await.unwrap();
    drop(b);
    // The server hears the close a moment later.
    let mut refused = String::new();
    for _ in 0..50 {
        send(&mut w.ws, json!({"type": "rematch", "room": id})).await;
        match next(&mut w.ws).await {
            v if v["type"] == "error" => {
                refused = v["message"].as_str().unwrap().to_string();
                break;
            }
            _ => tokio::time::sleep(Duration::from_millis(20)).await,
        }
    }
    assert!(refused.contains("your opponent left"), "{refused}");
}

/// White's clock on the server once White is back `away_ms` after a restart with
/// `grace_ms` of grace, and White's clock as saved before the stop.
async fn white_back_after(grace_ms: i64, away_ms: u64, name: &str) -> (i64, i64) {
    let mut c = Config::new(1, 1);
    c.db = db_path(name);
    c.limits.grace_ms = grace_ms;
    let (url, _, first) = serve(c.clone()).await;
    let (id, mut w, mut b, _) = room(&url, json!({"time": 120, "increment": 0})).await;
    play(&mut w.ws, &id, "c3-d4").await;
    state_at(&mut b.ws, 1).await;
    play(&mut b.ws, &id, "f6-g5").await;
    let saved = state_at(&mut w.ws, 2).await["room"]["clocks"][0]
        .as_i64()
        .unwrap();
    first.abort();
    let (w_token, b_token) = (w.token.clone(), b.token.clone());
    drop((w, b));
    let (url, _, _) = serve(c).await;
    // Black is back first: White's clock waits for White, and is shown stopped.
    let mut b = enter(&url, &id, b_token.as_deref()).await;
    assert_eq!(b.role, "black");
    let r = wait_for(&mut b.ws, "room", |_| true).await;
    assert_eq!(r["room"]["running"], Value::Null, "held: shown stopped");
    tokio::time::sleep(Duration::from_millis(away_ms)).await;
    let mut w = enter(&url, &id, w_token.as_deref()).await;
    assert_eq!(w.role, "white");
    let r = wait_for(&mut w.ws, "room", |_| true).await;
    assert_eq!(r["room"]["running"], "white");
    (r["room"]["clocks"][0].as_i64().unwrap(), saved)
}

#[tokio::test]
async fn a_restart_charges_the_player_to_move_only_beyond_the_grace() {
    if std::env::var_os("DAMKA_WEB_TEST_PG").is_some() {
        // A site of several nodes (PostgreSQL) keeps its clocks running across a stop by
        // design (docs/web.md, "A site of several nodes"): the grace is a single server's.
        return;
    }
    // Back within the grace: nothing charged for the time the server took away.
    let (now, saved) = white_back_after(5_000, 800, "grace-within").await;
    assert!(now <= saved && now > saved - 300, "{now} of {saved}");
    // Away longer: the clock ran from the grace's end, so being away is no free pause.
    let (now, saved) = white_back_after(300, 1_300, "grace-beyond").await;
    assert!(now < saved - 800 && now > saved - 1_500, "{now} of {saved}");
}
