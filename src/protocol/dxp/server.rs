//! The TCP ends: a server that follows one connection at a time (others wait in a short
//! queue, and may make a long-held connection give way) and keeps serving after each
//! one ends (closed, dropped mid-game, silent, or sending garbage), and a client that connects
//! and plays a match as the initiator. Both are [`GameTask`]s, written once for every game.

use super::initiator::{play_games, Match};
use super::session::GameRecord;
use super::wire::Link;
use super::{serve_connection, Config};
use crate::core::Color;
use crate::dispatch::GameTask;
use crate::engine::GameSession;
use crate::eval::Evaluate;
use crate::variant::{Notation, Perft};
use std::collections::VecDeque;
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// Search resources of the engine behind a DXP session.
#[derive(Clone, Debug)]
pub struct Resources {
    /// Search threads.
    pub threads: usize,
    /// Transposition table, MiB.
    pub hash_mb: usize,
    /// Endgame databases: folder and cache size in MiB.
    pub egtb: Option<(PathBuf, usize)>,
    /// The folder is the default one, not named by the user: when its tables cannot be used
    /// for the game, that is said in the log and the games are played without them (a folder
    /// named must open).
    pub egtb_optional: bool,
}

impl Resources {
    /// A game session with these resources (the endgame databases opened for `P`), and the
    /// lines for the log about the tables: which were found, and the files left out.
    pub fn session<P: Evaluate>(&self) -> Result<(GameSession<P>, Vec<String>), String> {
        let mut session = GameSession::<P>::new(self.threads, self.hash_mb);
        let mut said = Vec::new();
        if let Some((dir, cache_mb)) = &self.egtb {
            match crate::egtb::endgames::open_for::<P>(dir, *cache_mb) {
                Ok((tb, tables)) => {
                    said.push(format!("endgame databases: {}", tb.describe()));
                    said.extend(tb.take_messages());
                    session.searcher_mut().set_endgames(Some(tables));
                }
                Err(e) if self.egtb_optional => {
                    said.push(format!("endgame databases not used: {e}"));
                }
                Err(e) => return Err(e),
            }
        }
        Ok((session, said))
    }
}

/// Serves DXP connections on `listener` one after the other, as the follower; stops after
/// `max_connections` if given. Returns every game played.
pub struct Serve {
    /// The bound listener.
    pub listener: TcpListener,
    /// Session behaviour.
    pub config: Config,
    /// Engine resources.
    pub resources: Resources,
    /// Stop after this many connections (`None`: serve for ever).
    pub max_connections: Option<usize>,
}

impl GameTask for Serve {
    /// Every game played, or why serving could not start (the endgame databases).
    type Output = Result<Vec<GameRecord>, String>;

    fn run<P: Evaluate + Perft>(self) -> Self::Output {
        let (mut session, said) = self.resources.session::<P>()?;
        session.set_evaluator(self.config.evals.get(P::VARIANT).clone())?;
        let mut records = Vec::new();
        let mut served = 0;
        // The port first: a caller that asked for any free port reads it from the first line.
        if let Ok(addr) = self.listener.local_addr() {
            (self.config.log)(&format!("{} follower listening on {addr}", P::VARIANT));
        }
        for line in &said {
            (self.config.log)(line);
        }
        let silent_for = self.config.busy_idle_timeout;
        let queue = spawn_acceptor(self.listener, self.config.log.clone(), silent_for)?;
        let mut cfg = self.config.clone();
        let waiting = queue.clone();
        cfg.waiting = std::sync::Arc::new(move || waiting.others_wait());
        while self.max_connections.is_none_or(|m| served < m) {
            let stream = queue.next();
            match Link::tcp(stream) {
                Ok(link) => records.extend(serve_connection(&mut session, link, &cfg)),
                Err(e) => (cfg.log)(&format!("cannot use a connection: {e}")),
            }
            served += 1;
        }
        Ok(records)
    }
}

/// Connections accepted and waiting for the server; past them a silent one makes way for a
/// newcomer, or the newcomer is closed.
pub const MAX_WAITING: usize = 8;

