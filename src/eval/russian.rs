//! Evaluation of Russian draughts positions.
//!
//! Every term is computed for one side as if it moved up the board (Black's pieces are seen
//! through a half turn of the board, [`super::rotate`]), so the evaluation is colour-symmetric
//! by construction. Terms and their weights (centi-men):
//!
//! - **Material**: a man is [`MAN`]; a king is worth [`KING_OPENING`] with a full board and
//!   [`KING_ENDING`] with an empty one (linear in the number of pieces in between): flying kings
//!   dominate open boards.
//! - **Advancement / tempo**: a man gains [`ADVANCE_OPENING`]`[rank]` early and
//!   [`ADVANCE_ENDING`]`[rank]` late (blended like the king value): in the ending a man near
//!   the crowning rank is nearly a king, in the opening rushing forward loses men.
//! - **Centre and edge**: [`CENTRE`] for a man on c5, d4, e5 or f4; [`EDGE`] for a man on the
//!   a- or h-file (it controls one diagonal only).
//! - **Back-rank guard**: men on c1 and e1 ([`GUARD_CENTRE`]) and a1, g1 ([`GUARD_SIDE`]) keep the
//!   enemy from crowning, while the enemy has no king; worth more with more pieces on the board.
//! - **Runaway men**: a man with no enemy piece in its forward cone, against an enemy without
//!   kings, will crown: [`RUNAWAY_BASE`] less [`RUNAWAY_PER_STEP`] per step still to go.
//! - **Kings**: [`KING_MOBILITY`] per empty square on its diagonals; [`KING_LONG_DIAGONAL`] for a
//!   king on the long diagonal a1-h8 (the one that holds a lone king's draw),
//!   [`KING_DOUBLE_CORNER`] on the double-corner diagonals g1-a7 / h2-b8.
//! - **Blocked men**: [`BLOCKED`] for a man with no empty square ahead.
//! - **Hanging pieces**: [`HANGING`] if the side to move has a piece an enemy man could take
//!   (it must spend its move on it).

use super::classic::{blend, ray_count, ClassicTerms};
use crate::core::square::{FILE_A, FILE_H};
use crate::core::{Bits, Score};
use crate::variant::{Pieces, Russian};

/// A man.
pub const MAN: i32 = 100;
/// A king with all 24 pieces on the board.
pub const KING_OPENING: i32 = 250;
/// A king in a bare ending.
pub const KING_ENDING: i32 = 330;
/// Bonus of a man by relative rank (index 0 = own back rank), full board.
pub const ADVANCE_OPENING: [i32; 8] = [0, 1, 3, 5, 7, 9, 12, 0];
/// Bonus of a man by relative rank, bare board.
pub const ADVANCE_ENDING: [i32; 8] = [0, 4, 9, 15, 24, 36, 55, 0];
/// A man on a central square.
pub const CENTRE: i32 = 8;
/// A man on the edge files.
pub const EDGE: i32 = -5;
/// A man on c1 or e1 (scaled by the phase).
pub const GUARD_CENTRE: i32 = 12;
/// A man on a1 or g1 (scaled by the phase).
pub const GUARD_SIDE: i32 = 5;
/// A runaway man one step from crowning.
pub const RUNAWAY_BASE: i32 = 150;
/// Less per further step.
pub const RUNAWAY_PER_STEP: i32 = 15;
/// Per empty square a king sees.
pub const KING_MOBILITY: i32 = 3;
/// A king on the long diagonal.
pub const KING_LONG_DIAGONAL: i32 = 20;
/// A king on a double-corner diagonal.
pub const KING_DOUBLE_CORNER: i32 = 8;
/// A man that cannot move forward.
pub const BLOCKED: i32 = -4;
/// The side to move has a piece under attack.
pub const HANGING: i32 = -20;

/// Pieces on the board at the start: the phase runs from this down to 0.
const FULL: i32 = 24;

const CENTRE_SQ: u64 = (1 << 34) | (1 << 27) | (1 << 36) | (1 << 29); // c5 d4 e5 f4
const LONG_DIAG: u64 = 0x8040_2010_0804_0201;
const DOUBLE_CORNER: u64 = (1 << 6)
    | (1 << 13)
    | (1 << 20)
    | (1 << 27)
    | (1 << 34)
    | (1 << 41)
    | (1 << 48)
    | (1 << 15)
    | (1 << 22)
    | (1 << 29)
    | (1 << 36)
    | (1 << 43)
    | (1 << 50)
    | (1 << 57);
const DARK: u64 = 0xAA55_AA55_AA55_AA55;

/// The squares ahead of a man on each square that it could reach or be stopped from: every
/// square `d` ranks further up and at most `d` files aside.
const CONE: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut rr = r + 1;
        while rr < 8 {
            let w = rr - r;
            let mut ff = f - w;
            while ff <= f + w {
                if ff >= 0 && ff < 8 {
                    t[sq] |= 1u64 << (rr * 8 + ff);
                }
                ff += 1;
            }
            rr += 1;
        }
        sq += 1;
    }
    t
};

/// Squares a man on `sq` (moving up) may step to, on the board (the tests' man-by-man form
/// of the blocked-men term).
#[cfg(test)]
fn forward(sq: u64) -> u64 {
    ((sq & !FILE_A) << 7) | ((sq & !FILE_H) << 9)
}

