//! Precomputed tables for Turkish move generation, all built at compile time by `const fn`.
//!
//! A king's line along a rank or a file is looked up by the occupancy of that line:
//! - a rank is one byte of the board, so its inner six squares are a shift and a mask away;
//! - a file is gathered into six bits by a kindergarten-style multiplication: with the file
//!   shifted onto the a-file, the product by [`FILE_MAGIC`] moves the bits of ranks 2..7
//!   (indices 8, 16, ..., 48) to bits 58..63 without carries, so `>> 58` is the inner occupancy.
//!
//! The edge squares of a line never block anything beyond them, so six bits suffice.

use super::square::FILE_A;
use crate::core::square::{line_reach, step_rays};
use crate::core::zobrist::{piece_keys, splitmix};

/// Direction towards rank 8 (`+8`).
pub const NORTH: usize = 0;
/// Direction towards the h-file (`+1`).
pub const EAST: usize = 1;
/// Direction towards rank 1 (`-8`).
pub const SOUTH: usize = 2;
/// Direction towards the a-file (`-1`).
pub const WEST: usize = 3;

/// The reverse of a direction (a king may not turn 180 degrees between two jumps).
#[inline(always)]
pub const fn opposite(dir: usize) -> usize {
    dir ^ 2
}

/// Multiplier that gathers the inner six squares of the a-file into bits 58..63: bit `8k`
/// (rank `k`, `k` = 1..6) times `2^(57 - 7k)` lands on bit `57 + k`; no two partial products
/// share a bit, and no other one falls in 58..63.
pub const FILE_MAGIC: u64 = (1 << 50) | (1 << 43) | (1 << 36) | (1 << 29) | (1 << 22) | (1 << 15);

/// `RANK_ATTACKS[file][inner]`: the squares a king on `file` reaches along its rank (as a byte,
/// first blocker included) when the rank's inner squares b..g are occupied as in `inner`.
pub static RANK_ATTACKS: [[u8; 64]; 8] = build_line_attacks().0;

/// `FILE_ATTACKS[rank][inner]`: the squares (on the a-file) a king on `rank` reaches along its
/// file, first blocker included, when the file's inner squares of ranks 2..7 are as in `inner`.
pub static FILE_ATTACKS: [[u64; 64]; 8] = build_line_attacks().1;

/// `RAYS[dir][sq]`: the squares strictly beyond `sq` in direction `dir`, to the edge.
pub static RAYS: [[u64; 64]; 4] = step_rays(STEPS).0;

/// File and rank steps of each direction.
const STEPS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Both line tables in one pass: [`RANK_ATTACKS`] (the reach as a byte of the rank) and
/// [`FILE_ATTACKS`] (the same reach read as ranks, spread onto the a-file).
const fn build_line_attacks() -> ([[u8; 64]; 8], [[u64; 64]; 8]) {
    let mut rank = [[0u8; 64]; 8];
    let mut file = [[0u64; 64]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut inner = 0;
        while inner < 64 {
            let reach = line_reach(pos, (inner as u32) << 1);
            rank[pos][inner] = reach as u8;
            let mut r = 0;
            while r < 8 {
                if reach & (1 << r) != 0 {
                    file[pos][inner] |= 1u64 << (8 * r);
                }
                r += 1;
            }
            inner += 1;
        }
        pos += 1;
    }
    (rank, file)
}

/// The squares a king on `sq` reaches along its rank and file, with the first blocker in each
/// direction included (a piece of either colour).
#[inline(always)]
pub fn rook_attacks(sq: u32, occ: u64) -> u64 {
    let file = sq & 7;
    let rank_shift = sq & 56;
    let rank_inner = ((occ >> (rank_shift + 1)) & 63) as usize;
    let rank = (RANK_ATTACKS[file as usize][rank_inner] as u64) << rank_shift;
    let file_inner = (((occ >> file) & FILE_A).wrapping_mul(FILE_MAGIC) >> 58) as usize;
    let filea = FILE_ATTACKS[(sq >> 3) as usize][file_inner] << file;
    rank | filea
}

/// The direction from `from` to `to`, which lie on one rank or one file.
#[inline(always)]
pub fn direction(from: u32, to: u32) -> usize {
    if to > from {
        if (to ^ from) < 8 {
            EAST
        } else {
            NORTH
        }
    } else if (to ^ from) < 8 {
        WEST
    } else {
        SOUTH
    }
}

/// Zobrist keys, indexed `[colour][is king][square]`.
pub static ZOBRIST: [[[u64; 64]; 2]; 2] = piece_keys(0x6461_6d6b_6154_524bu64);

/// Zobrist key of Black to move.
pub const ZOBRIST_BLACK: u64 = splitmix(0x7475_726b_6973_6821).1;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::square::walk_ray;

    /// Plain ray walking in the four directions, to check the table lookups.
    fn slow_attacks(sq: u32, occ: u64) -> u64 {
        STEPS
            .into_iter()
            .fold(0, |a, step| a | walk_ray(sq as usize, step, occ))
    }

    #[test]
    fn lookups_match_ray_walking() {
        let mut rng = crate::core::Rng::new(12345);
        for i in 0..20_000 {
            let (v, w) = (rng.next_u64(), rng.next_u64());
            let occ = if i % 2 == 0 { v & w } else { v };
            let sq = (i % 64) as u32;
            assert_eq!(
                rook_attacks(sq, occ),
                slow_attacks(sq, occ),
                "sq {sq} occ {occ:x}"
            );
        }
    }

    #[test]
    fn directions_and_rays() {
        assert_eq!(direction(27, 35), NORTH);
        assert_eq!(direction(27, 28), EAST);
        assert_eq!(direction(27, 3), SOUTH);
        assert_eq!(direction(27, 24), WEST);
        assert_eq!(RAYS[NORTH][0], FILE_A & !1);
        assert_eq!(RAYS[WEST][0], 0);
        assert_eq!(RAYS[EAST][0], 0xfe);
        for (d, rays) in RAYS.iter().enumerate() {
            assert_eq!(opposite(opposite(d)), d);
            for (sq, ray) in rays.iter().enumerate() {
                assert_eq!(ray & (1 << sq), 0);
            }
        }
    }
}