/// A connection waiting for the server.
struct Waiter {
    stream: TcpStream,
    addr: SocketAddr,
    since: Instant,
}

/// What a waiting connection has done, seen without reading from it.
#[derive(PartialEq)]
enum Heard {
    /// It sent something (an honest initiator's GAMEREQ comes at once).
    Spoke,
    /// Nothing yet.
    Silent,
    /// It closed, or broke.
    Gone,
}

impl Waiter {
    fn heard(&self) -> Heard {
        if self.stream.set_nonblocking(true).is_err() {
            return Heard::Gone;
        }
        let r = self.stream.peek(&mut [0u8; 1]);
        let restored = self.stream.set_nonblocking(false).is_ok();
        match r {
            Ok(n) if n > 0 && restored => Heard::Spoke,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock && restored => Heard::Silent,
            _ => Heard::Gone,
        }
    }
}

/// The connections waiting for the server, fair to a peer that speaks: one that stays silent
/// while another waits is closed after [`Config::busy_idle_timeout`], a full queue closes
/// its longest-silent connection for a newcomer, and the server takes a connection that has
/// spoken before the silent ones. (Nine silent connections, reopened when closed, used to
/// keep an honest peer out: it was refused, or waited behind each for the full timeout.)
#[derive(Clone)]
struct WaitingRoom {
    inner: std::sync::Arc<(Mutex<VecDeque<Waiter>>, Condvar)>,
    silent_for: Duration,
    log: super::Log,
}

impl WaitingRoom {
    fn lock(&self) -> std::sync::MutexGuard<'_, VecDeque<Waiter>> {
        // The queue holds connections only: a panic elsewhere leaves it usable.
        self.inner.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes the waiting connections that are gone, and those silent for
    /// [`Config::busy_idle_timeout`] when another waits (or is served: the server is busy
    /// whenever a connection waits).
    fn sweep(&self, queue: &mut VecDeque<Waiter>) {
        let now = Instant::now();
        queue.retain(|w| match w.heard() {
            Heard::Spoke => true,
            Heard::Gone => false,
            Heard::Silent if now.duration_since(w.since) < self.silent_for => true,
            Heard::Silent => {
                (self.log)(&format!(
                    "{}: closed, silent for {:.0} s while waiting",
                    w.addr,
                    now.duration_since(w.since).as_secs_f64()
                ));
                let _ = w.stream.shutdown(std::net::Shutdown::Both);
                false
            }
        });
    }

    /// Takes a newly accepted connection, making way for it if the queue is full.
    fn admit(&self, stream: TcpStream, addr: SocketAddr) {
        let mut queue = self.lock();
        self.sweep(&mut queue);
        if queue.len() >= MAX_WAITING {
            let silent = queue.iter().position(|w| w.heard() != Heard::Spoke);
            match silent {
                Some(i) => {
                    if let Some(w) = queue.remove(i) {
                        (self.log)(&format!(
                            "{}: closed, silent while waiting, for {addr}",
                            w.addr
                        ));
                        let _ = w.stream.shutdown(std::net::Shutdown::Both);
                    }
                }
                None => {
                    (self.log)(&format!(
                        "{addr}: refused, {MAX_WAITING} connections wait already"
                    ));
                    let _ = stream.shutdown(std::net::Shutdown::Both);
                    return;
                }
            }
        }
        queue.push_back(Waiter {
            stream,
            addr,
            since: Instant::now(),
        });
        self.inner.1.notify_one();
    }

