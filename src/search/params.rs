//! Every tunable constant of the search in one place, so that tuning touches one file and a
//! bench signature change can be traced to it.

/// Deepest ply the search ever reaches (arrays per ply are sized by it).
pub const MAX_PLY: usize = 128;

/// Deepest iteration of iterative deepening.
pub const MAX_DEPTH: u32 = 100;

/// Aspiration windows start at this depth ...
pub const ASPIRATION_MIN_DEPTH: u32 = 5;
/// ... with this half-width (centi-men) around the previous score ...
pub const ASPIRATION_DELTA: i32 = 30;
/// ... and grow by this factor (in percent) after each fail.
pub const ASPIRATION_GROWTH_PCT: i32 = 200;

/// Late-move reductions apply from this remaining depth ...
pub const LMR_MIN_DEPTH: i32 = 3;
/// ... to quiet moves from this index on (0-based), killers excepted ...
pub const LMR_MIN_MOVE: usize = 2;
/// ... by `ln(depth) * ln(index) / LMR_DIVISOR` plies (rounded down), one less on the
/// principal variation, leaving at least one ply: late moves of deep nodes are reduced more.
pub const LMR_DIVISOR: f64 = 1.8;

/// Internal iterative reduction: a node below the root with at least this much depth left and
/// no move from the transposition table is searched one ply shallower. 0 turns it off.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Lazy SMP breadcrumbs: with several threads, a node within this many plies of the root
/// that another thread is searching at the same moment has its late quiet moves reduced one
/// ply more, so that the threads spread over different subtrees instead of repeating each
/// other's work. One thread never meets another's crumb, so its search is unchanged. 0 turns
/// it off.
pub const BREADCRUMB_PLIES: usize = 8;
/// Slots of the shared breadcrumb table (a power of two; a slot is one `AtomicU64`).
pub const BREADCRUMB_SLOTS: usize = 1024;

/// Static-value pruning (reverse futility): a node off the principal variation with at most
/// this much depth left, where the side to move has no capture and faces no real capture
/// threat, is cut off when its static value beats beta by [`RFP_MARGIN`] per ply of depth
/// (the evaluation is trusted to a margin that grows with the moves it cannot see). 0 turns
/// it off.
pub const RFP_MAX_DEPTH: i32 = 3;
/// Centi-men per ply of remaining depth that the static value must beat beta by.
pub const RFP_MARGIN: i32 = 40;
/// Static-value pruning needs at least this many pieces on the board: in the endings below
/// it the static value says "winning" where the search must find the win itself (kings
/// against a king), and a cut-off there hides the winning line.
pub const RFP_MIN_PIECES: u32 = 10;

/// Futility pruning: in a node off the principal variation with at most this much depth
/// left (same screens as [`RFP_MAX_DEPTH`]: no capture due, no real threat, at least
/// [`RFP_MIN_PIECES`] pieces), whose static value plus [`FUTILITY_MARGIN`] per ply of depth
/// stays at or below alpha, quiet moves after the first (hash move and killers excepted) are
/// not searched: a quiet move rarely gains that much within one or two plies, and the
/// screens keep the nodes where material is at stake. 0 turns it off.
pub const FUTILITY_MAX_DEPTH: i32 = 2;
/// Centi-men per ply of remaining depth by which the static value must fall short of alpha.
pub const FUTILITY_MARGIN: i32 = 100;

/// The deepest node either static-value pruning looks at.
pub const STATIC_MAX_DEPTH: i32 = if RFP_MAX_DEPTH > FUTILITY_MAX_DEPTH {
    RFP_MAX_DEPTH
} else {
    FUTILITY_MAX_DEPTH
};

/// Singular extensions: in a node with at least this much depth left whose table move
/// scored a lower bound (or exact) at most three plies shallower, the other moves are
/// searched to half the depth with a window [`SINGULAR_MARGIN`] per ply below the table's
/// score; if none reaches it, the table move is the only good one and is searched a ply
/// deeper (draughts shots and forced defences are such moves). If one reaches it and that
/// is still at or above beta, two moves beat beta and the node is cut off. 0 turns it off.
pub const SINGULAR_MIN_DEPTH: i32 = 6;
/// Centi-men per ply of depth by which the other moves must stay below the table's score.
pub const SINGULAR_MARGIN: i32 = 2;

/// A node with one legal move is searched one ply deeper (forced moves cost nothing to look
/// through, and draughts shots are sequences of forced moves).
pub const SINGLE_REPLY_EXTENSION: bool = true;

