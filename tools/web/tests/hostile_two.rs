//! damka-web against hostile clients, round two (issue 50), each attack on loopback, bounded in
//! count and time: a ping flood that never reads, engine hogs, a full store of finished games,
//! headers that never end, rooms taken by a few addresses.

mod common;

use common::{kib, send, wait_for, Process, Ws};
use serde_json::json;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A raw connection to `addr` (`host:port`) past the WebSocket handshake.
async fn raw_websocket(addr: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
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

/// A masked ping frame (as a client must send it) with 125 bytes of payload, the most a
/// control frame may carry.
fn ping_frame() -> Vec<u8> {
    let mut f = vec![0x89, 0x80 | 125, 1, 2, 3, 4];
    f.extend((0..125u8).map(|i| i ^ [1, 2, 3, 4][usize::from(i) % 4]));
    f
}

async fn connect(addr: &str) -> Ws {
    common::connect(&format!("ws://{addr}/ws")).await
}

/// Issue 50, item 1: one connection sending pings and never reading grew the server by 2 GB
/// in 8 s. Now the pongs wait in a bounded buffer, pings take the rate limit's tokens (a flood
/// closes the connection) and a write blocked past the write timeout ends it.
#[test]
fn a_ping_flood_that_never_reads_is_closed_and_costs_little() {
    let (p, addr) = Process::start(&[]);
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let before = kib(p.0.id(), "VmRSS:");
        let s = raw_websocket(&addr).await;
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
