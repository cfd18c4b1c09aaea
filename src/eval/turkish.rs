//! Evaluation of Turkish draughts positions.
//!
//! As for Russian, every term is computed for one side as if it moved up the board (Black's
//! pieces seen through a half turn, [`super::rotate`]), so the evaluation is colour-symmetric
//! by construction. Terms and weights (centi-men):
//!
//! - **Material**: a man is [`MAN`]; a king [`KING_OPENING`] with a full board, rising to
//!   [`KING_ENDING`] on a bare one: a king sweeps whole ranks and files.
//! - **Advancement / tempo**: [`ADVANCE_OPENING`]`[rank]` early, [`ADVANCE_ENDING`]`[rank]`
//!   late, blended by the number of pieces.
//! - **Centre**: [`CENTRE`] for a man on the c- to f-files (more sideways moves and captures).
//! - **Back-rank guard**: [`GUARD`] per man still on its second rank while the enemy has no
//!   king (scaled by the phase): the last line in front of the crowning rank.
//! - **Runaway men**: a man with no enemy man on any rank ahead of it and no enemy king:
//!   [`RUNAWAY_BASE`] less [`RUNAWAY_PER_STEP`] per step to go.
//! - **Open files and ranks**: [`KING_MOBILITY`] per empty square a king sees along its rank and
//!   file.
//! - **Blocked men**: [`BLOCKED`] for a man that cannot move forward or sideways.
//! - **Hanging pieces**: [`HANGING`] if the side to move has a piece an enemy man could take.

use super::classic::{blend, ray_count, ClassicTerms};
use crate::core::square::{FILE_A, FILE_H};
use crate::core::{Bits, Score};
use crate::variant::{Pieces, Turkish};

/// A man.
pub const MAN: i32 = 100;
/// A king with all 32 pieces on the board.
pub const KING_OPENING: i32 = 280;
/// A king in a bare ending.
pub const KING_ENDING: i32 = 400;
/// Bonus of a man by relative rank (index 0 = own back rank), full board.
pub const ADVANCE_OPENING: [i32; 8] = [0, 0, 0, 2, 4, 7, 10, 0];
/// Bonus of a man by relative rank, bare board.
pub const ADVANCE_ENDING: [i32; 8] = [0, 0, 3, 8, 15, 26, 42, 0];
/// A man on files c-f.
pub const CENTRE: i32 = 3;
/// A man on its second rank while the enemy has no king.
pub const GUARD: i32 = 4;
/// A runaway man one step from crowning.
pub const RUNAWAY_BASE: i32 = 160;
/// Less per further step.
pub const RUNAWAY_PER_STEP: i32 = 15;
/// Per empty square a king sees.
pub const KING_MOBILITY: i32 = 2;
/// A man with no move.
pub const BLOCKED: i32 = -5;
/// The side to move has a piece under attack.
pub const HANGING: i32 = -20;

const FULL: i32 = 32;
const CENTRE_FILES: u64 = 0x3C3C_3C3C_3C3C_3C3C;
const RANK_1: u64 = 0xFF;
const RANK_2: u64 = 0xFF00;

impl ClassicTerms for Turkish {
    const FULL: i32 = FULL;
    const HANGING: Score = HANGING;

    /// Whether an enemy man (moving down) could take a piece of `own` now.
    fn hanging(own: u64, enemy_men: u64, empty: u64) -> bool {
        // Downwards: enemy at s, own at s-8, landing s-16.
        let down = ((enemy_men >> 8) & own) >> 8 & empty;
        // Sideways to the right: enemy at s, own s+1, landing s+2 (same rank).
        let right = (((((enemy_men & !FILE_H) << 1) & own) & !FILE_H) << 1) & empty;
        let left = (((((enemy_men & !FILE_A) >> 1) & own) & !FILE_A) >> 1) & empty;
        down | right | left != 0
    }

