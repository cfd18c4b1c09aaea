//! Russian squares: the 32 dark squares of the common 64-bit layout, and their Hub numbers.
//!
//! ```text
//!        a   b   c   d   e   f   g   h        Hub numbers (bottom-left first)
//!   8    .  57   .  59   .  61   .  63          .  29   .  30   .  31   .  32
//!   7   48   .  50   .  52   .  54   .        25   .  26   .  27   .  28   .
//!   6    .  41   .  43   .  45   .  47          .  21   .  22   .  23   .  24
//!   5   32   .  34   .  36   .  38   .        17   .  18   .  19   .  20   .
//!   4    .  25   .  27   .  29   .  31          .  13   .  14   .  15   .  16
//!   3   16   .  18   .  20   .  22   .         9   .  10   .  11   .  12   .
//!   2    .   9   .  11   .  13   .  15          .   5   .   6   .   7   .   8
//!   1    0   .   2   .   4   .   6   .         1   .   2   .   3   .   4   .
//! ```
//!
//! Only dark squares are ever occupied, which the move generator relies on: a one-step shift
//! that wraps around the board edge always lands on a light square, so masking with
//! [`DARK`] is enough for steps (for jumps, see [`INNER`]).

/// The 32 dark squares (a1, c1, ..., b2, ..., h8).
pub const DARK: u64 = 0xAA55_AA55_AA55_AA55;

pub use crate::core::square::{RANK_1, RANK_8};

/// Dark squares off the a- and h-files: the only squares a jumped piece can stand on. With
/// this mask on the jumped pieces, jumps by whole-board shifts need no other edge mask: a
/// single step that wraps round the board edge lands on a light square, where no piece is.
pub const INNER: u64 = DARK & !0x8181_8181_8181_8181;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Square;

    #[test]
    fn dark_squares() {
        for i in 0..64u8 {
            assert_eq!(DARK & (1u64 << i) != 0, Square(i).is_dark());
        }
        assert_eq!(DARK.count_ones(), 32);
    }
}
