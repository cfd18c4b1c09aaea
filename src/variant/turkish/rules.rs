//! Turkish game-end rules decided by the position (see `docs/rules/turkish.md`, "End of the
//! game"). Repetition and "no legal move" are handled by `crate::game` and the search; this
//! module holds what is specific to Turkish: one piece against one piece.
//!
//! Turkish has no draw counters, so [`RuleCounters`] is empty and stays so (the default
//! methods of [`crate::variant::Rules`]).

use super::TurkishPosition;
use crate::core::Color;
use crate::variant::{EndRule, GameEnd, Outcome, Position};

/// Counters of the Turkish rules that depend on history: none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleCounters {}

/// The game end these rules decide for `pos`, if any: with one piece on each side, a lone king
/// against a lone man wins for the king's side (whoever is to move), and any other pair (man
/// against man, king against king) is a draw.
#[inline]
pub fn end(pos: &TurkishPosition, _state: &RuleCounters) -> Option<GameEnd> {
    let w = pos.pieces(Color::White);
    let b = pos.pieces(Color::Black);
    if w.all().count_ones() != 1 || b.all().count_ones() != 1 {
        return None;
    }
    let (wk, bk) = (w.kings != 0, b.kings != 0);
    let end = match (wk, bk) {
        (true, false) => GameEnd {
            outcome: Outcome::Win(Color::White),
            rule: EndRule::LoneKingAgainstMan,
        },
        (false, true) => GameEnd {
            outcome: Outcome::Win(Color::Black),
            rule: EndRule::LoneKingAgainstMan,
        },
        _ => GameEnd {
            outcome: Outcome::Draw,
            rule: EndRule::OnePieceEach,
        },
    };
    Some(end)
}
