//! Russian game-end rules decided by the position and history counters (see
//! `docs/rules/russian.md`, "End of the game"). Repetition and "no legal move" are handled by
//! `crate::game` and the search; this module holds what is specific to Russian: the FMJD-64 draw
//! rules 7.2.4 - 7.2.8.
//!
//! A "move" in those rules is a move of each side, so every limit is counted in plies: 15 moves
//! are 30 plies, 5 moves 10 plies. Each counter starts in the position where its condition first
//! holds and counts the plies played since while it keeps holding; it resets when the condition
//! stops holding. For the rules about a balance of material (7.2.4, 7.2.6, 7.2.7, 7.2.8) the
//! balance is part of the condition, so a capture or a promotion restarts the count ("counted
//! from when that balance arose"). The game is drawn in the position where a counter reaches its
//! limit, unless the side to move has no legal move there (then the last move won, and the
//! caller's "no legal move" rule reports it).
//!
//! Readings this file makes where the rules text leaves room:
//! - 7.2.4 "three or more kings against a lone king": the strong side has at least three kings
//!   (men beside them allowed), the other side exactly one piece, a king.
//! - 7.2.7 "three kings, two kings and a man, or a king and two men": exactly three pieces, at
//!   least one of them a king; the lone king must stand on a1-h8, and leaving it resets the
//!   count.
//! - 7.2.8 "two kings, a king and a man, or one king": one or two pieces, at least one a king.
//!
//! Everything here is `Copy` and allocation-free: the search calls `after` at every node.

use super::RussianPosition;
use crate::core::Color;
use crate::variant::Move;
use crate::variant::{EndRule, GameEnd, GameMove, Outcome, Pieces, Position};

/// The long diagonal a1-h8 (bits 0, 9, 18, ..., 63).
pub const LONG_DIAGONAL: u64 = 0x8040_2010_0804_0201;

/// Plies for rule 7.2.4 (three or more kings against a lone king): 15 moves.
pub const THREE_KINGS_PLIES: u32 = 30;
/// Plies for rule 7.2.5 (only kings moved, no man moved, no capture): 15 moves.
pub const KING_MOVES_PLIES: u32 = 30;
/// Plies for rule 7.2.6 with 4 or 5 pieces on the board: 30 moves.
pub const BALANCE_PLIES_SMALL: u32 = 60;
/// Plies for rule 7.2.6 with 6 or 7 pieces on the board: 60 moves.
pub const BALANCE_PLIES_LARGE: u32 = 120;
/// Plies for rules 7.2.7 (long diagonal) and 7.2.8 (small ending): 5 moves.
pub const SHORT_PLIES: u32 = 10;

/// Counters of the Russian rules that depend on history.
///
/// Each position counter holds 0 while its condition does not hold, and `1 + plies` while it
/// does (so a counter that has just started is told apart from one that is off). The
/// king-move counter is the number of plies in a row that were quiet king moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleCounters {
    three_kings: u8,
    king_moves: u8,
    balance: u8,
    long_diagonal: u8,
    small: u8,
}

impl RuleCounters {
    /// Plies played under rule 7.2.4 (three or more kings against a lone king), if it holds.
    pub fn three_kings(&self) -> Option<u32> {
        held(self.three_kings)
    }
    /// Plies in a row of quiet king moves (rule 7.2.5).
    pub fn king_moves(&self) -> u32 {
        self.king_moves as u32
    }
    /// Plies played with an unchanged balance in a 4-7 piece ending with kings on both sides
    /// (rule 7.2.6), if it holds.
    pub fn balance(&self) -> Option<u32> {
        held(self.balance)
    }
    /// Plies played with a lone king on the long diagonal against three pieces (rule 7.2.7),
    /// if it holds.
    pub fn long_diagonal(&self) -> Option<u32> {
        held(self.long_diagonal)
    }
    /// Plies played in a small ending against a lone king (rule 7.2.8), if it holds.
    pub fn small(&self) -> Option<u32> {
        held(self.small)
    }
}

