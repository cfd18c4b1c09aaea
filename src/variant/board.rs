//! The board and move shared by both games. Both games keep their pieces in the same common
//! 64-bit layout (bit `8 * rank + file`, see [`crate::core::square`]), so one struct serves
//! both; a game is a zero-sized marker type implementing [`Rules`], which brings only what
//! differs: its tables, move generation, rules and square numbering. The generic code (search,
//! perft, the game record, the protocols) sees the [`Position`] trait, implemented here once
//! for every `Board<G>` by forwarding to `G`.

use super::{GameEnd, GameMove, Pieces, Position, PositionError};
use crate::core::square::{RANK_1, RANK_8};
use crate::core::{Bits, Color, MoveList, Square, Variant};
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;

/// A move of either game: start, end, captured set and whether a man is crowned. The path of
/// a capture is not stored (see [`Position::path`]); two paths with the same four fields are
/// one move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Move {
    /// Captured squares (common 64-bit layout).
    pub captured: u64,
    /// Start square index.
    pub from: u8,
    /// End square index.
    pub to: u8,
    /// Whether a man becomes a king during this move.
    pub promotes: bool,
}

impl Move {
    /// A quiet move (no capture). The caller states whether a man is crowned by it.
    #[inline]
    pub fn quiet(from: Square, to: Square, promotes: bool) -> Move {
        Move {
            captured: 0,
            from: from.0,
            to: to.0,
            promotes,
        }
    }

    /// The kings of both sides after this move is played on a board whose kings are `kings`,
    /// branch-free: the king bit moves with the piece, a promotion sets it, captured kings go.
    /// Also right when the end square is among the captured ones (a Turkish king may land on
    /// a square it emptied earlier in the same capture).
    #[inline(always)]
    pub fn kings_after(&self, kings: u64) -> u64 {
        let from = 1u64 << self.from;
        let to = 1u64 << self.to;
        let moved_king = (kings & from != 0) | self.promotes;
        (kings & !from & !self.captured) | (to & (moved_king as u64).wrapping_neg())
    }
}

impl GameMove for Move {
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

/// Zobrist keys of the pieces, `[colour][is king][square]`.
pub type PieceKeys = [[[u64; 64]; 2]; 2];

/// What one game brings to the shared [`Board`]: its constants, tables, move generation, rules
/// and square numbering. Implemented by a zero-sized marker type per game.
pub trait Rules:
    Copy + Clone + Default + Eq + Hash + fmt::Debug + Send + Sync + Sized + 'static
{
    /// Counters of the game's draw rules that depend on the history; see
    /// [`Position::RuleState`].
    type RuleState: Copy + Default + fmt::Debug + PartialEq + Eq + Send + Sync + 'static;

    /// Which game this is.
    const VARIANT: Variant;
    /// The squares pieces may stand on.
    const PLAYABLE: u64;
    /// White's and Black's pieces at the start (all men).
    const START: [u64; 2];
    /// The most pieces one side may have (a position with more is refused); by default no
    /// limit beyond the playable squares.
    const MAX_PIECES: u32 = Self::PLAYABLE.count_ones();
    /// The key of "Black to move".
    const BLACK_KEY: u64;
    /// The separator between the squares of a capture in algebraic notation: by default `x`,
    /// as PDN writes captures.
    const CAPTURE_SEPARATOR: char = 'x';
    /// The PDN `GameType` number.
    const PDN_GAME_TYPE: u32;
    /// Moves a clock without moves to go is planned over (see
    /// [`Position::CLOCK_MOVES_TO_GO`]).
    const CLOCK_MOVES_TO_GO: u32 = 30;

    /// The game's piece keys.
    const PIECE_KEYS: &'static PieceKeys;

    /// Appends every legal move to `list`, each exactly once.
    fn generate(b: &Board<Self>, list: &mut MoveList<Move>);

    /// Number of legal moves (bulk counting in perft).
    #[inline]
    fn count_moves(b: &Board<Self>) -> usize {
        let mut l = MoveList::new();
        Self::generate(b, &mut l);
        l.len()
    }

    /// See [`super::Perft::count_moves_after_each`].
    #[inline(always)]
    fn count_moves_after_each(b: &Board<Self>) -> u64 {
        let mut l = MoveList::new();
        Self::generate(b, &mut l);
        l.iter()
            .map(|m| Self::count_moves(&b.play_no_key(m)) as u64)
            .sum()
    }

    /// Whether the side to move must capture.
    fn has_capture(b: &Board<Self>) -> bool;

    /// See [`Position::is_reversible`].
    fn is_reversible(b: &Board<Self>, mv: &Move) -> bool;

    /// Every path (landing squares after the start) of the capture `mv`, in the order the
    /// capture search finds them; empty if it is not legal here.
    fn capture_paths(b: &Board<Self>, mv: &Move) -> Vec<Vec<Square>>;

    /// One path of the capture `mv`, if it is legal here.
    fn capture_path(b: &Board<Self>, mv: &Move) -> Option<Vec<Square>> {
        Self::capture_paths(b, mv).into_iter().next()
    }

    /// Whether `landings` is a path of the capture `mv`.
    fn is_capture_path(b: &Board<Self>, mv: &Move, landings: &[Square]) -> bool {
        Self::capture_paths(b, mv).iter().any(|p| p == landings)
    }

    /// See [`Position::rule_state_new`]; by default the counters start empty.
    fn rule_state_new(_b: &Board<Self>) -> Self::RuleState {
        Self::RuleState::default()
    }
    /// See [`Position::rule_state_after`]; by default they never change.
    fn rule_state_after(
        _b: &Board<Self>,
        s: Self::RuleState,
        _mv: &Move,
        _next: &Board<Self>,
    ) -> Self::RuleState {
        s
    }
    /// See [`Position::rule_end`].
    fn rule_end(b: &Board<Self>, s: &Self::RuleState) -> Option<GameEnd>;
}

/// A position of game `G`: the pieces of each side, which of them are kings, the side to move
/// and the Zobrist key (kept incrementally by `play`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board<G: Rules> {
    /// Pieces of each side, indexed by [`Color::index`].
    pub(crate) by: [u64; 2],
    /// Kings of both sides.
    pub(crate) kings: u64,
    pub(crate) key: u64,
    pub(crate) side: Color,
    game: PhantomData<G>,
}

