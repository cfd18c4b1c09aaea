//! One game's engine, typed: the game so far ([`Game`]) and the searcher that thinks about it.
//! The erased [`super::Engine`] holds one of these for the chosen game; callers that know the
//! game at compile time (terminal play, tools) use it directly, with moves as values instead of
//! text.

use super::skill::{self, skill_level, MAX_SKILL};
use super::{search_limits, EngineError, GoMode, Limits};
use crate::book::Book;
use crate::core::{Rng, Score};
use crate::eval::{Evaluate, Evaluator};
use crate::game::Game;
use crate::search::RootLine;
use crate::search::{answer_without_search, Finished, Job, Report, Searcher};
use crate::variant::Notation;
use std::sync::Arc;

/// A game of `P` and its searcher (threads and transposition table), with the settings that
/// shape a search beyond its limits: root lines (multi-PV), strength level and the seed of
/// the level's random choices.
pub struct GameSession<P: Evaluate> {
    searcher: Searcher<P>,
    game: Game<P>,
    multipv: u32,
    skill: u8,
    rng: Rng,
    book: Option<Arc<Book>>,
    book_variety: Score,
}

/// A seed from the clock and the process, for a generator nobody seeded.
pub fn clock_seed() -> u64 {
    use crate::core::host;
    let t = host::since_epoch().as_nanos() as u64;
    crate::core::Rng::new(t ^ (u64::from(host::process_id()) << 32)).next_u64()
}

impl<P: Evaluate> GameSession<P> {
    /// A session at the start position with `threads` search threads and a `hash_mb` table.
    pub fn new(threads: usize, hash_mb: usize) -> GameSession<P> {
        GameSession {
            searcher: Searcher::new(threads, hash_mb),
            game: Game::from_start(),
            multipv: 1,
            skill: MAX_SKILL,
            rng: Rng::new(clock_seed()),
            book: None,
            book_variety: 0,
        }
    }

