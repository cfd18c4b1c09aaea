//! The frame of the hand-written evaluation, the same for both games: the terms of each side
//! are computed as if it moved up the board (Black's pieces seen through a half turn,
//! [`super::rotate`]), so the score is colour-symmetric by construction; the side to move
//! loses [`ClassicTerms::HANGING`] when an enemy man could take one of its pieces. Each game
//! ([`super::russian`], [`super::turkish`]) gives only its terms and weights.

use super::rotate;
use crate::core::{Color, Score};
use crate::variant::{Pieces, Rules};

/// The terms of one game's hand-written evaluation.
pub trait ClassicTerms: Rules {
    /// Pieces on the board at the start: the phase runs from this (opening) to 0 (ending).
    const FULL: i32;
    /// The side to move's penalty for a piece an enemy man could take now.
    const HANGING: Score;
    /// The terms of one side, seen moving up: `own` and `opp` already turned for Black.
    fn side(own: Pieces, opp: Pieces, phase: i32) -> i32;
    /// Whether an enemy man (moving down) could take a piece of `own` now.
    fn hanging(own: u64, enemy_men: u64, empty: u64) -> bool;
}

/// A weight blended between its opening and ending values by the phase.
#[inline]
pub(crate) fn blend(open: i32, end: i32, phase: i32, full: i32) -> i32 {
    (open * phase + end * (full - phase)) / full
}

/// The pieces seen from the other side of the board.
#[inline]
pub(crate) fn turn(p: Pieces) -> Pieces {
    Pieces {
        men: rotate(p.men),
        kings: rotate(p.kings),
    }
}

/// Empty squares seen from square `s` along the four directions `dirs` (file, rank steps).
pub(crate) fn ray_count(s: usize, empty: u64, dirs: [(i32, i32); 4]) -> i32 {
    let (f0, r0) = ((s & 7) as i32, (s >> 3) as i32);
    let mut n = 0;
    for (df, dr) in dirs {
        let (mut f, mut r) = (f0 + df, r0 + dr);
        while (0..8).contains(&f) && (0..8).contains(&r) && empty & (1u64 << (r * 8 + f)) != 0 {
            n += 1;
            f += df;
            r += dr;
        }
    }
    n
}

/// The hand-written evaluation of game `G` for the side to move.
pub fn evaluate<G: ClassicTerms>(white: Pieces, black: Pieces, stm: Color) -> Score {
    let phase = ((white.all() | black.all()).count_ones() as i32).min(G::FULL);
    let w = G::side(white, black, phase);
    let b = G::side(turn(black), turn(white), phase);
    let (own, opp, sign) = match stm {
        Color::White => (white, black, 1),
        Color::Black => (turn(black), turn(white), -1),
    };
    let mut s = sign * (w - b);
    let empty = G::PLAYABLE & !(own.all() | opp.all());
    if G::hanging(own.all(), opp.men, empty) {
        s += G::HANGING;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::variant::{Russian, Turkish};

    /// Random boards of game `G` (no man on its crowning rank); the colour-swapped board
    /// with the other side to move scores the same for the side to move.
    fn colour_symmetric<G: ClassicTerms>(seed: u64) {
        let mut rng = Rng::new(seed);
        for _ in 0..2000 {
            let occ = rng.next_u64() & rng.next_u64() & G::PLAYABLE;
            let y = rng.next_u64();
            let kings = rng.next_u64() & rng.next_u64();
            let w = Pieces {
                men: occ & y & !kings & !(0xFFu64 << 56),
                kings: occ & y & kings,
            };
            let b = Pieces {
                men: occ & !y & !kings & !0xFF,
                kings: occ & !y & kings,
            };
            let (fw, fb) = (turn(b), turn(w));
            for stm in [Color::White, Color::Black] {
                assert_eq!(
                    evaluate::<G>(w, b, stm),
                    evaluate::<G>(fw, fb, !stm),
                    "{w:?} {b:?} {stm:?}"
                );
            }
        }
    }

    #[test]
    fn colour_symmetric_on_random_boards() {
        colour_symmetric::<Russian>(1);
        colour_symmetric::<Turkish>(2);
    }
}
