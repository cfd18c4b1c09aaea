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
use crossbeam_channel::{Receiver, TrySendError};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::path::PathBuf;
use std::time::Duration;

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
        let queue = spawn_acceptor(self.listener, self.config.log.clone())?;
        let mut cfg = self.config.clone();
        let waiting = queue.clone();
        cfg.waiting = std::sync::Arc::new(move || !waiting.is_empty());
        while self.max_connections.is_none_or(|m| served < m) {
            let Ok(stream) = queue.recv() else { break };
            match Link::tcp(stream) {
                Ok(link) => records.extend(serve_connection(&mut session, link, &cfg)),
                Err(e) => (cfg.log)(&format!("cannot use a connection: {e}")),
            }
            served += 1;
        }
        Ok(records)
    }
}

/// Connections accepted and waiting for the server; more are closed at once.
pub const MAX_WAITING: usize = 8;

/// Accepts connections on a thread of its own, so that the session serving one knows when
/// others wait (see [`Config::max_hold`]); returns the queue of accepted connections.
fn spawn_acceptor(listener: TcpListener, log: super::Log) -> Result<Receiver<TcpStream>, String> {
    let (tx, rx) = crossbeam_channel::bounded(MAX_WAITING);
    std::thread::Builder::new()
        .name("dxp-accept".into())
        .spawn(move || loop {
            match listener.accept() {
                Ok((stream, addr)) => match tx.try_send(stream) {
                    Ok(()) => {}
                    Err(TrySendError::Full(stream)) => {
                        log(&format!(
                            "{addr}: refused, {MAX_WAITING} connections wait already"
                        ));
                        let _ = stream.shutdown(std::net::Shutdown::Both);
                    }
                    Err(TrySendError::Disconnected(_)) => return,
                },
                Err(e) => {
                    // Accept errors are transient (a connection reset before it was taken, no
                    // file descriptors left for a moment): wait and go on serving.
                    log(&format!("accept failed: {e}"));
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        })
        .map_err(|e| format!("no accepting thread: {e}"))?;
    Ok(rx)
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
