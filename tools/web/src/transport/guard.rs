//! Bounds on what one client can take of the server: connections (in all and per
//! address), the time a connection may take to send its request and may stay silent, and how
//! often one address may create rooms and games.
//!
//! The connection limits and timeouts sit under HTTP, in the listener ([`GuardedListener`])
//! and the stream it hands out ([`Guarded`]), so that they hold for a half-sent request, an
//! idle keep-alive connection and a WebSocket alike. Handlers learn the client's address
//! from the [`ClientAddr`] the listener records.

use axum::extract::connect_info::Connected;
use axum::serve::{IncomingStream, Listener};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::Sleep;

/// The limits of the connections themselves.
#[derive(Clone, Copy, Debug)]
pub struct NetLimits {
    /// Connections held at once; more are closed as soon as they are accepted.
    pub max_connections: usize,
    /// Connections held at once from one address.
    pub per_address: usize,
    /// How long a new connection may take to send its first request's headers, however
    /// slowly they trickle in.
    pub header_timeout: Duration,
    /// How long a connection may send nothing once it has been answered (a WebSocket page
    /// answers the server's pings, sent every [`crate::transport::ws::PING_EVERY`]).
    pub idle_timeout: Duration,
    /// How long a write may stay blocked (the client reads nothing) before the connection is
    /// given up, whatever the client goes on sending: reads do not extend it.
    pub write_timeout: Duration,
}

impl Default for NetLimits {
    fn default() -> NetLimits {
        NetLimits {
            max_connections: 1024,
            per_address: 64,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(120),
            write_timeout: Duration::from_secs(20),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Counters stay usable whatever a panicking holder left: they are only numbers.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Connections held, in all and per address.
#[derive(Default)]
struct Counts {
    total: usize,
    per: HashMap<IpAddr, usize>,
}

/// A listener that refuses connections beyond [`NetLimits`] and hands out [`Guarded`]
/// streams.
pub struct GuardedListener {
    inner: TcpListener,
    limits: NetLimits,
    counts: Arc<Mutex<Counts>>,
}

impl GuardedListener {
    /// Guards `inner` with `limits`.
    pub fn new(inner: TcpListener, limits: NetLimits) -> GuardedListener {
        GuardedListener {
            inner,
            limits,
            counts: Arc::default(),
        }
    }

    /// Counts a connection from `ip` in, or says it is one too many.
    fn admit(&self, ip: IpAddr) -> Option<Slot> {
        let mut c = lock(&self.counts);
        let mine = c.per.get(&ip).copied().unwrap_or(0);
        if c.total >= self.limits.max_connections || mine >= self.limits.per_address {
            return None;
        }
        c.total += 1;
        c.per.insert(ip, mine + 1);
        Some(Slot {
            ip,
            counts: self.counts.clone(),
        })
    }
}

/// A connection's place in the counts, given back when it closes.
struct Slot {
    ip: IpAddr,
    counts: Arc<Mutex<Counts>>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = lock(&self.counts);
        c.total = c.total.saturating_sub(1);
        if let Some(n) = c.per.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.per.remove(&self.ip);
            }
        }
    }
}

impl Listener for GuardedListener {
    type Io = Guarded;
    type Addr = SocketAddr;

