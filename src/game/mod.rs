//! Whole games: a position with its history, the end-of-game and draw rules, and PDN records.
//!
//! [`Game`] is generic over [`Position`]: it keeps the start position, the moves, every position
//! reached and the rule counters of each, so that [`Game::result`] can decide the end of the
//! game by every rule of `docs/rules/*.md`:
//! 1. the side to move has no legal move: it loses;
//! 2. the same position (pieces and side to move) occurs for the third time: draw;
//! 3. the game's own rules ([`Position::rule_end`]): Russian FMJD-64 7.2.4 - 7.2.8, Turkish one
//!    piece against one piece.
//!
//! [`pdn`] writes and reads game records.

pub mod annotated;
pub mod pdn;

pub use annotated::MoveNote;
pub use pdn::{PdnError, Record};

use crate::dispatch::PerGame;
use crate::variant::{EndRule, GameMove, Notation, RussianPosition, TurkishPosition};
use crate::variant::{GameEnd, MoveError, Outcome, Position, PositionError};

/// A game of whichever variant is chosen at run time, typed per game (run generic code on it
/// with [`per_game!`](crate::per_game)).
pub type AnyGame = PerGame<Game<RussianPosition>, Game<TurkishPosition>>;

/// The legal moves of `pos` written by `text` ([`Notation::move_to_algebraic`] or
/// [`Notation::move_to_hub`]), sorted: how a listing shows them.
pub fn sorted_legal_texts<P: Position>(pos: &P, text: fn(&P, &P::Move) -> String) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| text(pos, m)).collect();
    v.sort();
    v
}

/// A game: a start position, the moves played from it, and what follows from them.
///
/// Invariant: `positions.len() == rules.len() == moves.len() + 1`; `positions[i]` is the
/// position after `i` moves and `rules[i]` its rule counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game<P: Position> {
    moves: Vec<P::Move>,
    positions: Vec<P>,
    rules: Vec<P::RuleState>,
}

impl<P: Position> Default for Game<P> {
    fn default() -> Self {
        Game::new(P::start())
    }
}

impl<P: Position> Game<P> {
    /// A game starting from `start` (the rule counters start there, as if without history).
    pub fn new(start: P) -> Game<P> {
        Game {
            moves: Vec::new(),
            positions: vec![start],
            rules: vec![start.rule_state_new()],
        }
    }

    /// A game from the game's initial position.
    pub fn from_start() -> Game<P> {
        Game::new(P::start())
    }

    /// A game starting from a FEN (or a Hub position string).
    pub fn from_fen(fen: &str) -> Result<Game<P>, PositionError> {
        Ok(Game::new(P::parse_any(fen)?))
    }

    /// The start position.
    pub fn start(&self) -> &P {
        &self.positions[0]
    }

    /// Whether the game starts from the game's initial position (a record then needs no FEN).
    pub fn starts_from_initial(&self) -> bool {
        self.positions[0] == P::start()
    }

    /// The current position.
    pub fn position(&self) -> &P {
        self.positions
            .last()
            .expect("a game always has its start position")
    }

