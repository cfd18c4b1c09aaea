//! The engine facade: the one place where text meets search. It owns the current game (chosen
//! variant, position, history), the options (threads, hash), and the search threads; `go` is
//! non-blocking and reports through callbacks, so the protocol and CLI never see a generic
//! type or a search internal.
//!
//! PLACEHOLDER BODIES: the types and signatures below are the contract used by the Hub
//! protocol, the CLI and the tools; the search issue implements the bodies (and may add
//! methods, but not change these without updating every user).

use crate::core::{Score, Variant};
use std::fmt;

/// Search limits, as set by the Hub `level` command or the command line. Unset fields do not
/// limit. With no limit at all the search runs until `stop`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Fixed time for this move, seconds.
    pub movetime: Option<f64>,
    /// Remaining clock time, seconds (may be zero or negative: move at once).
    pub time: Option<f64>,
    /// Increment added before each move, seconds (already included in the time available
    /// now: with `time=T inc=I` the engine may use up to T + I this move).
    pub inc: f64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// Search until `stop`, whatever the other limits say.
    pub infinite: bool,
}

/// What kind of search `go` starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Find a move to play, within the limits.
    Think,
    /// Think on the opponent's time: the expected move is already played; the clock does not
    /// run until `ponder_hit`, and the search never stops by itself before it.
    Ponder,
    /// Analyse: no hurry, search even a single legal move, run until the limits or `stop`.
    Analyze,
}

/// A move in both notations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Hub numbers with every captured square (`14x5x10`).
    pub hub: String,
    /// Algebraic with every landing square (`c3:e5:g7`).
    pub algebraic: String,
}

/// Progress of a search, reported once per completed iteration (and at the end).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Completed depth.
    pub depth: u32,
    /// Mean depth of the leaves reached (Scan's `mean-depth`).
    pub mean_depth: f64,
    /// Score for the side to move at the root, centi-men; wins are `WIN - plies`.
    pub score: Score,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Seconds since the search started.
    pub time: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Principal variation.
    pub pv: Vec<MoveText>,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    /// The move to play; `None` only if the position has no legal move.
    pub best: Option<MoveText>,
    /// The expected reply, if known.
    pub ponder: Option<MoveText>,
    /// Score of the best move, centi-men for the side to move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
}

/// Errors the facade reports; each message is fit to show a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A position text could not be read.
    BadPosition(String),
    /// A move in a move list is illegal, ambiguous or malformed (`index` counts from 0).
    BadMove {
        /// Index of the move in the list.
        index: usize,
        /// The reason.
        message: String,
    },
    /// `go` in a position with no legal move.
    NoLegalMove,
    /// `go` while a search is running.
    Busy,
    /// A bad option name or value.
    BadOption(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadPosition(m) => write!(f, "bad position: {m}"),
            EngineError::BadMove { message, .. } => write!(f, "{message}"),
            EngineError::NoLegalMove => f.write_str("no legal move"),
            EngineError::Busy => f.write_str("search already running"),
            EngineError::BadOption(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Callback receiving progress during a search (called from a search thread).
pub type InfoCallback = Box<dyn FnMut(&Info) + Send>;
/// Callback receiving the final result (called once, from a search thread).
pub type DoneCallback = Box<dyn FnOnce(SearchOutcome) + Send>;

/// The engine: current game, options and search threads.
pub struct Engine {
    _private: (),
}

impl Engine {
    /// A new engine for `variant` at the start position, one thread, default hash.
    pub fn new(_variant: Variant) -> Engine {
        unimplemented!()
    }

    /// The current variant.
    pub fn variant(&self) -> Variant {
        unimplemented!()
    }

    /// Switches the game; the position becomes that game's start position.
    pub fn set_variant(&mut self, _variant: Variant) {
        unimplemented!()
    }

    /// Number of search threads (at least 1).
    pub fn set_threads(&mut self, _n: usize) {
        unimplemented!()
    }

    /// Transposition table size in MiB (at least 1); clears it.
    pub fn set_hash_mb(&mut self, _mb: usize) {
        unimplemented!()
    }

    /// Forgets the previous game: clears the transposition table and history tables.
    pub fn new_game(&mut self) {
        unimplemented!()
    }

    /// Sets the position (Hub position string or FEN) and plays `moves` (Hub numbers or
    /// algebraic) from it; the history is kept for repetition and draw rules. On error the
    /// position is left as it was.
    pub fn set_position(&mut self, _pos: &str, _moves: &[&str]) -> Result<(), EngineError> {
        unimplemented!()
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        unimplemented!()
    }

    /// Legal moves in the current position.
    pub fn legal_moves(&self) -> Vec<MoveText> {
        unimplemented!()
    }

    /// Starts a search on other threads and returns at once. `on_info` gets progress,
    /// `on_done` the result exactly once (also after `stop`).
    pub fn go(
        &mut self,
        _limits: Limits,
        _mode: GoMode,
        _on_info: InfoCallback,
        _on_done: DoneCallback,
    ) -> Result<(), EngineError> {
        unimplemented!()
    }

    /// Asks the running search to stop soon (it still reports through `on_done`).
    pub fn stop(&self) {
        unimplemented!()
    }

    /// The expected move was played: a ponder search goes on as a normal search with the
    /// clock now running; the time it already spent counts.
    pub fn ponder_hit(&self) {
        unimplemented!()
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        unimplemented!()
    }

    /// Blocks until the running search (if any) has finished and its `on_done` has returned.
    pub fn wait(&mut self) {
        unimplemented!()
    }

    /// Runs a search to completion on the calling thread's behalf and returns its result.
    pub fn search_blocking(
        &mut self,
        _limits: Limits,
        _mode: GoMode,
        _on_info: InfoCallback,
    ) -> Result<SearchOutcome, EngineError> {
        unimplemented!()
    }
}
