//! Game end by the rules, tracked move by move: no legal move, threefold repetition, and each
//! game's own rules through `Position::rule_end`.

use damka::core::Color;
use damka::variant::{EndRule, GameEnd, Outcome, Position};

/// The history a game's end depends on.
#[derive(Clone)]
pub struct Tracker<P: Position> {
    /// Keys of the positions since the last irreversible move (the current one last).
    keys: Vec<u64>,
    state: P::RuleState,
}

impl<P: Position> Tracker<P> {
    /// History starting at `start`.
    pub fn new(start: &P) -> Self {
        Tracker {
            keys: vec![start.key()],
            state: start.rule_state_new(),
        }
    }

    /// Records `mv`, played from `pos` to `next`.
    pub fn push(&mut self, pos: &P, mv: &P::Move, next: &P) {
        if !pos.is_reversible(mv) {
            self.keys.clear();
        }
        self.keys.push(next.key());
        self.state = pos.rule_state_after(self.state, mv, next);
    }

    /// How the game stands at `pos` (the position after the last move pushed).
    pub fn end(&self, pos: &P) -> Option<GameEnd> {
        if pos.legal_moves().is_empty() {
            return Some(GameEnd {
                outcome: Outcome::Win(pos.side_to_move().opposite()),
                rule: EndRule::NoLegalMove,
            });
        }
        if let Some(e) = pos.rule_end(&self.state) {
            return Some(e);
        }
        let key = pos.key();
        // Same side to move: every second entry back from the current one.
        let seen = self
            .keys
            .iter()
            .rev()
            .step_by(2)
            .filter(|&&k| k == key)
            .count();
        if seen >= 3 {
            return Some(GameEnd {
                outcome: Outcome::Draw,
                rule: EndRule::Repetition,
            });
        }
        None
    }
}

/// The PDN result token of an outcome.
pub fn result_token(o: Outcome) -> &'static str {
    match o {
        Outcome::Win(Color::White) => "2-0",
        Outcome::Win(Color::Black) => "0-2",
        Outcome::Draw => "1-1",
    }
}
