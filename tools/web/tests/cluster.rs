//! Several damka-web nodes (real processes of the binary) on one real PostgreSQL (a
//! throwaway server, see `server_support/pg.rs`): a game played across three nodes, a node killed
//! with SIGKILL in the middle of a game, a node restarted, the database lost during play and
//! at start, and notifications nobody expects.

mod server_support;

use serde_json::{json, Value};
use server_support::pg;
use server_support::{connect, next, plies, seat, send, state_at, wait_for, Ws};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A damka-web process: its WebSocket URL, node id and what it wrote on stderr.
struct Node {
    child: Child,
    url: String,
    id: String,
    log: Arc<Mutex<Vec<String>>>,
}

impl Node {
    fn start(database: &str) -> Node {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damka-web"))
            .args([
                "--port",
                "0",
                "--threads",
                "1",
                "--hash",
                "1",
                "--egtb-path",
                "",
            ])
            .args(["--database", database, "--first-move-timeout", "600"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let err = BufReader::new(child.stderr.take().unwrap());
        let sink = log.clone();
        std::thread::spawn(move || {
            for line in err.lines().map_while(Result::ok) {
                sink.lock().unwrap().push(line);
            }
        });
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let (mut id, mut url) = (String::new(), String::new());
        let mut line = String::new();
        while url.is_empty() {
            line.clear();
            assert!(
                out.read_line(&mut line).unwrap() > 0,
                "the node stopped: {:?}",
                log.lock().unwrap()
            );
            if let Some(rest) = line.strip_prefix("damka-web: node ") {
                id = rest.split_whitespace().next().unwrap().to_string();
            }
            if let Some(rest) = line.trim().strip_prefix("damka-web: serving http://") {
                // The line goes on with where the games are kept.
                let served = rest.split_whitespace().next().unwrap_or_default();
                url = format!("ws://{served}ws");
            }
        }
        std::thread::spawn(move || for _ in out.lines() {});
        Node {
            child,
            url,
            id,
            log,
        }
    }

    fn kill(&mut self) {
        self.child.kill().unwrap(); // SIGKILL
        self.child.wait().unwrap();
    }

    fn logged(&self, text: &str) -> bool {
        self.log.lock().unwrap().iter().any(|l| l.contains(text))
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let log = self.log.lock().unwrap_or_else(|e| e.into_inner());
            eprintln!("node {} said: {:#?}", self.id, log);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Enters `room` on `url`: the connection, its role and token.
async fn enter(
    url: &str,
    room: &str,
    token: Option<&str>,
    watch: bool,
) -> (Ws, String, Option<String>) {
    let mut ws = connect(url).await;
    send(
        &mut ws,
        json!({"type": "enter", "room": room, "token": token, "watch": watch}),
    )
    .await;
    let (_, role, token) = seat(&mut ws).await;
    (ws, role, token)
}

/// Creates a room on `url` as White: the connection, the room id and White's token.
async fn create(url: &str, time: f64) -> (Ws, String, String) {
    let mut ws = connect(url).await;
    send(
        &mut ws,
        json!({"type": "create", "color": "white", "time": time, "increment": 0}),
    )
    .await;
    let (room, role, token) = seat(&mut ws).await;
    assert_eq!(role, "white");
    (ws, room, token.unwrap())
}

/// A game of `plies` first legal moves, White (the creator) on `white_url`, Black on
/// `black_url`: both connections, the room, White's and Black's tokens, the last state.
async fn opening(
    white_url: &str,
    black_url: &str,
    plies: usize,
) -> (Ws, Ws, String, String, Option<String>, Value) {
    let (mut white, room, white_token) = create(white_url, 300.0).await;
    let (mut black, _, black_token) = enter(black_url, &room, None, false).await;
    let mut state = state_at(&mut black, 0).await;
    for n in 0..plies {
        state = if n % 2 == 0 {
            play_first(&mut white, &room, &state).await;
            state_at(&mut black, n + 1).await
        } else {
            play_first(&mut black, &room, &state).await
        };
    }
    (white, black, room, white_token, black_token, state)
}

/// Plays the first legal move of `state` from `ws`, retrying while the server says it is
/// reconnecting (a node taking the room over); the state after it as `ws` hears it.
async fn play_first(ws: &mut Ws, room: &str, state: &Value) -> Value {
    let n = plies(state);
    let mv = state["room"]["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    let end = Instant::now() + Duration::from_secs(30);
    loop {
        send(ws, json!({"type": "play", "room": room, "move": mv})).await;
        loop {
            let v = next(ws).await;
            if v["type"] == "room" && plies(&v) > n {
                return v;
            }
            if v["type"] == "error" {
                let m = v["message"].as_str().unwrap_or_default();
                assert!(
                    m.contains("reconnecting") || m.contains("try again"),
                    "refused: {m}"
                );
                assert!(Instant::now() < end, "no node took the room over: {m}");
                tokio::time::sleep(Duration::from_millis(300)).await;
                break;
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_on_two_nodes_and_a_spectator_on_a_third_play_a_whole_game() {
    let Some((_pg, db)) = pg::database("whole_game").await else {
        return;
    };
    let nodes: Vec<Node> = (0..3).map(|_| Node::start(&db)).collect();
    let (mut white, room, _) = create(&nodes[0].url, 600.0).await;
    let (mut black, role, _) = enter(&nodes[1].url, &room, None, false).await;
    assert_eq!(role, "black");
    let (mut watcher, role, _) = enter(&nodes[2].url, &room, None, true).await;
    assert_eq!(role, "spectator");
    // A request too large for a notification is refused on the node that got it.
    let path = vec!["c3"; 3000];
    send(
        &mut black,
        json!({"type": "play", "room": room, "path": path}),
    )
    .await;
    let e = wait_for(&mut black, "error", |_| true).await;
    assert!(e["message"].as_str().unwrap().contains("too large"), "{e}");
    let mut state = state_at(&mut white, 0).await;
    let mut n = 0;
    while !state["room"]["status"]["over"].as_bool().unwrap() && n < 120 {
        let (w, b) = if n % 2 == 0 {
            let w = play_first(&mut white, &room, &state).await;
            (w, state_at(&mut black, n + 1).await)
        } else {
            let b = play_first(&mut black, &room, &state).await;
            (state_at(&mut white, n + 1).await, b)
        };
        n += 1;
        // Everyone, on every node, hears every move.
        state = state_at(&mut watcher, n).await;
        assert_eq!(w["room"]["moves"], state["room"]["moves"]);
        assert_eq!(b["room"]["moves"], state["room"]["moves"]);
    }
    if !state["room"]["status"]["over"].as_bool().unwrap() {
        send(&mut white, json!({"type": "resign", "room": room})).await;
        state = wait_for(&mut watcher, "room", |v| {
            v["room"]["status"]["over"] == true
        })
        .await;
    }
    assert_eq!(plies(&state), n);
    eprintln!("{n} moves: {}", state["room"]["status"]["text"]);
    // The finished game is listed by every node.
    for node in &nodes {
        let http = node
            .url
            .replace("ws://", "http://")
            .replace("/ws", "/api/rooms");
        let lobby = http_get(&http).await;
        assert!(lobby.contains(&room), "{lobby}");
    }
}

async fn http_get(url: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let mut s = tokio::net::TcpStream::connect(host).await.unwrap();
    let req = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    out
}

/// The answer to `ws`'s request: the room's next state passing `test`, or the error.
async fn answer(ws: &mut Ws, test: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next(ws).await;
        if v["type"] == "error" || (v["type"] == "room" && test(&v)) {
            return v;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rematch_is_offered_and_accepted_seconds_after_the_game_ended() {
    let Some((_pg, db)) = pg::database("late_rematch").await else {
        return;
    };
    let nodes: Vec<Node> = (0..2).map(|_| Node::start(&db)).collect();
    let (mut white, mut black, room, _, _, _) = opening(&nodes[0].url, &nodes[1].url, 0).await;
    send(&mut black, json!({"type": "abort", "room": room})).await;
    wait_for(&mut white, "room", |v| v["room"]["status"]["over"] == true).await;
    // Several sweeps of the leases go by (one a second) before anyone speaks: a finished
    // game whose players are still there keeps the node that counts them.
    tokio::time::sleep(Duration::from_millis(3_500)).await;
    send(&mut white, json!({"type": "rematch", "room": room})).await;
    let offer = answer(&mut white, |v| v["room"]["rematch_offer"] == "white").await;
    assert_eq!(offer["type"], "room", "the offer refused: {offer}");
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    send(&mut black, json!({"type": "rematch", "room": room})).await;
    let on = answer(&mut black, |v| v["room"]["rematch"].is_string()).await;
    assert_eq!(on["type"], "room", "the acceptance refused: {on}");
    assert_eq!(
        pg::leases(&db, &room).await,
        1,
        "held while its players are there"
    );
    // Once the players have gone, the finished room's lease goes (no lease piles up).
    drop((white, black));
    let end = Instant::now() + Duration::from_secs(20);
    while pg::leases(&db, &room).await > 0 {
        assert!(Instant::now() < end, "the finished room's lease stays");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_game_and_the_game_goes_on_through_another() {
    let Some((_pg, db)) = pg::database("sigkill").await else {
        return;
    };
    let mut a = Node::start(&db);
    let b = Node::start(&db);
    let (_white, mut black, room, white_token, _, state) = opening(&a.url, &b.url, 6).await;
    let moves = state["room"]["moves"].clone();
    let white_ms = state["room"]["clocks"][0].as_i64().unwrap();
    let t0 = Instant::now();
    a.kill();
    // White comes back through node B; its move waits for B to take the room over.
    let (mut white, role, _) = enter(&b.url, &room, Some(&white_token), false).await;
    assert_eq!(role, "white");
    let back = state_at(&mut white, 6).await;
    assert_eq!(back["room"]["moves"], moves, "no move lost");
    let after = play_first(&mut white, &room, &back).await;
    let elapsed = t0.elapsed().as_millis() as i64;
    let black_sees = state_at(&mut black, 7).await;
    assert_eq!(
        black_sees["room"]["moves"].as_array().unwrap()[..6],
        moves.as_array().unwrap()[..]
    );
    // White's clock ran through the takeover: what it had minus the time since.
    let left = after["room"]["clocks"][0].as_i64().unwrap();
    assert!(
        (left - (white_ms - elapsed)).abs() < 1500,
        "white had {white_ms} ms, {elapsed} ms went by, {left} ms left"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_restarts_and_its_rooms_come_back() {
    let Some((_pg, db)) = pg::database("restart").await else {
        return;
    };
    let mut a = Node::start(&db);
    let (_white, _black, room, white_token, black_token, state) = opening(&a.url, &a.url, 4).await;
    a.kill();
    let a = Node::start(&db);
    let (mut white, _, _) = enter(&a.url, &room, Some(&white_token), false).await;
    let (mut black, _, _) = enter(&a.url, &room, black_token.as_deref(), false).await;
    let back = state_at(&mut white, 4).await;
    assert_eq!(back["room"]["moves"], state["room"]["moves"]);
    play_first(&mut white, &room, &back).await;
    state_at(&mut black, 5).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_lost_during_play_loses_nothing_acknowledged() {
    let Some((pg, db)) = pg::database("lost").await else {
        return;
    };
    let Some(pg) = pg else {
        eprintln!("NOTICE: database loss is tested on a throwaway server only");
        return;
    };
    let a = Node::start(&db);
    let (mut white, mut black, room, white_token, _, state) = opening(&a.url, &a.url, 2).await;
    pg.stop();
    let mv = state["room"]["legal"][0]["text"]
        .as_str()
        .unwrap()
        .to_string();
    send(
        &mut white,
        json!({"type": "play", "room": room, "move": mv}),
    )
    .await;
    let e = wait_for(&mut white, "error", |_| true).await;
    assert!(
        e["message"].as_str().unwrap().contains("reconnecting"),
        "{e}"
    );
    // Black hears it too.
    let e = wait_for(&mut black, "error", |_| true).await;
    assert!(
        e["message"].as_str().unwrap().contains("reconnecting"),
        "{e}"
    );
    pg.start_again();
    let after = play_first(&mut white, &room, &state).await;
    assert_eq!(plies(&after), 3);
    let (mut again, _, _) = enter(&a.url, &room, Some(&white_token), false).await;
    let s = state_at(&mut again, 3).await;
    assert_eq!(
        s["room"]["moves"].as_array().unwrap()[..2],
        state["room"]["moves"].as_array().unwrap()[..]
    );
}

#[test]
fn an_unreachable_database_at_start_is_a_clear_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let out = Command::new(env!("CARGO_BIN_EXE_damka-web"))
        .args(["--port", "0", "--egtb-path", ""])
        .arg("--database")
        .arg(format!("postgres://damka:secret@127.0.0.1:{port}/x"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("cannot reach the database at postgres://damka:***@127.0.0.1"),
        "{err}"
    );
    assert!(!err.contains("secret"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn notifications_for_unknown_rooms_are_ignored_and_logged() {
    let Some((_pg, db)) = pg::database("unknown").await else {
        return;
    };
    let a = Node::start(&db);
    let channel = format!("damka_node_{}", a.id);
    pg::notify(&db, &channel, r#"{"room":"rnothere","kind":"room"}"#).await;
    let request = r#"{"op":"play","from":"nx","req":1,"room":"rnothere","role":{"color":"white"}}"#;
    pg::notify(&db, &channel, request).await;
    pg::notify(&db, &channel, "not json").await;
    let end = Instant::now() + Duration::from_secs(10);
    while !(a.logged("neither a request") && a.logged("rnothere") && a.logged("not JSON")) {
        assert!(Instant::now() < end, "{:?}", a.log.lock().unwrap());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // And the node serves on.
    let (mut white, room, _) = create(&a.url, 60.0).await;
    let s = state_at(&mut white, 0).await;
    assert_eq!(s["room"]["id"], room);
}
