//! The public types of a search: what to search ([`Job`], [`SearchLimits`]) and what comes
//! back ([`Report`] per iteration, [`Finished`] at the end).

use super::time::TimePlan;
use crate::core::Score;
use crate::variant::Position;

/// What stops a search (besides `stop`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget, summed over threads (exact with one thread).
    pub nodes: Option<u64>,
    /// Time plan (see [`TimePlan`]); measured from the start, or for the hard limit of a
    /// pondering search, from the ponder hit.
    pub time: TimePlan,
    /// Do not finish before `stop` (analysis without limit, `infinite`).
    pub infinite: bool,
    /// Analysis: search even a single legal move, do not stop early on a proven result.
    pub analyze: bool,
    /// Pondering: no clock until [`Searcher::ponder_hit`](super::Searcher::ponder_hit), never
    /// finish before it or `stop`.
    pub ponder: bool,
    /// Lines to search at the root, each with a different first move, best first (multi-PV);
    /// 0 and 1 both mean the single best line.
    pub multipv: u32,
}

impl SearchLimits {
    /// An analysis to `depth` plies and no further, with no other limit: what bench and the
    /// tests that compare trees ask for.
    pub fn to_depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            analyze: true,
            ..SearchLimits::default()
        }
    }

    /// The number of root lines asked for (at least 1).
    pub fn lines(&self) -> usize {
        self.multipv.max(1) as usize
    }
}

/// One search to run: the root, its history and the limits.
#[derive(Clone, Debug)]
pub struct Job<P: Position> {
    /// The position to search.
    pub root: P,
    /// The draw-rule counters at the root.
    pub root_state: P::RuleState,
    /// Keys of the positions before the root, oldest first, back to (and including) the
    /// position after the last irreversible move: the positions the root may repeat.
    pub history: Vec<u64>,
    /// The root moves the search may choose from (empty: every legal move). Moves that are
    /// not legal at the root are ignored.
    pub root_moves: Vec<P::Move>,
    /// Limits.
    pub limits: SearchLimits,
}

impl<P: Position> Job<P> {
    /// A job for a position without history.
    pub fn new(root: P, limits: SearchLimits) -> Job<P> {
        Job {
            root,
            root_state: root.rule_state_new(),
            history: Vec::new(),
            root_moves: Vec::new(),
            limits,
        }
    }

    /// The root moves the job may choose from: its [`Job::root_moves`] that are legal, or
    /// every legal move when it names none (or none of them is legal).
    pub fn allowed_root_moves(&self) -> Vec<P::Move> {
        let legal = self.root.legal_moves();
        let mut allowed: Vec<P::Move> = legal.to_vec();
        if !self.root_moves.is_empty() {
            allowed.retain(|m| self.root_moves.contains(m));
            if allowed.is_empty() {
                return legal.to_vec();
            }
        }
        allowed
    }
}

/// One root line of a multi-PV search: its score and its principal variation (never empty
/// in a result).
#[derive(Clone, Debug, PartialEq)]
pub struct RootLine<M> {
    /// Score for the side to move.
    pub score: Score,
    /// The line, its first move a root move.
    pub pv: Vec<M>,
}

/// Progress after a completed iteration (one report per root line in a multi-PV search).
#[derive(Clone, Debug)]
pub struct Report<P: Position> {
    /// Rank of the line, 1 for the best, when several lines were asked for
    /// ([`SearchLimits::multipv`] above 1); `None` in a single-line search.
    pub rank: Option<u32>,
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Mean ply of the evaluated leaves.
    pub mean_depth: f64,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Seconds since the start.
    pub time: f64,
    /// Principal variation.
    pub pv: Vec<P::Move>,
    /// The move comes from an opening book, not from a search (set by the engine facade;
    /// never by the search).
    pub book: bool,
}

impl<P: Position> Report<P> {
    /// Nodes per second so far (0 before any time has passed).
    pub fn nps(&self) -> f64 {
        if self.time > 0.0 {
            self.nodes as f64 / self.time
        } else {
            0.0
        }
    }
}

/// The answer to a search that was not run because the answer was known (a book move, a
/// root the endgame databases decide): `line`, reported to `on_report` as one iteration of
/// `depth` after `time` seconds (`book`: from an opening book) and returned as the result.
/// Book moves (the engine facade) and database moves (the searcher) both answer this way.
pub fn answer_without_search<P: Position>(
    line: RootLine<P::Move>,
    depth: u32,
    time: f64,
    book: bool,
    on_report: &mut dyn FnMut(&Report<P>),
) -> Finished<P> {
    on_report(&Report {
        rank: None,
        depth,
        seldepth: depth,
        mean_depth: f64::from(depth),
        score: line.score,
        nodes: 0,
        time,
        pv: line.pv.clone(),
        book,
    });
    Finished {
        best: line.pv.first().copied(),
        ponder: None,
        score: line.score,
        depth,
        nodes: 0,
        time,
        pv: line.pv.clone(),
        lines: vec![line],
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Finished<P: Position> {
    /// Best move (`None` only without legal moves).
    pub best: Option<P::Move>,
    /// Expected reply.
    pub ponder: Option<P::Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Completed depth.
    pub depth: u32,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Seconds.
    pub time: f64,
    /// Principal variation of the chosen thread.
    pub pv: Vec<P::Move>,
    /// The root lines of the last completed iteration, best first, with distinct first
    /// moves (as many as asked for and as there are root moves; empty when no iteration
    /// completed).
    pub lines: Vec<RootLine<P::Move>>,
}
