//! What the API tests share: a server on a free loopback port (in this process, or the
//! damka-web binary as a child process), and WebSocket helpers.
// Each test file uses some of these, never all.
#![allow(dead_code)]

pub mod pg;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// A client's WebSocket.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Serves `config` on 127.0.0.1 (a free port): the WebSocket URL, the state, the server task.
pub async fn serve(
    config: damka_web::Config,
) -> (
    String,
    Arc<damka_web::app::App>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = config;
    config.db = pg::test_db(&config.db);
    let (app, router) = damka_web::serve(&config).unwrap();
    let task = tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("ws://{addr}/ws"), app, task)
}

/// A new connection to `url`.
pub async fn connect(url: &str) -> Ws {
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next JSON message (20 s at most).
pub async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .expect("the connection stays open")
            .expect("a good frame");
        if let Message::Text(t) = msg {
            if std::env::var_os("DEBUG_WS").is_some() {
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or_default();
                let plies = v["room"]["moves"].as_array().map(Vec::len);
                let over = &v["room"]["status"];
                eprintln!("<- {} {plies:?} {over} {}", v["type"], v["message"]);
            }
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// The next message of `kind` whose test holds (states arrive for every change).
pub async fn wait_for(ws: &mut Ws, kind: &str, test: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next(ws).await;
        if v["type"] == kind && test(&v) {
            return v;
        }
    }
}

/// Every message that arrives within `ms` milliseconds.
pub async fn drain(ws: &mut Ws, ms: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let end = tokio::time::Instant::now() + Duration::from_millis(ms);
    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end, ws.next()).await {
        if let Message::Text(t) = msg {
            out.push(serde_json::from_str(t.as_str()).unwrap());
        }
    }
    out
}

/// Sends a JSON message.
pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next `seat` message: the room, the role and the token.
pub async fn seat(ws: &mut Ws) -> (String, String, Option<String>) {
    let s = wait_for(ws, "seat", |_| true).await;
    let token = s["token"].as_str().map(str::to_string);
    (
        s["room"].as_str().unwrap().to_string(),
        s["role"].as_str().unwrap().to_string(),
        token,
    )
}

/// A room's seat as entered: the connection, its role and token.
pub struct Player {
    pub ws: Ws,
    pub role: String,
    pub token: Option<String>,
}

/// The next error's message.
pub async fn error(ws: &mut Ws) -> String {
    let v = wait_for(ws, "error", |_| true).await;
    v["message"].as_str().unwrap().to_string()
}

/// Sends `msg` and returns the error's message it gets.
pub async fn refused(ws: &mut Ws, msg: Value) -> String {
    send(ws, msg).await;
    error(ws).await
}

/// Enters room `room` on a new connection, with a seat's token or to take what is free.
pub async fn enter(url: &str, room: &str, token: Option<&str>) -> Player {
    let mut ws = connect(url).await;
    let msg = match token {
        Some(t) => serde_json::json!({"type": "enter", "room": room, "token": t}),
        None => serde_json::json!({"type": "enter", "room": room}),
    };
    send(&mut ws, msg).await;
    let (_, role, token) = seat(&mut ws).await;
    Player { ws, role, token }
}

/// A room made with `form` (the fields of `create`), with White, Black and `spectators`
/// spectators seated.
pub async fn room(
    url: &str,
    form: Value,
    spectators: usize,
) -> (String, Player, Player, Vec<Player>) {
    let mut ws = connect(url).await;
    let mut create = form;
    create["type"] = "create".into();
    send(&mut ws, create).await;
    let (id, role, token) = seat(&mut ws).await;
    let creator = Player { ws, role, token };
    let other = enter(url, &id, None).await;
    let mut watchers = Vec::new();
    for _ in 0..spectators {
        watchers.push(enter(url, &id, None).await);
    }
    let (w, b) = if creator.role == "white" {
        (creator, other)
    } else {
        (other, creator)
    };
    assert_eq!((w.role.as_str(), b.role.as_str()), ("white", "black"));
    (id, w, b, watchers)
}

/// Plays move `mv` (its text) in room `room`.
pub async fn play(ws: &mut Ws, room: &str, mv: &str) {
    send(
        ws,
        serde_json::json!({"type": "play", "room": room, "move": mv}),
    )
    .await;
}

/// How many moves a `room` message's state has.
pub fn plies(v: &Value) -> usize {
    v["room"]["moves"].as_array().map_or(0, Vec::len)
}

/// The next `room` state with at least `n` moves.
pub async fn state_at(ws: &mut Ws, n: usize) -> Value {
    wait_for(ws, "room", |v| plies(v) >= n).await
}

/// The damka-web binary running as a child process; killed when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Process {
    /// Starts the binary on a free loopback port with an in-memory database and `args` (a
    /// `--database URL` there wins); the process and the `host:port` it serves (read from
    /// its output).
    pub fn start(args: &[&str]) -> (Process, String) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damka-web"))
            .args(["--bind", "127.0.0.1", "--port", "0", "--db", ":memory:"])
            .args(args)
            .stdout(Stdio::piped())
            .spawn()
            .expect("the damka-web binary starts");
        let mut line = String::new();
        let mut out = BufReader::new(child.stdout.take().expect("its output"));
        while !line.contains("http://") {
            line.clear();
            assert!(out.read_line(&mut line).unwrap() > 0, "damka-web stopped");
        }
        let addr = line
            .split("http://")
            .nth(1)
            .expect("the address it serves")
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .trim_end_matches('/')
            .to_string();
        (Process(child), addr)
    }
}

/// A memory figure of process `pid` from /proc (`VmRSS:`, `VmHWM:`), KiB; 0 if unknown.
pub fn kib(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with(field))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// A database file of its own for test `name` (in a fresh folder under the system's temp).
pub fn db_path(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("damka-web-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.sqlite3").to_string_lossy().into_owned()
}

/// One search thread, small tables, the database at `db` (or its PostgreSQL stand-in:
/// [`pg::test_db`]).
pub fn config(db: &str) -> damka_web::Config {
    let mut c = damka_web::Config::new(1, 1);
    c.db = pg::test_db(db);
    c
}

/// A move given by its text, with the game's owner secret (`None`: without).
pub fn mv(text: &str, token: Option<&str>) -> damka_web::local::service::MoveRequest {
    damka_web::local::service::MoveRequest {
        text: Some(text.into()),
        path: None,
        token: token.map(str::to_string),
    }
}

/// A raw connection to `addr` (`host:port`) past the WebSocket handshake.
pub async fn raw_websocket(addr: &str) -> tokio::net::TcpStream {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut head = Vec::new();
    let mut b = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        s.read_exact(&mut b).await.unwrap();
        head.push(b[0]);
    }
    assert!(head.starts_with(b"HTTP/1.1 101"), "{head:?}");
    s
}
