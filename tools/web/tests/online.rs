//! Online play over the WebSocket against a real server on a free loopback port: rooms,
//! seats held by tokens, clocks, resignation, draws, spectators' proposals, limits, bad
//! input, and a restart on the same SQLite file.

use crate::server_support;

use damka_web::online::RoomLimits;
use damka_web::Config;
use serde_json::{json, Value};
use server_support::{
    connect, db_path, drain, enter, error, next, play, plies, refused, room, seat, send, serve,
    wait_for, Ws,
};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

fn config() -> Config {
    Config::new(1, 1)
}

/// A player's next error; no message before it may be a proposal (players never hear them).
async fn player_error(ws: &mut Ws) -> String {
    loop {
        let v = next(ws).await;
        assert_ne!(v["type"], "proposals", "a player heard {v}");
        if v["type"] == "error" {
            return v["message"].as_str().unwrap().to_string();
        }
    }
}

#[tokio::test]
async fn two_players_and_a_spectator_who_proposes() {
    let (url, _, _) = serve(config()).await;
    let t0 = std::time::Instant::now();
    let (id, mut w, mut b, mut spec) = room(&url, json!({"time": 60, "increment": 2}), 1).await;
    let mut s = spec.pop().unwrap();
    assert_eq!(s.role, "spectator");
    assert!(s.token.is_none());
    let r = wait_for(&mut w.ws, "room", |v| {
        v["room"]["seats"] == json!([true, true])
    })
    .await;
    assert_eq!(r["room"]["running"], "white");
    assert_eq!(r["room"]["time"], json!([60.0, 2.0]));
    // The spectator proposes; the tally reaches spectators only.
    send(
        &mut s.ws,
        json!({"type": "propose", "room": id, "path": ["c3", "d4"]}),
    )
    .await;
    let p = wait_for(&mut s.ws, "proposals", |v| {
        !v["proposals"].as_array().unwrap().is_empty()
    })
    .await;
    assert_eq!(
        p["proposals"],
        json!([{"move": "c3-d4", "count": 1, "matched": false}])
    );
    assert_eq!(p["ply"], 1);
    // Rules hold for everyone.
    play(&mut s.ws, &id, "c3-d4").await;
    assert!(error(&mut s.ws).await.contains("spectators cannot move"));
    assert!(refused(&mut s.ws, json!({"type": "resign", "room": id}))
        .await
        .contains("spectators cannot move"));
    play(&mut b.ws, &id, "f6-g5").await;
    assert!(player_error(&mut b.ws).await.contains("white's turn"));
    send(
        &mut w.ws,
        json!({"type": "propose", "room": id, "move": "c3-d4"}),
    )
    .await;
    assert!(player_error(&mut w.ws)
        .await
        .contains("only spectators propose"));
    send(
        &mut s.ws,
        json!({"type": "propose", "room": id, "move": "c3-c4"}),
    )
    .await;
    let e = error(&mut s.ws).await;
    assert!(e.contains("c3-c4"), "{e}");
    send(
        &mut w.ws,
        json!({"type": "play", "room": id, "path": ["c3", "d4"]}),
    )
    .await;
    for (ws, player) in [(&mut w.ws, true), (&mut b.ws, true), (&mut s.ws, false)] {
        // Every message up to the move's state: a player's holds no proposal.
        let r = loop {
            let v = next(ws).await;
            assert!(!player || v["type"] != "proposals", "a player heard {v}");
            if v["type"] == "room" && plies(&v) == 1 {
                break v;
            }
        };
        let last = &r["room"]["last_proposals"];
        assert_eq!(last["played"], "c3-d4");
        assert_eq!(last["proposals"][0]["matched"], true);
        assert_eq!(r["room"]["running"], "black");
        // The increment: White has 60 s, less the time to the move (at most the time since
        // before the room was made), plus 2 s.
        let most_used = t0.elapsed().as_millis() as i64;
        assert!(
            r["room"]["clocks"][0].as_i64().unwrap() >= 62_000 - most_used,
            "{r}"
        );
    }
    // Nor after it.
    for ws in [&mut w.ws, &mut b.ws] {
        assert!(drain(ws, 200)
            .await
            .iter()
            .all(|m| m["type"] != "proposals"));
    }
    // An action in a room not entered.
    assert!(refused(
        &mut s.ws,
        json!({"type": "propose", "room": "rnope", "move": "f6-g5"})
    )
    .await
    .contains("enter room rnope first"));
}

