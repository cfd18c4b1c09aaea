//! damka-web against hostile clients, each attack on loopback, bounded in count and
//! time: partial frames, idle and half-sent connections, floods of new rooms and games, a
//! watcher that never reads, a shutdown with clients hanging on, a restart above the room cap,
//! the database's tokens and permissions, foreign origins, the page's headers, and spectators
//! who are players, re-enter, or take many places.

use crate::server_support;

use damka_web::transport::guard::NetLimits;
use damka_web::Config;
use futures_util::StreamExt;
use serde_json::{json, Value};
use server_support::{send, wait_for, Ws};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A configuration with one engine thread on a new database file named after `name`: the
/// file and the configuration.
fn on_new_file(name: &str) -> (std::path::PathBuf, Config) {
    let db = std::env::temp_dir().join(format!("damka-web-{name}-{}.sqlite3", std::process::id()));
    let _ = std::fs::remove_file(&db);
    let mut c = Config::new(1, 1);
    c.db = db.display().to_string();
    (db, c)
}

/// A server as `damka-web` runs it (client addresses, limits, shutdown), on a free port.
struct Server {
    addr: SocketAddr,
    app: std::sync::Arc<damka_web::app::App>,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(config: Config, net: NetLimits) -> Server {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (app, router) = damka_web::serve(&config).unwrap();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(damka_web::run(listener, app.clone(), router, net, async {
            let _ = stopped.await;
        }));
        Server {
            addr,
            app,
            stop: Some(stop),
            task,
        }
    }

    /// A server with one engine thread, default network limits and the online limits `set`
    /// makes.
    async fn with_limits(set: impl FnOnce(&mut damka_web::online::RoomLimits)) -> Server {
        let mut c = Config::new(1, 1);
        set(&mut c.limits);
        Server::start(c, NetLimits::default()).await
    }

    fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Stops it; returns how long it took to end.
    async fn stop(mut self) -> Duration {
        let t0 = Instant::now();
        let _ = self.stop.take().unwrap().send(());
        tokio::time::timeout(Duration::from_secs(20), self.task)
            .await
            .expect("the server ended within 20 s")
            .unwrap()
            .unwrap();
        t0.elapsed()
    }
}

/// One HTTP/1.1 request on a new connection: the status and the whole answer.
async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut answer))
        .await
        .expect("an answer within 20 s")
        .unwrap();
    let text = String::from_utf8_lossy(&answer).to_string();
    let status = text
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// Whether the server closes `s` within `within` (what it sent before is read and dropped).
async fn closed_within(s: &mut TcpStream, within: Duration) -> bool {
    let mut buf = [0u8; 4096];
    let end = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(end, s.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => continue,
            Err(_) => return false,
        }
    }
}

async fn connect(url: &str) -> Ws {
    server_support::connect(url).await
}

#[tokio::test]
async fn a_partial_frame_larger_than_a_message_is_refused_at_once() {
    let server = Server::start(Config::new(1, 1), NetLimits::default()).await;
    let mut s = server_support::raw_websocket(&server.addr.to_string()).await;
    // A masked text frame announcing 8 MiB (under tungstenite's default 16 MiB frame cap, so
    // the server used to wait for all of it), then a little of it.
    let mut frame = vec![0x81u8, 0x80 | 127];
    frame.extend_from_slice(&(8u64 << 20).to_be_bytes());
    frame.extend_from_slice(&[1, 2, 3, 4]);
    frame.extend_from_slice(&[b'x'; 1000]);
    s.write_all(&frame).await.unwrap();
    assert!(
        closed_within(&mut s, Duration::from_secs(10)).await,
        "the server still waits for the rest of an 8 MiB frame"
    );
    server.stop().await;
}

