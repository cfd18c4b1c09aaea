//! What shapes the engine beyond the position and the search limits, typed and in one value:
//! every front end fills an [`EngineSettings`] (the command line from its flags, the Hub
//! session through the options it declares, the CheckerBoard DLL from its GUI's settings) and
//! the engine applies it, changing only what differs. Text exists only where a protocol sets
//! an option by name ([`super::Engine::set_option`]).

use super::skill::MAX_SKILL;
use super::{DEFAULT_EGTB_CACHE_MB, DEFAULT_HASH_MB};
use crate::core::Score;

/// The engine's settings. The default is what a new engine has: one thread, the default
/// table, no endgame databases, one root line, full strength, a seed from the clock, the
/// game's default book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSettings {
    /// Search threads asked for (the engine may grant fewer and says so).
    pub threads: usize,
    /// Transposition table size asked for, MiB.
    pub hash_mb: usize,
    /// Folder of the endgame databases (empty: none).
    pub egtb_path: String,
    /// Cache of decoded database blocks, MiB.
    pub egtb_cache_mb: usize,
    /// Root lines each iteration reports (multi-PV), at least 1.
    pub multipv: u32,
    /// Strength level, 1 (beginner) to 10 (full strength).
    pub skill: u8,
    /// Seed of the strength levels' and the book's random choices (0: from the clock).
    pub seed: u64,
    /// Play from the opening book (`None`: the game's default, [`super::default_book`]).
    pub book: Option<bool>,
    /// A book file (empty: the compiled-in books).
    pub book_file: String,
    /// Book moves this many centi-men below the best are played too.
    pub book_variety: Score,
}

impl Default for EngineSettings {
    fn default() -> Self {
        EngineSettings {
            threads: 1,
            hash_mb: DEFAULT_HASH_MB,
            egtb_path: String::new(),
            egtb_cache_mb: DEFAULT_EGTB_CACHE_MB,
            multipv: 1,
            skill: MAX_SKILL,
            seed: 0,
            book: None,
            book_file: String::new(),
            book_variety: 0,
        }
    }
}
