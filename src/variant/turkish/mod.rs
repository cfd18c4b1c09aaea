//! Turkish draughts (dama): see `../shared/rules/turkish.md`.
//!
//! All 64 squares in the common layout ([`square`]), men moving forward and sideways by shifts,
//! kings sliding along ranks and files through line-occupancy lookups ([`tables`]), captures by
//! recursion with the majority rule and duplicate removal ([`movegen`]).

pub mod bench;
pub mod movegen;
pub mod rules;
pub mod square;
pub mod tables;

use super::board::{Board, Move, PieceKeys, Rules};
use super::GameEnd;
use crate::core::{Color, MoveList, Square, Variant};

/// Turkish draughts, the marker type of [`TurkishPosition`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turkish;

/// A Turkish position.
pub type TurkishPosition = Board<Turkish>;

impl Rules for Turkish {
    type RuleState = rules::RuleCounters;
    const VARIANT: Variant = Variant::Turkish;
    const PLAYABLE: u64 = square::ALL_SQUARES;
    const START: [u64; 2] = [0xffff << 8, 0xffff << 40];
    // Each side starts with 16 and never gains any; more could also overflow a move list.
    const MAX_PIECES: u32 = 16;
    const BLACK_KEY: u64 = tables::ZOBRIST_BLACK;
    const CAPTURE_SEPARATOR: char = 'x';
    const BENCH_POSITIONS: &'static [&'static str] = bench::POSITIONS;
    const BENCH_DEPTH: u32 = bench::DEPTH;
    const PDN_GAME_TYPE: u32 = 30;

    #[inline(always)]
    fn piece_keys() -> &'static PieceKeys {
        &tables::ZOBRIST
    }

    #[inline]
    fn generate(b: &TurkishPosition, list: &mut MoveList<Move>) {
        match b.side {
            Color::White => {
                if !b.generate_captures::<true>(list) {
                    b.generate_quiet::<true>(list);
                }
            }
            Color::Black => {
                if !b.generate_captures::<false>(list) {
                    b.generate_quiet::<false>(list);
                }
            }
        }
    }

    #[inline]
    fn count_moves(b: &TurkishPosition) -> usize {
        fn count<const WHITE: bool>(b: &TurkishPosition) -> usize {
            if b.has_capture_of::<WHITE>() {
                let mut l = MoveList::new();
                b.generate_captures::<WHITE>(&mut l);
                l.len()
            } else {
                b.count_quiet::<WHITE>()
            }
        }
        match b.side {
            Color::White => count::<true>(b),
            Color::Black => count::<false>(b),
        }
    }

    #[inline]
    fn has_capture(b: &TurkishPosition) -> bool {
        match b.side {
            Color::White => b.has_capture_of::<true>(),
            Color::Black => b.has_capture_of::<false>(),
        }
    }

    #[inline]
    fn is_reversible(b: &TurkishPosition, mv: &Move) -> bool {
        if mv.captured != 0 || mv.promotes {
            return false;
        }
        // King moves and sideways man moves can be undone; a man's step forward cannot.
        b.kings & (1u64 << mv.from) != 0 || (mv.from ^ mv.to) < 8
    }

    fn capture_path(b: &TurkishPosition, mv: &Move) -> Option<Vec<Square>> {
        b.capture_path(mv)
    }

    fn is_capture_path(b: &TurkishPosition, mv: &Move, landings: &[Square]) -> bool {
        b.is_capture_path(mv, landings)
    }

    fn hub_number(sq: Square) -> Option<u32> {
        square::hub_number(sq)
    }

    fn hub_square(n: u32) -> Option<Square> {
        square::hub_square(n)
    }

    fn rule_state_new(b: &TurkishPosition) -> rules::RuleCounters {
        rules::initial(b)
    }

    fn rule_state_after(
        b: &TurkishPosition,
        s: rules::RuleCounters,
        mv: &Move,
        next: &TurkishPosition,
    ) -> rules::RuleCounters {
        rules::after(b, s, mv, next)
    }

    fn rule_end(b: &TurkishPosition, s: &rules::RuleCounters) -> Option<GameEnd> {
        rules::end(b, s)
    }
}
