//! The hostile-plus-honest load test, on loopback, about a minute: twenty hostile clients of
//! every kind `tests/hostile_two.rs` stops, each from its own loopback address (127.0.0.x),
//! while an honest player plays against the engine and newcomers start games and rooms. The
//! honest move's round trip (until the engine's answer) must stay under 500 ms at the median
//! and 2 s at most, the server under 150 MB, and every newcomer must be served.

mod server_support;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server_support::{kib, Process, Ws};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::Message;

/// How long the attack lasts.
const ATTACK: Duration = Duration::from_secs(45);

/// A TCP connection to `server` from loopback address `from`.
async fn tcp_from(from: IpAddr, server: SocketAddr) -> Option<TcpStream> {
    let socket = TcpSocket::new_v4().ok()?;
    socket.bind(SocketAddr::new(from, 0)).ok()?;
    tokio::time::timeout(Duration::from_secs(5), socket.connect(server))
        .await
        .ok()?
        .ok()
}

type RawWs = tokio_tungstenite::WebSocketStream<TcpStream>;

/// A WebSocket to `server` from `from`.
async fn ws_from(from: IpAddr, server: SocketAddr) -> Option<RawWs> {
    let s = tcp_from(from, server).await?;
    let url = format!("ws://{server}/ws");
    let ws = tokio::time::timeout(
        Duration::from_secs(5),
        tokio_tungstenite::client_async(url, s),
    );
    Some(ws.await.ok()?.ok()?.0)
}

async fn send(ws: &mut RawWs, v: Value) -> bool {
    ws.send(Message::Text(v.to_string().into())).await.is_ok()
}

/// The next JSON message within `within`.
async fn next(ws: &mut RawWs, within: Duration) -> Option<Value> {
    let end = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(end, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Some(Ok(_))) => continue,
            _ => return None,
        }
    }
}

fn loopback(last: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, last])
}

/// A masked ping frame with 125 bytes of payload.
fn ping_frame() -> Vec<u8> {
    let mut f = vec![0x89, 0x80 | 125, 1, 2, 3, 4];
    f.extend((0..125u8).map(|i| i ^ [1, 2, 3, 4][usize::from(i) % 4]));
    f
}

