//! The game layer: one trait, [`Position`], implemented once per game ([`russian`],
//! [`turkish`]). Search, perft, bench, the game record and the protocols are generic over it and
//! monomorphized, so there is no dispatch per node; a game chosen at run time by
//! [`crate::core::Variant`] becomes a type in one place, [`crate::dispatch`].

pub mod board;
pub mod fen;
pub mod notation;
pub mod russian;
pub mod turkish;

use crate::core::{Color, MoveList, Square, Variant};
use std::fmt;
use std::hash::Hash;

pub use board::{Board, Move, Rules};
pub use notation::{MoveError, PositionError};

/// Russian draughts, the marker type of [`RussianPosition`]: its [`Rules`] are in [`russian`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Russian;

/// A Russian position.
pub type RussianPosition = Board<Russian>;

/// Turkish draughts, the marker type of [`TurkishPosition`]: its [`Rules`] are in [`turkish`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Turkish;

/// A Turkish position.
pub type TurkishPosition = Board<Turkish>;

/// A move of either game. A move *is* its start square, end square and captured set (plus, for
/// a man, whether it is crowned): two capture paths with the same three are one move.
pub trait GameMove: Copy + Eq + Hash + fmt::Debug + Default + Send + Sync + 'static {
    /// Start square.
    fn from(&self) -> Square;
    /// End square (may equal the start for a king's circular capture).
    fn to(&self) -> Square;
    /// The captured squares, in the common 64-bit layout (see [`crate::core::square`]).
    fn captured(&self) -> u64;
    /// Whether a man is crowned by this move.
    fn promotes(&self) -> bool;
    /// Whether the move captures.
    #[inline]
    fn is_capture(&self) -> bool {
        self.captured() != 0
    }
    /// Number of pieces captured.
    #[inline]
    fn capture_count(&self) -> u32 {
        self.captured().count_ones()
    }
    /// A compact code for the transposition table: equal moves have equal codes, and different
    /// legal moves of one position almost never do. The search always checks a hint against
    /// the legal moves before it trusts it.
    #[inline]
    fn hint(&self) -> u32 {
        let c = self.captured();
        let folded = (c ^ (c >> 21) ^ (c >> 42)) as u32 & 0x000f_ffff;
        (self.from().0 as u32) | ((self.to().0 as u32) << 6) | (folded << 12)
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given side won.
    Win(Color),
    /// Drawn.
    Draw,
}

/// The rule that ended a game, for results shown to users and written to records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndRule {
    /// The side to move has no legal move (no pieces, or all blocked) and loses.
    NoLegalMove,
    /// The same position with the same side to move occurred for the third time.
    Repetition,
    /// Russian 7.2.4: three or more kings against a lone king not won within 15 moves.
    ThreeKingsAgainstKing,
    /// Russian 7.2.5: 15 moves by both sides with kings only, no man moved and no capture.
    KingMovesOnly,
    /// Russian 7.2.6: material balance unchanged for 30 moves (4-5 pieces) or 60 (6-7 pieces).
    BalanceUnchanged,
    /// Russian 7.2.7: three pieces including a king against a lone king on the long diagonal,
    /// not won within 5 moves.
    LongDiagonal,
    /// Russian 7.2.8: two kings, king and man, or one king against a lone king, not won
    /// within 5 moves.
    SmallEnding,
    /// Turkish: a lone king against a lone man wins for the king.
    LoneKingAgainstMan,
    /// Turkish: any other one-piece-against-one-piece position is a draw.
    OnePieceEach,
}

impl fmt::Display for EndRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            EndRule::NoLegalMove => "no legal move",
            EndRule::Repetition => "threefold repetition",
            EndRule::ThreeKingsAgainstKing => "three kings against a lone king not won in 15 moves",
            EndRule::KingMovesOnly => "15 moves with kings only, no man moved and no capture",
            EndRule::BalanceUnchanged => "material balance unchanged for the move limit",
            EndRule::LongDiagonal => "lone king on the long diagonal held for 5 moves",
            EndRule::SmallEnding => "small king ending not won in 5 moves",
            EndRule::LoneKingAgainstMan => "lone king against lone man",
            EndRule::OnePieceEach => "one piece against one piece",
        };
        f.write_str(s)
    }
}

