//! Turkish squares: all 64 squares of the board are playable, in the common layout
//! (bit `8 * rank + file`, a1 = 0). Hub move numbers run bottom-left first, rank by rank, so the
//! Hub number is the bit index plus one:
//!
//! ```text
//!        a  b  c  d  e  f  g  h          Hub numbers
//!    8  56 57 58 59 60 61 62 63        57 58 59 60 61 62 63 64
//!    7  48 49 50 51 52 53 54 55        49 50 51 52 53 54 55 56
//!    6  40 41 42 43 44 45 46 47        41 42 43 44 45 46 47 48
//!    5  32 33 34 35 36 37 38 39        33 34 35 36 37 38 39 40
//!    4  24 25 26 27 28 29 30 31        25 26 27 28 29 30 31 32
//!    3  16 17 18 19 20 21 22 23        17 18 19 20 21 22 23 24
//!    2   8  9 10 11 12 13 14 15         9 10 11 12 13 14 15 16
//!    1   0  1  2  3  4  5  6  7         1  2  3  4  5  6  7  8
//! ```
//!
//! White men move up (towards rank 8) and sideways, Black men down and sideways.

use crate::core::Color;

/// Every square is playable.
pub const ALL_SQUARES: u64 = !0;

pub use crate::core::square::{FILE_A, FILE_H, RANK_1, RANK_8};

/// The a- and b-files (men there cannot capture towards the a-side).
pub const FILE_AB: u64 = FILE_A | (FILE_A << 1);

/// The g- and h-files (men there cannot capture towards the h-side).
pub const FILE_GH: u64 = FILE_H | (FILE_H >> 1);

/// The rank on which a man of `color` is crowned.
#[inline]
pub const fn crowning_rank(color: Color) -> u64 {
    match color {
        Color::White => RANK_8,
        Color::Black => RANK_1,
    }
}
