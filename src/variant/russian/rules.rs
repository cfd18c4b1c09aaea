//! Russian game-end rules decided by the position and history counters (see
//! `../shared/rules/russian.md`, "End of the game"). Repetition and "no legal move" are handled by
//! `crate::game` and the search; this module holds what is specific to Russian.
//!
//! PLACEHOLDER: the whole-games issue fills this in; the three functions are the contract used
//! by `impl Position for RussianPosition` (`rule_state_new`, `rule_state_after`, `rule_end`).

use super::{RussianMove, RussianPosition};
use crate::variant::GameEnd;

/// Counters of the Russian rules that depend on history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleCounters {}

/// Counters for a position seen without history (each counter starts now if its condition
/// holds).
pub fn initial(_pos: &RussianPosition) -> RuleCounters {
    RuleCounters::default()
}

/// Counters after `mv` takes `pos` to `next`.
pub fn after(
    _pos: &RussianPosition,
    state: RuleCounters,
    _mv: &RussianMove,
    _next: &RussianPosition,
) -> RuleCounters {
    state
}

/// The game end these rules decide for `pos` with `state`, if any.
pub fn end(_pos: &RussianPosition, _state: &RuleCounters) -> Option<GameEnd> {
    None
}