/// The piece sets after the bits `mover` of the side to move and the bits `other` of the
/// opponent flip. Written without indexing by colour: an indexed write of one entry followed
/// by a read of the whole array (the next node's) defeats store-to-load forwarding, a stall
/// that showed as 8% of perft time.
#[inline(always)]
fn flip_sides(by: [u64; 2], side: Color, mover: u64, other: u64) -> [u64; 2] {
    let black = 0u64.wrapping_sub(side.index() as u64);
    [
        by[0] ^ (mover & !black) ^ (other & black),
        by[1] ^ (other & !black) ^ (mover & black),
    ]
}

impl<G: Rules> Board<G> {
    /// A board from its raw sets, the key computed from scratch. The caller has checked them.
    fn from_sets(by: [u64; 2], kings: u64, side: Color) -> Board<G> {
        let mut b = Board {
            by,
            kings,
            key: 0,
            side,
            game: PhantomData,
        };
        b.key = b.key_from_scratch();
        b
    }

    /// The key of the pieces and side, computed from scratch.
    fn key_from_scratch(&self) -> u64 {
        let keys = G::PIECE_KEYS;
        let mut k = if self.side == Color::Black {
            G::BLACK_KEY
        } else {
            0
        };
        for (set, keys) in self.by.iter().zip(keys) {
            for sq in Bits(*set) {
                k ^= keys[(self.kings & sq.bit() != 0) as usize][sq.index()];
            }
        }
        k
    }

    /// The pieces of `color` (men and kings together).
    #[inline(always)]
    pub fn all_of(&self, color: Color) -> u64 {
        self.by[color.index()]
    }

    /// Every king on the board, of both sides.
    #[inline(always)]
    pub fn kings(&self) -> u64 {
        self.kings
    }

    /// Every piece on the board.
    #[inline(always)]
    pub fn occupied(&self) -> u64 {
        self.by[0] | self.by[1]
    }

    /// The position after `mv` with the key left stale (fast perft; see
    /// [`super::Perft::play_no_key`]).
    #[inline(always)]
    pub fn play_no_key(&self, mv: &Move) -> Board<G> {
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        Board {
            by: flip_sides(self.by, self.side, from ^ to, mv.captured),
            kings: mv.kings_after(self.kings),
            key: self.key,
            side: !self.side,
            game: PhantomData,
        }
    }

    /// A board picture for debugging and the terminal: see [`render`].
    pub fn diagram(&self) -> String {
        render(self, false, true)
    }
}

impl<G: Rules> Default for Board<G> {
    fn default() -> Self {
        Self::start()
    }
}

impl<G: Rules> fmt::Display for Board<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::fen::write_fen(self))
    }
}

