//! Growing a book by drop-out expansion: every position in the book has the values of its
//! best few moves (a multi-PV search); a line's cost is the sum, over its moves, of how far
//! each is below the best move of its position, plus a cost per ply; the cheapest position
//! not yet in the book is searched next. So the book grows along the lines whose values stay
//! closest to best, the main lines deepest. The book itself is the whole state: a build
//! started on an existing book recomputes the frontier from it and goes on (resumable).

use super::{Book, Entry};
use crate::core::{Rng, Score};
use crate::eval::Evaluate;
use crate::game::Game;
use crate::search::time::TimePlan;
use crate::search::{Job, SearchLimits, Searcher};
use crate::variant::GameMove;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};

/// How a book grows: how far, along which lines first, and how each position is searched.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildConfig {
    /// Positions up to this many plies from the start are searched (their moves are the
    /// book's last).
    pub plies: usize,
    /// Positions in the book at the end (the build stops there).
    pub positions: usize,
    /// Which lines are followed first.
    pub expansion: Expansion,
    /// How each position is searched.
    pub search: PositionSearch,
}

impl BuildConfig {
    /// A book of at most `positions` positions up to `plies` plies deep, grown with the
    /// default expansion and search.
    pub fn new(plies: usize, positions: usize) -> BuildConfig {
        BuildConfig {
            plies,
            positions,
            expansion: Expansion::default(),
            search: PositionSearch::default(),
        }
    }
}

/// Which lines a book follows first: the cheapest, a line's cost being how far its moves are
/// below their positions' best plus a cost per ply.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion {
    /// Moves more than this below their position's best are not followed, centi-men.
    pub margin: Score,
    /// Cost of a ply, centi-men (a line's cost grows with its length).
    pub ply_cost: Score,
    /// Breaks ties between lines of equal cost (the same seed, the same book).
    pub seed: u64,
}

impl Default for Expansion {
    fn default() -> Self {
        Expansion {
            margin: 40,
            ply_cost: 10,
            seed: 1,
        }
    }
}

/// The search of each book position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionSearch {
    /// Depth (with `movetime` unset).
    pub depth: Option<u32>,
    /// Time, seconds.
    pub movetime: Option<f64>,
    /// Moves valued (multi-PV lines).
    pub lines: u32,
    /// Search threads.
    pub threads: usize,
}

impl Default for PositionSearch {
    fn default() -> Self {
        PositionSearch {
            depth: Some(12),
            movetime: None,
            lines: 4,
            threads: 1,
        }
    }
}

/// A position waiting to be searched: its game from the start and the cost of its line.
struct Candidate<P: Evaluate> {
    cost: Score,
    tie: u64,
    game: Game<P>,
}

impl<P: Evaluate> PartialEq for Candidate<P> {
    fn eq(&self, o: &Self) -> bool {
        (self.cost, self.tie) == (o.cost, o.tie)
    }
}
impl<P: Evaluate> Eq for Candidate<P> {}
impl<P: Evaluate> PartialOrd for Candidate<P> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<P: Evaluate> Ord for Candidate<P> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        (self.cost, self.tie).cmp(&(o.cost, o.tie))
    }
}

/// The builder: configuration, frontier and searcher.
pub struct Builder<P: Evaluate> {
    cfg: BuildConfig,
    rng: Rng,
    frontier: BinaryHeap<Reverse<Candidate<P>>>,
    searcher: Searcher<P>,
}

impl<P: Evaluate> Builder<P> {
    /// A builder that goes on with `book` (empty: from the start position).
    pub fn new(cfg: BuildConfig, book: &Book) -> Builder<P> {
        let mut b = Builder {
            rng: Rng::new(cfg.expansion.seed),
            frontier: BinaryHeap::new(),
            searcher: Searcher::new(cfg.search.threads.max(1), 64),
            cfg,
        };
        b.find_frontier(book);
        b
    }

    /// Searches with `eval` (by default the game's default evaluation); a net of another game
    /// is refused.
    pub fn set_evaluator(&mut self, eval: crate::eval::Evaluator) -> Result<(), String> {
        self.searcher.set_evaluator(eval)
    }

    /// Walks the book from the start and queues every position reached by followed moves
    /// that is not in it yet.
    fn find_frontier(&mut self, book: &Book) {
        let mut seen = HashSet::new();
        let mut stack = vec![(Game::<P>::from_start(), 0)];
        while let Some((game, cost)) = stack.pop() {
            let key = game.position().key();
            if !book.contains(key) {
                self.push(game, cost);
                continue;
            }
            if !seen.insert(key) {
                continue;
            }
            stack.extend(self.children(book, &game, cost));
        }
    }

    /// The positions after the followed book moves of `game`'s position, with their costs.
    fn children(&self, book: &Book, game: &Game<P>, cost: Score) -> Vec<(Game<P>, Score)> {
        if game.ply() >= self.cfg.plies {
            return Vec::new();
        }
        let moves = book.probe(game.position());
        let Some(best) = moves.first().map(|m| m.score) else {
            return Vec::new();
        };
        moves
            .iter()
            .filter(|m| best - m.score <= self.cfg.expansion.margin)
            .map(|m| {
                let mut g = game.clone();
                g.play_unchecked(m.mv);
                (g, cost + best - m.score + self.cfg.expansion.ply_cost)
            })
            .collect()
    }

    fn push(&mut self, game: Game<P>, cost: Score) {
        if game.ply() >= self.cfg.plies || game.is_over() {
            return;
        }
        let tie = self.rng.next_u64();
        self.frontier.push(Reverse(Candidate { cost, tie, game }));
    }

    /// Positions waiting to be searched.
    pub fn frontier_len(&self) -> usize {
        self.frontier.len()
    }

    /// Searches the cheapest position not in `book` and adds it; `false` when the book is
    /// full or nothing is left to search.
    pub fn step(&mut self, book: &mut Book) -> bool {
        if book.positions() >= self.cfg.positions {
            return false;
        }
        while let Some(Reverse(c)) = self.frontier.pop() {
            let key = c.game.position().key();
            if book.contains(key) {
                continue; // reached again by a transposition
            }
            let entries = self.search(&c.game);
            if entries.is_empty() {
                continue;
            }
            book.insert(key, &entries);
            for (g, cost) in self.children(book, &c.game, c.cost) {
                if !book.contains(g.position().key()) {
                    self.push(g, cost);
                }
            }
            return true;
        }
        false
    }

    /// The values of the best moves of `game`'s position by a fresh search (a cleared table,
    /// so the same position always gets the same values at a fixed depth).
    fn search(&mut self, game: &Game<P>) -> Vec<Entry> {
        self.searcher.clear();
        let mut job = Job::new(
            *game.position(),
            SearchLimits {
                depth: if self.cfg.search.movetime.is_some() {
                    None
                } else {
                    self.cfg.search.depth
                },
                time: self
                    .cfg
                    .search
                    .movetime
                    .map_or(TimePlan::NONE, TimePlan::movetime),
                analyze: true,
                multipv: self.cfg.search.lines,
                ..SearchLimits::default()
            },
        );
        job.root_state = *game.rule_state();
        job.history = game.history_keys();
        let f = self.searcher.search(job, |_| {});
        f.lines
            .iter()
            .filter_map(|l| {
                l.pv.first().map(|m| Entry {
                    key: 0,
                    code: m.hint(),
                    score: l.score.clamp(-i16::MAX as Score, i16::MAX as Score) as i16,
                    depth: f.depth.min(255) as u8,
                })
            })
            .collect()
    }
}
