//! The online load test (`docs/performance.md`, "Online play load test"): the damka-web binary
//! on loopback, 50 rooms with two players and 20 spectators each (1,100 WebSocket clients in
//! this process), every room playing 30 plies as fast as its players answer. Every move must
//! reach every spectator; reported: move-to-screen latency (from the player's send to each
//! spectator's receipt of the state with the move: median, 99th percentile, worst) and the
//! server's memory (resident set, from /proc). Bounded: it fails after 90 s.
//!
//!     nice -n 19 cargo test --profile ci -p damka-web --test load -- --ignored --nocapture
//!
//! `DAMKA_LOAD_ROOMS`, `DAMKA_LOAD_SPECTATORS` and `DAMKA_LOAD_PLIES` change the sizes.
//! `DAMKA_LOAD_NODES=3` spreads the site over three damka-web nodes on one PostgreSQL (a
//! throwaway server, or the one `DAMKA_WEB_TEST_PG` names): room `r` is created on node
//! `r mod 3`, its Black player enters on the next node and its spectators on all three in
//! turn, so most deliveries cross nodes (LISTEN/NOTIFY); memory is reported per node.

use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

mod server_support;
use server_support::{kib, send, Process, Ws};

/// The parts of a message the clients read (parsed without building a whole JSON tree).
#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    room: Option<serde_json::Value>,
    role: Option<String>,
}

#[derive(Deserialize)]
struct RoomMsg {
    id: String,
    side: String,
    moves: Vec<serde::de::IgnoredAny>,
    legal: Vec<Legal>,
    status: Over,
    seats: [bool; 2],
}

#[derive(Deserialize)]
struct Legal {
    text: String,
}

#[derive(Deserialize)]
struct Over {
    over: bool,
}