impl<G: Rules> Position for Board<G> {
    type Rules = G;
    type Move = Move;
    type RuleState = G::RuleState;
    const VARIANT: Variant = G::VARIANT;
    const PLAYABLE: u64 = G::PLAYABLE;
    const CAPTURE_SEPARATOR: char = G::CAPTURE_SEPARATOR;
    const PDN_GAME_TYPE: u32 = G::PDN_GAME_TYPE;
    const CLOCK_MOVES_TO_GO: u32 = G::CLOCK_MOVES_TO_GO;

    fn start() -> Self {
        Self::from_sets(G::START, 0, Color::White)
    }

    fn from_pieces(white: Pieces, black: Pieces, side: Color) -> Result<Self, PositionError> {
        let sets = [white.men, white.kings, black.men, black.kings];
        let mut seen = 0u64;
        for set in sets {
            if set & seen != 0 {
                let sq = Square((set & seen).trailing_zeros() as u8);
                return Err(PositionError::new(format!("two pieces on {sq}")));
            }
            seen |= set;
        }
        if seen & !G::PLAYABLE != 0 {
            let sq = Square((seen & !G::PLAYABLE).trailing_zeros() as u8);
            return Err(PositionError::new(format!("square {sq} is not playable")));
        }
        for (name, men, rank) in [("white", white.men, RANK_8), ("black", black.men, RANK_1)] {
            if men & rank != 0 {
                let sq = Square((men & rank).trailing_zeros() as u8);
                return Err(PositionError::new(format!(
                    "a {name} man on {sq}, its crowning rank"
                )));
            }
        }
        for (name, p) in [("white", white), ("black", black)] {
            // A side never gains pieces; more than it starts with could overflow a move list.
            let n = p.all().count_ones();
            if n > G::MAX_PIECES {
                return Err(PositionError::new(format!(
                    "{n} {name} pieces (at most {})",
                    G::MAX_PIECES
                )));
            }
        }
        Ok(Self::from_sets(
            [white.all(), black.all()],
            white.kings | black.kings,
            side,
        ))
    }

    #[inline(always)]
    fn pieces(&self, c: Color) -> Pieces {
        Pieces::split(self.by[c.index()], self.kings)
    }

    #[inline(always)]
    fn side_to_move(&self) -> Color {
        self.side
    }

    #[inline(always)]
    fn key(&self) -> u64 {
        self.key
    }

    fn compute_key(&self) -> u64 {
        self.key_from_scratch()
    }

    #[inline]
    fn generate(&self, list: &mut MoveList<Move>) {
        G::generate(self, list)
    }

    #[inline(always)]
    fn count_moves(&self) -> usize {
        G::count_moves(self)
    }

    #[inline]
    fn has_capture(&self) -> bool {
        G::has_capture(self)
    }

    #[inline]
    fn null_move(&self) -> Self {
        Board {
            key: self.key ^ G::BLACK_KEY,
            side: !self.side,
            ..*self
        }
    }

    #[inline(always)]
    fn play(&self, mv: &Move) -> Self {
        let keys = G::PIECE_KEYS;
        let from = 1u64 << mv.from;
        let to = 1u64 << mv.to;
        let us = self.side.index();
        let them = us ^ 1;
        let was_king = self.kings & from != 0;
        let is_king = was_king || mv.promotes;
        let mut key = self.key
            ^ G::BLACK_KEY
            ^ keys[us][was_king as usize][mv.from as usize & 63]
            ^ keys[us][is_king as usize][mv.to as usize & 63];
        let mut c = mv.captured;
        while c != 0 {
            let s = c.trailing_zeros() as usize;
            c &= c - 1;
            key ^= keys[them][(self.kings >> s) as usize & 1][s];
        }
        let next = Board {
            by: flip_sides(self.by, self.side, from ^ to, mv.captured),
            kings: mv.kings_after(self.kings),
            key,
            side: !self.side,
            game: PhantomData,
        };
        debug_assert_eq!(next.key, next.key_from_scratch());
        next
    }

    #[inline]
    fn is_reversible(&self, mv: &Move) -> bool {
        G::is_reversible(self, mv)
    }

    fn path(&self, mv: &Move) -> Vec<Square> {
        if mv.captured == 0 {
            return vec![Square(mv.to)];
        }
        // A move that is not legal here has no path; fall back to its end square.
        G::capture_path(self, mv).unwrap_or_else(|| vec![Square(mv.to)])
    }

    fn paths(&self, mv: &Move) -> Vec<Vec<Square>> {
        if mv.captured == 0 {
            return vec![vec![Square(mv.to)]];
        }
        let all = G::capture_paths(self, mv);
        if all.is_empty() {
            vec![vec![Square(mv.to)]]
        } else {
            all
        }
    }

    fn has_path(&self, mv: &Move, landings: &[Square]) -> bool {
        if mv.captured == 0 {
            return landings == [Square(mv.to)];
        }
        G::is_capture_path(self, mv, landings)
    }