impl ClassicTerms for Russian {
    const FULL: i32 = FULL;
    const HANGING: Score = HANGING;

    /// Whether an enemy man could capture a piece of `own` now (if it were the enemy's move).
    fn hanging(own: u64, enemy_men: u64, empty: u64) -> bool {
        // For each direction: enemy man on one side, own piece, empty square beyond.
        let na = !FILE_A;
        let nh = !FILE_H;
        // enemy jumps up-right: enemy at s, own at s+9, empty at s+18
        let ur = ((enemy_men & nh) << 9) & own & nh;
        let ul = ((enemy_men & na) << 7) & own & na;
        let dr = ((enemy_men & nh) >> 7) & own & nh;
        let dl = ((enemy_men & na) >> 9) & own & na;
        (ur << 9) & empty != 0
            || (ul << 7) & empty != 0
            || (dr >> 7) & empty != 0
            || (dl >> 9) & empty != 0
    }

    /// The terms of one side seen moving up: `own` and `opp` already turned for Black.
    fn side(own: Pieces, opp: Pieces, phase: i32) -> i32 {
        let empty = DARK & !(own.all() | opp.all());
        let mut s = 0;
        let king = blend(KING_OPENING, KING_ENDING, phase, FULL);
        s += MAN * own.men.count_ones() as i32 + king * own.kings.count_ones() as i32;

        // By rank, not man by man: every man of a rank gains the same (the same sums).
        for (r, (open, end)) in ADVANCE_OPENING
            .iter()
            .zip(ADVANCE_ENDING.iter())
            .enumerate()
        {
            let n = (own.men & 0xFF << (8 * r)).count_ones() as i32;
            if n != 0 {
                s += n * blend(*open, *end, phase, FULL);
            }
        }
        // A man steps up-left (s + 7, not from the a-file) or up-right (s + 9, not from the
        // h-file) to an empty square.
        let movable = own.men & (((empty & !FILE_H) >> 7) | ((empty & !FILE_A) >> 9));
        s += BLOCKED * (own.men & !movable).count_ones() as i32;
        s += CENTRE * (own.men & CENTRE_SQ).count_ones() as i32;
        s += EDGE * (own.men & (FILE_A | FILE_H)).count_ones() as i32;

        if opp.kings == 0 {
            let guard = GUARD_CENTRE * (own.men & ((1 << 2) | (1 << 4))).count_ones() as i32
                + GUARD_SIDE * (own.men & ((1 << 0) | (1 << 6))).count_ones() as i32;
            s += guard * phase / FULL;

            // Runaway men: nothing of the enemy in the cone ahead.
            for sq in Bits(own.men) {
                if CONE[sq.index()] & opp.all() == 0 {
                    s += RUNAWAY_BASE - RUNAWAY_PER_STEP * (6 - sq.rank() as i32);
                }
            }
        }

        for sq in Bits(own.kings) {
            s += KING_MOBILITY * ray_count(sq.index(), empty, [(1, 1), (-1, 1), (1, -1), (-1, -1)]);
        }
        s += KING_LONG_DIAGONAL * (own.kings & LONG_DIAG).count_ones() as i32;
        s += KING_DOUBLE_CORNER * (own.kings & DOUBLE_CORNER).count_ones() as i32;
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Color;
    use crate::eval::classic;

    #[test]
    fn rank_sums_equal_man_by_man() {
        // Advancement and blocked men as first written, man by man, against `side`.
        let mut rng = crate::core::Rng::new(6);
        for _ in 0..20_000 {
            let occ = rng.next_u64() & rng.next_u64() & DARK;
            let y = rng.next_u64();
            let own = Pieces::men_only(occ & y);
            // Enemy kings, so that only advancement, blocking and the rest differ.
            let opp = Pieces {
                men: occ & !y & !1,
                kings: 1 << 63,
            };
            let phase = (occ.count_ones() as i32).min(FULL);
            let empty = DARK & !(own.all() | opp.all());
            let mut want = MAN * own.men.count_ones() as i32;
            for sq in Bits(own.men) {
                let r = sq.rank() as usize;
                want += blend(ADVANCE_OPENING[r], ADVANCE_ENDING[r], phase, FULL);
                if forward(sq.bit()) & empty == 0 {
                    want += BLOCKED;
                }
            }
            want += CENTRE * (own.men & CENTRE_SQ).count_ones() as i32;
            want += EDGE * (own.men & (FILE_A | FILE_H)).count_ones() as i32;
            assert_eq!(
                <Russian as ClassicTerms>::side(own, opp, phase),
                want,
                "{own:?}"
            );
        }
    }

    #[test]
    fn material_and_kings_count() {
        let w = Pieces::men_only(1 << 18);
        let b = Pieces::men_only(1 << 45);
        let e = classic::evaluate::<Russian>(w, b, Color::White);
        assert!(e.abs() < 60, "{e}");
        let wk = Pieces {
            men: 1 << 18,
            kings: 1 << 0,
        };
        assert!(classic::evaluate::<Russian>(wk, b, Color::White) > 250);
        assert!(classic::evaluate::<Russian>(wk, b, Color::Black) < -250);
    }
}
