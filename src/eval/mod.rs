//! Evaluation, one module per game behind the [`Evaluate`] trait.
//! PLACEHOLDER: written by the search issue.

use crate::core::Score;
use crate::variant::Position;

/// A static evaluation of a position, in centi-men from the side to move's point of view.
pub trait Evaluate: Position {
    /// The score of the position for the side to move.
    fn evaluate(&self) -> Score;
}
