//! Turkish draughts (dama): see `../shared/rules/turkish.md`.
//!
//! All 64 squares in the common layout ([`square`]), men moving forward and sideways by shifts,
//! kings sliding along ranks and files through line-occupancy lookups ([`tables`]), captures by
//! recursion with the majority rule and duplicate removal ([`movegen`]).

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
    // The `Bench:` signature of search and evaluation commits: change only on purpose.
    const BENCH_POSITIONS: &'static [&'static str] = &[
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e5,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a4,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h5,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,f2,g2,h2,a3,b3,d4,e4,g3,h3:Ba6,b6,c6,f6,g6,h6,a7,b7,d5,e5,g7,h7",
    "B:Wa2,c2,e2,g2,b3,d3,f3,h3,c4,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,c5,g5",
    "W:Wb2,c2,d2,e2,f2,g2,a4,b4,c4,f4,g4:Bb6,c6,d6,e6,f6,a7,b7,g7,h5,c5",
    "B:Wa3,b3,c3,d3,e3,f3,g3,h3,d2,e2:Ba6,b6,c6,d6,e6,f6,g6,h6,d7,e7",
    "W:Wa3,c3,e3,g3,b4,d4,f4,h4:Ba6,c6,e6,g6,b5,d5,f5,h5",
    "B:Wb2,c2,f2,g2,c3,d3,e3,f3,d4,e4:Bc7,d7,e7,f7,c6,d6,e6,f6,d5,e5",
    "W:Wa2,h2,b3,g3,c4,f4,d5:Bb7,g7,c6,f6,e6,a6,h6",
    "W:WKd1,a3,h3:Be6,f7,g6",
    "W:WKa1,Kh1:BKd8",
    "B:Wd2,e3,f4:Bc6,d7",
    "W:Wb5,c4,g3:Ba7,h7,d6",
    "W:WKe4:Ba7,h7",
    "B:WKa8,b5:BKh1,g4",
    "W:Wa2,b2,c2:Bf7,g7,h7",
    "W:Wd6,e5:Bd2,Ka8",
    "W:WKc3,d4,e4,f4:BKf8,a6,b6,c6",
    "B:Wa5,b5,c5:Ba7,b7,c7",
    "W:We2,f2,g2,h2,e3,f3:Ba7,b7,c7,d7,a6,b6",
];
    const BENCH_DEPTH: u32 = 8;
    const PIECE_KEYS: &'static PieceKeys = &tables::ZOBRIST;
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
