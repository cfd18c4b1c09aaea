//! Turkish draughts (dama): see `docs/rules/turkish.md`.
//!
//! All 64 squares in the common layout ([`square`]), men moving forward and sideways by shifts,
//! kings sliding along ranks and files through line-occupancy lookups ([`tables`]), captures by
//! recursion with the majority rule and duplicate removal ([`movegen`]).

pub mod movegen;
pub mod rules;
pub mod square;
pub mod tables;

use super::board::{Move, PieceKeys, Rules};
use super::GameEnd;
use super::{Turkish, TurkishPosition};
use crate::core::{Color, MoveList, Square, Variant};

impl Rules for Turkish {
    type RuleState = rules::RuleCounters;
    const VARIANT: Variant = Variant::Turkish;
    const PLAYABLE: u64 = square::ALL_SQUARES;
    // Men on the second and third ranks, the back ranks empty.
    const START: [u64; 2] = [0xffff << 8, 0xffff << 40];
    // Each side starts with 16 and never gains any; more could also overflow a move list.
    const MAX_PIECES: u32 = 16;
    const PIECE_KEYS: &'static PieceKeys = &tables::ZOBRIST;
    const BLACK_KEY: u64 = tables::ZOBRIST_BLACK;
    const PDN_GAME_TYPE: u32 = 30;
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

    fn capture_paths(b: &TurkishPosition, mv: &Move) -> Vec<Vec<Square>> {
        b.capture_paths(mv)
    }

    fn capture_path(b: &TurkishPosition, mv: &Move) -> Option<Vec<Square>> {
        b.capture_path(mv)
    }

    fn is_capture_path(b: &TurkishPosition, mv: &Move, landings: &[Square]) -> bool {
        b.is_capture_path(mv, landings)
    }

    fn rule_end(b: &TurkishPosition, s: &rules::RuleCounters) -> Option<GameEnd> {
        rules::end(b, s)
    }
}