fn size(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn start(rooms: usize, spectators: usize, database: Option<&str>) -> (Process, String) {
    let (rooms, spectators) = ((rooms + 10).to_string(), (spectators + 10).to_string());
    let db = database.map_or(["--db", ":memory:"], |url| ["--database", url]);
    let (server, addr) = Process::start(&[
        db[0],
        db[1],
        "--max-rooms",
        &rooms,
        "--max-spectators",
        &spectators,
        // Every client here is one address: the limits per address would refuse most.
        "--max-per-address",
        "100000",
        "--max-connections",
        "100000",
        "--rooms-per-minute",
        "100000",
        "--spectators-per-client",
        "100000",
    ]);
    (server, format!("ws://{addr}/ws"))
}

/// `nodes` servers: one on SQLite in memory, or several on one PostgreSQL (kept running by
/// the second value).
async fn start_site(
    nodes: usize,
    rooms: usize,
    spectators: usize,
) -> (Vec<(Process, String)>, Option<server_support::pg::Pg>) {
    let database = match nodes {
        1 => None,
        _ => server_support::pg::database("load").await,
    };
    assert!(
        nodes == 1 || database.is_some(),
        "several nodes need PostgreSQL"
    );
    let url = database.as_ref().map(|d| d.1.clone());
    let servers = (0..nodes)
        .map(|_| start(rooms, spectators, url.as_deref()))
        .collect();
    (servers, database.and_then(|d| d.0))
}

async fn read(ws: &mut Ws) -> Option<Msg> {
    loop {
        match ws.next().await? {
            Ok(Message::Text(t)) => return serde_json::from_str(t.as_str()).ok(),
            Ok(_) => continue,
            Err(_) => return None,
        }
    }
}

/// When each ply of a room was sent by its player.
type Sent = Arc<Mutex<Vec<Option<Instant>>>>;

/// A player: moves the first legal move on its turn until `plies` are played.
async fn player(mut ws: Ws, role: String, plies: usize, sent: Sent) {
    while let Some(m) = read(&mut ws).await {
        let Some(r) = m.room.filter(|_| m.kind == "room") else {
            continue;
        };
        let Ok(r) = serde_json::from_value::<RoomMsg>(r) else {
            continue;
        };
        let n = r.moves.len();
        if r.status.over || n >= plies {
            return;
        }
        if r.side == role && r.seats == [true, true] {
            if let Some(mv) = r.legal.first() {
                sent.lock().unwrap()[n + 1] = Some(Instant::now());
                send(
                    &mut ws,
                    json!({"type": "play", "room": r.id, "move": mv.text}),
                )
                .await;
            }
        }
    }
}

/// A spectator: when each ply reached it, until the game's end or `plies`.
async fn spectator(mut ws: Ws, plies: usize) -> Vec<Option<Instant>> {
    let mut seen = vec![None; plies + 1];
    let mut have = 0;
    while let Some(m) = read(&mut ws).await {
        let Some(r) = m.room.filter(|_| m.kind == "room") else {
            continue;
        };
        let Ok(r) = serde_json::from_value::<RoomMsg>(r) else {
            continue;
        };
        let now = Instant::now();
        let n = r.moves.len().min(plies);
        for slot in seen.iter_mut().take(n + 1).skip(have + 1) {
            *slot = Some(now);
        }
        have = have.max(n);
        if r.status.over || n >= plies {
            break;
        }
    }
    seen
}

async fn connect(url: &str, first: serde_json::Value) -> (Ws, String) {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    send(&mut ws, first).await;
    loop {
        let m = read(&mut ws).await.expect("a seat");
        if m.kind == "seat" {
            return (ws, m.role.unwrap_or_default());
        }
        if m.kind == "error" {
            panic!("refused: {:?}", m.room);
        }
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a load test: run it on its own (`docs/performance.md`)"]
async fn rooms_with_spectators_under_load() {
    let (rooms, spectators, plies) = (
        size("DAMKA_LOAD_ROOMS", 50),
        size("DAMKA_LOAD_SPECTATORS", 20),
        size("DAMKA_LOAD_PLIES", 30),
    );
    let nodes = size("DAMKA_LOAD_NODES", 1);
    let (servers, _pg) = start_site(nodes, rooms, spectators).await;
    let urls: Vec<String> = servers.iter().map(|s| s.1.clone()).collect();
    let pids: Vec<u32> = servers.iter().map(|s| s.0 .0.id()).collect();
    let rss = |field: &str| -> Vec<u64> { pids.iter().map(|p| kib(*p, field) / 1024).collect() };
    let idle_kib = rss("VmRSS:");
    let t0 = Instant::now();
    let mut players = Vec::new();
    let mut watchers = Vec::new();
    let mut sents = Vec::new();
    for r in 0..rooms {
        let url = &urls[r % nodes];
        let create = json!({"type": "create", "color": "white", "time": 600, "increment": 0});
        let (white, _) = connect(url, create).await;
        // The creator's seat message came first; the room's id is in its state.
        let mut white = white;
        let id = loop {
            let m = read(&mut white).await.expect("the room");
            if let Some(r) = m.room.filter(|_| m.kind == "room") {
                break r["id"].as_str().unwrap().to_string();
            }
        };
        let mut room_watchers = Vec::new();
        for i in 0..spectators {
            let url = &urls[(r + i) % nodes];
            let (ws, role) =
                connect(url, json!({"type": "enter", "room": id, "watch": true})).await;
            assert_eq!(role, "spectator");
            room_watchers.push(ws);
        }
        let url = &urls[(r + 1) % nodes];
        let (black, role) = connect(url, json!({"type": "enter", "room": id})).await;
        assert_eq!(role, "black");
        let sent: Sent = Arc::new(Mutex::new(vec![None; plies + 1]));
        players.push((white, black, sent.clone()));
        watchers.push(room_watchers);
        sents.push(sent);
    }
    let connected_kib = rss("VmRSS:");
    let setup = t0.elapsed();
    let t1 = Instant::now();
    let mut tasks = Vec::new();
    for (w, b, sent) in players {
        tasks.push(tokio::spawn(player(w, "white".into(), plies, sent.clone())));
        tasks.push(tokio::spawn(player(b, "black".into(), plies, sent)));
    }
    let mut seen_tasks = Vec::new();
    for (r, room_watchers) in watchers.into_iter().enumerate() {
        for ws in room_watchers {
            seen_tasks.push((r, tokio::spawn(spectator(ws, plies))));
        }
    }
    let run = async {
        let mut seen = Vec::new();
        for (r, t) in seen_tasks {
            seen.push((r, t.await.unwrap()));
        }
        seen
    };
    let seen = tokio::time::timeout(Duration::from_secs(90), run)
        .await
        .expect("the load test ends within 90 s");
    let played = t1.elapsed();
    let peak_kib = rss("VmHWM:");
    let mut latencies = Vec::new();
    let mut missing = 0;
    for (r, times) in &seen {
        let sent = sents[*r].lock().unwrap();
        for ply in 1..=plies {
            match (sent[ply], times[ply]) {
                (Some(s), Some(t)) => {
                    latencies.push(t.saturating_duration_since(s).as_secs_f64() * 1e3)
                }
                (Some(_), None) => missing += 1,
                _ => {}
            }
        }
    }
    latencies.sort_by(|a, b| a.total_cmp(b));
    let moves: usize = sents
        .iter()
        .map(|s| s.lock().unwrap().iter().flatten().count())
        .sum();
    println!(
        "load: {nodes} node(s), {rooms} rooms x {spectators} spectators, {moves} moves, {} \
         deliveries in {:.1} s (set-up {:.1} s): latency median {:.1} ms, p99 {:.1} ms, max \
         {:.1} ms; server RSS per node idle {:?} MiB, connected {:?} MiB, peak {:?} MiB",
        latencies.len(),
        played.as_secs_f64(),
        setup.as_secs_f64(),
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        latencies.last().copied().unwrap_or(0.0),
        idle_kib,
        connected_kib,
        peak_kib,
    );
    assert_eq!(missing, 0, "moves that did not reach a spectator");
    assert_eq!(
        latencies.len(),
        moves * spectators,
        "every move to every spectator"
    );
    assert!(moves >= rooms * 10, "the games were played: {moves} moves");
    for t in tasks {
        let _ = t.await;
    }
    drop(servers);
}
