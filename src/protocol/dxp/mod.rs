//! DamExchange (DXP): the TCP protocol draughts programs play each other with, in the 8x8
//! form pydraughts speaks (`docs/protocol/dxp.md`: the wire format and how damka plays it).
//!
//! - [`message`]: the messages as typed values, parsed strictly and written exactly,
//! - [`wire`]: NUL framing on a reader thread, a paced writer, the [`wire::Link`] a session
//!   runs over (TCP, or [`memory`] pipes in tests),
//! - [`board`]: positions and moves between DXP and the game's types,
//! - [`clock`]: both players' clocks, kept from arrival times,
//! - [`session`]: one game, either side of the connection,
//! - [`follower`] and [`initiator`]: the two roles over one connection,
//! - [`server`]: the TCP server and client around them, for any game.
//!
//! Nothing here writes to stdout; every log line goes through [`Config::log`].

pub mod board;
pub mod clock;
pub mod conn;
pub mod follower;
pub mod initiator;
pub mod memory;
pub mod message;
pub mod server;
pub mod session;
pub mod wire;

pub use follower::serve_connection;
pub use initiator::{play_games, Match};
pub use message::Message;
pub use session::{GameOver, GameRecord};

use crate::eval::Evaluators;
use std::sync::Arc;
use std::time::Duration;

/// The port pydraughts connects to by default.
pub const DEFAULT_PORT: u16 = 27531;

/// Where log lines go (stderr in the program, a collector in tests).
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// A log writing `damka dxp: ...` lines to stderr.
pub fn stderr_log() -> Log {
    // A closed stderr must not end the server: write errors are ignored.
    Arc::new(|line: &str| {
        use std::io::Write;
        let _ = writeln!(std::io::stderr().lock(), "damka dxp: {line}");
    })
}

/// Whether another connection is waiting for the server (see [`Config::max_hold`]).
pub type Waiting = Arc<dyn Fn() -> bool + Send + Sync>;

/// The longest game a peer may ask for, minutes: a GAMEREQ for more is refused, so that one
/// request cannot claim the server for hours (DXP allows 999 minutes).
pub const DEFAULT_MAX_MINUTES: u32 = 120;

/// Bytes of log one connection may write by default: a long match's every message (about
/// 80 bytes a message) fits many times, a flood of valid messages does not fill the disk.
pub const DEFAULT_MAX_LOG_BYTES: usize = 1 << 20;

/// Seconds a connection with no game may stay silent while another waits, by default: an
/// honest initiator sends its GAMEREQ at once.
pub const DEFAULT_BUSY_IDLE_SECONDS: u64 = 3;

/// How a DXP session behaves: its name, timeouts and thinking time.
#[derive(Clone)]
pub struct Config {
    /// The name sent in GAMEREQ and GAMEACC.
    pub name: String,
    /// Least time between two messages sent (see [`wire::Outbox`]).
    pub gap: Duration,
    /// How long a connection may stay without a game before it is closed.
    pub idle_timeout: Duration,
    /// How long an answer (GAMEACC, a GAMEEND acknowledgement) is waited for.
    pub reply_timeout: Duration,
    /// How long past the peer's own clock its move is waited for before the connection is
    /// given up.
    pub grace: Duration,
    /// The clock assumed, seconds, when a GAMEREQ gives 0 minutes ("less than a minute").
    pub zero_minute_clock: f64,
    /// A fixed thinking time per move, seconds, instead of planning from the clock (the clock
    /// still caps it).
    pub movetime: Option<f64>,
    /// Bad messages in a row after which a connection is closed.
    pub max_bad: u32,
    /// How long a write may stay blocked (the peer not reading) before the connection is
    /// dropped.
    pub write_timeout: Duration,
    /// The longest game, minutes, a GAMEREQ may ask for.
    pub max_minutes: u32,
    /// How long one connection may keep the server once another one waits: past it, the
    /// connection is closed (a game in progress is abandoned).
    pub max_hold: Duration,
    /// How long a connection may stay without a game, and without a message, while another
    /// one waits (instead of `idle_timeout`).
    pub busy_idle_timeout: Duration,
    /// Bytes of log one connection may write; past them its lines are dropped (one says so,
    /// and the connection's last line counts them).
    pub max_log_bytes: usize,
    /// Whether another connection waits (the server sets it; never, by default).
    pub waiting: Waiting,
    /// Where log lines go.
    pub log: Log,
    /// The evaluation of each game (the command line's `--eval`, `--eval-file`).
    pub evals: Evaluators,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            name: format!("damka {}", env!("CARGO_PKG_VERSION")),
            gap: Duration::from_millis(100),
            idle_timeout: Duration::from_secs(300),
            reply_timeout: Duration::from_secs(30),
            grace: Duration::from_secs(60),
            zero_minute_clock: 20.0,
            movetime: None,
            max_bad: 16,
            write_timeout: Duration::from_secs(10),
            max_minutes: DEFAULT_MAX_MINUTES,
            max_hold: Duration::from_secs(900),
            busy_idle_timeout: Duration::from_secs(DEFAULT_BUSY_IDLE_SECONDS),
            max_log_bytes: DEFAULT_MAX_LOG_BYTES,
            waiting: Arc::new(|| false),
            log: stderr_log(),
            evals: Evaluators::default(),
        }
    }
}

impl Config {
    /// The seconds each player has for a game of `minutes` minutes.
    pub fn clock_seconds(&self, minutes: u32) -> f64 {
        if minutes == 0 {
            self.zero_minute_clock
        } else {
            minutes as f64 * 60.0
        }
    }
}
