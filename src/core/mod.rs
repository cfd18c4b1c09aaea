//! Core types shared by every layer: colours, squares, square sets, scores, the fixed-size move
//! list and the game choice. Nothing here knows the rules of a game.

pub mod file;
pub mod host;
pub mod movelist;
pub mod rng;
pub mod score;
pub mod square;
pub mod text;
pub mod zobrist;

pub use movelist::MoveList;
pub use rng::Rng;
pub use score::*;
pub use square::{Bits, Square};

use std::fmt;
use std::str::FromStr;

/// A side. White moves first in both games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    /// The side that starts on ranks 1-3.
    White,
    /// The side that starts on ranks 6-8.
    Black,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black (for indexing tables).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `White` or `Black`, for people.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// `W` or `B`, as in FEN and the Hub position string.
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl std::ops::Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.opposite()
    }
}

/// The game being played. Chosen once, at the boundary (command line, protocol); everything
/// below it is generic over [`crate::variant::Position`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Russian draughts (shashki), 32 squares, diagonal moves, flying kings.
    Russian,
    /// Turkish draughts (dama), 64 squares, orthogonal moves, majority capture.
    Turkish,
}

impl Variant {
    /// Every variant, in the order they are listed to users.
    pub const ALL: [Variant; 2] = [Variant::Russian, Variant::Turkish];

    /// The lower-case name used on the command line and in the Hub protocol.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Russian => "russian",
            Variant::Turkish => "turkish",
        }
    }

    /// The game's byte in the files damka writes (opening books, nets, training records,
    /// endgame databases): 0 for Russian, 1 for Turkish.
    pub const fn code(self) -> u8 {
        match self {
            Variant::Russian => 0,
            Variant::Turkish => 1,
        }
    }

    /// The game of a file byte ([`Variant::code`]); `None` for a byte no game has.
    pub const fn from_code(code: u8) -> Option<Variant> {
        match code {
            0 => Some(Variant::Russian),
            1 => Some(Variant::Turkish),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for a variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown variant {:?} (expected russian or turkish)",
            self.0
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "russian" => Ok(Variant::Russian),
            "turkish" => Ok(Variant::Turkish),
            _ => Err(UnknownVariant(s.to_string())),
        }
    }
}

/// The high 64 bits of the 128-bit product `a * b` (a number in `0..b` for a random `a`:
/// the transposition table's index). WebAssembly has no 128-bit multiply, and the library
/// call that replaces it does a full 128 by 128 bit product: four 32-bit products are
/// cheaper there, with the same result.
#[inline(always)]
pub fn mul_high(a: u64, b: u64) -> u64 {
    #[cfg(target_arch = "wasm32")]
    {
        let (a_lo, a_hi) = (a & 0xffff_ffff, a >> 32);
        let (b_lo, b_hi) = (b & 0xffff_ffff, b >> 32);
        let (hi_lo, lo_hi) = (a_hi * b_lo, a_lo * b_hi);
        // At most 2^64 - 1: no overflow.
        let cross = ((a_lo * b_lo) >> 32) + (hi_lo & 0xffff_ffff) + lo_hi;
        a_hi * b_hi + (hi_lo >> 32) + (cross >> 32)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        ((a as u128 * b as u128) >> 64) as u64
    }
}
