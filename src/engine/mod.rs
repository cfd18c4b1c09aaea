//! The engine facade: the one place where text meets search. [`GameSession`] is one game,
//! typed: a [`crate::game::Game`] (moves, positions, rule counters) and the searcher that
//! thinks about it; callers that know the game at compile time (terminal play, tools) use it
//! directly. [`Engine`] holds the session of the game chosen at run time, with the options
//! (threads and hash live in the session's searcher) and text in and out, so the protocol
//! never sees a generic type or a search internal; `go` is non-blocking and reports through
//! callbacks. Nothing below this file is dispatched per node.

pub mod bench;
mod endgames;
mod options;
mod session;
mod settings;
pub mod skill;
mod types;

pub use endgames::{EndgameConfig, DEFAULT_EGTB_CACHE_MB, MAX_EGTB_CACHE_MB};
pub use options::{MAX_MULTIPV, MAX_SEED};
pub use session::{clock_seed, GameSession};
pub use settings::EngineSettings;
use types::{info, outcome};
pub use types::{
    parse_bool, pv_text, search_limits, text, DoneCallback, EngineError, EngineOption, GoMode,
    InfoCallback, Limits, MoveText, OptionKind, SearchInfo, SearchOutcome,
};

use crate::core::Variant;
use crate::dispatch::PerGame;
use crate::egtb::Endgames;
use crate::eval::Evaluators;
use crate::game::Game;
use crate::variant::{Notation, Position, RussianPosition, TurkishPosition};
use std::sync::Arc;

/// Whether the engine plays from its opening book of `variant` unless told otherwise: the
/// 400-game matches of the book against no book (`docs/book.md`)
/// showed a gain in Turkish and none in Russian, so the Turkish book is on and the Russian
/// one off.
pub fn default_book(variant: Variant) -> bool {
    match variant {
        Variant::Russian => false,
        Variant::Turkish => true,
    }
}

/// Default transposition table size, MiB.
pub const DEFAULT_HASH_MB: usize = 64;
/// Largest accepted transposition table, MiB.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest accepted number of search threads.
pub const MAX_THREADS: usize = 256;

/// The session of whichever game is chosen: the one place the facade turns a [`Variant`]
/// into a type.
type AnySession = PerGame<GameSession<RussianPosition>, GameSession<TurkishPosition>>;

/// The engine: current game, options and search threads. The thread count and table size
/// live in the session's searcher, nowhere else.
pub struct Engine {
    game: AnySession,
    endgames: EndgameConfig,
    /// The evaluation of each game (the `eval` and `eval-file` options); the session's
    /// searcher has its game's.
    evals: Evaluators,
    /// The last weights file loaded with the `eval-file` option (empty: none).
    eval_file: String,
    /// The settings in force (threads and hash as asked; the searcher has what was granted).
    settings: EngineSettings,
    /// The book read from `settings.book_file`, for its game.
    custom_book: Option<Arc<crate::book::Book>>,
}

/// The default evaluation of each game (what a new engine uses), for `--version` and the Hub
/// `id` line: `russian:<net> turkish:<net>` (`classic` for the hand-written one).
pub fn eval_names() -> String {
    Evaluators::default().names()
}

impl Engine {
    /// A new engine for `variant` at the start position, one thread, default hash.
    pub fn new(variant: Variant) -> Engine {
        Engine {
            game: Self::make(variant, 1, DEFAULT_HASH_MB),
            endgames: EndgameConfig::new(),
            evals: Evaluators::default(),
            eval_file: String::new(),
            settings: EngineSettings::default(),
            custom_book: None,
        }
        .with_book()
    }

    fn with_book(mut self) -> Engine {
        self.attach_book();
        self
    }

    fn make(variant: Variant, threads: usize, hash_mb: usize) -> AnySession {
        match variant {
            Variant::Russian => AnySession::Russian(GameSession::new(threads, hash_mb)),
            Variant::Turkish => AnySession::Turkish(GameSession::new(threads, hash_mb)),
        }
    }

    /// The current variant.
    pub fn variant(&self) -> Variant {
        match self.game {
            AnySession::Russian(_) => Variant::Russian,
            AnySession::Turkish(_) => Variant::Turkish,
        }
    }

    /// Switches the game; the position becomes that game's start position.
    pub fn set_variant(&mut self, variant: Variant) {
        self.stop_and_wait();
        if variant == self.variant() {
            crate::per_game!(&mut self.game, s => s.set_game(Game::from_start()));
        } else {
            // Free the old table before allocating the new one.
            self.game = Self::make(variant, 1, 1);
            self.game = Self::make(variant, self.settings.threads, self.settings.hash_mb);
            self.attach_session_settings();
            self.attach_book();
            self.attach_endgames();
            self.attach_evaluator();
        }
    }

