//! Evaluation, one module per game behind the [`Evaluate`] trait: the hand-written one
//! ([`russian`], [`turkish`]) and the learned one ([`pattern`], weights in [`netfile`]
//! format, training records in [`data`]).
//!
//! Which one the search uses is chosen per game at run time ([`select`]): a process-wide
//! setting, read with one relaxed atomic load per evaluation, so the search needs no
//! evaluation state of its own.

pub mod classic;
pub mod data;
pub mod netfile;
pub mod network;
pub mod pattern;
pub mod russian;
pub mod select;
pub mod turkish;

use crate::core::Score;
use crate::variant::Position;

/// A static evaluation of a position, in centi-men from the side to move's point of view.
pub trait Evaluate: Position {
    /// The score of the position for the side to move.
    fn evaluate(&self) -> Score;
}

/// The board turned half a turn (square `s` to `63 - s`): seen from the other side. Both games
/// are symmetric under this turn with colours swapped (it keeps Russian's dark squares dark).
#[inline]
pub fn rotate(b: u64) -> u64 {
    b.reverse_bits()
}
