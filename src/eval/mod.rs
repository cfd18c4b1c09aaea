//! Evaluation, one module per game behind the [`Evaluate`] trait: the hand-written one
//! ([`classic`], with each game's terms in [`russian`], [`turkish`]) and the learned one
//! ([`pattern`], weights in [`netfile`] format, training records in [`data`]).
//!
//! Which one a search uses is the searcher's [`Evaluator`], owned by its engine and chosen by
//! the engine's options: two engines in one process may evaluate differently. A search thread
//! evaluates through its [`EvalStack`] ([`incremental`]), which keeps the learned evaluation's
//! sums from node to node. The files import one way: `classic`, `network` <- `pattern` <-
//! `incremental`, `netfile` <- `evaluator`.

pub mod cache;
pub mod classic;
pub mod data;
pub mod evaluator;
pub mod incremental;
pub mod netfile;
pub mod network;
pub mod pattern;
pub mod russian;
pub mod turkish;

pub use evaluator::{EvalKind, Evaluator, Evaluators};
pub use incremental::EvalStack;

use crate::core::Score;
use crate::variant::Position;

/// A static evaluation of a position, in centi-men from the side to move's point of view.
pub trait Evaluate: Position {
    /// The score of the position for the side to move, by `eval` (which must fit the
    /// position's game, [`evaluator::fits`]).
    fn evaluate(&self, eval: &Evaluator) -> Score;

    /// The same score, computed from what `stack` kept of the positions evaluated before
    /// (the search's nodes; `ply` is the position's distance from the root).
    fn evaluate_at(&self, eval: &Evaluator, stack: &mut EvalStack, ply: usize) -> Score;
}

/// The board turned half a turn (square `s` to `63 - s`): seen from the other side. Both games
/// are symmetric under this turn with colours swapped (it keeps Russian's dark squares dark).
#[inline]
pub fn rotate(b: u64) -> u64 {
    b.reverse_bits()
}