    /// The rule counters of the current position.
    pub fn rule_state(&self) -> &P::RuleState {
        self.rules
            .last()
            .expect("a game always has its start counters")
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[P::Move] {
        &self.moves
    }

    /// Every position of the game, the start first and the current one last.
    pub fn positions(&self) -> &[P] {
        &self.positions
    }

    /// Number of plies played.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// The last move played, with the position it was played from.
    pub fn last_move(&self) -> Option<(&P, &P::Move)> {
        let n = self.moves.len();
        (n > 0).then(|| (&self.positions[n - 1], &self.moves[n - 1]))
    }

    /// The moves in algebraic notation with every landing square, in order.
    pub fn move_texts(&self) -> Vec<String> {
        self.texts(P::move_to_algebraic)
    }

    /// The moves in Hub notation (`from-to`, `fromxtoxcaptured...`), in order: unambiguous
    /// text for a Hub engine's `pos ... moves=`.
    pub fn move_texts_hub(&self) -> Vec<String> {
        self.texts(P::move_to_hub)
    }

    /// Each move written by `write` in the position it was played from.
    fn texts(&self, write: impl Fn(&P, &P::Move) -> String) -> Vec<String> {
        self.moves
            .iter()
            .zip(&self.positions)
            .map(|(m, p)| write(p, m))
            .collect()
    }

    /// Legal moves in the current position.
    pub fn legal_moves(&self) -> Vec<P::Move> {
        self.position().legal_moves()
    }

    /// Plays `mv`, which must be legal in the current position (checked; an illegal move is
    /// refused with [`MoveError::Illegal`] and nothing changes).
    pub fn play(&mut self, mv: P::Move) -> Result<(), MoveError> {
        if !self.legal_moves().contains(&mv) {
            return Err(MoveError::Illegal(format!("{}-{}", mv.from(), mv.to())));
        }
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` without checking that it is legal (for callers that took it from
    /// [`Position::generate`] of the current position).
    pub fn play_unchecked(&mut self, mv: P::Move) {
        let pos = *self.position();
        let next = pos.play(&mv);
        let rules = pos.rule_state_after(*self.rule_state(), &mv, &next);
        self.moves.push(mv);
        self.positions.push(next);
        self.rules.push(rules);
    }

    /// Parses move text (algebraic or Hub numbers, see [`crate::variant::Notation::parse_move`])
    /// against the current position and plays it; returns the move.
    pub fn play_text(&mut self, text: &str) -> Result<P::Move, MoveError> {
        let mv = self.position().parse_move(text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<P::Move> {
        let mv = self.moves.pop()?;
        self.positions.pop();
        self.rules.pop();
        Some(mv)
    }

    /// How many times the current position has occurred in the game, counting itself. Only
    /// the positions since the last irreversible move can be equal to it, so only those are
    /// looked at.
    pub fn repetitions(&self) -> usize {
        let cur = self.position();
        let key = cur.key();
        let mut count = 1;
        for i in (0..self.moves.len()).rev() {
            if !self.positions[i].is_reversible(&self.moves[i]) {
                break;
            }
            let p = &self.positions[i];
            if p.key() == key && p == cur {
                count += 1;
            }
        }
        count
    }

    /// Zobrist keys of the positions before the current one that can still repeat (those after
    /// the last irreversible move), oldest first: what a search needs to detect repetitions
    /// that reach back into the game.
    pub fn history_keys(&self) -> Vec<u64> {
        let mut first = self.moves.len();
        while first > 0 && self.positions[first - 1].is_reversible(&self.moves[first - 1]) {
            first -= 1;
        }
        self.positions[first..self.moves.len()]
            .iter()
            .map(|p| p.key())
            .collect()
    }

    /// The end of the game, if it is over, with the rule that ended it. The rules are tried in
    /// order: no legal move (the side to move loses), threefold repetition, then the game's own
    /// rules ([`Position::rule_end`]).
    pub fn result(&self) -> Option<GameEnd> {
        let pos = self.position();
        if pos.count_moves() == 0 {
            return Some(GameEnd {
                outcome: Outcome::Win(pos.side_to_move().opposite()),
                rule: EndRule::NoLegalMove,
            });
        }
        if self.repetitions() >= 3 {
            return Some(GameEnd {
                outcome: Outcome::Draw,
                rule: EndRule::Repetition,
            });
        }
        pos.rule_end(self.rule_state())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// The number of the full move in progress, as a record writes it (1 for the first move of
    /// a game that starts with either side to move).
    pub fn move_number(&self) -> usize {
        let black_first = self.start().side_to_move() == crate::core::Color::Black;
        (self.moves.len() + black_first as usize) / 2 + 1
    }
}