#[tokio::test]
async fn idle_and_extra_connections_are_closed() {
    let net = NetLimits {
        per_address: 5,
        header_timeout: Duration::from_secs(1),
        ..NetLimits::default()
    };
    let server = Server::start(Config::new(1, 1), net).await;
    let mut idle = Vec::new();
    for _ in 0..5 {
        idle.push(TcpStream::connect(server.addr).await.unwrap());
    }
    // A sixth from the same address is closed when accepted.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut extra = TcpStream::connect(server.addr).await.unwrap();
    assert!(closed_within(&mut extra, Duration::from_millis(900)).await);
    // The silent ones go after the header timeout, a half-sent request too.
    idle[0]
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    for s in &mut idle {
        assert!(
            closed_within(s, Duration::from_secs(10)).await,
            "still open"
        );
    }
    // And there is room again.
    let (status, _) = http(server.addr, "GET", "/api/info", "").await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test]
async fn one_address_cannot_create_every_room_nor_evict_every_game() {
    let server = Server::with_limits(|l| (l.rooms_per_minute, l.games_per_minute) = (5, 8)).await;
    let mut created = 0;
    let mut refused = String::new();
    for _ in 0..20 {
        match http(server.addr, "POST", "/api/rooms", "{}").await {
            (201, _) => created += 1,
            (503, text) => refused = text,
            (s, text) => panic!("{s}: {text}"),
        }
    }
    assert_eq!(created, 5);
    assert!(refused.contains("new rooms a minute"), "{refused}");
    let mut games = 0;
    for _ in 0..20 {
        let (status, _) = http(server.addr, "POST", "/api/games", r#"{"opponent":"human"}"#).await;
        games += usize::from(status == 201);
    }
    assert_eq!(games, 8);
    // Over the WebSocket too.
    let mut ws = connect(&server.url()).await;
    send(&mut ws, json!({"type": "create"})).await;
    let e = wait_for(&mut ws, "error", |_| true).await;
    assert!(e["message"].as_str().unwrap().contains("a minute"), "{e}");
    server.stop().await;
}

#[tokio::test]
async fn a_watcher_that_never_reads_is_dropped() {
    let server = Server::with_limits(|l| l.rate = 100_000).await;
    let url = server.url();
    let mut player = connect(&url).await;
    send(&mut player, json!({"type": "new", "opponent": "human"})).await;
    let owner = wait_for(&mut player, "owner", |_| true).await;
    let token = owner["token"].as_str().unwrap().to_string();
    let state = wait_for(&mut player, "state", |_| true).await;
    let id = state["game"]["id"].as_str().unwrap().to_string();
    // The watcher joins, then reads nothing, from a socket with a small receive buffer.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    let (mut watcher, _) = tokio_tungstenite::client_async(url.as_str(), stream)
        .await
        .unwrap();
    send(&mut watcher, json!({"type": "join", "game": id})).await;
    wait_for(&mut watcher, "state", |_| true).await;
    // Thousands of states go to it: the game's changes, and the answers to its own requests
    // (a join is answered by the whole state, which used to be dropped silently once 64 were
    // queued, the connection held open).
    let pairs = 1000;
    for _ in 0..pairs {
        send(
            &mut player,
            json!({"type": "move", "game": id, "move": "c3-d4", "token": token}),
        )
        .await;
        send(
            &mut player,
            json!({"type": "undo", "game": id, "token": token}),
        )
        .await;
    }
    let join = tokio_tungstenite::tungstenite::Message::Text(
        json!({"type": "join", "game": id}).to_string().into(),
    );
    for _ in 0..20_000 {
        let sent = tokio::time::timeout(
            Duration::from_secs(5),
            futures_util::SinkExt::send(&mut watcher, join.clone()),
        )
        .await;
        if !matches!(sent, Ok(Ok(()))) {
            break;
        }
    }
    // It was dropped: what it finally reads ends well before the last state.
    let mut states = 0;
    let end = tokio::time::Instant::now() + Duration::from_secs(20);
    let ended = loop {
        match tokio::time::timeout_at(end, watcher.next()).await {
            Ok(Some(Ok(_))) => states += 1,
            Ok(_) => break true,
            Err(_) => break false,
        }
    };
    assert!(ended, "the watcher is still served after {states} states");
    assert!(states < 20_000, "{states}");
    server.stop().await;
}

#[tokio::test]
async fn shutdown_stops_and_saves_the_clocks_and_ends_whatever_the_clients_do() {
    let (db, c) = on_new_file("hostile");
    let net = NetLimits {
        header_timeout: Duration::from_secs(60),
        ..NetLimits::default()
    };
    let server = Server::start(c.clone(), net).await;
    let url = server.url();
    // A game of 2 seconds a side, White's clock running.
    let mut white = connect(&url).await;
    send(
        &mut white,
        json!({"type": "create", "time": 2, "increment": 0}),
    )
    .await;
    let seat = wait_for(&mut white, "seat", |_| true).await;
    let room = seat["room"].as_str().unwrap().to_string();
    let token = seat["token"].as_str().unwrap().to_string();
    let mut black = connect(&url).await;
    send(&mut black, json!({"type": "enter", "room": room})).await;
    wait_for(&mut black, "seat", |_| true).await;
    // A half-sent request and open WebSockets hang on.
    let mut half = TcpStream::connect(server.addr).await.unwrap();
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let app = server.app.clone();
    let took = server.stop().await;
    assert!(took < Duration::from_secs(5), "{took:?}");
    // The clocks stopped: White's 2 s pass and the flag does not fall.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let view = serde_json::to_value(app.room_view(&room).unwrap()).unwrap();
    assert_eq!(view["status"]["over"], false, "{view}");
    drop((white, black, half, app));
    // The file is private, and holds no token in plain text.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&db).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
    }
    let bytes = std::fs::read(&db).unwrap();
    assert!(!bytes.windows(token.len()).any(|w| w == token.as_bytes()));
    // The game resumes with the seat's token, and the clock it had.
    let server = Server::start(c, NetLimits::default()).await;
    let mut white = connect(&server.url()).await;
    send(
        &mut white,
        json!({"type": "enter", "room": room, "token": token}),
    )
    .await;
    let s = wait_for(&mut white, "seat", |_| true).await;
    assert_eq!(s["role"], "white");
    let r = wait_for(&mut white, "room", |_| true).await;
    assert!(r["room"]["clocks"][0].as_i64().unwrap() > 500, "{r}");
    server.stop().await;
    let _ = std::fs::remove_file(&db);
}

