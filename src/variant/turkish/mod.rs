//! Turkish draughts (dama): see `../shared/rules/turkish.md`.
//!
//! All 64 squares in the common layout ([`square`]), men moving forward and sideways by shifts,
//! kings sliding along ranks and files through line-occupancy lookups ([`tables`]), captures by
//! recursion with the majority rule and duplicate removal ([`movegen`]).

pub mod movegen;
pub mod rules;
pub mod square;
pub mod tables;

use super::{GameMove, Pieces, Position, PositionError};
use crate::core::{Bits, Color, MoveList, Square, Variant};
use std::fmt;
use tables::{ZOBRIST_BLACK_TO_MOVE, ZOBRIST_PIECES};

/// A Turkish move: start, end, captured set and whether a man is crowned. Capture paths that
/// share these are one move; [`Position::path`] recovers one path for output.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurkishMove {
    captured: u64,
    from: u8,
    to: u8,
    promotes: bool,
}

impl TurkishMove {
    /// A quiet move (no capture). The caller states whether a man is crowned by it.
    pub fn quiet(from: Square, to: Square, promotes: bool) -> Self {
        TurkishMove {
            captured: 0,
            from: from.0,
            to: to.0,
            promotes,
        }
    }
}

impl GameMove for TurkishMove {
    #[inline]
    fn from(&self) -> Square {
        Square(self.from)
    }
    #[inline]
    fn to(&self) -> Square {
        Square(self.to)
    }
    #[inline]
    fn captured(&self) -> u64 {
        self.captured
    }
    #[inline]
    fn promotes(&self) -> bool {
        self.promotes
    }
}

/// A Turkish position: the pieces of each side, the kings among them, the side to move and the
/// Zobrist key (kept incrementally by [`Position::play`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TurkishPosition {
    /// Pieces by colour (index [`Color::index`]).
    color: [u64; 2],
    /// Kings of both colours.
    kings: u64,
    key: u64,
    side: Color,
}

impl Default for TurkishPosition {
    fn default() -> Self {
        Self::start()
    }
}

impl fmt::Display for TurkishPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl TurkishPosition {
    /// Key of the pieces and side, from scratch.
    fn key_from_scratch(color: [u64; 2], kings: u64, side: Color) -> u64 {
        let mut k = if side == Color::Black {
            ZOBRIST_BLACK_TO_MOVE
        } else {
            0
        };
        for c in 0..2 {
            for sq in Bits(color[c]) {
                k ^= ZOBRIST_PIECES[c][(kings & sq.bit() != 0) as usize][sq.index()];
            }
        }
        k
    }

    /// A board diagram (rank 8 at the top; `w b` men, `W B` kings, `.` empty), for debugging
    /// and the terminal.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for rank in (0..8u8).rev() {
            s.push_str(&format!("{} ", rank + 1));
            for file in 0..8u8 {
                let b = Square::new(file, rank).bit();
                let king = self.kings & b != 0;
                s.push(if self.color[0] & b != 0 {
                    if king {
                        'W'
                    } else {
                        'w'
                    }
                } else if self.color[1] & b != 0 {
                    if king {
                        'B'
                    } else {
                        'b'
                    }
                } else {
                    '.'
                });
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        s.push_str("  a b c d e f g h\n");
        s
    }
}

impl Position for TurkishPosition {
    type Move = TurkishMove;
    type RuleState = rules::RuleCounters;
    const VARIANT: Variant = Variant::Turkish;
    const PLAYABLE: u64 = square::ALL_SQUARES;

    fn start() -> Self {
        let white = 0xffff << 8;
        let black = 0xffff << 40;
        TurkishPosition {
            color: [white, black],
            kings: 0,
            key: Self::key_from_scratch([white, black], 0, Color::White),
            side: Color::White,
        }
    }

    fn from_pieces(white: Pieces, black: Pieces, side: Color) -> Result<Self, PositionError> {
        let sets = [white.men, white.kings, black.men, black.kings];
        for i in 0..4 {
            for j in i + 1..4 {
                if sets[i] & sets[j] != 0 {
                    let sq = Square(((sets[i] & sets[j]).trailing_zeros()) as u8);
                    return Err(PositionError::new(format!("two pieces on {sq}")));
                }
            }
        }
        if white.men & square::RANK_8 != 0 {
            let sq = Square((white.men & square::RANK_8).trailing_zeros() as u8);
            return Err(PositionError::new(format!(
                "a white man on {sq}, its crowning rank"
            )));
        }
        if black.men & square::RANK_1 != 0 {
            let sq = Square((black.men & square::RANK_1).trailing_zeros() as u8);
            return Err(PositionError::new(format!(
                "a black man on {sq}, its crowning rank"
            )));
        }
        for (name, p) in [("white", white), ("black", black)] {
            // Each side starts with 16 and never gains any; more could also overflow a move list.
            if p.all().count_ones() > 16 {
                return Err(PositionError::new(format!(
                    "{} {name} pieces (at most 16)",
                    p.all().count_ones()
                )));
            }
        }
        let color = [white.all(), black.all()];
        let kings = white.kings | black.kings;
        Ok(TurkishPosition {
            color,
            kings,
            key: Self::key_from_scratch(color, kings, side),
            side,
        })
    }