#[tokio::test]
async fn a_token_holds_its_seat_and_nothing_else() {
    let (url, _, _) = serve(config()).await;
    let (id, w, mut b, _) = room(&url, json!({"color": "random"}), 0).await;
    let (other, ..) = room(&url, json!({}), 0).await;
    let token = w.token.clone().unwrap();
    assert_eq!(token.len(), 32);
    drop(w);
    // A forged token, and a token of another room (stale here): refused.
    let mut x = connect(&url).await;
    assert!(refused(
        &mut x,
        json!({"type": "enter", "room": id, "token": "0".repeat(32)})
    )
    .await
    .contains("stale or forged token"));
    assert!(refused(
        &mut x,
        json!({"type": "enter", "room": other, "token": token})
    )
    .await
    .contains("stale or forged token"));
    // Refused, it holds no seat: it cannot move.
    play(&mut x, &id, "c3-d4").await;
    assert!(error(&mut x).await.contains("enter room"));
    // A third person without a token watches (both seats are taken).
    send(&mut x, json!({"type": "enter", "room": id})).await;
    assert_eq!(seat(&mut x).await.1, "spectator");
    // White comes back with the token: the same seat, and moves.
    let mut w = enter(&url, &id, Some(&token)).await;
    assert_eq!(w.role, "white");
    play(&mut w.ws, &id, "c3-d4").await;
    wait_for(&mut b.ws, "room", |v| plies(v) == 1).await;
    // Two connections on one seat (two tabs) are the same player.
    let mut b2 = enter(&url, &id, b.token.as_deref()).await;
    assert_eq!(b2.role, "black");
    play(&mut b2.ws, &id, "f6-g5").await;
    wait_for(&mut w.ws, "room", |v| plies(v) == 2).await;
}

#[tokio::test]
async fn resignation_and_no_move_after_the_end() {
    let (url, _, _) = serve(config()).await;
    let (id, mut w, mut b, _) = room(&url, json!({}), 0).await;
    send(&mut b.ws, json!({"type": "resign", "room": id})).await;
    let r = wait_for(&mut w.ws, "room", |v| v["room"]["status"]["over"] == true).await;
    assert_eq!(r["room"]["status"]["result"], "2-0");
    assert_eq!(r["room"]["status"]["text"], "White wins (Black resigned)");
    assert_eq!(r["room"]["running"], Value::Null);
    assert!(r["room"]["legal"].as_array().unwrap().is_empty());
    play(&mut w.ws, &id, "c3-d4").await;
    assert!(error(&mut w.ws).await.contains("the game is over"));
    for t in ["resign", "draw"] {
        assert!(refused(&mut b.ws, json!({"type": t, "room": id}))
            .await
            .contains("the game is over"));
    }
}

#[tokio::test]
async fn a_draw_offered_declined_and_accepted() {
    let (url, _, _) = serve(config()).await;
    let (id, mut w, mut b, _) = room(&url, json!({}), 0).await;
    send(&mut w.ws, json!({"type": "draw", "room": id})).await;
    wait_for(&mut b.ws, "room", |v| v["room"]["draw_offer"] == "white").await;
    assert!(refused(&mut w.ws, json!({"type": "decline", "room": id}))
        .await
        .contains("no draw offer"));
    send(&mut b.ws, json!({"type": "decline", "room": id})).await;
    wait_for(&mut w.ws, "room", |v| v["room"]["draw_offer"].is_null()).await;
    send(&mut b.ws, json!({"type": "draw", "room": id})).await;
    wait_for(&mut w.ws, "room", |v| v["room"]["draw_offer"] == "black").await;
    send(&mut w.ws, json!({"type": "draw", "room": id})).await;
    let r = wait_for(&mut b.ws, "room", |v| v["room"]["status"]["over"] == true).await;
    assert_eq!(r["room"]["status"]["result"], "1-1");
    assert_eq!(r["room"]["status"]["text"], "draw (draw agreed)");
}

