//! damka-web against hostile clients, round two, each attack on loopback, bounded in
//! count and time: a ping flood that never reads, engine hogs, a full store of finished games,
//! headers that never end, rooms taken by a few addresses.

use crate::server_support;

use serde_json::json;
use server_support::{kib, send, wait_for, Process, Ws};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A masked ping frame (as a client must send it) with 125 bytes of payload, the most a
/// control frame may carry.
fn ping_frame() -> Vec<u8> {
    let mut f = vec![0x89, 0x80 | 125, 1, 2, 3, 4];
    f.extend((0..125u8).map(|i| i ^ [1, 2, 3, 4][usize::from(i) % 4]));
    f
}

async fn connect(addr: &str) -> Ws {
    server_support::connect(&format!("ws://{addr}/ws")).await
}

/// One connection sending pings and never reading grew the server by 2 GB
/// in 8 s. Now the pongs wait in a bounded buffer, pings take the rate limit's tokens (a flood
/// closes the connection) and a write blocked past the write timeout ends it.
#[test]
fn a_ping_flood_that_never_reads_is_closed_and_costs_little() {
    let (p, addr) = Process::start(&[]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let before = kib(p.0.id(), "VmRSS:");
        let s = server_support::raw_websocket(&addr).await;
        let (_read_half_never_read, mut w) = s.into_split();
        let batch: Vec<u8> = (0..500).flat_map(|_| ping_frame()).collect();
        let t0 = Instant::now();
        let mut closed = false;
        while t0.elapsed() < Duration::from_secs(6) {
            match tokio::time::timeout(Duration::from_millis(500), w.write_all(&batch)).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => {
                    closed = true;
                    break;
                }
                // The server reads no more (it is closing, or its socket is full): go on
                // trying until the end of the attack.
                Err(_) => {}
            }
        }
        let grown = kib(p.0.id(), "VmRSS:").saturating_sub(before);
        assert!(grown < 40 * 1024, "the server grew by {grown} KiB");
        assert!(closed, "a flood of pings did not close the connection");
        // An honest client is served as before.
        let mut ws = connect(&addr).await;
        send(&mut ws, json!({"type": "ping"})).await;
        wait_for(&mut ws, "pong", |_| true).await;
    });
}

/// A server as `damka-web` runs it, with a header timeout of one second: its address.
async fn guarded_server() -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (app, router) = damka_web::serve(&damka_web::Config::new(1, 1)).unwrap();
    let net = damka_web::transport::guard::NetLimits {
        header_timeout: Duration::from_secs(1),
        ..damka_web::transport::guard::NetLimits::default()
    };
    tokio::spawn(damka_web::run(
        listener,
        app,
        router,
        net,
        std::future::pending(),
    ));
    addr
}

/// Sends `first` at once, then `trickle` a byte every 200 ms for at most 4 s; whether the
/// server closed the connection by then.
async fn closed_while_trickling(addr: std::net::SocketAddr, first: &[u8], trickle: &[u8]) -> bool {
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(first).await.unwrap();
    let (mut r, mut w) = s.into_split();
    let reader = tokio::spawn(async move {
        let mut buf = [0u8; 4096];
        while matches!(r.read(&mut buf).await, Ok(n) if n > 0) {}
    });
    let t0 = Instant::now();
    for b in trickle.iter().cycle() {
        if reader.is_finished() || t0.elapsed() > Duration::from_secs(4) {
            break;
        }
        if w.write_all(&[*b]).await.is_err() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    reader.is_finished()
}

/// A leading blank line, a trickled second keep-alive request or a trickled
/// body held a connection past the header timeout (25 s and more); now each is closed within
/// it.
#[tokio::test]
async fn headers_and_bodies_cannot_be_trickled_past_the_header_timeout() {
    let addr = guarded_server().await;
    let get = format!("GET /api/info HTTP/1.1\r\nHost: {addr}\r\n\r\n");
    assert!(
        closed_while_trickling(addr, b"\r\n\r\n", b"X-A: b\r\n").await,
        "a leading blank line"
    );
    assert!(
        closed_while_trickling(addr, get.as_bytes(), b"X-A: b\r\n").await,
        "a trickled second request"
    );
    let post = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: 1000\r\n\r\n"
    );
    assert!(
        closed_while_trickling(addr, post.as_bytes(), b" ").await,
        "a trickled body"
    );
}

/// 22 addresses creating 10 rooms each filled the 200 places in a moment,
/// and newcomers were refused for an hour; now each address's share shrinks as the server
/// fills, and a newcomer still gets a room.
#[tokio::test]
async fn a_few_addresses_cannot_take_every_room() {
    let (app, _router) = damka_web::serve(&damka_web::Config::new(1, 1)).unwrap();
    let form = damka_web::online::NewRoom::default();
    let mut refused = 0;
    for a in 0..22u8 {
        for _ in 0..10 {
            let ip = std::net::IpAddr::from([127, 0, 1, a]);
            refused += usize::from(app.create_room_for(&form, Some(ip)).is_err());
        }
    }
    assert!(refused > 0, "22 addresses took 220 places");
    let newcomer = std::net::IpAddr::from([127, 0, 2, 1]);
    app.create_room_for(&form, Some(newcomer))
        .expect("a newcomer gets a room");
    // An IPv6 /64 counts as one address.
    let mut v6_refused = 0;
    for i in 0..200u16 {
        let ip = std::net::IpAddr::from([0x2001, 0xdb8, 0, 1, 0, 0, 0, i]);
        v6_refused += usize::from(app.create_room_for(&form, Some(ip)).is_err());
    }
    assert!(
        v6_refused >= 190,
        "one /64 opened {} rooms",
        200 - v6_refused
    );
}
