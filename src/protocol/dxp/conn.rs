//! A DXP connection as a game sees it: the reader thread's inbox, the paced outbox, the log of
//! the peer's faults (bounded, so a flood of bad messages cannot flood the log), and whether it
//! must give way to connections waiting for the engine.

use super::message::{GameReq, Message, ParseError};
use super::wire::{spawn_reader, Event, Inbox, Incoming, Link, Outbox, INBOX};
use super::{Config, Log, Waiting};
use crate::core::text::shorten_to;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the connection is ready for after a game.
#[derive(Clone, Debug, PartialEq)]
pub enum After {
    /// Another game (or the end of the connection).
    Open,
    /// The peer asked for a new game during the last one.
    Request(GameReq, Instant),
    /// The connection is gone.
    Closed,
}

/// Lines about a peer's faults (bad or unexpected messages, moves out of turn, CHATs) logged
/// per connection; past them the connection's traffic is no longer logged line by line, so
/// that a flood of small messages cannot fill the log many times faster than it is sent.
pub const MAX_NOISE_LINES: u32 = 32;

/// The longest log line about one message, characters (peer text is quoted in them).
pub const MAX_LOG_LINE: usize = 200;

/// How often a waiting session looks whether its connection must give way (see
/// [`Config::max_hold`]).
pub const TICK: Duration = Duration::from_millis(250);

/// A running connection: the reader thread's inbox and the paced outbox.
pub struct Conn {
    inbox: Inbox,
    out: Outbox,
    closer: Option<Box<dyn FnOnce() + Send>>,
    log: Log,
    peer: String,
    bad: u32,
    max_bad: u32,
    broken: Option<String>,
    noise: u32,
    quiet: Arc<AtomicBool>,
    connected: Instant,
    max_hold: Duration,
    waiting: Waiting,
    budget: Arc<LogBudget>,
}

impl Conn {
    /// Starts the reader thread of `link`.
    pub fn start(link: Link, cfg: &Config) -> Conn {
        let (tx, inbox) = crossbeam_channel::bounded(INBOX);
        spawn_reader(link.reader, tx);
        let peer = link.peer;
        let quiet = Arc::new(AtomicBool::new(false));
        let budget = Arc::new(LogBudget::new(cfg.max_log_bytes));
        let prefixed: Log = {
            let log = cfg.log.clone();
            let peer = peer.clone();
            let budget = budget.clone();
            Arc::new(move |l: &str| {
                let line = format!("{peer}: {}", shorten_to(l, MAX_LOG_LINE));
                match budget.take(line.len() + 1) {
                    Spend::Write => log(&line),
                    Spend::Last => log(&format!(
                        "{peer}: {} bytes of log written for this connection: the rest of it \
                         is not logged",
                        budget.limit
                    )),
                    Spend::Drop => {}
                }
            })
        };
        // The outbox logs every message sent, but not once the peer has become noise.
        let send_log: Log = {
            let log = prefixed.clone();
            let quiet = quiet.clone();
            Arc::new(move |l: &str| {
                if !quiet.load(Ordering::Relaxed) {
                    log(l)
                }
            })
        };
        Conn {
            inbox,
            out: Outbox::new(link.writer, cfg.gap, cfg.write_timeout, send_log),
            closer: Some(link.closer),
            log: prefixed,
            peer,
            bad: 0,
            max_bad: cfg.max_bad,
            broken: None,
            noise: 0,
            quiet,
            connected: Instant::now(),
            max_hold: cfg.max_hold,
            waiting: cfg.waiting.clone(),
            budget,
        }
    }

    /// Writes a log line about this connection.
    pub fn log(&self, line: &str) {
        (self.log)(line)
    }

    /// Writes a log line about a fault of the peer, unless [`MAX_NOISE_LINES`] were written.
    pub fn noise(&mut self, line: &str) {
        self.noise = self.noise.saturating_add(1);
        if self.noise <= MAX_NOISE_LINES {
            self.log(line);
        } else if self.noise == MAX_NOISE_LINES + 1 {
            self.log("too many faults: this connection's messages are no longer logged");
            self.quiet.store(true, Ordering::Relaxed);
        }
    }

    /// The peer's address or name.
    pub fn peer(&self) -> &str {
        &self.peer
    }