    async fn accept(&mut self) -> (Guarded, SocketAddr) {
        loop {
            let (stream, addr) = match self.inner.accept().await {
                Ok(x) => x,
                Err(_) => {
                    // Out of descriptors or a connection reset before it was taken: both pass.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            };
            // Over the limits the connection is closed at once (dropped), costing nothing.
            if let Some(slot) = self.admit(group(addr.ip())) {
                return (Guarded::new(stream, self.limits, slot), addr);
            }
        }
    }

    fn local_addr(&self) -> io::Result<SocketAddr> {
        self.inner.local_addr()
    }
}

/// A connection with its deadline: the header timeout from a request's first byte until its
/// headers are in (their blank line read, blank lines before the request not counting), then
/// the idle timeout from the last byte read; after an answer, the idle timeout until the next
/// request's first byte, which starts its header timeout (a trickled second request
/// does not reset it). Past it, reads and blocked writes fail. A WebSocket (the server wrote
/// `101`) has the idle timeout from the last byte read.
pub struct Guarded {
    inner: TcpStream,
    deadline: Pin<Box<Sleep>>,
    /// The headers' end was read, or an answer written: the idle timeout applies.
    started: bool,
    /// A byte other than CR and LF of the request being read has come (before, a blank line
    /// is no end of headers).
    text: bool,
    /// The server answered the last request: the next byte read starts a new one.
    between: bool,
    /// The connection is a WebSocket now.
    upgraded: bool,
    header_timeout: Duration,
    /// The last bytes read before `started`, to find a blank line across reads.
    tail: [u8; 3],
    idle: Duration,
    /// When a blocked write is given up; armed when a write first blocks, disarmed when one
    /// goes through.
    write_deadline: Pin<Box<Sleep>>,
    write_blocked: bool,
    write_timeout: Duration,
    _slot: Slot,
}

impl Guarded {
    fn new(inner: TcpStream, limits: NetLimits, slot: Slot) -> Guarded {
        Guarded {
            inner,
            deadline: Box::pin(tokio::time::sleep(limits.header_timeout)),
            started: false,
            text: false,
            between: false,
            upgraded: false,
            header_timeout: limits.header_timeout,
            tail: [0; 3],
            idle: limits.idle_timeout,
            write_deadline: Box::pin(tokio::time::sleep(limits.write_timeout)),
            write_blocked: false,
            write_timeout: limits.write_timeout,
            _slot: slot,
        }
    }

    /// From now on only the idle timeout counts.
    fn start(&mut self) {
        self.started = true;
        let at = tokio::time::Instant::now() + self.idle;
        self.deadline.as_mut().reset(at);
    }

    /// Whether `bytes`, read after `tail`, complete a blank line (the end of the headers);
    /// keeps the last three bytes for the next read.
    fn headers_end(&mut self, bytes: &[u8]) -> bool {
        let bytes = if self.text {
            bytes
        } else {
            match bytes.iter().position(|b| !matches!(b, b'\r' | b'\n')) {
                Some(i) => {
                    self.text = true;
                    &bytes[i..]
                }
                None => return false,
            }
        };
        let mut window: Vec<u8> = self.tail.to_vec();
        window.extend_from_slice(bytes);
        let found = window.windows(4).any(|w| w == b"\r\n\r\n");
        let n = window.len();
        self.tail.copy_from_slice(&window[n - 3..]);
        found
    }

    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        self.deadline.as_mut().poll(cx).is_ready()
    }

    /// A write is blocked: whether it has been for longer than the write timeout (the first
    /// time, its deadline is armed). Separate from the read deadline, which a client that
    /// sends without reading keeps pushing back.
    fn write_expired(&mut self, cx: &mut Context<'_>) -> bool {
        if !self.write_blocked {
            self.write_blocked = true;
            let at = tokio::time::Instant::now() + self.write_timeout;
            self.write_deadline.as_mut().reset(at);
        }
        self.write_deadline.as_mut().poll(cx).is_ready() || self.expired(cx)
    }

    fn timed_out() -> io::Error {
        io::Error::new(io::ErrorKind::TimedOut, "connection timed out")
    }
}

impl AsyncRead for Guarded {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                let fresh = &buf.filled()[before..];
                // Until the headers are in the deadline stays put: trickling bytes does not
                // extend the time they may take.
                if !fresh.is_empty() {
                    if self.between {
                        // The next request: its headers have the header timeout from now.
                        self.between = false;
                        self.started = false;
                        self.text = false;
                        self.tail = [0; 3];
                        let at = tokio::time::Instant::now() + self.header_timeout;
                        self.deadline.as_mut().reset(at);
                    }
                    if self.started {
                        let at = tokio::time::Instant::now() + self.idle;
                        self.deadline.as_mut().reset(at);
                    } else if self.headers_end(fresh) {
                        self.start();
                    }
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(Guarded::timed_out())),
            other => other,
        }
    }
}