/// A finished game: who won (or a draw) and by which rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameEnd {
    /// The result.
    pub outcome: Outcome,
    /// The rule that decided it.
    pub rule: EndRule,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(Color::White) => f.write_str("White wins"),
            Outcome::Win(Color::Black) => f.write_str("Black wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

impl fmt::Display for GameEnd {
    /// `White wins (no legal move)`, `draw (threefold repetition)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.outcome, self.rule)
    }
}

/// The pieces of one side, as square sets in the common 64-bit layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Pieces {
    /// Men (uncrowned pieces).
    pub men: u64,
    /// Kings.
    pub kings: u64,
}

impl Pieces {
    /// The side with the men `men` and no king.
    pub const fn men_only(men: u64) -> Pieces {
        Pieces { men, kings: 0 }
    }

    /// The side whose pieces stand on `squares`, those also in `kings` being kings.
    #[inline]
    pub const fn split(squares: u64, kings: u64) -> Pieces {
        Pieces {
            men: squares & !kings,
            kings: squares & kings,
        }
    }

    /// All pieces of the side.
    #[inline]
    pub fn all(&self) -> u64 {
        self.men | self.kings
    }
}

/// A position of one game: the board and the side to move. Positions are small and `Copy`;
/// moves are made by copy-make ([`Position::play`]).
pub trait Position:
    Copy + Clone + Eq + Hash + fmt::Debug + fmt::Display + Send + Sync + Sized + 'static
{
    /// The game's rules: its constants, tables and move generation.
    type Rules: Rules;

    /// The move type of this game.
    type Move: GameMove;

    /// Counters of the game's draw rules that depend on the history (for example Russian
    /// 7.2.4-7.2.8); `()` where a game has none. Repetition is handled separately, by keys.
    type RuleState: Copy + Default + fmt::Debug + PartialEq + Eq + Send + Sync + 'static;

    /// Which game this is.
    const VARIANT: Variant;

    /// The squares pieces may stand on, in the common 64-bit layout.
    const PLAYABLE: u64;

    /// The separator between the squares of a capture in algebraic notation (`c3:e5`,
    /// Turkish `d3xd5`).
    const CAPTURE_SEPARATOR: char;

    /// The PDN `GameType` number of the game.
    const PDN_GAME_TYPE: u32;

    /// Moves a clock that gives no moves to go is planned over: each move gets the clock
    /// (above a reserve) divided by this, plus most of the increment. A move takes less
    /// than its share (no iteration is started late, a stable best move is cut short), so
    /// the number is below the moves a game has left; how far below depends on how long the
    /// game's games run, and was chosen for each game by matches (docs/search.md, Time).
    const CLOCK_MOVES_TO_GO: u32;

    /// The initial position.
    fn start() -> Self;

    /// Builds a position from piece sets. Fails if pieces overlap, stand on unplayable squares
    /// or a man stands on its own crowning rank.
    fn from_pieces(white: Pieces, black: Pieces, side: Color) -> Result<Self, PositionError>;

    /// The pieces of one side.
    fn pieces(&self, color: Color) -> Pieces;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// Zobrist key of the position (pieces and side to move), kept incrementally by `play`.
    fn key(&self) -> u64;

    /// Zobrist key recomputed from scratch (to check the incremental one in tests).
    fn compute_key(&self) -> u64;

    /// Appends every legal move to `list` (which the caller has cleared), each exactly once.
    fn generate(&self, list: &mut MoveList<Self::Move>);

    /// Number of legal moves, possibly faster than generating them (bulk counting in perft).
    fn count_moves(&self) -> usize {
        let mut l = MoveList::new();
        self.generate(&mut l);
        l.len()
    }

    /// Whether the side to move must capture.
    fn has_capture(&self) -> bool;

    /// The same board with the other side to move (a "null move"; the key is updated). Not a
    /// legal move in either game: the search uses it to ask what the opponent threatens.
    fn null_move(&self) -> Self;

    /// The position after `mv`, which must be legal here.
    fn play(&self, mv: &Self::Move) -> Self;

    /// Whether the position could occur again after `mv` (no capture, no promotion, no man
    /// move that can never be undone). Repetition checks look back only over reversible moves.
    fn is_reversible(&self, mv: &Self::Move) -> bool;

    /// The landing squares of `mv` after its start, in order (for a quiet move just the end
    /// square). Reconstructed from the move, which does not store its path.
    fn path(&self, mv: &Self::Move) -> Vec<Square>;

    /// Every path of `mv` (landing squares after the start, in order): more than one when a
    /// king may pause on different squares between two captures. The first is
    /// [`Position::path`]'s.
    fn paths(&self, mv: &Self::Move) -> Vec<Vec<Square>> {
        vec![self.path(mv)]
    }

    /// Whether `landings` (the squares after the start, in order) is a path of `mv`. A move may
    /// have several paths (a king pausing on different squares between two captures on one
    /// line); [`Position::path`] gives just one of them.
    fn has_path(&self, mv: &Self::Move, landings: &[Square]) -> bool {
        self.path(mv) == landings
    }

    /// Hub number of a square (1-based, bottom-left first), if it is playable.
    fn hub_number(sq: Square) -> Option<u32>;

    /// Square of a Hub number, if the number exists.
    fn hub_square(n: u32) -> Option<Square>;

    /// The counters of the draw rules for a position seen without history.
    fn rule_state_new(&self) -> Self::RuleState {
        Self::RuleState::default()
    }

    /// The counters after `mv` is played from `self` (giving `next`).
    fn rule_state_after(
        &self,
        state: Self::RuleState,
        _mv: &Self::Move,
        _next: &Self,
    ) -> Self::RuleState {
        state
    }

    /// A game end decided by the position and the rule counters alone: the game's special
    /// draw and win rules. Does not report "no legal move" or repetition; see `crate::game`.
    fn rule_end(&self, _state: &Self::RuleState) -> Option<GameEnd> {
        None
    }

    /// All legal moves in a `Vec` (convenience for non-hot paths).
    fn legal_moves(&self) -> Vec<Self::Move> {
        let mut l = MoveList::new();
        self.generate(&mut l);
        l.to_vec()
    }
}