#[tokio::test]
async fn a_restart_holds_no_more_rooms_than_max_rooms() {
    let (db, mut c) = on_new_file("cap");
    let server = Server::start(c.clone(), NetLimits::default()).await;
    for _ in 0..6 {
        assert_eq!(http(server.addr, "POST", "/api/rooms", "{}").await.0, 201);
    }
    server.stop().await;
    c.limits.max_rooms = 2;
    let (app, _) = damka_web::serve(&c).unwrap();
    assert_eq!(app.online.rooms_held(), 2);
    let _ = std::fs::remove_file(&db);
}

#[tokio::test]
async fn foreign_origins_are_refused_and_pages_carry_security_headers() {
    let upgrade = |addr: SocketAddr, origin: &'static str| async move {
        let mut s = TcpStream::connect(addr).await.unwrap();
        let req = format!(
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n\
             Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
             Sec-WebSocket-Version: 13\r\n\r\n"
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut b = [0u8; 12];
        s.read_exact(&mut b).await.unwrap();
        String::from_utf8_lossy(&b[9..12]).to_string()
    };
    let mut c = Config::new(1, 1);
    c.origins = vec!["https://friend.example".into()];
    let server = Server::start(c, NetLimits::default()).await;
    let own: &'static str = Box::leak(format!("http://{}", server.addr).into_boxed_str());
    assert_eq!(upgrade(server.addr, "http://evil.example").await, "403");
    assert_eq!(upgrade(server.addr, own).await, "101");
    assert_eq!(upgrade(server.addr, "https://friend.example").await, "101");
    let (status, page) = http(server.addr, "GET", "/", "").await;
    assert_eq!(status, 200);
    let page = page.to_ascii_lowercase();
    for h in [
        "content-security-policy: default-src 'none'",
        "x-frame-options: deny",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
    ] {
        assert!(page.contains(h), "{h} missing");
    }
    server.stop().await;
}