    /// The evaluation of each game this engine uses.
    pub fn evaluators(&self) -> &Evaluators {
        &self.evals
    }

    /// Uses `evals` from the next search on (stops a running search first).
    pub fn set_evaluators(&mut self, evals: Evaluators) {
        self.evals = evals;
        self.attach_evaluator();
    }

    /// Gives the current game's searcher its game's evaluation.
    fn attach_evaluator(&mut self) {
        let eval = self.evals.get(self.variant()).clone();
        // `Evaluators` keeps each game's evaluation fit for that game.
        let _ = crate::per_game!(&mut self.game, s => s.searcher_mut().set_evaluator(eval));
    }

    /// Whether the current game plays from its book: the `book` option if it was set, else
    /// the game's default.
    fn book_enabled(&self) -> bool {
        self.settings
            .book
            .unwrap_or_else(|| default_book(self.variant()))
    }

    /// Gives the current game's session its book: none with `book` off, the `book-file`
    /// book when it is of this game, else the compiled-in one.
    fn attach_book(&mut self) {
        let variant = self.variant();
        let book = if !self.book_enabled() {
            None
        } else {
            match &self.custom_book {
                Some(b) if b.variant() == variant => Some(b.clone()),
                _ => crate::book::compiled_in(variant),
            }
        };
        let variety = self.settings.book_variety;
        crate::per_game!(&mut self.game, s => {
            s.set_book(book);
            s.set_book_variety(variety);
        });
    }

    /// Opens the endgame databases for the current game and gives them to its searcher.
    fn attach_endgames(&mut self) {
        self.stop_and_wait();
        self.endgames.reopen(self.variant());
        let tables = self.endgames.tables.clone();
        match &mut self.game {
            AnySession::Russian(s) => s
                .searcher_mut()
                .set_endgames(tables.map(|t| t as Arc<dyn Endgames<RussianPosition>>)),
            AnySession::Turkish(s) => s
                .searcher_mut()
                .set_endgames(tables.map(|t| t as Arc<dyn Endgames<TurkishPosition>>)),
        }
    }

    /// Uses the endgame databases in `path` (empty: none) with a cache of `cache_mb` MiB.
    pub fn set_endgames(&mut self, path: &str, cache_mb: usize) {
        let cache_mb = cache_mb.clamp(1, MAX_EGTB_CACHE_MB);
        self.settings.egtb_path = path.to_string();
        self.settings.egtb_cache_mb = cache_mb;
        self.endgames.configure(path, cache_mb);
        self.attach_endgames();
    }

    fn stop_and_wait(&mut self) {
        crate::per_game!(&mut self.game, s => s.stop_and_wait())
    }