    fn side(own: Pieces, opp: Pieces, phase: i32) -> i32 {
        let occ = own.all() | opp.all();
        let empty = !occ;
        let king = blend(KING_OPENING, KING_ENDING, phase, FULL);
        let mut s = MAN * own.men.count_ones() as i32 + king * own.kings.count_ones() as i32;
        // By rank, not man by man: every man of a rank gains the same (the same sums).
        let men = own.men;
        for (r, (open, end)) in ADVANCE_OPENING
            .iter()
            .zip(ADVANCE_ENDING.iter())
            .enumerate()
        {
            let n = (men & RANK_1 << (8 * r)).count_ones() as i32;
            if n != 0 {
                s += n * blend(*open, *end, phase, FULL);
            }
        }
        // A man moves up, or sideways on its rank, to an empty square.
        let movable = men & ((empty >> 8) | ((empty & !FILE_A) >> 1) | ((empty & !FILE_H) << 1));
        s += BLOCKED * (men & !movable).count_ones() as i32;
        s += CENTRE * (men & CENTRE_FILES).count_ones() as i32;
        if opp.kings == 0 {
            s += GUARD * (men & RANK_2).count_ones() as i32 * phase / FULL;
            // Runaway: no enemy man on a rank above. Those are the men on or above the
            // highest rank holding an enemy man (every man when there is none).
            let free = match opp.men {
                0 => men,
                m => men & (!0u64 << (8 * ((63 - m.leading_zeros()) / 8))),
            };
            for r in 0..8 {
                let n = (free & RANK_1 << (8 * r)).count_ones() as i32;
                s += n * (RUNAWAY_BASE - RUNAWAY_PER_STEP * (6 - r));
            }
        }
        for sq in Bits(own.kings) {
            s += KING_MOBILITY * ray_count(sq.index(), empty, [(1, 0), (-1, 0), (0, 1), (0, -1)]);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;
    use crate::eval::classic;

    /// The terms of one side man by man, as first written: the rank-wise sums must agree.
    fn side_man_by_man(own: Pieces, opp: Pieces, phase: i32) -> i32 {
        let empty = !(own.all() | opp.all());
        let king = blend(KING_OPENING, KING_ENDING, phase, FULL);
        let mut s = MAN * own.men.count_ones() as i32 + king * own.kings.count_ones() as i32;
        for sq in Bits(own.men) {
            let r = sq.rank() as usize;
            s += blend(ADVANCE_OPENING[r], ADVANCE_ENDING[r], phase, FULL);
            let b = sq.bit();
            let moves = (b << 8) | ((b & !FILE_H) << 1) | ((b & !FILE_A) >> 1);
            if moves & empty == 0 {
                s += BLOCKED;
            }
        }
        s += CENTRE * (own.men & CENTRE_FILES).count_ones() as i32;
        if opp.kings == 0 {
            s += GUARD * (own.men & RANK_2).count_ones() as i32 * phase / FULL;
            for sq in Bits(own.men) {
                let r = sq.rank() as u32;
                let ahead = if r >= 7 { 0 } else { !0u64 << (8 * (r + 1)) };
                if ahead & opp.men == 0 {
                    s += RUNAWAY_BASE - RUNAWAY_PER_STEP * (6 - r as i32);
                }
            }
        }
        for sq in Bits(own.kings) {
            s += KING_MOBILITY * ray_count(sq.index(), empty, [(1, 0), (-1, 0), (0, 1), (0, -1)]);
        }
        s
    }

    #[test]
    fn rank_sums_equal_man_by_man() {
        let mut rng = crate::core::Rng::new(5);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64();
            let (y, k) = (
                rng.next_u64(),
                rng.next_u64() & rng.next_u64() & rng.next_u64(),
            );
            let kings = if rng.below(2) == 0 { 0 } else { k };
            let (own, opp) = (
                Pieces::split(occ & y, kings),
                Pieces::split(occ & !y, kings),
            );
            let phase = (occ.count_ones() as i32).min(FULL);
            assert_eq!(
                <Turkish as ClassicTerms>::side(own, opp, phase),
                side_man_by_man(own, opp, phase),
                "{own:?} {opp:?}"
            );
        }
    }

    #[test]
    fn hanging_man_is_seen() {
        // White man d4 with a black man on d5 above it and d3 empty: it hangs.
        let w = Pieces::men_only(1 << 27);
        let b = Pieces::men_only(1 << 35);
        let safe_b = Pieces::men_only(1 << 37);
        assert!(
            classic::evaluate::<Turkish>(w, b, Color::White)
                < classic::evaluate::<Turkish>(w, safe_b, Color::White)
        );
    }
}