fn held(c: u8) -> Option<u32> {
    (c > 0).then(|| c as u32 - 1)
}

/// Which of the position conditions hold.
#[derive(Clone, Copy, Default)]
struct Conditions {
    three_kings: bool,
    balance: bool,
    long_diagonal: bool,
    small: bool,
}

/// Whether `strong` against `weak` fits each rule that needs a lone king on the weak side.
#[inline]
fn against_lone_king(strong: Pieces, weak: Pieces) -> (bool, bool, bool) {
    if weak.men != 0 || weak.kings.count_ones() != 1 {
        return (false, false, false);
    }
    let kings = strong.kings.count_ones();
    let total = kings + strong.men.count_ones();
    (
        kings >= 3,
        total == 3 && kings >= 1 && weak.kings & LONG_DIAGONAL != 0,
        (1..=2).contains(&total) && kings >= 1,
    )
}

#[inline]
fn conditions(pos: &RussianPosition) -> Conditions {
    let w = pos.pieces(Color::White);
    let b = pos.pieces(Color::Black);
    if w.kings | b.kings == 0 {
        // Every rule wants a king, and most positions of a search have none: no piece counts
        // (a bit count is a loop of its own on a build without `popcnt`).
        return Conditions::default();
    }
    let (tw, lw, sw) = against_lone_king(w, b);
    let (tb, lb, sb) = against_lone_king(b, w);
    let balance = w.kings != 0 && b.kings != 0 && {
        let total = w.all().count_ones() + b.all().count_ones();
        (4..=7).contains(&total)
    };
    Conditions {
        three_kings: tw || tb,
        balance,
        long_diagonal: lw || lb,
        small: sw || sb,
    }
}

/// The next value of a position counter: off when the condition fails, restarted when it has
/// just begun or the balance changed, else one ply more (saturating: the limit is far below).
#[inline]
fn step(prev: u8, holds: bool, restart: bool) -> u8 {
    if !holds {
        0
    } else if prev == 0 || restart {
        1
    } else {
        prev.saturating_add(1)
    }
}

/// Counters for a position seen without history (each counter starts now if its condition
/// holds).
pub fn initial(pos: &RussianPosition) -> RuleCounters {
    let c = conditions(pos);
    RuleCounters {
        three_kings: c.three_kings as u8,
        king_moves: 0,
        balance: c.balance as u8,
        long_diagonal: c.long_diagonal as u8,
        small: c.small as u8,
    }
}

/// Counters after `mv` takes `pos` to `next`.
#[inline]
pub fn after(
    pos: &RussianPosition,
    state: RuleCounters,
    mv: &Move,
    next: &RussianPosition,
) -> RuleCounters {
    let c = conditions(next);
    let restart = mv.is_capture() || mv.promotes();
    let king_move = !mv.is_capture() && pos.pieces(pos.side_to_move()).kings & mv.from().bit() != 0;
    RuleCounters {
        three_kings: step(state.three_kings, c.three_kings, restart),
        king_moves: if king_move {
            state.king_moves.saturating_add(1)
        } else {
            0
        },
        balance: step(state.balance, c.balance, restart),
        long_diagonal: step(state.long_diagonal, c.long_diagonal, restart),
        small: step(state.small, c.small, restart),
    }
}

/// The rule whose counter has reached its limit in `pos`, if any (shortest rules first).
fn limit_reached(pos: &RussianPosition, s: &RuleCounters) -> Option<EndRule> {
    let over = |c: u8, limit: u32| c as u32 > limit;
    if over(s.long_diagonal, SHORT_PLIES) {
        return Some(EndRule::LongDiagonal);
    }
    if over(s.small, SHORT_PLIES) {
        return Some(EndRule::SmallEnding);
    }
    if over(s.three_kings, THREE_KINGS_PLIES) {
        return Some(EndRule::ThreeKingsAgainstKing);
    }
    if s.king_moves as u32 >= KING_MOVES_PLIES {
        return Some(EndRule::KingMovesOnly);
    }
    if s.balance != 0 {
        let total = pos.pieces(Color::White).all().count_ones()
            + pos.pieces(Color::Black).all().count_ones();
        let limit = if total <= 5 {
            BALANCE_PLIES_SMALL
        } else {
            BALANCE_PLIES_LARGE
        };
        if over(s.balance, limit) {
            return Some(EndRule::BalanceUnchanged);
        }
    }
    None
}

