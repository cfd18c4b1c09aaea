//! DXP against hostile peers, every attack on loopback and bounded in count and
//! time: a peer that never reads, silent peers holding the one-connection server, a GAMEREQ
//! for 999 minutes or an empty board, and a flood of small faulty messages meant to fill the
//! log.

use crate::dxp_support;

use damka::core::{Color, Variant};
use damka::dispatch::dispatch;
use damka::engine::GameSession;
use damka::protocol::dxp::message::{AccCode, GameReq, Message, Setup, VERSION};
use damka::protocol::dxp::server::{Resources, Serve};
use damka::protocol::dxp::wire::{Event, Link};
use damka::protocol::dxp::{serve_connection, Config};
use damka::variant::{Position, RussianPosition};
use dxp_support::*;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// A GAMEREQ from the start position with damka playing `color` for `minutes`.
fn request(color: Color, minutes: u32) -> Message {
    gamereq(&RussianPosition::start(), color, minutes)
}

/// The next message on a plain TCP connection, read up to its NUL (`None` on a timeout or
/// the end of the stream).
fn read_message(stream: &mut TcpStream, within: Duration) -> Option<String> {
    stream.set_read_timeout(Some(within)).unwrap();
    let mut text = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        match stream.read(&mut byte) {
            Ok(1) if byte[0] == 0 => return Some(String::from_utf8_lossy(&text).into()),
            Ok(1) => text.push(byte[0]),
            _ => return None,
        }
    }
}

fn write_message(stream: &mut TcpStream, m: &Message) {
    let mut b = m.to_wire().into_bytes();
    b.push(0);
    stream.write_all(&b).unwrap();
}

#[test]
fn a_peer_that_never_reads_is_dropped_and_the_timers_still_fire() {
    // The peer asks for answers (BACKREQ with no game: a BACKACC and a CHAT each) and never
    // reads them; once the socket buffers are full, a blocking write used to hold the session
    // for good, the idle timeout never firing.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (cfg, lines) = test_config();
    let cfg = Config {
        gap: Duration::ZERO,
        idle_timeout: Duration::from_secs(4),
        ..cfg
    };
    let (done_tx, done_rx) = crossbeam_channel::bounded(1);
    thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut session = GameSession::<RussianPosition>::new(1, 4);
        let records = serve_connection(&mut session, Link::tcp(stream).unwrap(), &cfg);
        let _ = done_tx.send(records.len());
    });
    let mut hostile = TcpStream::connect(addr).unwrap();
    hostile
        .set_write_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let flooding = stop.clone();
    let flood = thread::spawn(move || {
        let chunk = b"B001W\0".repeat(1000);
        let t0 = Instant::now();
        let mut sent = 0usize;
        while !flooding.load(Ordering::Relaxed) && t0.elapsed() < Duration::from_secs(40) {
            match hostile.write(&chunk) {
                Ok(n) => sent += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
                Err(_) => break,
            }
        }
        sent
    });
    let t0 = Instant::now();
    let ended = done_rx.recv_timeout(Duration::from_secs(30));
    stop.store(true, Ordering::Relaxed);
    let sent = flood.join().unwrap();
    assert!(
        ended.is_ok(),
        "the session still holds a peer that has not read for 30 s ({sent} bytes sent)"
    );
    assert!(t0.elapsed() < Duration::from_secs(30));
    assert!(
        logged(&lines, "does not read")
            || logged(&lines, "has not read")
            || logged(&lines, "no game requested"),
        "{:?}",
        lines
            .lock()
            .unwrap()
            .iter()
            .rev()
            .take(5)
            .collect::<Vec<_>>()
    );
}

/// A server on a free loopback port, with `change` made to the test configuration, serving
/// three connections.
fn server(change: impl FnOnce(&mut Config)) -> (std::net::SocketAddr, Lines) {
    server_of(Some(3), change)
}