    /// The opening book to play from (`None`, the default: none). A search to play a move
    /// (not analysis or pondering) in a book position answers at once with a book move.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        self.book = book;
    }

    /// The opening book in use.
    pub fn book(&self) -> Option<&Arc<Book>> {
        self.book.as_ref()
    }

    /// Book moves up to `margin` centi-men below the best are played too, the nearer the
    /// more often (0: always the best).
    pub fn set_book_variety(&mut self, margin: Score) {
        self.book_variety = margin.max(0);
    }

    /// The book move to play now, if the book has one for `job`'s root: `None` when not
    /// playing a move, without a book, or out of it.
    fn book_move(&mut self, job: &Job<P>, mode: GoMode) -> Option<RootLine<P::Move>> {
        let book = self.book.as_ref().filter(|_| mode == GoMode::Think)?;
        let lines: Vec<RootLine<P::Move>> = book
            .probe(&job.root)
            .into_iter()
            .filter(|m| job.root_moves.is_empty() || job.root_moves.contains(&m.mv))
            .map(|m| RootLine {
                score: m.score,
                pv: vec![m.mv],
            })
            .collect();
        skill::choose(&lines, self.book_variety, &mut self.rng).cloned()
    }

    /// Root lines each iteration searches and reports, best first (at least 1).
    pub fn set_multipv(&mut self, lines: u32) {
        self.multipv = lines.max(1);
    }

    /// Root lines each iteration searches and reports.
    pub fn multipv(&self) -> u32 {
        self.multipv
    }

    /// The strength level, 1 (beginner) to 10 (full strength, the default), see
    /// [`skill`](super::skill).
    pub fn set_skill(&mut self, level: u8) {
        self.skill = level.clamp(skill::MIN_SKILL, MAX_SKILL);
    }

    /// The strength level.
    pub fn skill(&self) -> u8 {
        self.skill
    }

    /// Seeds the random choices of the strength levels (0: from the clock).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = Rng::new(if seed == 0 { clock_seed() } else { seed });
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

    /// Plays `mv` in the current position (stops a running search first); an illegal move is
    /// refused and nothing changes.
    pub fn play(&mut self, mv: P::Move) -> Result<(), crate::variant::MoveError> {
        self.stop_and_wait();
        self.game.play(mv)
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

    /// Uses `eval` from the next search on; a net of another game is refused.
    pub fn set_evaluator(&mut self, eval: Evaluator) -> Result<(), String> {
        self.searcher.set_evaluator(eval)
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

    fn job(&self, limits: &Limits<P::Move>, mode: GoMode) -> Result<Job<P>, EngineError> {
        let root = *self.game.position();
        if root.count_moves() == 0 {
            return Err(EngineError::NoLegalMove);
        }
        let mut job = Job::new(root, search_limits(limits, mode, P::CLOCK_MOVES_TO_GO));
        job.root_state = *self.game.rule_state();
        job.history = self.game.history_keys();
        job.root_moves = root_moves(&root, limits)?;
        job.limits.multipv = self.multipv;
        if let Some(level) = skill_level(self.skill, P::VARIANT) {
            let l = &mut job.limits;
            l.depth = Some(l.depth.map_or(level.depth, |d| d.min(level.depth)));
            l.nodes = Some(l.nodes.map_or(level.nodes, |n| n.min(level.nodes)));
            l.multipv = l.multipv.max(level.lines);
            // A capped search ends by itself, even in analysis.
            l.infinite = false;
        }
        Ok(job)
    }

    /// Starts a search of the current position on the search threads and returns at once:
    /// `on_report` gets each completed iteration, `on_done` the result, exactly once. Below
    /// full strength the result is the level's choice among the root lines.
    pub fn go(
        &mut self,
        limits: &Limits<P::Move>,
        mode: GoMode,
        on_report: impl FnMut(&Report<P>) + Send + 'static,
        on_done: impl FnOnce(Finished<P>) + Send + 'static,
    ) -> Result<(), EngineError> {
        let job = self.job(limits, mode)?;
        if self.searcher.is_searching() {
            return Err(EngineError::Busy);
        }
        let mut on_report = on_report;
        if let Some(line) = self.book_move(&job, mode) {
            // No search: the book move is the answer, at once.
            on_done(answer_without_search(line, 0, 0.0, true, &mut on_report));
            return Ok(());
        }
        let level = skill_level(self.skill, P::VARIANT);
        // The extra lines a strength level searches are its own business: a caller that
        // asked for one line sees the best one, unranked.
        let single = self.multipv == 1;
        let on_report = move |r: &Report<P>| {
            if !single {
                on_report(r);
            } else if r.rank.is_none_or(|k| k == 1) {
                on_report(&Report {
                    rank: None,
                    ..r.clone()
                });
            }
        };
        let mut rng = Rng::new(self.rng.next_u64());
        let done = move |mut f: Finished<P>| {
            if let Some(level) = level {
                let root = &f.lines;
                if let Some(line) = skill::choose(root, level.margin, &mut rng).cloned() {
                    f.best = line.pv.first().copied();
                    f.ponder = line.pv.get(1).copied();
                    f.score = line.score;
                    f.pv = line.pv;
                }
            }
            on_done(f)
        };
        self.searcher
            .go(job, on_report, done)
            .map_err(|_| EngineError::Busy)
    }

    /// Searches the current position to the end of `limits` and returns the result.
    pub fn search_blocking(
        &mut self,
        limits: &Limits<P::Move>,
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

/// The root moves `limits` allow (`moves_only`, less `exclude`); empty when neither is given.
/// A move that is not legal here, or a restriction that leaves no move, is an error.
fn root_moves<P: Evaluate>(
    root: &P,
    limits: &Limits<P::Move>,
) -> Result<Vec<P::Move>, EngineError> {
    if limits.moves_only.is_empty() && limits.exclude.is_empty() {
        return Ok(Vec::new());
    }
    let legal = root.legal_moves();
    let check = |moves: &[P::Move]| -> Result<(), EngineError> {
        match moves.iter().position(|m| !legal.contains(m)) {
            Some(index) => Err(EngineError::BadMove {
                index,
                message: format!(
                    "root move {}: not legal here",
                    root.move_to_algebraic(&moves[index])
                ),
            }),
            None => Ok(()),
        }
    };
    check(&limits.moves_only)?;
    check(&limits.exclude)?;
    let mut allowed = if limits.moves_only.is_empty() {
        legal.to_vec()
    } else {
        limits.moves_only.clone()
    };
    allowed.retain(|m| !limits.exclude.contains(m));
    if allowed.is_empty() {
        return Err(EngineError::BadMove {
            index: 0,
            message: "no root move left to search".into(),
        });
    }
    Ok(allowed)
}