async fn seat_of(ws: &mut Ws) -> Value {
    wait_for(ws, "seat", |_| true).await
}

async fn error_of(ws: &mut Ws) -> String {
    let e = wait_for(ws, "error", |_| true).await;
    e["message"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn players_do_not_watch_and_spectators_get_no_second_allowance() {
    let server = Server::with_limits(|l| (l.opinions, l.spectators_per_client) = (1, 2)).await;
    let url = server.url();
    let mut white = connect(&url).await;
    send(&mut white, json!({"type": "create"})).await;
    let s = seat_of(&mut white).await;
    let room = s["room"].as_str().unwrap().to_string();
    let token = s["token"].as_str().unwrap().to_string();
    let mut black = connect(&url).await;
    send(&mut black, json!({"type": "enter", "room": room})).await;
    seat_of(&mut black).await;
    // The player's token, asking to watch: refused.
    let mut spy = connect(&url).await;
    send(
        &mut spy,
        json!({"type": "enter", "room": room, "token": token, "watch": true}),
    )
    .await;
    assert!(error_of(&mut spy).await.contains("cannot watch"));
    // A spectator's one opinion, then out and in again: still spent.
    let mut fan = connect(&url).await;
    send(&mut fan, json!({"type": "enter", "room": room})).await;
    assert_eq!(seat_of(&mut fan).await["role"], "spectator");
    send(&mut fan, json!({"type": "opinion", "room": room})).await;
    wait_for(&mut fan, "opinion", |_| true).await;
    drop(fan);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut fan = connect(&url).await;
    send(&mut fan, json!({"type": "enter", "room": room})).await;
    seat_of(&mut fan).await;
    send(&mut fan, json!({"type": "opinion", "room": room})).await;
    assert!(error_of(&mut fan).await.contains("opinions"));
    // Two places from one address, not a third.
    let mut second = connect(&url).await;
    send(&mut second, json!({"type": "enter", "room": room})).await;
    seat_of(&mut second).await;
    let mut third = connect(&url).await;
    send(&mut third, json!({"type": "enter", "room": room})).await;
    assert!(error_of(&mut third).await.contains("from one address"));
    server.stop().await;
}

#[tokio::test]
async fn one_client_gets_its_share_of_the_engine_not_the_queue() {
    let server = Server::with_limits(|l| l.engine_share = 3).await;
    let mut ws = connect(&server.url()).await;
    send(
        &mut ws,
        json!({"type": "new", "opponent": "human", "movetime": 0.5}),
    )
    .await;
    let state = wait_for(&mut ws, "state", |_| true).await;
    let id = state["game"]["id"].as_str().unwrap().to_string();
    for _ in 0..12 {
        send(&mut ws, json!({"type": "hint", "game": id})).await;
    }
    let (mut hints, mut refused) = (0, 0);
    while hints + refused < 12 {
        let v = server_support::next(&mut ws).await;
        match v["type"].as_str() {
            Some("hint") => hints += 1,
            Some("error") if v["message"].as_str().unwrap().contains("at once") => refused += 1,
            _ => {}
        }
    }
    assert_eq!((hints, refused), (3, 9));
    // Answered, the share is free again.
    send(&mut ws, json!({"type": "hint", "game": id})).await;
    wait_for(&mut ws, "hint", |_| true).await;
    server.stop().await;
}
