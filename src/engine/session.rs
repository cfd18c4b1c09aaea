//! One game's engine, typed: the game so far ([`Game`]) and the searcher that thinks about it.
//! The erased [`super::Engine`] holds one of these for the chosen game; callers that know the
//! game at compile time (terminal play, tools) use it directly, with moves as values instead of
//! text.

use super::{search_limits, EngineError, GoMode, Limits};
use crate::eval::Evaluate;
use crate::game::Game;
use crate::search::{Finished, Job, Report, Searcher};
use crate::variant::Notation;

/// A game of `P` and its searcher (threads and transposition table).
pub struct GameSession<P: Evaluate> {
    searcher: Searcher<P>,
    game: Game<P>,
}

impl<P: Evaluate> GameSession<P> {
    /// A session at the start position with `threads` search threads and a `hash_mb` table.
    pub fn new(threads: usize, hash_mb: usize) -> GameSession<P> {
        GameSession {
            searcher: Searcher::new(threads, hash_mb),
            game: Game::from_start(),
        }
    }

    /// The game so far.
    pub fn game(&self) -> &Game<P> {
        &self.game
    }

    /// Replaces the game (the position searched is its current one, its history counts for
    /// repetitions and draw rules). Stops a running search first.
    pub fn set_game(&mut self, game: Game<P>) {
        self.stop_and_wait();
        self.game = game;
    }

    /// Sets the game from a position text (Hub position string or FEN) and moves played from
    /// it (Hub numbers or algebraic). On error nothing changes.
    pub fn set_position(&mut self, text: &str, moves: &[&str]) -> Result<(), EngineError> {
        let start = P::parse_any(text).map_err(|e| EngineError::BadPosition(e.0))?;
        let mut game = Game::new(start);
        for (index, text) in moves.iter().enumerate() {
            game.play_text(text).map_err(|e| EngineError::BadMove {
                index,
                message: e.to_string(),
            })?;
        }
        self.set_game(game);
        Ok(())
    }

    /// The searcher (threads, table, stop and ponder-hit).
    pub fn searcher(&self) -> &Searcher<P> {
        &self.searcher
    }

    /// The searcher, to change its threads or table.
    pub fn searcher_mut(&mut self) -> &mut Searcher<P> {
        &mut self.searcher
    }

    /// Stops a running search, if any, and waits for it.
    pub fn stop_and_wait(&mut self) {
        if self.searcher.is_searching() {
            self.searcher.stop();
            self.searcher.wait();
        }
    }

    fn job(&self, limits: &Limits, mode: GoMode) -> Result<Job<P>, EngineError> {
        let root = *self.game.position();
        if root.count_moves() == 0 {
            return Err(EngineError::NoLegalMove);
        }
        let mut job = Job::new(root, search_limits(limits, mode));
        job.root_state = *self.game.rule_state();
        job.history = self.game.history_keys();
        Ok(job)
    }

    /// Starts a search of the current position on the search threads and returns at once:
    /// `on_report` gets each completed iteration, `on_done` the result, exactly once.
    pub fn go(
        &mut self,
        limits: &Limits,
        mode: GoMode,
        on_report: impl FnMut(&Report<P>) + Send + 'static,
        on_done: impl FnOnce(Finished<P>) + Send + 'static,
    ) -> Result<(), EngineError> {
        let job = self.job(limits, mode)?;
        self.searcher
            .go(job, on_report, on_done)
            .map_err(|_| EngineError::Busy)
    }

    /// Searches the current position to the end of `limits` and returns the result.
    pub fn search_blocking(
        &mut self,
        limits: &Limits,
        mode: GoMode,
        on_report: impl FnMut(&Report<P>) + Send + 'static,
    ) -> Result<Finished<P>, EngineError> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.go(limits, mode, on_report, move |f| {
            let _ = tx.send(f);
        })?;
        let out = rx.recv().map_err(|_| EngineError::Busy)?;
        self.searcher.wait();
        Ok(out)
    }
}