/// Capture resolution also answers capture threats: a position where the side to move has no
/// capture but the opponent would have one that wins material (no recapture, or two pieces or
/// more) is searched on (all moves) this many times along a path, instead of being evaluated.
/// 0 turns it off.
pub const QS_THREAT_REPLIES: u32 = 1;

/// Move-ordering scores: the hash move first, then captures by the number taken, then
/// promotions, killers and the history of quiet moves.
pub const ORDER_HASH: i32 = 1 << 30;
/// Base score of a capture (plus [`ORDER_CAPTURE_PER_PIECE`] per captured piece).
pub const ORDER_CAPTURE: i32 = 1 << 28;
/// Bonus per captured piece.
pub const ORDER_CAPTURE_PER_PIECE: i32 = 1 << 16;
/// Bonus of a promotion.
pub const ORDER_PROMOTION: i32 = 1 << 27;
/// Score of the first killer (the second gets one less).
pub const ORDER_KILLER: i32 = 1 << 26;
/// History scores saturate here (kept below the killers).
pub const HISTORY_MAX: i32 = 1 << 20;
/// Quiet moves of a node remembered for the history penalty after a cut (the later ones of a
/// node with more go unpunished).
pub const MAX_QUIETS_TRIED: usize = 64;

/// Nodes between two clock checks of the main thread (a clock read costs about as much as
/// a node; 256 nodes are well under a millisecond, so a hard limit is never passed by much).
pub const TIME_CHECK_NODES: u64 = 256;

/// Main-search nodes between two turns of the host where there are no threads (WebAssembly):
/// each turn is a call into the page's script, which lets its message loop run only when
/// some milliseconds have passed.
pub const PAUSE_NODES: u64 = 1024;

/// Capture resolution below one horizon node may take this many nodes; past it, positions
/// with a capture threat are evaluated instead of searched on, and positions where a capture
/// is due are evaluated as they stand. A safety valve against the rare positions where
/// flying kings and threats make one leaf explode (Turkish: thousands of nodes at depth 1),
/// so that "move now" is honoured promptly; ordinary positions stay far below it.
pub const QS_NODE_BUDGET: u32 = 1 << 12;

/// A search whose hard limit is shorter than this (seconds) runs on the main thread alone.
pub const HELPER_MIN_TIME: f64 = 0.01;

/// Time kept in reserve on every move, seconds (process and pipe latency).
pub const MOVE_OVERHEAD: f64 = 0.03;
/// Moves assumed to remain in the game when the clock has no `moves_to_go` and the game
/// names no number of its own (`Position::CLOCK_MOVES_TO_GO`).
pub const DEFAULT_MOVES_TO_GO: f64 = 30.0;
/// The most moves to go a clock's own `moves_to_go` is planned over.
pub const MAX_MOVES_TO_GO: f64 = 60.0;
/// Fraction of the increment counted as usable this move.
pub const INC_USE: f64 = 0.8;
/// With an increment, this many increments of the clock are kept in reserve (at most
/// [`RESERVE_MAX`] seconds): the moves share only the clock above the reserve, and below it
/// a move takes less than the increment, so the clock climbs back. Without it the clock
/// settled a few milliseconds above zero at fast increments (the process and pipe latency
/// ate the fifth of the increment the plan left), and one stall of the machine lost the game.
pub const RESERVE_INCREMENTS: f64 = 20.0;
/// The largest reserve, seconds.
pub const RESERVE_MAX: f64 = 1.0;
/// Below the reserve a move still takes at least this fraction of its usual share of the
/// increment (the clock then gains the rest back every move).
pub const LOW_CLOCK_MIN_SHARE: f64 = 0.25;
/// The hard limit is this many times the planned time ...
pub const HARD_FACTOR: f64 = 4.0;
/// ... but never more than this fraction of the remaining clock.
pub const HARD_CLOCK_FRACTION: f64 = 0.4;
/// A new iteration is not started after this fraction of the planned time (it would rarely
/// finish).
pub const SOFT_ITERATION_FRACTION: f64 = 0.6;
/// The planned time grows by this fraction every time the best move changes between
/// iterations, and shrinks when it is stable.
pub const INSTABILITY_BONUS: f64 = 0.5;
/// Planned time multiplier once the best move has been stable for several iterations.
pub const STABLE_FACTOR: f64 = 0.7;
