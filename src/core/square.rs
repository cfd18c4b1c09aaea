//! Squares and square sets.
//!
//! Both games use the same 64-bit layout, so that square names, FEN and tables share one
//! convention: bit `8 * rank + file`, with a1 = 0, h1 = 7, a8 = 56, h8 = 63. Russian uses only
//! the 32 dark squares (a1, c1, ..., b2, ...), Turkish all 64.
//!
//! ```text
//!    a  b  c  d  e  f  g  h
//! 8 56 57 58 59 60 61 62 63
//! 7 48 49 50 51 52 53 54 55
//! 6 40 41 42 43 44 45 46 47
//! 5 32 33 34 35 36 37 38 39
//! 4 24 25 26 27 28 29 30 31
//! 3 16 17 18 19 20 21 22 23
//! 2  8  9 10 11 12 13 14 15
//! 1  0  1  2  3  4  5  6  7
//! ```

use std::fmt;

/// Rank 1 (where Black's men are crowned, in both games).
pub const RANK_1: u64 = 0x0000_0000_0000_00FF;

/// Rank 8 (where White's men are crowned, in both games).
pub const RANK_8: u64 = 0xFF00_0000_0000_0000;

/// The a-file.
pub const FILE_A: u64 = 0x0101_0101_0101_0101;

/// The h-file.
pub const FILE_H: u64 = FILE_A << 7;

/// The squares a slider on `sq` reaches by repeating the step `(files, ranks)` until the board
/// edge or the first occupied square of `occ` (included), walked square by square: the plain
/// reference that the games' line tables are checked against.
pub fn walk_ray(sq: usize, (df, dr): (i32, i32), occ: u64) -> u64 {
    let mut m = 0;
    let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
    while (0..8).contains(&f) && (0..8).contains(&r) {
        let b = 1u64 << (r * 8 + f);
        m |= b;
        if occ & b != 0 {
            break;
        }
        f += df;
        r += dr;
    }
    m
}

/// The squares a slider at index `pos` of a line of eight reaches with the line occupied as in
/// `occ` (bit `i` = index `i`; the slider's own bit is ignored), the first blocker each way
/// included, as a byte. The one line rule behind both games' king tables (Russian diagonals
/// folded onto a rank, Turkish ranks and files), evaluated by the compiler.
pub const fn line_reach(pos: usize, occ: u32) -> u32 {
    let mut reach = 0u32;
    let mut i = pos + 1;
    while i < 8 {
        reach |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
        i += 1;
    }
    let mut i = pos;
    while i > 0 {
        i -= 1;
        reach |= 1 << i;
        if occ & (1 << i) != 0 {
            break;
        }
    }
    reach
}

/// Rays of four steps `(files, ranks)`: `.0[d][sq]` the squares from `sq` (excluded) to the
/// board edge in direction `d`, `.1[d][sq]` the first of them as a one-bit set (0 at the edge).
/// Built by the compiler for both games' tables.
pub const fn step_rays(steps: [(i32, i32); 4]) -> ([[u64; 64]; 4], [[u64; 64]; 4]) {
    let mut rays = [[0u64; 64]; 4];
    let mut next = [[0u64; 64]; 4];
    let mut d = 0;
    while d < 4 {
        let (df, dr) = steps[d];
        let mut sq = 0;
        while sq < 64 {
            let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                next[d][sq] = 1u64 << (r * 8 + f);
            }
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                rays[d][sq] |= 1u64 << (r * 8 + f);
                f += df;
                r += dr;
            }
            sq += 1;
        }
        d += 1;
    }
    (rays, next)
}

/// A square index 0..64 (`8 * rank + file`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Square(pub u8);

impl Square {
    /// The square at `file` (0 = a) and `rank` (0 = rank 1).
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Square {
        Square(rank * 8 + file)
    }

    /// The index 0..64.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (0 = a).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = rank 1).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The one-bit set of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Whether the square is dark (a1 is dark): the squares Russian draughts plays on.
    #[inline]
    pub const fn is_dark(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// Parses an algebraic name such as `c3` (case-insensitive).
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = b[0].to_ascii_lowercase();
        let r = b[1];
        if !(b'a'..=b'h').contains(&f) || !(b'1'..=b'8').contains(&r) {
            return None;
        }
        Some(Square::new(f - b'a', r - b'1'))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, self.rank() + 1)
    }
}

/// Iterator over the squares of a 64-bit set, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let s = self.0.trailing_zeros() as u8;
            self.0 &= self.0 - 1;
            Some(Square(s))
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Bits {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..64u8 {
            let s = Square(i);
            assert_eq!(Square::parse(&s.to_string()), Some(s));
        }
        assert_eq!(Square::parse("a1"), Some(Square(0)));
        assert_eq!(Square::parse("H8"), Some(Square(63)));
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
        assert!(Square(0).is_dark());
        assert!(!Square(1).is_dark());
        assert!(Square(9).is_dark());
    }

    #[test]
    fn bits_iterate_in_order() {
        let v: Vec<u8> = Bits(0b1010_0001).map(|s| s.0).collect();
        assert_eq!(v, vec![0, 5, 7]);
        assert_eq!(Bits(0).count(), 0);
    }
}
