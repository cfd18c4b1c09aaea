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

pub use endgames::{EndgameConfig, DEFAULT_EGTB_CACHE_MB, MAX_EGTB_CACHE_MB};
pub use options::{MAX_MULTIPV, MAX_SEED};
pub use session::{clock_seed, GameSession};
pub use settings::EngineSettings;

use crate::core::{Score, Variant};
use crate::dispatch::PerGame;
use crate::egtb::Endgames;
use crate::eval::{Evaluate, Evaluators};
use crate::game::Game;
use crate::search::time::TimePlan;
use crate::search::{Finished, Report, SearchLimits};
use crate::variant::{Notation, Position, RussianPosition, TurkishPosition};
use std::fmt;
use std::sync::Arc;

/// Search limits, as set by the Hub `level` command or the command line. Unset fields do not
/// limit. With no limit at all the search runs until `stop`. `M` is how root moves are held:
/// typed moves of the game (`P::Move`) for a [`GameSession`], text for the [`Engine`] facade,
/// which reads them in the position it searches.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits<M = String> {
    /// Maximum depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (summed over threads).
    pub nodes: Option<u64>,
    /// Fixed time for this move, seconds.
    pub movetime: Option<f64>,
    /// Remaining clock time, seconds (may be zero or negative: move at once).
    pub time: Option<f64>,
    /// Increment added before each move, seconds (already included in the time available
    /// now: with `time=T inc=I` the engine may use up to T + I this move).
    pub inc: f64,
    /// Moves until the next time control, if any.
    pub moves_to_go: Option<u32>,
    /// Search until `stop`, whatever the other limits say.
    pub infinite: bool,
    /// Search only these root moves (empty: all).
    pub moves_only: Vec<M>,
    /// Never play these root moves.
    pub exclude: Vec<M>,
}

impl<M> Default for Limits<M> {
    fn default() -> Self {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            time: None,
            inc: 0.0,
            moves_to_go: None,
            infinite: false,
            moves_only: Vec::new(),
            exclude: Vec::new(),
        }
    }
}

impl<M> Limits<M> {
    /// The same limits with each root move turned by `read` (text read in a position); the
    /// first move it refuses is the error, with its index in its list.
    pub fn map_moves<N, E>(
        &self,
        mut read: impl FnMut(&M) -> Result<N, E>,
    ) -> Result<Limits<N>, (usize, E)> {
        let mut list = |moves: &[M]| -> Result<Vec<N>, (usize, E)> {
            moves
                .iter()
                .enumerate()
                .map(|(i, m)| read(m).map_err(|e| (i, e)))
                .collect()
        };
        Ok(Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            time: self.time,
            inc: self.inc,
            moves_to_go: self.moves_to_go,
            infinite: self.infinite,
            moves_only: list(&self.moves_only)?,
            exclude: list(&self.exclude)?,
        })
    }
}

/// What kind of search `go` starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    /// Find a move to play, within the limits.
    Think,
    /// Think on the opponent's time: the expected move is already played; the clock does not
    /// run until `ponder_hit`, and the search never stops by itself before it.
    Ponder,
    /// Analyse: no hurry, search even a single legal move, run until the limits or `stop`.
    Analyze,
}

/// A move in both notations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    /// Hub numbers with every captured square (`14x5x10`).
    pub hub: String,
    /// Algebraic with every landing square (`c3:e5:g7`).
    pub algebraic: String,
}

