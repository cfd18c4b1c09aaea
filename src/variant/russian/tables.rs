//! Precomputed tables, all built at compile time by `const fn`: rays, the kindergarten-style
//! diagonal lookup (a king's line indexed by the occupancy of that diagonal) and Zobrist keys.
//!
//! The diagonal lookup: for a square and one of its two diagonals, the occupancy of the
//! diagonal is gathered onto one byte by a multiplication (each file holds one square of a
//! diagonal, so no two bits collide), its six inner bits index [`FILL`], whose entry is the
//! reachable set of the equivalent rank (first blocker included) copied to every rank; masking
//! with the diagonal gives the reachable squares. Two table reads and a multiply per line: the
//! hot path never walks square by square.

use crate::core::square::{line_reach, step_rays};
use crate::core::zobrist::{piece_keys, splitmix};

/// File and rank steps of the four directions, in the order of their indices [`NE`], [`NW`],
/// [`SE`], [`SW`] (so that a direction and its opposite add up to 3).
const STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Direction towards h8 (+9).
pub const NE: usize = 0;
/// Direction towards a8 (+7).
pub const NW: usize = 1;
/// Direction towards h1 (-7).
pub const SE: usize = 2;
/// Direction towards a1 (-9).
pub const SW: usize = 3;

/// `RAY[d][sq]`: the squares from `sq` (excluded) to the board edge in direction `d`.
pub static RAY: [[u64; 64]; 4] = step_rays(STEPS).0;

const fn build_diags() -> [[u64; 64]; 2] {
    let r = step_rays(STEPS).0;
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        t[0][sq] = r[NE][sq] | r[SW][sq];
        t[1][sq] = r[NW][sq] | r[SE][sq];
        sq += 1;
    }
    t
}

/// `DIAG[0][sq]`: the a1-h8-direction diagonal through `sq`, `DIAG[1][sq]` the a8-h1 one;
/// both without `sq` itself.
pub static DIAG: [[u64; 64]; 2] = build_diags();

/// Which diagonal (index into [`DIAG`]) a direction runs along.
#[inline(always)]
pub const fn diag_of(d: usize) -> usize {
    (d == NW || d == SE) as usize
}

/// The opposite direction.
#[inline(always)]
pub const fn opposite(d: usize) -> usize {
    3 - d
}

const fn build_fill() -> [[u64; 64]; 8] {
    let mut t = [[0u64; 64]; 8];
    let mut file = 0;
    while file < 8 {
        let mut occ = 0;
        while occ < 64 {
            // Bit i of `occ` is file i + 1 (the inner files b..g).
            t[file][occ] = (line_reach(file, (occ as u32) << 1) as u64) * 0x0101_0101_0101_0101;
            occ += 1;
        }
        file += 1;
    }
    t
}

/// `FILL[file][inner occupancy]`: squares a slider on `file` reaches along a rank with that
/// occupancy of files b..g (first blocker included), copied to all eight ranks.
pub static FILL: [[u64; 64]; 8] = build_fill();

/// `NEXT[d][sq]`: the neighbour of `sq` in direction `d` as a one-bit set, 0 off the board.
pub static NEXT: [[u64; 64]; 4] = step_rays(STEPS).1;

/// The squares a king on `sq` reaches along diagonal `diag` (0 or 1) with occupancy `occ`,
/// first blocker in each direction included.
#[inline(always)]
pub fn diag_attacks(sq: usize, diag: usize, occ: u64) -> u64 {
    let mask = DIAG[diag][sq];
    let idx = ((occ & mask).wrapping_mul(0x0202_0202_0202_0202) >> 58) as usize;
    mask & FILL[sq & 7][idx]
}

/// The squares a king on `sq` reaches in direction `d` with occupancy `occ`, first blocker
/// included.
#[inline(always)]
pub fn ray_attacks(sq: usize, d: usize, occ: u64) -> u64 {
    diag_attacks(sq, diag_of(d), occ) & RAY[d][sq]
}

/// Both diagonals of a king on `sq`: every square it reaches, first blockers included.
#[inline(always)]
pub fn king_attacks(sq: usize, occ: u64) -> u64 {
    diag_attacks(sq, 0, occ) | diag_attacks(sq, 1, occ)
}

/// `ZOBRIST[colour][is king][square]`.
pub static ZOBRIST: [[[u64; 64]; 2]; 2] = piece_keys(0x6461_6D6B_6172_7573u64);

/// Added to the key when Black is to move.
pub const ZOBRIST_BLACK: u64 = splitmix(0x1234_5678_9ABC_DEF0).1;

#[cfg(test)]
mod tests {
    use super::*;

    use crate::core::square::walk_ray;

    #[test]
    fn lookup_matches_walk() {
        let mut rng = crate::core::Rng::new(0x1234_5678);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64();
            for sq in 0..64 {
                for (d, &step) in STEPS.iter().enumerate() {
                    assert_eq!(
                        ray_attacks(sq, d, occ),
                        walk_ray(sq, step, occ),
                        "sq {sq} d {d}"
                    );
                }
            }
        }
    }
}