    /// The next connection to serve: the first that has spoken, else the one waiting
    /// longest. Blocks until there is one.
    fn next(&self) -> TcpStream {
        let mut queue = self.lock();
        loop {
            self.sweep(&mut queue);
            let pick = queue
                .iter()
                .position(|w| w.heard() == Heard::Spoke)
                .or((!queue.is_empty()).then_some(0));
            if let Some(w) = pick.and_then(|i| queue.remove(i)) {
                return w.stream;
            }
            queue = self
                .inner
                .1
                .wait_timeout(queue, TICK)
                .map(|(q, _)| q)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Whether a connection waits for the server (silent ones past their time are closed
    /// first, so they do not make the one being served give way).
    fn others_wait(&self) -> bool {
        let mut queue = self.lock();
        self.sweep(&mut queue);
        !queue.is_empty()
    }
}

/// How often the server looks at its waiting connections when none may be served yet.
const TICK: Duration = Duration::from_millis(250);

/// Accepts connections on a thread of its own, so that the session serving one knows when
/// others wait (see [`Config::max_hold`]); returns the queue of accepted connections.
fn spawn_acceptor(
    listener: TcpListener,
    log: super::Log,
    silent_for: Duration,
) -> Result<WaitingRoom, String> {
    let room = WaitingRoom {
        inner: Default::default(),
        silent_for,
        log: log.clone(),
    };
    let admit = room.clone();
    std::thread::Builder::new()
        .name("dxp-accept".into())
        .spawn(move || loop {
            match listener.accept() {
                Ok((stream, addr)) => admit.admit(stream, addr),
                Err(e) => {
                    // Accept errors are transient (a connection reset before it was taken, no
                    // file descriptors left for a moment): wait and go on serving.
                    log(&format!("accept failed: {e}"));
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        })
        .map_err(|e| format!("no accepting thread: {e}"))?;
    Ok(room)
}

/// Connects to a DXP follower and plays a match as the initiator.
pub struct Connect {
    /// `host:port` of the follower.
    pub address: String,
    /// Session behaviour.
    pub config: Config,
    /// Engine resources.
    pub resources: Resources,
    /// Number of games, minutes and moves per game.
    pub games: u32,
    /// Minutes per player per game.
    pub minutes: u32,
    /// Moves per game (0: no limit).
    pub moves: u32,
    /// damka's colour in every game (`None`: alternate, White first).
    pub color: Option<Color>,
    /// Start position (FEN or Hub string); the game's initial position when `None`.
    pub start: Option<String>,
}

/// How long connecting may take.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

impl GameTask for Connect {
    /// The games played, and whether the match was completed.
    type Output = (Vec<GameRecord>, Result<(), String>);

    fn run<P: Evaluate + Perft>(self) -> Self::Output {
        match self.connect::<P>() {
            Ok((start, link)) => {
                let session = self.resources.session::<P>().and_then(|(mut s, said)| {
                    for line in &said {
                        (self.config.log)(line);
                    }
                    s.set_evaluator(self.config.evals.get(P::VARIANT).clone())?;
                    Ok(s)
                });
                let mut session = match session {
                    Ok(s) => s,
                    Err(e) => return (Vec::new(), Err(e)),
                };
                let m = Match {
                    games: self.games,
                    minutes: self.minutes,
                    moves: self.moves,
                    color: self.color,
                    start,
                };
                play_games(&mut session, link, &self.config, &m)
            }
            Err(e) => (Vec::new(), Err(e)),
        }
    }
}

impl Connect {
    /// The start position and the connection.
    fn connect<P: Evaluate>(&self) -> Result<(P, Link), String> {
        let start = match &self.start {
            Some(text) => P::parse_any(text).map_err(|e| e.to_string())?,
            None => P::start(),
        };
        let addrs: Vec<_> = self
            .address
            .to_socket_addrs()
            .map_err(|e| format!("bad address {:?}: {e}", self.address))?
            .collect();
        let mut last = format!("no address for {:?}", self.address);
        let mut stream = None;
        for a in addrs {
            match TcpStream::connect_timeout(&a, CONNECT_TIMEOUT) {
                Ok(s) => {
                    stream = Some(s);
                    break;
                }
                Err(e) => last = format!("cannot connect to {a}: {e}"),
            }
        }
        let stream = stream.ok_or(last)?;
        let link = Link::tcp(stream).map_err(|e| e.to_string())?;
        Ok((start, link))
    }
}