    /// Sends a message; a failure marks the connection broken (see [`Conn::broken`]).
    pub fn send(&mut self, msg: &Message) {
        if self.broken.is_some() {
            return;
        }
        if let Err(e) = self.out.send(msg) {
            self.log(&format!("cannot send: {e}"));
            self.broken = Some(format!("send failed: {e}"));
        }
    }

    /// Sends a CHAT.
    pub fn chat(&mut self, text: &str) {
        self.send(&Message::Chat(text.to_string()));
    }

    /// Why the connection can no longer be written to, if it cannot (a failed write, or a
    /// peer that has stopped reading).
    pub fn broken(&mut self) -> Option<&str> {
        if self.broken.is_none() {
            if let Some(why) = self.out.stalled() {
                self.log(&format!("dropped: {why}"));
                self.broken = Some(why);
            }
        }
        self.broken.as_deref()
    }

    /// Why this connection must give way to another one (it has held the server for
    /// [`Config::max_hold`] and another connection waits), if it must.
    pub fn must_yield(&self) -> Option<String> {
        let held = self.connected.elapsed();
        (held >= self.max_hold && (self.waiting)()).then(|| {
            format!(
                "held the server for {:.0} s while another connection waited",
                held.as_secs_f64()
            )
        })
    }

    /// Whether another connection waits for the server.
    pub fn others_wait(&self) -> bool {
        (self.waiting)()
    }

    /// The next incoming event, or `None` after `timeout`.
    pub fn recv(&mut self, timeout: Duration) -> Option<Incoming> {
        let r = self.inbox.recv_timeout(timeout).ok();
        if let Some(ev) = &r {
            self.note(ev);
        }
        r
    }

    /// Logs a received message (and counts it as a good one); for events taken from
    /// [`Conn::inbox`] directly.
    pub fn note(&mut self, ev: &Incoming) {
        self.out.heard();
        if let Event::Message(m) = &ev.event {
            self.bad = 0;
            if self.noise <= MAX_NOISE_LINES {
                self.log(&format!("recv {}: {}", m.kind(), m.to_wire()));
            }
        }
    }

    /// The inbox, to wait on it together with something else.
    pub fn inbox(&self) -> &Inbox {
        &self.inbox
    }

    /// Answers a message that could not be read: a log line and a CHAT naming the fault.
    /// Returns `true` when too many came in a row and the connection should be dropped.
    pub fn bad(&mut self, e: &ParseError) -> bool {
        self.bad += 1;
        self.noise(&format!("bad message: {e}"));
        self.chat(&format!("error: {e}"));
        self.bad >= self.max_bad
    }

    /// Log lines of this connection not written, past [`Config::max_log_bytes`].
    pub fn unlogged(&self) -> u64 {
        self.budget.dropped.load(Ordering::Relaxed)
    }

    /// Closes the connection (what was sent is written first, if the peer reads it).
    pub fn close(mut self) {
        self.out.finish();
        if let Some(c) = self.closer.take() {
            c();
        }
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        // A connection dropped without `close` (a panic) must not leave its writer blocked.
        if let Some(c) = self.closer.take() {
            c();
        }
    }
}

/// The bytes of log one connection may still write (see [`Config::max_log_bytes`]): a
/// flood of valid messages, each logged, could otherwise write many times what it sends.
struct LogBudget {
    limit: usize,
    used: AtomicUsize,
    dropped: AtomicU64,
}

/// What [`LogBudget::take`] allows.
enum Spend {
    /// Within the budget: write the line.
    Write,
    /// The first line past it: say that the rest is not logged.
    Last,
    /// Past it: drop the line.
    Drop,
}

impl LogBudget {
    fn new(limit: usize) -> LogBudget {
        LogBudget {
            limit,
            used: AtomicUsize::new(0),
            dropped: AtomicU64::new(0),
        }
    }

    /// Counts a line of `bytes`.
    fn take(&self, bytes: usize) -> Spend {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) <= self.limit {
            Spend::Write
        } else {
            // `used` only grows: exactly one line is the first past the limit.
            self.dropped.fetch_add(1, Ordering::Relaxed);
            if before <= self.limit {
                Spend::Last
            } else {
                Spend::Drop
            }
        }
    }
}
