//! The facade's typed values and their text: search limits and modes, what a search reports
//! and returns (with its moves in both notations), the facade's errors, and the kinds of the
//! options it declares.

#[cfg(doc)]
use super::{Engine, GameSession};
use crate::core::Score;
use crate::eval::Evaluate;
use crate::search::time::TimePlan;
use crate::search::{Finished, Report, SearchLimits};
use crate::variant::{Notation, Position};
use std::fmt;

/// Search limits, as set by the Hub `level` command or the command line. Unset fields do not
/// limit. With no limit at all the search runs until `stop`. `M` is how root moves are held:
/// typed moves of the game (`P::Move`) for a [`GameSession`], text for the [`Engine`] facade,
/// which reads them in the position it searches.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits<M = String> {
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
    /// Search only these root moves (empty: all).
    pub moves_only: Vec<M>,
    /// Never play these root moves.
    pub exclude: Vec<M>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            time: None,
            inc: 0.0,
            moves_to_go: None,
            infinite: false,
            moves_only: Vec::new(),
            exclude: Vec::new(),
        }
    }
}

impl<M> Limits<M> {
    /// The same limits with each root move turned by `read` (text read in a position); the
    /// first move it refuses is the error, with its index in its list.
    pub fn map_moves<N, E>(
        &self,
        mut read: impl FnMut(&M) -> Result<N, E>,
    ) -> Result<Limits<N>, (usize, E)> {
        let mut list = |moves: &[M]| -> Result<Vec<N>, (usize, E)> {
            moves
                .iter()
                .enumerate()
                .map(|(i, m)| read(m).map_err(|e| (i, e)))
                .collect()
        };
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            time: self.time,
            inc: self.inc,
            moves_to_go: self.moves_to_go,
            infinite: self.infinite,
            moves_only: list(&self.moves_only)?,
            exclude: list(&self.exclude)?,
        })
    }
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
pub struct SearchInfo {
    /// Rank of this line, 1 for the best, when several root lines were asked for
    /// (multi-PV); `None` otherwise.
    pub multipv: Option<u32>,
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
    /// Successful endgame database probes so far (`None` without databases).
    pub egtb_hits: Option<u64>,
    /// The move comes from the opening book, not from a search.
    pub book: bool,
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
pub type InfoCallback = Box<dyn FnMut(&SearchInfo) + Send>;
/// Callback receiving the final result (called once, from a search thread).
pub type DoneCallback = Box<dyn FnOnce(SearchOutcome) + Send>;

/// The kind and range of an engine option (for the Hub `param` lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of the listed values.
    Enum(Vec<&'static str>),
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// Any text (a file name).
    Text,
    /// `true` or `false` (Hub `type=bool`; `on`/`off`, `yes`/`no`, `1`/`0` are read too).
    Bool,
}

/// Reads a boolean option value: `true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0`.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// An option the engine declares, with its current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Name (`variant`, `threads`, `hash`).
    pub name: &'static str,
    /// Kind and range.
    pub kind: OptionKind,
    /// Current value as text.
    pub value: String,
}

/// A move in both notations, in the position `pos`.
pub fn text<P: Position>(pos: &P, mv: &P::Move) -> MoveText {
    MoveText {
        hub: pos.move_to_hub(mv),
        algebraic: pos.move_to_algebraic(mv),
    }
}

/// The principal variation as text, cut at the first move that is not legal (a table hint
/// from another position cannot be shown).
pub fn pv_text<P: Position>(root: &P, pv: &[P::Move]) -> Vec<MoveText> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for m in pv {
        if !pos.legal_moves().contains(m) {
            break;
        }
        out.push(text(&pos, m));
        pos = pos.play(m);
    }
    out
}

pub(super) fn info<P: Evaluate>(root: &P, r: &Report<P>) -> SearchInfo {
    SearchInfo {
        multipv: r.rank,
        depth: r.depth,
        mean_depth: r.mean_depth,
        score: r.score,
        nodes: r.nodes,
        time: r.time,
        nps: r.nps(),
        pv: pv_text(root, &r.pv),
        egtb_hits: None,
        book: r.book,
    }
}

pub(super) fn outcome<P: Evaluate>(root: &P, f: &Finished<P>) -> SearchOutcome {
    let best = f.best.map(|m| text(root, &m));
    let ponder = match (f.best, f.ponder) {
        (Some(b), Some(p)) => Some(text(&root.play(&b), &p)),
        _ => None,
    };
    SearchOutcome {
        best,
        ponder,
        score: f.score,
        depth: f.depth,
        nodes: f.nodes,
    }
}

/// Turns the facade's limits into the search's, for a mode; a clock without moves to go is
/// planned over `moves_to_go` moves (the game's [`crate::variant::Position::CLOCK_MOVES_TO_GO`]).
pub fn search_limits<M>(limits: &Limits<M>, mode: GoMode, moves_to_go: u32) -> SearchLimits {
    let has_limit = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || (limits.time.is_some() && mode != GoMode::Analyze);
    let time = match (limits.movetime, limits.time) {
        (Some(t), _) => TimePlan::movetime(t),
        (None, Some(t)) if mode != GoMode::Analyze => {
            TimePlan::clock(t, limits.inc, limits.moves_to_go.or(Some(moves_to_go)))
        }
        _ => TimePlan::NONE,
    };
    SearchLimits {
        depth: limits.depth,
        nodes: limits.nodes,
        time,
        infinite: limits.infinite || !has_limit,
        analyze: mode == GoMode::Analyze,
        ponder: mode == GoMode::Ponder,
        multipv: 1,
    }
}