    /// Number of search threads (at least 1). Threads the system refuses to start are not
    /// fatal: the engine keeps those it could start and [`Engine::take_notices`] says so.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.settings.threads = n;
        crate::per_game!(&mut self.game, s => s.searcher_mut().set_threads(n));
    }

    /// Messages about resources asked for but not granted since the last call (threads that
    /// could not start, a smaller table than asked), for the user: the Hub session sends them
    /// as `info string=...`, the command line prints them.
    pub fn take_notices(&mut self) -> Vec<String> {
        let mut out = crate::per_game!(&mut self.game, s => s.searcher_mut().take_notices());
        // Endgame databases that could not be opened, or were found missing or damaged.
        out.extend(self.endgames.take_messages());
        out
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        crate::per_game!(&self.game, s => s.searcher().threads())
    }

    /// Transposition table size in MiB (at least 1); clears it. A size the system refuses is
    /// halved until granted ([`Engine::take_notices`] says so).
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.clamp(1, MAX_HASH_MB);
        self.settings.hash_mb = mb;
        crate::per_game!(&mut self.game, s => s.searcher_mut().set_hash_mb(mb));
    }

    /// The transposition table size in MiB.
    pub fn hash_mb(&self) -> usize {
        crate::per_game!(&self.game, s => s.searcher().hash_mb())
    }
    /// The settings in force (threads and table as asked: [`Engine::threads`] and
    /// [`Engine::hash_mb`] say what was granted).
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// Applies `new`, changing only what differs from the settings in force (a table is
    /// cleared only when its size changes). A book file that cannot be read is refused before
    /// anything changes.
    pub fn apply(&mut self, new: &EngineSettings) -> Result<(), EngineError> {
        self.stop_and_wait();
        if new.book_file != self.settings.book_file {
            self.custom_book = if new.book_file.is_empty() {
                None
            } else {
                let path = std::path::Path::new(&new.book_file);
                let book = crate::book::Book::load(path)
                    .map_err(|e| EngineError::BadOption(format!("book-file: {e}")))?;
                Some(Arc::new(book))
            };
        }
        let old = std::mem::replace(&mut self.settings, new.clone());
        if new.threads != old.threads {
            self.set_threads(new.threads);
        }
        if new.hash_mb != old.hash_mb {
            self.set_hash_mb(new.hash_mb);
        }
        if (&new.egtb_path, new.egtb_cache_mb) != (&old.egtb_path, old.egtb_cache_mb) {
            self.set_endgames(&new.egtb_path, new.egtb_cache_mb);
        }
        self.settings.multipv = new.multipv.clamp(1, MAX_MULTIPV as u32);
        self.settings.skill = new.skill.clamp(skill::MIN_SKILL, skill::MAX_SKILL);
        self.attach_session_settings();
        self.attach_book();
        Ok(())
    }

    /// Gives the session the settings it keeps itself: root lines, strength and seed.
    fn attach_session_settings(&mut self) {
        let s = &self.settings;
        let (multipv, skill, seed) = (s.multipv, s.skill, s.seed);
        crate::per_game!(&mut self.game, g => {
            g.set_multipv(multipv);
            g.set_skill(skill);
            g.set_seed(seed);
        });
    }

    /// Forgets the previous game: clears the transposition table and history tables.
    pub fn new_game(&mut self) {
        crate::per_game!(&mut self.game, s => s.searcher_mut().clear());
    }

    /// Sets the position (Hub position string or FEN) and plays `moves` (Hub numbers or
    /// algebraic) from it; the history is kept for repetition and draw rules. On error the
    /// position is left as it was.
    pub fn set_position(&mut self, pos: &str, moves: &[&str]) -> Result<(), EngineError> {
        crate::per_game!(&mut self.game, s => s.set_position(pos, moves))
    }

    /// The current position as FEN.
    pub fn fen(&self) -> String {
        crate::per_game!(&self.game, s => s.game().position().to_fen())
    }

    /// The current position as a Hub position string.
    pub fn hub_position(&self) -> String {
        crate::per_game!(&self.game, s => s.game().position().to_hub())
    }

    /// Legal moves in the current position.
    pub fn legal_moves(&self) -> Vec<MoveText> {
        crate::per_game!(&self.game, s => {
            let pos = s.game().position();
            pos.legal_moves().iter().map(|m| text(pos, m)).collect()
        })
    }

    /// Starts a search on other threads and returns at once. `on_info` gets progress,
    /// `on_done` the result exactly once (also after `stop`).
    pub fn go(
        &mut self,
        limits: Limits,
        mode: GoMode,
        mut on_info: InfoCallback,
        on_done: DoneCallback,
    ) -> Result<(), EngineError> {
        let tables = self.endgames.tables.clone();
        crate::per_game!(&mut self.game, s => {
            let root = *s.game().position();
            let limits = limits
                .map_moves(|t| root.parse_move(t).map_err(|e| format!("root move {t}: {e}")))
                .map_err(|(index, message)| EngineError::BadMove { index, message })?;
            s.go(
                &limits,
                mode,
                move |r| {
                    let mut i = info(&root, r);
                    i.egtb_hits = tables.as_ref().map(|t| t.hits());
                    on_info(&i)
                },
                move |f| on_done(outcome(&root, &f)),
            )
        })
    }

    /// Asks the running search to stop soon (it still reports through `on_done`).
    pub fn stop(&self) {
        crate::per_game!(&self.game, s => s.searcher().stop())
    }

    /// The expected move was played: a ponder search goes on as a normal search with the
    /// clock now running; the time it already spent counts.
    pub fn ponder_hit(&self) {
        crate::per_game!(&self.game, s => s.searcher().ponder_hit())
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        crate::per_game!(&self.game, s => s.searcher().is_searching())
    }

    /// Blocks until the running search (if any) has finished: its result is computed and
    /// handed to `on_done`, which may still be running on the search thread (the engine is
    /// free before the answer is delivered, so the next `go` never waits for that thread).
    pub fn wait(&mut self) {
        crate::per_game!(&self.game, s => s.searcher().wait())
    }

    /// Runs a search to completion on the calling thread's behalf and returns its result.
    pub fn search_blocking(
        &mut self,
        limits: Limits,
        mode: GoMode,
        on_info: InfoCallback,
    ) -> Result<SearchOutcome, EngineError> {
        let (tx, rx) = crossbeam_channel::bounded(1);
        self.go(
            limits,
            mode,
            on_info,
            Box::new(move |o| {
                let _ = tx.send(o);
            }),
        )?;
        let out = rx.recv().map_err(|_| EngineError::Busy)?;
        self.wait();
        Ok(out)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}
