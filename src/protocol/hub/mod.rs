//! The Hub protocol (`docs/protocol/hub.md`), both the engine's and the client's halves,
//! generic over reader and writer:
//!
//! - [`line`](mod@line) is the text of a line, both ways: capped byte lines read on a thread of their
//!   own, split into command and arguments (lenient reading), and written (replies strictly,
//!   commands by the protocol's rule),
//! - [`command`] the client's commands, typed: read from a split line
//!   ([`command::parse_command`], typed errors) and written as a client sends them
//!   ([`command::Command::to_line`]),
//! - [`reply`] the engine's replies, typed: built from the engine's results (progress,
//!   answer, messages), written by the session and read by a client
//!   ([`reply::parse_reply`]),
//! - [`params`] the parameters the session keeps itself: the client's square numbering
//!   (pydraughts 0.5 counts from the top), converted to damka's and back at this edge, and
//!   Scan's `tt-size`, `bb-size`, `book-ply`, `initial-time`,
//! - [`session`] is the state machine driving a [`Backend`] (the engine facade, or a fake in
//!   tests).

pub mod command;
pub mod line;
pub mod params;
pub mod reply;
pub mod session;

pub use session::{run_session, start_position, HubConfig, SearchEvent, Session};

use crate::core::Variant;
use crate::engine::{
    DoneCallback, Engine, EngineError, EngineOption, GoMode, InfoCallback, Limits,
};

/// A search the session asks for: limits, mode, and where it reports (each iteration to
/// `on_info`, the result once to `on_done`).
pub struct SearchRequest {
    /// The limits from the `level` lines.
    pub limits: Limits,
    /// `think`, `ponder` or `analyze`.
    pub mode: GoMode,
    /// Called after each completed iteration.
    pub on_info: InfoCallback,
    /// Called exactly once, with the result.
    pub on_done: DoneCallback,
}

/// What the protocol needs from an engine: exactly the part of [`Engine`]'s facade it uses,
/// so that sessions can be tested against a scripted fake.
pub trait Backend {
    /// The current variant.
    fn variant(&self) -> Variant;
    /// The options the engine declares, with their current values (`variant`, `threads`,
    /// `hash`, and whatever else it has): the session declares each on `hub`.
    fn options(&self) -> Vec<EngineOption>;
    /// Sets an option from its text; setting `variant` makes the position that game's start.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError>;
    /// Forgets the previous game.
    fn new_game(&mut self);
    /// Sets the position and plays `moves` from it; on error the position is unchanged.
    fn set_position(&mut self, pos: &str, moves: &[&str]) -> Result<(), EngineError>;
    /// Starts a search and returns at once; its `on_done` is called exactly once.
    fn go(&mut self, search: SearchRequest) -> Result<(), EngineError>;
    /// Asks the running search to stop soon.
    fn stop(&self);
    /// The expected move was played: pondering becomes a normal search.
    fn ponder_hit(&self);
    /// Blocks until the running search (if any) has finished.
    fn wait(&mut self);
    /// Messages about resources asked for but not granted since the last call (threads that
    /// could not start, a smaller table): the session sends each as `info string=...`.
    fn take_notices(&mut self) -> Vec<String> {
        Vec::new()
    }
    /// The evaluation of each game, for the `id` line: `russian:<name> turkish:<name>`; by
    /// default each game's default ([`crate::engine::eval_names`]).
    fn eval_names(&self) -> String {
        crate::engine::eval_names()
    }
}

impl Backend for Engine {
    fn variant(&self) -> Variant {
        Engine::variant(self)
    }
    fn options(&self) -> Vec<EngineOption> {
        Engine::options(self)
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        Engine::set_option(self, name, value)
    }
    fn new_game(&mut self) {
        Engine::new_game(self)
    }
    fn set_position(&mut self, pos: &str, moves: &[&str]) -> Result<(), EngineError> {
        Engine::set_position(self, pos, moves)
    }
    fn go(&mut self, r: SearchRequest) -> Result<(), EngineError> {
        Engine::go(self, r.limits, r.mode, r.on_info, r.on_done)
    }
    fn stop(&self) {
        Engine::stop(self)
    }
    fn ponder_hit(&self) {
        Engine::ponder_hit(self)
    }
    fn wait(&mut self) {
        Engine::wait(self)
    }
    fn take_notices(&mut self) -> Vec<String> {
        Engine::take_notices(self)
    }
    fn eval_names(&self) -> String {
        self.evaluators().names()
    }
}