#[tokio::test]
async fn loss_on_time_without_a_message() {
    let (url, _, _) = serve(config()).await;
    let (id, mut w, mut b, _) = room(&url, json!({"time": 1, "increment": 0}), 0).await;
    // Nobody sends anything: the server's timer ends the game when White's second is gone.
    let r = wait_for(&mut b.ws, "room", |v| v["room"]["status"]["over"] == true).await;
    assert_eq!(
        r["room"]["status"]["text"],
        "Black wins (White's time ran out)"
    );
    assert_eq!(r["room"]["clocks"][0], 0);
    play(&mut w.ws, &id, "c3-d4").await;
    assert!(error(&mut w.ws).await.contains("the game is over"));
}

#[tokio::test]
async fn a_flood_is_refused_and_the_connection_goes_on() {
    let mut c = config();
    c.limits.rate = 10;
    let (url, _, _) = serve(c).await;
    let mut ws = connect(&url).await;
    for _ in 0..100 {
        send(&mut ws, json!({"type": "ping"})).await;
    }
    let got = drain(&mut ws, 500).await;
    let pongs = got.iter().filter(|m| m["type"] == "pong").count();
    let errors: Vec<&Value> = got.iter().filter(|m| m["type"] == "error").collect();
    // A burst of twice the rate passes (more on a slow machine, refilled at 10 a second
    // while the 100 go out).
    assert!((20..100).contains(&pongs), "{pongs} pongs");
    assert!(
        !errors.is_empty() && errors.len() <= 100 - pongs,
        "{} errors",
        errors.len()
    );
    assert!(errors[0]["message"]
        .as_str()
        .unwrap()
        .contains("too many messages"));
    tokio::time::sleep(Duration::from_millis(1100)).await;
    send(&mut ws, json!({"type": "ping"})).await;
    wait_for(&mut ws, "pong", |_| true).await;
    // One that keeps on flooding is closed; the server goes on.
    for _ in 0..700 {
        if futures_util::SinkExt::send(
            &mut ws,
            tokio_tungstenite::tungstenite::Message::Text(r#"{"type":"ping"}"#.into()),
        )
        .await
        .is_err()
        {
            break;
        }
    }
    let mut again = connect(&url).await;
    send(&mut again, json!({"type": "ping"})).await;
    wait_for(&mut again, "pong", |_| true).await;
}

#[tokio::test]
async fn a_disconnect_in_the_middle_of_a_move() {
    let (url, _, _) = serve(config()).await;
    let (id, w, mut b, _) = room(&url, json!({}), 0).await;
    // Half a WebSocket frame, then the connection drops: nothing happens to the room.
    let addr = url
        .trim_start_matches("ws://")
        .trim_end_matches("/ws")
        .to_string();
    let mut raw = tokio::net::TcpStream::connect(&addr).await.unwrap();
    let handshake = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    raw.write_all(handshake.as_bytes()).await.unwrap();
    let mut buf = [0u8; 512];
    let n = raw.read(&mut buf).await.unwrap();
    assert!(String::from_utf8_lossy(&buf[..n]).contains("101"));
    // A masked text frame announcing 120 bytes, of which 10 arrive.
    raw.write_all(&[
        0x81,
        0x80 | 120,
        1,
        2,
        3,
        4,
        b'{',
        b'"',
        b't',
        b'y',
        b'p',
        b'e',
    ])
    .await
    .unwrap();
    drop(raw);
    // White sends a move and is gone at once: the move is played whole, the seat kept.
    let token = w.token.clone().unwrap();
    let mut ws = w.ws;
    // (Its messages read first: a socket closed with unread data sends a reset, which may
    // discard the move in the server's buffer before it is read; that is not this test.)
    drain(&mut ws, 100).await;
    play(&mut ws, &id, "c3-d4").await;
    drop(ws);
    let r = wait_for(&mut b.ws, "room", |v| plies(v) == 1).await;
    assert_eq!(r["room"]["moves"][0]["text"], "c3-d4");
    play(&mut b.ws, &id, "f6-g5").await;
    let mut w = enter(&url, &id, Some(&token)).await;
    assert_eq!(w.role, "white");
    let r = wait_for(&mut w.ws, "room", |v| plies(v) == 2).await;
    assert_eq!(r["room"]["running"], "white");
}

#[tokio::test]
async fn limits_on_rooms_and_spectators() {
    let mut c = config();
    c.limits = RoomLimits {
        max_rooms: 2,
        max_spectators: 1,
        opinions: 1,
        ..RoomLimits::default()
    };
    let (url, _, _) = serve(c).await;
    let (id, _w, _b, mut spec) = room(&url, json!({"time": 30}), 1).await;
    let _second = room(&url, json!({}), 0).await;
    let mut ws = connect(&url).await;
    assert!(refused(&mut ws, json!({"type": "create"}))
        .await
        .contains("the most it takes"));
    assert!(refused(&mut ws, json!({"type": "enter", "room": id}))
        .await
        .contains("1 spectators, the most"));
    // A spectator's engine opinion, one per game here.
    let s = &mut spec[0].ws;
    send(s, json!({"type": "opinion", "room": id})).await;
    let o = wait_for(s, "opinion", |_| true).await;
    assert!(o["move"]["text"].is_string() && o["pv"].is_array(), "{o}");
    assert!(refused(s, json!({"type": "opinion", "room": id}))
        .await
        .contains("1 engine opinions per game"));
    // Players do not get the engine's help.
    let mut w = enter(&url, &id, _w.token.as_deref()).await;
    assert!(refused(&mut w.ws, json!({"type": "opinion", "room": id}))
        .await
        .contains("players cannot ask the engine"));
}

#[tokio::test]
async fn bad_room_messages_get_clear_errors() {
    let (url, _, _) = serve(config()).await;
    let mut ws = connect(&url).await;
    for (msg, word) in [
        (
            json!({"type": "create", "variant": "chess"}),
            "unknown variant",
        ),
        (json!({"type": "create", "color": "green"}), "color must be"),
        (json!({"type": "create", "time": 0}), "time must be"),
        (json!({"type": "create", "time": "fast"}), "malformed"),
        (
            json!({"type": "create", "increment": 1e9}),
            "increment must be",
        ),
        (json!({"type": "create", "fen": "W:Wz9"}), "FEN"),
        (
            json!({"type": "create", "fen": "W:Wa1:Bb2,c3"}),
            "over in that position",
        ),
        (json!({"type": "create", "clock": 3}), "unknown field"),
        (json!({"type": "enter"}), "malformed"),
        (json!({"type": "enter", "room": "rnope"}), "unknown game"),
        (json!({"type": "enter", "room": 7}), "malformed"),
        (
            json!({"type": "play", "room": "rnope", "path": "c3"}),
            "malformed",
        ),
        (json!({"type": "draw", "room": "rnope"}), "enter room"),
    ] {
        send(&mut ws, msg.clone()).await;
        let v = next(&mut ws).await;
        assert_eq!(v["type"], "error", "{msg}: {v}");
        let e = v["message"].as_str().unwrap();
        assert!(e.contains(word), "{msg}: {e}");
    }
    // The connection goes on.
    send(
        &mut ws,
        json!({"type": "create", "variant": "turkish", "color": "black"}),
    )
    .await;
    let (_, role, _) = seat(&mut ws).await;
    assert_eq!(role, "black");
    let r = next(&mut ws).await;
    assert_eq!(r["room"]["variant"], "turkish");
}

#[tokio::test]
async fn a_restart_loses_no_game() {
    let db = db_path("restart");
    let mut c = config();
    c.db = db.clone();
    let (url, _, first) = serve(c.clone()).await;
    let (id, mut w, mut b, _) = room(&url, json!({"time": 120, "increment": 0}), 0).await;
    play(&mut w.ws, &id, "c3-d4").await;
    wait_for(&mut b.ws, "room", |v| plies(v) == 1).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    play(&mut b.ws, &id, "f6-g5").await;
    let before = wait_for(&mut w.ws, "room", |v| plies(v) == 2).await;
    let clocks = before["room"]["clocks"].clone();
    assert!(
        clocks[1].as_i64().unwrap() <= 119_700,
        "Black's move took time: {clocks}"
    );
    // A finished game too.
    let (done, _, mut loser, _) = room(&url, json!({}), 0).await;
    send(&mut loser.ws, json!({"type": "resign", "room": done})).await;
    wait_for(&mut loser.ws, "room", |v| {
        v["room"]["status"]["over"] == true
    })
    .await;
    first.abort();
    drop((w.ws, b.ws, loser.ws));

    // A new server on the same file.
    let (url, app, _) = serve(c).await;
    let mut w = enter(&url, &id, w.token.as_deref()).await;
    assert_eq!(w.role, "white");
    let r = wait_for(&mut w.ws, "room", |_| true).await;
    assert_eq!(plies(&r), 2);
    assert_eq!(r["room"]["running"], "white");
    let (now_w, now_b) = (
        r["room"]["clocks"][0].as_i64().unwrap(),
        r["room"]["clocks"][1].as_i64().unwrap(),
    );
    assert_eq!(now_b, clocks[1].as_i64().unwrap(), "Black's clock as saved");
    assert!(now_w <= clocks[0].as_i64().unwrap() && now_w > clocks[0].as_i64().unwrap() - 5_000);
    let mut b = enter(&url, &id, b.token.as_deref()).await;
    assert_eq!(b.role, "black");
    play(&mut w.ws, &id, "d4-e5").await;
    wait_for(&mut b.ws, "room", |v| plies(v) == 3).await;
    // The finished game is listed and downloads as PDN.
    let lobby = app.lobby().unwrap();
    assert!(
        lobby
            .finished
            .iter()
            .any(|f| f.id == done && f.result == "2-0"),
        "{:?}",
        lobby.finished
    );
    assert!(lobby.live.iter().any(|l| l.id == id));
    let pdn = app.room_pdn(&done).unwrap();
    assert!(
        pdn.contains("[Result \"2-0\"]") && pdn.contains("Black resigned"),
        "{pdn}"
    );
    let pdn = app.room_pdn(&id).unwrap();
    assert!(pdn.contains("1. c3-d4 f6-g5 2. d4-e5"), "{pdn}");
}

#[tokio::test]
async fn no_first_move_aborts_the_game_for_everyone() {
    let mut c = config();
    c.limits.first_move_ms = 300;
    let (url, app, _) = serve(c).await;
    let (id, mut w, mut b, mut watchers) = room(&url, json!({}), 1).await;
    // Nobody moves: players and spectator hear the abort, not a loss.
    for ws in [&mut w.ws, &mut b.ws, &mut watchers[0].ws] {
        let r = wait_for(ws, "room", |v| v["room"]["status"]["over"] == true).await;
        assert_eq!(
            r["room"]["status"]["text"],
            "game aborted (White made no first move)"
        );
        assert_eq!(r["room"]["status"]["result"], "*");
    }
    play(&mut w.ws, &id, "c3-d4").await;
    assert!(error(&mut w.ws).await.contains("the game is over"));
    let lobby = app.lobby().unwrap();
    let listed = lobby
        .finished
        .iter()
        .find(|l| l.id == id)
        .expect("listed as finished");
    assert_eq!(listed.status, "game aborted (White made no first move)");
    assert!(app.room_pdn(&id).unwrap().contains("[Result \"*\"]"));
}