/// Progress of a search, reported once per completed iteration (and at the end).
#[derive(Clone, Debug, PartialEq)]
pub struct Info {
    /// Rank of this line, 1 for the best, when several root lines were asked for
    /// (multi-PV); `None` otherwise.
    pub multipv: Option<u32>,
    /// Completed depth.
    pub depth: u32,
    /// Mean depth of the leaves reached (Scan's `mean-depth`).
    pub mean_depth: f64,
    /// Score for the side to move at the root, centi-men; wins are `WIN - plies`.
    pub score: Score,
    /// Nodes so far, all threads.
    pub nodes: u64,
    /// Seconds since the search started.
    pub time: f64,
    /// Nodes per second.
    pub nps: f64,
    /// Principal variation.
    pub pv: Vec<MoveText>,
    /// Successful endgame database probes so far (`None` without databases).
    pub egtb_hits: Option<u64>,
    /// The move comes from the opening book, not from a search.
    pub book: bool,
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchOutcome {
    /// The move to play; `None` only if the position has no legal move.
    pub best: Option<MoveText>,
    /// The expected reply, if known.
    pub ponder: Option<MoveText>,
    /// Score of the best move, centi-men for the side to move.
    pub score: Score,
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched, all threads.
    pub nodes: u64,
}

/// Errors the facade reports; each message is fit to show a user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A position text could not be read.
    BadPosition(String),
    /// A move in a move list is illegal, ambiguous or malformed (`index` counts from 0).
    BadMove {
        /// Index of the move in the list.
        index: usize,
        /// The reason.
        message: String,
    },
    /// `go` in a position with no legal move.
    NoLegalMove,
    /// `go` while a search is running.
    Busy,
    /// A bad option name or value.
    BadOption(String),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::BadPosition(m) => write!(f, "bad position: {m}"),
            EngineError::BadMove { message, .. } => write!(f, "{message}"),
            EngineError::NoLegalMove => f.write_str("no legal move"),
            EngineError::Busy => f.write_str("search already running"),
            EngineError::BadOption(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EngineError {}

/// Callback receiving progress during a search (called from a search thread).
pub type InfoCallback = Box<dyn FnMut(&Info) + Send>;
/// Callback receiving the final result (called once, from a search thread).
pub type DoneCallback = Box<dyn FnOnce(SearchOutcome) + Send>;

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

/// The kind and range of an engine option (for the Hub `param` lines).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One of the listed values.
    Enum(Vec<&'static str>),
    /// An integer in `min..=max`.
    Int {
        /// Smallest value.
        min: i64,
        /// Largest value.
        max: i64,
    },
    /// Any text (a file name).
    Text,
    /// `true` or `false` (Hub `type=bool`; `on`/`off`, `yes`/`no`, `1`/`0` are read too).
    Bool,
}

/// Reads a boolean option value: `true`/`false`, `on`/`off`, `yes`/`no`, `1`/`0`.
pub fn parse_bool(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// An option the engine declares, with its current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// Name (`variant`, `threads`, `hash`).
    pub name: &'static str,
    /// Kind and range.
    pub kind: OptionKind,
    /// Current value as text.
    pub value: String,
}

/// A move in both notations, in the position `pos`.
pub fn text<P: Position>(pos: &P, mv: &P::Move) -> MoveText {
    MoveText {
        hub: pos.move_to_hub(mv),
        algebraic: pos.move_to_algebraic(mv),
    }
}

/// The principal variation as text, cut at the first move that is not legal (a table hint
/// from another position cannot be shown).
pub fn pv_text<P: Position>(root: &P, pv: &[P::Move]) -> Vec<MoveText> {
    let mut pos = *root;
    let mut out = Vec::with_capacity(pv.len());
    for m in pv {
        if !pos.legal_moves().contains(m) {
            break;
        }
        out.push(text(&pos, m));
        pos = pos.play(m);
    }
    out
}

fn info<P: Evaluate>(root: &P, r: &Report<P>) -> Info {
    Info {
        multipv: r.rank,
        depth: r.depth,
        mean_depth: r.mean_depth,
        score: r.score,
        nodes: r.nodes,
        time: r.time,
        nps: if r.time > 0.0 {
            r.nodes as f64 / r.time
        } else {
            0.0
        },
        pv: pv_text(root, &r.pv),
        egtb_hits: None,
        book: r.book,
    }
}

fn outcome<P: Evaluate>(root: &P, f: &Finished<P>) -> SearchOutcome {
    let best = f.best.map(|m| text(root, &m));
    let ponder = match (f.best, f.ponder) {
        (Some(b), Some(p)) => Some(text(&root.play(&b), &p)),
        _ => None,
    };
    SearchOutcome {
        best,
        ponder,
        score: f.score,
        depth: f.depth,
        nodes: f.nodes,
    }
}

/// Turns the facade's limits into the search's, for a mode.
pub fn search_limits<M>(limits: &Limits<M>, mode: GoMode) -> SearchLimits {
    let has_limit = limits.depth.is_some()
        || limits.nodes.is_some()
        || limits.movetime.is_some()
        || (limits.time.is_some() && mode != GoMode::Analyze);
    let time = match (limits.movetime, limits.time) {
        (Some(t), _) => TimePlan::movetime(t),
        (None, Some(t)) if mode != GoMode::Analyze => {
            TimePlan::clock(t, limits.inc, limits.moves_to_go)
        }
        _ => TimePlan::NONE,
    };
    SearchLimits {
        depth: limits.depth,
        nodes: limits.nodes,
        time,
        infinite: limits.infinite || !has_limit,
        analyze: mode == GoMode::Analyze,
        ponder: mode == GoMode::Ponder,
        multipv: 1,
    }
}

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
