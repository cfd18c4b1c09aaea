//! Endgame databases built by damka itself: for every position with few pieces, whether the
//! side to move wins, draws or loses under the move rules (and the game's end rules that need
//! no history, such as Turkish one piece against one), and for wins and losses the distance to
//! conversion: the plies until the next capture or crowning (or the end of the game) with best
//! play, the winner hurrying and the loser delaying.
//!
//! A layer between the game rules and the search: it knows the [`Position`] trait and the rule
//! counters, and nothing of search. [`index`] numbers positions, [`build`] solves tables,
//! [`store`] writes and reads the compressed, checked files, [`probe`] answers questions from
//! them with a bounded cache, [`rules`] combines stored distances with the counters of the draw
//! rules.

#[cfg(feature = "egtb")]
pub mod build;
pub mod endgames;
#[cfg(feature = "egtb")]
pub mod huffman;
pub mod index;
#[cfg(feature = "egtb")]
pub mod probe;
// Without the `egtb` feature (the WebAssembly build: no files to read) the tables are never
// there; the same names keep every caller unchanged.
#[cfg(not(feature = "egtb"))]
#[path = "absent.rs"]
pub mod probe;
pub mod rules;
#[cfg(feature = "egtb")]
pub mod store;
#[cfg(feature = "egtb")]
pub mod verify;

pub use endgames::Endgames;
pub use index::Signature;
pub use probe::{ProbeError, Tablebase};

use crate::variant::Position;
use std::path::PathBuf;

/// The default database folder, where `damka egtb build` writes and the engine looks when no
/// folder is named: `egtb` in [`crate::data_dir`]. The user's data folder rather than the
/// working directory, so tables built once serve every later run, whatever folder it starts in.
pub fn default_dir() -> PathBuf {
    crate::data_dir().join("egtb")
}

/// The folder to use when none is named: [`default_dir`] when it exists (tables were built
/// there), else none, so a user who never built tables gets no message about them.
pub fn default_dir_if_present() -> Option<PathBuf> {
    let dir = default_dir();
    dir.is_dir().then_some(dir)
}

/// The value of a position for its side to move, with the distance to conversion in plies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins; the winner can convert within this many plies (0: the game is already won).
    Win(u16),
    /// Drawn with best play.
    Draw,
    /// Loses; the loser can delay the conversion this many plies (0: no legal move).
    Loss(u16),
}

impl Value {
    /// The value of a file code (`None` for no code: a number that is no position is never
    /// looked up, so the builder's marker never reaches a file).
    #[cfg(feature = "egtb")]
    #[inline]
    pub fn from_code(c: u16) -> Option<Value> {
        match c {
            store::NO_POSITION => None,
            0 => Some(Value::Draw),
            c if c % 2 == 1 => Some(Value::Win(c / 2)),
            c => Some(Value::Loss(c / 2 - 1)),
        }
    }

    /// The file code of a value.
    #[inline]
    pub fn code(self) -> u16 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 1 + 2 * d,
            Value::Loss(d) => 2 + 2 * d,
        }
    }

    /// The value one ply earlier, seen from the other side: the value of a position whose move
    /// leads to a position of value `self`, if that move is quiet (a conversion restarts the
    /// distance at 1).
    pub fn back(self, conversion: bool) -> Value {
        let step = |d: u16| if conversion { 1 } else { d + 1 };
        match self {
            Value::Win(d) => Value::Loss(step(d)),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(step(d)),
        }
    }
}

/// A side without pieces has lost; used by callers to ask a table only when both sides have
/// pieces.
pub fn pieces_on_board<P: Position>(pos: &P) -> u32 {
    pos.pieces(crate::core::Color::White).all().count_ones()
        + pos.pieces(crate::core::Color::Black).all().count_ones()
}

/// Sort key: smaller is better for the side to move.
pub fn preference(v: Value) -> i32 {
    match v {
        Value::Win(d) => d as i32,
        Value::Draw => 100_000,
        Value::Loss(d) => 200_000 - d as i32,
    }
}
