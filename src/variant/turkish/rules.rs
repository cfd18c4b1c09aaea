//! Turkish game-end rules decided by the position and history counters (see
//! `../shared/rules/turkish.md`, "End of the game"). Repetition and "no legal move" are handled by
//! `crate::game` and the search; this module holds what is specific to Turkish.
//!
//! PLACEHOLDER: the whole-games issue fills this in; the three functions are the contract used
//! by `impl Position for TurkishPosition` (`rule_state_new`, `rule_state_after`, `rule_end`).

use super::{TurkishMove, TurkishPosition};
use crate::variant::GameEnd;

/// Counters of the Turkish rules that depend on history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleCounters {}

/// Counters for a position seen without history (each counter starts now if its condition
/// holds).
pub fn initial(_pos: &TurkishPosition) -> RuleCounters {
    RuleCounters::default()
}

/// Counters after `mv` takes `pos` to `next`.
pub fn after(
    _pos: &TurkishPosition,
    state: RuleCounters,
    _mv: &TurkishMove,
    _next: &TurkishPosition,
) -> RuleCounters {
    state
}

/// The game end these rules decide for `pos` with `state`, if any.
pub fn end(_pos: &TurkishPosition, _state: &RuleCounters) -> Option<GameEnd> {
    None
}
