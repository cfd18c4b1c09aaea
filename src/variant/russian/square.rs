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

use crate::core::Square;

/// The 32 dark squares (a1, c1, ..., b2, ..., h8).
pub const DARK: u64 = 0xAA55_AA55_AA55_AA55;

pub use crate::core::square::{RANK_1, RANK_8};

/// Dark squares off the a- and h-files: the only squares a jumped piece can stand on. With
/// this mask on the jumped pieces, jumps by whole-board shifts need no other edge mask: a
/// single step that wraps round the board edge lands on a light square, where no piece is.
pub const INNER: u64 = DARK & !0x8181_8181_8181_8181;

/// Hub number (1 = a1, 2 = c1, ..., 32 = h8) of a dark square.
pub fn hub_number(sq: Square) -> Option<u32> {
    if sq.index() < 64 && DARK & sq.bit() != 0 {
        Some(sq.rank() as u32 * 4 + sq.file() as u32 / 2 + 1)
    } else {
        None
    }
}

/// The dark square of a Hub number 1..=32.
pub fn hub_square(n: u32) -> Option<Square> {
    if !(1..=32).contains(&n) {
        return None;
    }
    let i = (n - 1) as u8;
    let rank = i / 4;
    let file = (i % 4) * 2 + (rank & 1);
    Some(Square::new(file, rank))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dark_squares() {
        for i in 0..64u8 {
            assert_eq!(DARK & (1u64 << i) != 0, Square(i).is_dark());
        }
        assert_eq!(DARK.count_ones(), 32);
    }

    #[test]
    fn hub_numbers_round_trip() {
        assert_eq!(hub_number(Square::parse("a1").unwrap()), Some(1));
        assert_eq!(hub_number(Square::parse("c1").unwrap()), Some(2));
        assert_eq!(hub_number(Square::parse("b2").unwrap()), Some(5));
        assert_eq!(hub_number(Square::parse("c3").unwrap()), Some(10));
        assert_eq!(hub_number(Square::parse("d4").unwrap()), Some(14));
        assert_eq!(hub_number(Square::parse("b8").unwrap()), Some(29));
        assert_eq!(hub_number(Square::parse("h8").unwrap()), Some(32));
        assert_eq!(hub_number(Square::parse("b1").unwrap()), None);
        for n in 1..=32 {
            assert_eq!(hub_number(hub_square(n).unwrap()), Some(n));
        }
        assert_eq!(hub_square(0), None);
        assert_eq!(hub_square(33), None);
    }
}
