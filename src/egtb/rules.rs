//! Stored values against the draw rules that count moves.
//!
//! The tables hold values under the move rules. Russian FMJD-64 7.2.4-7.2.8 draw a game when
//! a counter reaches its limit without a capture or crowning; every such counter restarts at a
//! conversion. So a stored win in `d` plies (the winner converts within `d` plies against any
//! defence, and the defender can hold it off that long against any winning play) meets a
//! counter with `r` plies left (the conversion move must be played before the count reaches its
//! limit, so `d <= r`) as follows:
//!
//! - `d <= r` for every counter: the win is sure for this phase and is claimed;
//! - `d > r` for a counter that only a conversion resets (7.2.4, 7.2.6, 7.2.8): the defender can
//!   reach the limit, and the game is a draw;
//! - `d > r` only for a counter that can stop without a conversion (7.2.5 with men on the
//!   board, which a man move resets; 7.2.7, which stops when the lone king leaves the long
//!   diagonal): the tables do not decide; the search goes on with its own counters.
//!
//! Losses mirror wins. Draws stay draws (the rules only add draws). Turkish has no counters.

use super::Value;
use crate::core::Color;
use crate::variant::russian::rules::{
    BALANCE_PLIES_LARGE, BALANCE_PLIES_SMALL, KING_MOVES_PLIES, SHORT_PLIES, THREE_KINGS_PLIES,
};
use crate::variant::{Position, RussianPosition, TurkishPosition};

/// Plies left before a draw rule ends the game: `hard` for counters only a conversion resets,
/// `soft` for those that may stop otherwise. `None`: no such counter runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PliesLeft {
    /// The nearest limit of a counter reset only by a conversion.
    pub hard: Option<u32>,
    /// The nearest limit of a counter that can stop without a conversion.
    pub soft: Option<u32>,
}

/// A game whose draw rules count moves: how many plies its counters leave.
pub trait CountedDraws: Position {
    /// The plies left in `self` with counters `state`.
    fn plies_left(&self, state: &Self::RuleState) -> PliesLeft;
}

fn min_opt(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

impl CountedDraws for RussianPosition {
    fn plies_left(&self, s: &Self::RuleState) -> PliesLeft {
        let left = |held: Option<u32>, limit: u32| held.map(|p| limit.saturating_sub(p));
        let total = super::pieces_on_board(self);
        let balance_limit = if total <= 5 {
            BALANCE_PLIES_SMALL
        } else {
            BALANCE_PLIES_LARGE
        };
        let mut hard = left(s.three_kings(), THREE_KINGS_PLIES);
        hard = min_opt(hard, left(s.balance(), balance_limit));
        hard = min_opt(hard, left(s.small(), SHORT_PLIES));
        let king_moves = Some(KING_MOVES_PLIES.saturating_sub(s.king_moves()));
        let men = self.pieces(Color::White).men | self.pieces(Color::Black).men;
        let mut soft = left(s.long_diagonal(), SHORT_PLIES);
        if men == 0 {
            // Without men nothing but a capture resets the king-move count.
            hard = min_opt(hard, king_moves);
        } else {
            soft = min_opt(soft, king_moves);
        }
        PliesLeft { hard, soft }
    }
}

impl CountedDraws for TurkishPosition {
    fn plies_left(&self, _s: &Self::RuleState) -> PliesLeft {
        PliesLeft::default()
    }
}

/// The value under the rules of a stored value with `left` plies left, or `None` when the
/// tables cannot tell (see the module text).
pub fn under_rules(v: Value, left: PliesLeft) -> Option<Value> {
    let d = match v {
        Value::Draw => return Some(v),
        Value::Win(d) | Value::Loss(d) => d as u32,
    };
    if left.hard.is_some_and(|r| d > r) {
        return Some(Value::Draw);
    }
    if left.soft.is_some_and(|r| d > r) {
        return None;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Notation;

    #[test]
    fn distances_meet_counters() {
        let hard = |r| PliesLeft {
            hard: Some(r),
            soft: None,
        };
        assert_eq!(under_rules(Value::Win(9), hard(10)), Some(Value::Win(9)));
        assert_eq!(under_rules(Value::Win(10), hard(10)), Some(Value::Win(10)));
        assert_eq!(under_rules(Value::Win(11), hard(10)), Some(Value::Draw));
        assert_eq!(under_rules(Value::Loss(11), hard(10)), Some(Value::Draw));
        let soft = PliesLeft {
            hard: Some(30),
            soft: Some(4),
        };
        assert_eq!(under_rules(Value::Win(5), soft), None);
        assert_eq!(under_rules(Value::Win(31), soft), Some(Value::Draw));
        assert_eq!(under_rules(Value::Draw, soft), Some(Value::Draw));
    }

    #[test]
    fn russian_counters_give_plies_left() {
        let p = RussianPosition::from_fen("W:WKc1,Ke3,Kg1:BKh4").unwrap();
        let s = p.rule_state_new();
        // Three kings against one off the long diagonal: 15 moves, kings only: 15 moves.
        assert_eq!(p.plies_left(&s).hard, Some(30));
        let p = RussianPosition::from_fen("W:WKc1,h2:BKf8").unwrap();
        let s = p.rule_state_new();
        assert_eq!(p.plies_left(&s).hard, Some(10));
    }
}