/// The game end these rules decide for `pos` with `state`, if any: a draw when a counter has
/// reached its limit. Returns `None` when the side to move has no legal move, even at a limit:
/// the move that reached it won the game, which the caller reports as "no legal move".
pub fn end(pos: &RussianPosition, state: &RuleCounters) -> Option<GameEnd> {
    let rule = limit_reached(pos, state)?;
    // Only at a limit, so the move count costs nothing in the search's common case.
    if pos.count_moves() == 0 {
        return None;
    }
    Some(GameEnd {
        outcome: Outcome::Draw,
        rule,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::Notation;

    fn pos(fen: &str) -> RussianPosition {
        RussianPosition::from_fen(fen).unwrap()
    }

    #[test]
    fn counters_start_where_the_condition_holds() {
        let s = initial(&pos("W:WKc1,h2:BKf8"));
        assert_eq!(s.small(), Some(0));
        assert_eq!(s.balance(), None);
        assert_eq!(s.three_kings(), None);
        let s = initial(&pos("W:WKc1,Ke1,Kg1,a3:BKh4"));
        assert_eq!(
            (s.three_kings(), s.balance(), s.small()),
            (Some(0), Some(0), None)
        );
        let s = initial(&pos("W:WKc1,Ke1,h2:BKh8"));
        assert_eq!(s.long_diagonal(), Some(0));
        assert_eq!(initial(&RussianPosition::start()), RuleCounters::default());
        // 7.2.6 needs kings on both sides; 7.2.8 a king on the strong side.
        assert_eq!(
            initial(&pos("W:WKc1,a3,h2:Ba7,h6")),
            RuleCounters::default()
        );
        assert_eq!(initial(&pos("W:Wa3,c3:BKh8")), RuleCounters::default());
    }

    #[test]
    fn a_limit_is_no_draw_when_the_side_to_move_is_blocked() {
        let at_limit = RuleCounters {
            small: SHORT_PLIES as u8 + 1,
            ..RuleCounters::default()
        };
        // Black's lone king on a1 cannot move: the last move won.
        assert_eq!(end(&pos("B:Wb2,Kc3:BKa1"), &at_limit), None);
        assert_eq!(
            end(&pos("B:Wh2,Kc1:BKf8"), &at_limit),
            Some(GameEnd {
                outcome: Outcome::Draw,
                rule: EndRule::SmallEnding
            })
        );
        let below = RuleCounters {
            small: SHORT_PLIES as u8,
            ..RuleCounters::default()
        };
        assert_eq!(end(&pos("B:Wh2,Kc1:BKf8"), &below), None);
    }

    #[test]
    fn a_capture_restarts_the_balance_count() {
        // Seven pieces with kings on both sides; White's king takes b2 (no further capture from
        // any landing square), leaving six: the count starts again from zero.
        let p = pos("W:WKa1,e1,g1:BKh6,b2,h4,a7");
        let s = RuleCounters {
            balance: 50,
            king_moves: 20,
            ..initial(&p)
        };
        let mv = p.parse_move("a1:c3").unwrap();
        let next = p.play(&mv);
        let s2 = after(&p, s, &mv, &next);
        assert_eq!(s2.balance(), Some(0));
        assert_eq!(s2.king_moves(), 0);
        // A quiet king move goes on counting.
        let p = pos("W:WKa1,e1,g1:BKh6,c5,h4,a7");
        let mv = p.parse_move("a1-b2").unwrap();
        let s2 = after(&p, s, &mv, &p.play(&mv));
        assert_eq!(s2.balance(), Some(50));
        assert_eq!(s2.king_moves(), 21);
    }
}