impl AsyncWrite for Guarded {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                self.write_blocked = false;
                if n > 0 && !self.upgraded {
                    if buf.starts_with(b"HTTP/1.1 101") {
                        self.upgraded = true;
                    } else {
                        self.between = true;
                    }
                    self.start();
                } else if n > 0 && !self.started {
                    self.start();
                }
                Poll::Ready(Ok(n))
            }
            // A client that does not read is given up like one that does not write.
            Poll::Pending if self.write_expired(cx) => Poll::Ready(Err(Guarded::timed_out())),
            other => other,
        }
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.inner).poll_flush(cx) {
            Poll::Ready(r) => {
                self.write_blocked = false;
                Poll::Ready(r)
            }
            Poll::Pending if self.write_expired(cx) => Poll::Ready(Err(Guarded::timed_out())),
            Poll::Pending => Poll::Pending,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// The address of the client of a request served through a [`GuardedListener`] (in the
/// request's `ConnectInfo<ClientAddr>`).
#[derive(Clone, Copy, Debug)]
pub struct ClientAddr(pub SocketAddr);

impl Connected<IncomingStream<'_, GuardedListener>> for ClientAddr {
    fn connect_info(stream: IncomingStream<'_, GuardedListener>) -> ClientAddr {
        ClientAddr(*stream.remote_addr())
    }
}

/// The client's address of a request, when it came through a [`GuardedListener`] (a router
/// served otherwise, as in tests, has none and is not limited per client).
pub fn client_ip(extensions: &axum::http::Extensions) -> Option<IpAddr> {
    extensions
        .get::<axum::extract::ConnectInfo<ClientAddr>>()
        .map(|c| c.0 .0.ip())
}

/// The group an address counts in for every per-address limit: an IPv6 address's /64 network
/// (what one subscriber or host is usually given, so one client cannot take a new allowance
/// with each of its addresses), an IPv4 address (or one mapped into IPv6) by itself.
pub fn group(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
        v4 => v4,
    }
}

/// Addresses remembered by a [`PerClient`] limiter before the ones back to a full allowance
/// are forgotten.
const MAX_TRACKED: usize = 10_000;

/// A token bucket per client address: `burst` actions at once, refilled at `per_minute`.
pub struct PerClient {
    per_minute: f64,
    burst: f64,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl PerClient {
    /// A limiter of `per_minute` actions a minute per address, `burst` at once.
    pub fn new(per_minute: u32, burst: u32) -> PerClient {
        PerClient {
            per_minute: f64::from(per_minute),
            burst: f64::from(burst.max(1)),
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one action's allowance for `ip` (`None`: unknown client, not limited); false if
    /// there is none left.
    pub fn take(&self, ip: Option<IpAddr>) -> bool {
        let Some(ip) = ip.map(group) else {
            return true;
        };
        let now = Instant::now();
        let mut b = lock(&self.buckets);
        if b.len() >= MAX_TRACKED {
            let (rate, burst) = (self.per_minute / 60.0, self.burst);
            b.retain(|_, (t, at)| *t + now.duration_since(*at).as_secs_f64() * rate < burst);
        }
        let (tokens, at) = b.entry(ip).or_insert((self.burst, now));
        *tokens = (*tokens + now.duration_since(*at).as_secs_f64() * self.per_minute / 60.0)
            .min(self.burst);
        *at = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// How many of something each client address holds at once (engine searches it asked for),
/// each taken with a [`Share`] that gives it back when dropped.
#[derive(Default)]
pub struct Shares {
    held: Arc<Mutex<HashMap<Option<IpAddr>, usize>>>,
}

/// One share taken from [`Shares`]; given back when dropped.
pub struct Share {
    key: Option<IpAddr>,
    held: Arc<Mutex<HashMap<Option<IpAddr>, usize>>>,
}

impl Shares {
    /// A share for `client` if it holds fewer than `max` (`None`, an unknown client, counts as
    /// one client of its own).
    pub fn take(&self, client: Option<IpAddr>, max: usize) -> Option<Share> {
        let client = client.map(group);
        let mut held = lock(&self.held);
        let n = held.entry(client).or_default();
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Share {
            key: client,
            held: self.held.clone(),
        })
    }
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = lock(&self.held);
        if let Some(n) = held.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.remove(&self.key);
            }
        }
    }
}

/// The address of the request's client, when the server knows it (see [`client_ip`]).
pub struct Client(pub Option<std::net::IpAddr>);

impl<S: Send + Sync> axum::extract::FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        _: &S,
    ) -> Result<Client, Self::Rejection> {
        Ok(Client(client_ip(&parts.extensions)))
    }
}