    /// The playable squares numbered in index order (rank by rank from a1), as both games'
    /// Hub notation does.
    fn hub_number(sq: Square) -> Option<u32> {
        let bit = 1u64.checked_shl(sq.0 as u32)?;
        (G::PLAYABLE & bit != 0).then(|| (G::PLAYABLE & (bit - 1)).count_ones() + 1)
    }

    fn hub_square(n: u32) -> Option<Square> {
        Bits(G::PLAYABLE).nth((n as usize).checked_sub(1)?)
    }

    fn rule_state_new(&self) -> G::RuleState {
        G::rule_state_new(self)
    }

    fn rule_state_after(&self, s: G::RuleState, mv: &Move, next: &Self) -> G::RuleState {
        G::rule_state_after(self, s, mv, next)
    }

    fn rule_end(&self, s: &G::RuleState) -> Option<GameEnd> {
        G::rule_end(self, s)
    }
}

impl<G: Rules> super::Perft for Board<G> {
    #[inline(always)]
    fn play_no_key(&self, mv: &Move) -> Self {
        Board::play_no_key(self, mv)
    }

    #[inline(always)]
    fn count_moves_after_each(&self) -> u64 {
        G::count_moves_after_each(self)
    }
}

/// Draws a position with coordinates, White at the bottom unless `flipped`: Unicode draughts
/// pieces, or `w W b B` with `ascii`; `.` is an empty playable square, a blank an unplayable
/// one. The one board picture of the library (terminal play, debugging, test failures).
pub fn render<P: Position>(pos: &P, flipped: bool, ascii: bool) -> String {
    let w = pos.pieces(Color::White);
    let b = pos.pieces(Color::Black);
    let order = |flip: bool| -> Vec<u8> {
        if flip {
            (0..8).rev().collect()
        } else {
            (0..8).collect()
        }
    };
    let files = order(flipped);
    let ranks = order(!flipped);
    let letters: String = files
        .iter()
        .map(|f| format!(" {}", (b'a' + f) as char))
        .collect();
    let glyphs = if ascii {
        ["w", "W", "b", "B"]
    } else {
        ["⛀", "⛁", "⛂", "⛃"]
    };
    let mut out = format!("   {letters}\n");
    for &r in &ranks {
        out.push_str(&format!(" {} ", r + 1));
        for &f in &files {
            let bit = 1u64 << (8 * r + f);
            let c = [w.men, w.kings, b.men, b.kings]
                .iter()
                .position(|set| set & bit != 0)
                .map_or(if P::PLAYABLE & bit != 0 { "." } else { " " }, |i| {
                    glyphs[i]
                });
            out.push(' ');
            out.push_str(c);
        }
        out.push_str(&format!("  {}\n", r + 1));
    }
    out.push_str(&format!("   {letters}\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{RussianPosition, TurkishPosition};

    /// Checks known Hub numbers, squares without one, and that the `count` numbers round-trip.
    fn numbering<P: Position>(known: &[(&str, u32)], absent: &[&str], count: u32) {
        let num = |s: &str| P::hub_number(Square::parse(s).unwrap());
        for &(sq, n) in known {
            assert_eq!(num(sq), Some(n), "{sq}");
        }
        for &sq in absent {
            assert_eq!(num(sq), None, "{sq}");
        }
        for n in 1..=count {
            assert_eq!(P::hub_number(P::hub_square(n).unwrap()), Some(n));
        }
        assert_eq!(P::hub_square(0), None);
        assert_eq!(P::hub_square(count + 1), None);
        assert_eq!(P::hub_number(Square(64)), None);
    }

    fn keys_differ<G: Rules>() {
        let mut all: Vec<u64> = G::PIECE_KEYS.iter().flatten().flatten().copied().collect();
        all.push(G::BLACK_KEY);
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 257);
    }

    #[test]
    fn zobrist_keys_differ() {
        keys_differ::<crate::variant::Russian>();
        keys_differ::<crate::variant::Turkish>();
    }

    #[test]
    fn hub_numbers() {
        let russian = [
            ("a1", 1),
            ("c1", 2),
            ("b2", 5),
            ("c3", 10),
            ("d4", 14),
            ("h8", 32),
        ];
        numbering::<RussianPosition>(&russian, &["b1", "a8"], 32);
        let turkish = [
            ("a1", 1),
            ("h1", 8),
            ("a2", 9),
            ("b3", 18),
            ("b4", 26),
            ("h8", 64),
        ];
        numbering::<TurkishPosition>(&turkish, &[], 64);
    }
}