/// A server on a free loopback port serving `connections` (`None`: for ever).
fn server_of(
    connections: Option<usize>,
    change: impl FnOnce(&mut Config),
) -> (std::net::SocketAddr, Lines) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (mut cfg, lines) = test_config();
    change(&mut cfg);
    let task = Serve {
        listener,
        config: cfg,
        resources: Resources {
            threads: 1,
            hash_mb: 4,
            egtb: None,
            egtb_optional: false,
        },
        max_connections: connections,
    };
    thread::spawn(move || dispatch(Variant::Russian, task));
    (addr, lines)
}

#[test]
fn a_silent_connection_gives_way_to_a_waiting_one() {
    // Without a game, a silent peer kept the server for the whole idle timeout (here two
    // minutes), and each queued silent peer added its own.
    let (addr, lines) = server(|cfg| cfg.idle_timeout = Duration::from_secs(120));
    let _silent = TcpStream::connect(addr).unwrap();
    thread::sleep(Duration::from_millis(300));
    let mut honest = TcpStream::connect(addr).unwrap();
    let t0 = Instant::now();
    write_message(&mut honest, &request(Color::Black, 1));
    let answer = read_message(&mut honest, Duration::from_secs(40));
    assert!(
        matches!(answer.as_deref(), Some(a) if a.starts_with('A') && a.ends_with('0')),
        "{answer:?} after {:?}",
        t0.elapsed()
    );
    assert!(t0.elapsed() < Duration::from_secs(40));
    assert!(logged(&lines, "while another connection waited"));
}

#[test]
fn a_connection_in_a_long_game_gives_way_after_max_hold() {
    let (addr, lines) = server(|cfg| cfg.max_hold = Duration::from_secs(1));
    // A game of 100 minutes, damka White: it moves, then waits (the peer's clock plus the
    // grace) for a reply that never comes.
    let mut holder = TcpStream::connect(addr).unwrap();
    write_message(&mut holder, &request(Color::White, 100));
    let acc = read_message(&mut holder, WAIT).unwrap();
    assert!(acc.starts_with('A'), "{acc}");
    let mut honest = TcpStream::connect(addr).unwrap();
    let t0 = Instant::now();
    write_message(&mut honest, &request(Color::Black, 1));
    let answer = read_message(&mut honest, Duration::from_secs(30));
    assert!(
        matches!(answer.as_deref(), Some(a) if a.starts_with('A')),
        "{answer:?}"
    );
    assert!(t0.elapsed() < Duration::from_secs(30));
    assert!(logged(&lines, "while another connection waited"));
}

#[test]
fn a_gamereq_for_999_minutes_or_an_empty_board_is_refused() {
    let (mut peer, handle, lines) = follower::<RussianPosition>(|_| {});
    peer.send(&request(Color::White, 999));
    peer.expect_acc(AccCode::RefuseGame);
    peer.expect_chat("at most 120 minutes");
    peer.send(&Message::GameReq(GameReq {
        version: VERSION,
        name: "empty".into(),
        follower_color: Color::White,
        minutes: 1,
        moves: 0,
        setup: Some(Setup {
            to_move: Color::White,
            squares: "e".repeat(32),
        }),
    }));
    peer.expect_acc(AccCode::RefuseGame);
    peer.expect_chat("game is over");
    // The limit is the server's to choose.
    peer.close();
    assert!(handle.join().unwrap().is_empty());
    assert!(logged(&lines, "game refused"));
    let (mut peer, handle, _) = follower::<RussianPosition>(|c| c.max_minutes = 999);
    peer.send(&request(Color::Black, 999));
    peer.expect_acc(AccCode::Accept);
    peer.close();
    handle.join().unwrap();
}