/// Hooks used only by perft: each may skip work that perft never reads (the key, the move
/// list), so a game can count faster than it plays.
pub trait Perft: Position {
    /// Like [`Position::play`], but the key of the result may be left stale: for callers that
    /// never read it (fast perft), so a game can skip the Zobrist update. Every other method
    /// of the result behaves as after `play`.
    fn play_no_key(&self, mv: &Self::Move) -> Self;

    /// The sum of [`Position::count_moves`] over the positions after each legal move: perft
    /// to depth 2, which a game may compute without building the move list.
    fn count_moves_after_each(&self) -> u64;
}

/// Text forms of positions and moves (FEN, Hub strings, algebraic and Hub move text), for
/// every [`Position`]; the shared implementations live in [`notation`] and [`fen`]. An
/// extension trait, so the rules and move generation stay free of text.
pub trait Notation: Position {
    /// Parses a FEN (`W:Wa1,c3,Kd4:Bb6,Kh8`, numeric squares in Hub numbering also accepted).
    fn from_fen(s: &str) -> Result<Self, PositionError> {
        fen::parse_fen::<Self>(s)
    }

    /// Writes the FEN with algebraic squares.
    fn to_fen(&self) -> String {
        fen::write_fen(self)
    }

    /// Parses a Hub position string (`W` or `B`, then one character per playable square, top
    /// left first as seen from White).
    fn from_hub(s: &str) -> Result<Self, PositionError> {
        notation::parse_hub_position::<Self>(s)
    }

    /// Writes the Hub position string.
    fn to_hub(&self) -> String {
        notation::write_hub_position(self)
    }

    /// Parses either a Hub position string or a FEN.
    fn parse_any(s: &str) -> Result<Self, PositionError> {
        let t = s.trim();
        if t.contains(':') {
            Self::from_fen(t)
        } else {
            Self::from_hub(t)
        }
    }

    /// The move in algebraic notation with every landing square (`c3-d4`, `c3:e5:g7`,
    /// Turkish `d3xd5xf5`).
    fn move_to_algebraic(&self, mv: &Self::Move) -> String {
        notation::write_algebraic(self, mv)
    }

    /// The move in Hub numbers (`10-14`, `14x5x10`: from, to, then every captured square).
    fn move_to_hub(&self, mv: &Self::Move) -> String {
        notation::write_hub_move::<Self>(mv)
    }

    /// Parses a move in Hub numbers or algebraic notation and matches it against the legal
    /// moves. "No such legal move" and "ambiguous" are different errors.
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        notation::parse_move(self, text)
    }
}

impl<P: Position> Notation for P {}
