//! Evaluation, one module per game behind the [`Evaluate`] trait.

pub mod russian;
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