#[test]
fn a_flood_of_faulty_messages_is_not_amplified_in_the_log() {
    let (mut peer, handle, lines) = follower::<RussianPosition>(|c| c.gap = Duration::ZERO);
    // Every round: a bad message, a BACKREQ with no game, a CHAT and a message out of place;
    // each is answered, and each used to cost a few log lines of its own.
    let round: &[&[u8]] = &[b"X\0", b"B001W\0", b"Chi\0", b"K0\0"];
    let mut input = 0;
    for _ in 0..2000 {
        for m in round {
            peer.raw(m);
            input += m.len();
        }
    }
    peer.close();
    handle.join().unwrap();
    let logged: usize = lines.lock().unwrap().iter().map(|l| l.len() + 1).sum();
    assert!(
        logged < input / 2,
        "{logged} bytes of log for {input} bytes of input"
    );
    // Nothing that damka answered was lost: the peer still receives every reply.
    let mut replies = 0;
    while let Some(Event::Message(_)) = peer.next(Duration::from_secs(2)) {
        replies += 1;
    }
    assert!(replies >= 4000, "{replies}");
}

/// Whether the server has closed `stream` (read without blocking: nothing is ever sent to a
/// silent connection before it is served).
fn closed(stream: &TcpStream) -> bool {
    stream.set_nonblocking(true).unwrap();
    let r = stream.peek(&mut [0u8; 1]);
    stream.set_nonblocking(false).unwrap();
    !matches!(r, Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

#[test]
fn silent_connections_kept_open_do_not_starve_an_honest_peer() {
    // Nine silent connections, each opened again as soon as it is closed: one served and
    // eight filling the queue. An honest peer used to be refused (the queue was full) 20
    // times out of 20, or waited behind each silent one for its whole timeout.
    let (addr, lines) = server_of(None, |cfg| cfg.idle_timeout = Duration::from_secs(120));
    let stop = Arc::new(AtomicBool::new(false));
    let holding = stop.clone();
    let hostile = thread::spawn(move || {
        let mut held: Vec<TcpStream> = Vec::new();
        let mut reopened = 0;
        while !holding.load(Ordering::Relaxed) {
            held.retain(|s| !closed(s));
            while held.len() < 9 {
                held.push(TcpStream::connect(addr).unwrap());
                reopened += 1;
            }
            thread::sleep(Duration::from_millis(50));
        }
        reopened
    });
    thread::sleep(Duration::from_millis(500));
    let busy_idle = Config::default().busy_idle_timeout;
    for attempt in 0..3 {
        let mut honest = TcpStream::connect(addr).unwrap();
        let t0 = Instant::now();
        write_message(&mut honest, &request(Color::Black, 1));
        let answer = read_message(&mut honest, busy_idle * 3);
        assert!(
            matches!(answer.as_deref(), Some(a) if a.starts_with('A') && a.ends_with('0')),
            "attempt {attempt}: {answer:?} after {:?}",
            t0.elapsed()
        );
        assert!(t0.elapsed() < busy_idle * 2, "{:?}", t0.elapsed());
    }
    stop.store(true, Ordering::Relaxed);
    let reopened = hostile.join().unwrap();
    assert!(
        reopened > 9,
        "the silent connections were closed: {reopened}"
    );
    assert!(logged(&lines, "silent"));
}

#[test]
fn a_flood_of_valid_messages_writes_a_bounded_log() {
    // BACKREQs to the start of a game in progress are valid, each logged with its answer:
    // 4 MB of them wrote 64 MB of log. The log of a connection is bounded in bytes.
    let budget = 64 * 1024;
    let (mut peer, handle, lines) = follower::<RussianPosition>(|c| {
        c.gap = Duration::ZERO;
        c.max_log_bytes = budget;
    });
    peer.send(&request(Color::Black, 10));
    peer.expect_acc(AccCode::Accept);
    let flood = b"B001W\0".repeat(50_000);
    peer.raw(&flood);
    peer.close();
    handle.join().unwrap();
    let logged: usize = lines.lock().unwrap().iter().map(|l| l.len() + 1).sum();
    assert!(
        logged < budget + 1024,
        "{logged} bytes of log for {} bytes of input",
        flood.len()
    );
    let lines = lines.lock().unwrap();
    assert!(lines.iter().any(|l| l.contains("is not logged")));
    assert!(lines
        .last()
        .is_some_and(|l| l.contains("connection ends") && l.contains("log lines not written")));
}