/// Sends pings and never reads; reconnects when closed.
async fn ping_flood(from: IpAddr, server: SocketAddr, stop: Arc<AtomicBool>) {
    let batch: Vec<u8> = (0..100).flat_map(|_| ping_frame()).collect();
    while !stop.load(Ordering::Relaxed) {
        let Some(ws) = ws_from(from, server).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let mut s = ws.into_inner();
        while !stop.load(Ordering::Relaxed) {
            let w = tokio::time::timeout(Duration::from_millis(200), s.write_all(&batch));
            if matches!(w.await, Ok(Err(_))) {
                break;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Keeps 16 connections that send a blank line and then a byte a second, never a request.
async fn trickle(from: IpAddr, server: SocketAddr, stop: Arc<AtomicBool>) {
    let mut held: Vec<TcpStream> = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        while held.len() < 16 {
            match tcp_from(from, server).await {
                Some(mut s) => {
                    let _ = s.write_all(b"\r\n\r\n").await;
                    held.push(s);
                }
                None => break,
            }
        }
        let mut kept = Vec::new();
        for mut s in held.drain(..) {
            if s.write_all(b"X").await.is_ok() {
                kept.push(s);
            }
        }
        held = kept;
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
}

/// Games against the engine, the engine to move (with `game`'s time), taken back whenever it
/// has moved, so that it searches again and again.
async fn engine_hog(from: IpAddr, server: SocketAddr, game: Value, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        let Some(mut ws) = ws_from(from, server).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        let mut form = game.clone();
        form["type"] = "new".into();
        form["color"] = "black".into();
        send(&mut ws, form).await;
        let mut token = Value::Null;
        while !stop.load(Ordering::Relaxed) {
            let Some(m) = next(&mut ws, Duration::from_secs(2)).await else {
                break;
            };
            if m["type"] == "owner" {
                token = m["token"].clone();
            }
            if m["type"] == "state" && m["game"]["can_move"] == true {
                let id = m["game"]["id"].clone();
                send(&mut ws, json!({"type": "undo", "game": id, "token": token})).await;
            }
        }
    }
}

/// Asks for hints on its own game as fast as the rate limit lets it.
async fn hint_flood(from: IpAddr, server: SocketAddr, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        let Some(mut ws) = ws_from(from, server).await else {
            tokio::time::sleep(Duration::from_millis(200)).await;
            continue;
        };
        send(&mut ws, json!({"type": "new", "opponent": "human"})).await;
        let Some(id) = (loop {
            match next(&mut ws, Duration::from_secs(2)).await {
                Some(m) if m["type"] == "state" => break Some(m["game"]["id"].clone()),
                Some(_) => continue,
                None => break None,
            }
        }) else {
            continue;
        };
        while !stop.load(Ordering::Relaxed) {
            if !send(&mut ws, json!({"type": "hint", "game": id})).await {
                break;
            }
            // Answers are read so that the connection stays open.
            let _ = next(&mut ws, Duration::from_millis(50)).await;
        }
    }
}

/// Sends `form` (a new game, a new room) every 200 ms on new connections.
async fn creator(from: IpAddr, server: SocketAddr, form: Value, stop: Arc<AtomicBool>) {
    while !stop.load(Ordering::Relaxed) {
        if let Some(mut ws) = ws_from(from, server).await {
            for _ in 0..10 {
                send(&mut ws, form.clone()).await;
                let _ = next(&mut ws, Duration::from_millis(200)).await;
            }
        } else {
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Whether a newcomer from `from` can start a local game and open a room.
async fn newcomer_served(from: IpAddr, server: SocketAddr) -> Result<(), String> {
    let mut ws = ws_from(from, server).await.ok_or("no connection")?;
    for (form, kind) in [
        (json!({"type": "new", "opponent": "human"}), "state"),
        (json!({"type": "create"}), "room"),
    ] {
        send(&mut ws, form.clone()).await;
        loop {
            let m = next(&mut ws, Duration::from_secs(5))
                .await
                .ok_or(format!("no answer to {form}"))?;
            if m["type"] == "error" {
                return Err(format!("{form}: {}", m["message"]));
            }
            if m["type"] == kind || (kind == "room" && m["type"] == "seat") {
                break;
            }
        }
    }
    Ok(())
}

/// The honest player's round trips, seconds: its move until the engine's answer, a move a
/// second (as a person plays), until `stop`.
async fn honest(server: SocketAddr, stop: Arc<AtomicBool>) -> Vec<f64> {
    let mut trips = Vec::new();
    let mut ws: Ws = server_support::connect(&format!("ws://{server}/ws")).await;
    'games: while !stop.load(Ordering::Relaxed) {
        server_support::send(&mut ws, json!({"type": "new", "movetime": 0.1})).await;
        let token = server_support::wait_for(&mut ws, "owner", |_| true).await["token"].clone();
        let mut state = server_support::wait_for(&mut ws, "state", |_| true).await;
        while !stop.load(Ordering::Relaxed) {
            let g = &state["game"];
            if g["status"]["over"] == true || g["legal"].as_array().is_none_or(Vec::is_empty) {
                continue 'games;
            }
            let (id, mv) = (g["id"].clone(), g["legal"][0]["text"].clone());
            let t0 = Instant::now();
            server_support::send(
                &mut ws,
                json!({"type": "move", "game": id, "move": mv, "token": token}),
            )
            .await;
            state = server_support::wait_for(&mut ws, "state", |s| {
                s["game"]["can_move"] == true || s["game"]["status"]["over"] == true
            })
            .await;
            trips.push(t0.elapsed().as_secs_f64());
            tokio::time::sleep(Duration::from_millis(700)).await;
        }
    }
    trips
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_honest_player_and_newcomers_are_served_under_every_attack() {
    let (p, addr) = Process::start(&["--threads", "2", "--hash", "8"]);
    let server: SocketAddr = addr.parse().unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    let mut spawn = |f: std::pin::Pin<Box<dyn std::future::Future<Output = ()> + Send>>| {
        tasks.push(tokio::spawn(f));
    };
    let s = || stop.clone();
    for i in 0..2 {
        spawn(Box::pin(ping_flood(loopback(10 + i), server, s())));
        spawn(Box::pin(ping_flood(loopback(12 + i), server, s())));
        spawn(Box::pin(engine_hog(
            loopback(20 + i),
            server,
            json!({"time": 10800, "increment": 600}),
            s(),
        )));
        spawn(Box::pin(engine_hog(
            loopback(30 + i),
            server,
            json!({"movetime": 30}),
            s(),
        )));
        spawn(Box::pin(hint_flood(loopback(40 + i), server, s())));
        let game = json!({"type": "new", "opponent": "human"});
        spawn(Box::pin(creator(loopback(50 + i), server, game, s())));
    }
    for i in 0..4 {
        spawn(Box::pin(trickle(loopback(60 + i), server, s())));
        let room = json!({"type": "create"});
        spawn(Box::pin(creator(loopback(70 + i), server, room, s())));
    }
    // Twenty hostile clients; the honest player and the newcomers come from other addresses.
    assert_eq!(tasks.len(), 20);
    let player = tokio::spawn(honest(server, stop.clone()));
    let t0 = Instant::now();
    let (mut newcomers, mut peak_kib) = (0u8, 0);
    while t0.elapsed() < ATTACK {
        tokio::time::sleep(Duration::from_secs(3)).await;
        peak_kib = peak_kib.max(kib(p.0.id(), "VmRSS:"));
        newcomers += 1;
        if let Err(e) = newcomer_served(loopback(100 + newcomers), server).await {
            panic!("newcomer {newcomers} at {:?}: {e}", t0.elapsed());
        }
    }
    stop.store(true, Ordering::Relaxed);
    let mut trips = tokio::time::timeout(Duration::from_secs(20), player)
        .await
        .expect("the honest player ends")
        .unwrap();
    for t in tasks {
        t.abort();
    }
    peak_kib = peak_kib.max(kib(p.0.id(), "VmHWM:"));
    trips.sort_by(f64::total_cmp);
    assert!(trips.len() >= 10, "only {} honest moves", trips.len());
    let (median, worst) = (trips[trips.len() / 2], trips[trips.len() - 1]);
    eprintln!(
        "honest moves: {}, median {median:.3} s, worst {worst:.3} s; server peak {} MB",
        trips.len(),
        peak_kib / 1024
    );
    assert!(median < 0.5, "median round trip {median:.3} s");
    assert!(worst < 2.0, "worst round trip {worst:.3} s");
    assert!(
        peak_kib < 150 * 1024,
        "the server reached {} MB",
        peak_kib / 1024
    );
}