    #[inline]
    fn pieces(&self, c: Color) -> Pieces {
        let all = self.color[c.index()];
        Pieces {
            men: all & !self.kings,
            kings: all & self.kings,
        }
    }

    #[inline]
    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline]
    fn key(&self) -> u64 {
        self.key
    }

    fn compute_key(&self) -> u64 {
        Self::key_from_scratch(self.color, self.kings, self.side)
    }

    #[inline]
    fn generate(&self, list: &mut MoveList<Self::Move>) {
        match self.side {
            Color::White => {
                if !self.gen_captures::<true>(list) {
                    self.gen_quiet::<true>(list);
                }
            }
            Color::Black => {
                if !self.gen_captures::<false>(list) {
                    self.gen_quiet::<false>(list);
                }
            }
        }
    }

    #[inline]
    fn count_moves(&self) -> usize {
        match self.side {
            Color::White => {
                if self.any_capture::<true>() {
                    let mut l = MoveList::new();
                    self.gen_captures::<true>(&mut l);
                    l.len()
                } else {
                    self.count_quiet::<true>()
                }
            }
            Color::Black => {
                if self.any_capture::<false>() {
                    let mut l = MoveList::new();
                    self.gen_captures::<false>(&mut l);
                    l.len()
                } else {
                    self.count_quiet::<false>()
                }
            }
        }
    }

    #[inline]
    fn has_capture(&self) -> bool {
        match self.side {
            Color::White => self.any_capture::<true>(),
            Color::Black => self.any_capture::<false>(),
        }
    }

    #[inline]
    fn null_move(&self) -> Self {
        TurkishPosition {
            key: self.key ^ ZOBRIST_BLACK_TO_MOVE,
            side: self.side.opposite(),
            ..*self
        }
    }

    #[inline]
    fn play(&self, mv: &Self::Move) -> Self {
        let us = self.side.index();
        let them = us ^ 1;
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let mut p = *self;
        let was_king = self.kings & from != 0;
        // Captures first: a king may end on the square of a piece it took earlier in the move.
        if mv.captured != 0 {
            let mut c = mv.captured;
            while c != 0 {
                let s = c.trailing_zeros() as usize;
                c &= c - 1;
                p.key ^= ZOBRIST_PIECES[them][((self.kings >> s) & 1) as usize][s];
            }
            p.color[them] &= !mv.captured;
            p.kings &= !mv.captured;
        }
        p.color[us] ^= from ^ to;
        p.key ^= ZOBRIST_PIECES[us][was_king as usize][mv.from as usize]
            ^ ZOBRIST_PIECES[us][(was_king || mv.promotes) as usize][mv.to as usize]
            ^ ZOBRIST_BLACK_TO_MOVE;
        if was_king {
            p.kings ^= from ^ to;
        } else if mv.promotes {
            p.kings |= to;
        }
        p.side = self.side.opposite();
        debug_assert_eq!(p.key, p.compute_key());
        p
    }

    #[inline]
    fn is_reversible(&self, mv: &Self::Move) -> bool {
        if mv.captured != 0 || mv.promotes {
            return false;
        }
        // King moves and sideways man moves can be undone; a man's step forward cannot.
        self.kings & (1u64 << mv.from) != 0 || (mv.from ^ mv.to) < 8
    }

    fn path(&self, mv: &Self::Move) -> Vec<Square> {
        if mv.captured == 0 {
            return vec![Square(mv.to)];
        }
        // A move that is not legal here has no path; fall back to its end square.
        self.capture_path(mv).unwrap_or_else(|| vec![Square(mv.to)])
    }

    fn has_path(&self, mv: &Self::Move, landings: &[Square]) -> bool {
        if mv.captured == 0 {
            return landings == [Square(mv.to)];
        }
        self.is_capture_path(mv, landings)
    }

    fn hub_number(sq: Square) -> Option<u32> {
        square::hub_number(sq)
    }

    fn hub_square(n: u32) -> Option<Square> {
        square::hub_square(n)
    }

    fn rule_state_new(&self) -> Self::RuleState {
        rules::initial(self)
    }
    fn rule_state_after(
        &self,
        s: Self::RuleState,
        mv: &Self::Move,
        next: &Self,
    ) -> Self::RuleState {
        rules::after(self, s, mv, next)
    }
    fn rule_end(&self, s: &Self::RuleState) -> Option<crate::variant::GameEnd> {
        rules::end(self, s)
    }
}
