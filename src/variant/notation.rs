//! Notation shared by both games: the Hub position string, Hub move numbers, algebraic moves,
//! and matching move text against the legal moves.

use super::{GameMove, Notation, Pieces, Position};
use crate::core::{Bits, Color, Square};
use std::fmt;

/// A position text that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl PositionError {
    /// An error with a message.
    pub fn new(msg: impl Into<String>) -> Self {
        PositionError(msg.into())
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position: {}", self.0)
    }
}

impl std::error::Error for PositionError {}

/// A move text that could not be matched to exactly one legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move at all (bad syntax or a square that does not exist).
    Syntax(String),
    /// The text is well formed but names no legal move.
    Illegal(String),
    /// The text fits several legal moves.
    Ambiguous(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "bad move syntax: {s}"),
            MoveError::Illegal(s) => write!(f, "illegal move {s}"),
            MoveError::Ambiguous(s) => write!(f, "ambiguous move {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// A text quoted in an error message (as `{:?}` writes it), its first [`Shown::MAX_CHARS`]
/// characters followed by `...` when it is longer.
struct Shown<'a>(&'a str);

impl Shown<'_> {
    const MAX_CHARS: usize = 40;
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match crate::core::text::cut_after(self.0, Self::MAX_CHARS) {
            Some(head) => write!(f, "{head:?}..."),
            None => write!(f, "{:?}", self.0),
        }
    }
}

/// Playable squares in Hub position-string order: top row first as seen from White (a8 side),
/// left to right.
pub fn hub_string_order<P: Position>() -> impl Iterator<Item = Square> {
    (0..8u8)
        .rev()
        .flat_map(|rank| (0..8u8).map(move |file| Square::new(file, rank)))
        .filter(|sq| P::PLAYABLE & sq.bit() != 0)
}

/// Parses a Hub position string: side to move, then `w b W B e` per playable square.
pub fn parse_hub_position<P: Position>(s: &str) -> Result<P, PositionError> {
    let s = s.trim();
    let n = P::PLAYABLE.count_ones() as usize;
    let b = s.as_bytes();
    if b.len() != n + 1 {
        return Err(PositionError::new(format!(
            "a {} position string has {} characters, not {}",
            P::VARIANT,
            n + 1,
            b.len()
        )));
    }
    let side = match b[0] {
        b'W' | b'w' => Color::White,
        b'B' | b'b' => Color::Black,
        c => {
            return Err(PositionError::new(format!(
                "side to move must be W or B, not {:?}",
                c as char
            )))
        }
    };
    let mut w = Pieces::default();
    let mut k = Pieces::default();
    for (sq, &c) in hub_string_order::<P>().zip(&b[1..]) {
        match c {
            b'w' => w.men |= sq.bit(),
            b'W' => w.kings |= sq.bit(),
            b'b' => k.men |= sq.bit(),
            b'B' => k.kings |= sq.bit(),
            b'e' | b'.' | b'-' => {}
            _ => {
                return Err(PositionError::new(format!(
                    "unknown character {:?} in position string",
                    c as char
                )))
            }
        }
    }
    P::from_pieces(w, k, side)
}

/// The Hub letter of the piece on `bit` (`w`, `W`, `b`, `B`), or `empty` for none.
pub fn piece_letter(w: Pieces, b: Pieces, bit: u64, empty: char) -> char {
    if w.men & bit != 0 {
        'w'
    } else if w.kings & bit != 0 {
        'W'
    } else if b.men & bit != 0 {
        'b'
    } else if b.kings & bit != 0 {
        'B'
    } else {
        empty
    }
}

/// Writes the Hub position string.
pub fn write_hub_position<P: Position>(pos: &P) -> String {
    let w = pos.pieces(Color::White);
    let b = pos.pieces(Color::Black);
    let mut out = String::with_capacity(65);
    out.push(pos.side_to_move().letter());
    for sq in hub_string_order::<P>() {
        out.push(piece_letter(w, b, sq.bit(), 'e'));
    }
    out
}

/// Writes a move with every landing square (`c3-d4`, `c3:e5:g7`, `d3xd5xf5`).
pub fn write_algebraic<P: Position>(pos: &P, mv: &P::Move) -> String {
    let mut out = mv.from().to_string();
    if mv.is_capture() {
        let sep = P::CAPTURE_SEPARATOR;
        for sq in pos.path(mv) {
            out.push(sep);
            out.push_str(&sq.to_string());
        }
    } else {
        out.push('-');
        out.push_str(&mv.to().to_string());
    }
    out
}

/// Writes a move in Hub numbers: `from-to`, or `fromxto` then `x` and every captured square.
pub fn write_hub_move<P: Position>(mv: &P::Move) -> String {
    let num = |sq: Square| P::hub_number(sq).unwrap_or(0);
    if mv.is_capture() {
        let mut out = format!("{}x{}", num(mv.from()), num(mv.to()));
        for sq in Bits(mv.captured()) {
            out.push('x');
            out.push_str(&num(sq).to_string());
        }
        out
    } else {
        format!("{}-{}", num(mv.from()), num(mv.to()))
    }
}

/// Parses move text (Hub numbers or algebraic) and matches it against the legal moves.
///
/// Hub numbers: `from-to`, or `fromxto[xcaptured...]`; the captured squares, when given, must be
/// exactly the captured set. Algebraic: `c3-d4`, or the landing squares separated by `:`, `x`
/// or `-`; a capture may be given by its first and last squares alone when that is unambiguous,
/// and the intermediate squares given must be the move's landing squares.
pub fn parse_move<P: Position>(pos: &P, text: &str) -> Result<P::Move, MoveError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(MoveError::Syntax("empty move".into()));
    }
    // Errors quote the text, cut short: a move read from a file may be any length.
    let t_shown = Shown(t);
    let numeric = t.as_bytes()[0].is_ascii_digit();
    let parts: Vec<&str> = t.split(['-', 'x', 'X', ':']).collect();
    if parts.len() < 2 || parts.iter().any(|p| p.is_empty()) {
        return Err(MoveError::Syntax(format!("{t_shown}")));
    }
    let has_capture_sep = t.contains(['x', 'X', ':']);
    let mut squares = Vec::with_capacity(parts.len());
    for p in &parts {
        let sq = if numeric {
            let n: u32 = p
                .parse()
                .map_err(|_| MoveError::Syntax(format!("{t_shown}: bad square {}", Shown(p))))?;
            P::hub_square(n)
                .ok_or_else(|| MoveError::Syntax(format!("{t_shown}: no square {n}")))?
        } else {
            let sq = Square::parse(p)
                .ok_or_else(|| MoveError::Syntax(format!("{t_shown}: bad square {}", Shown(p))))?;
            if P::PLAYABLE & sq.bit() == 0 {
                return Err(MoveError::Syntax(format!("{t_shown}: {p} is not playable")));
            }
            sq
        };
        squares.push(sq);
    }
    if numeric && t.contains('-') && (squares.len() != 2 || has_capture_sep) {
        return Err(MoveError::Syntax(format!("{t_shown}")));
    }
    let from = squares[0];
    let legal = pos.legal_moves();
    let mut found: Vec<P::Move> = Vec::new();
    for mv in legal {
        if mv.from() != from {
            continue;
        }
        let ok = if numeric {
            if mv.to() != squares[1] {
                false
            } else if squares.len() == 2 {
                true
            } else {
                let mut set = 0u64;
                for sq in &squares[2..] {
                    set |= sq.bit();
                }
                set == mv.captured() && squares.len() - 2 == mv.capture_count() as usize
            }
        } else {
            let last = *squares.last().unwrap_or(&from);
            if mv.to() != last {
                false
            } else if squares.len() == 2 {
                true
            } else {
                pos.has_path(&mv, &squares[1..])
            }
        };
        if ok && !found.contains(&mv) {
            found.push(mv);
        }
    }
    if found.len() > 1 && !numeric {
        // `c1:h6` names the one-capture move exactly even when a longer capture also runs
        // from c1 to h6: prefer the moves whose full path is the text.
        let exact: Vec<P::Move> = found
            .iter()
            .copied()
            .filter(|m| pos.has_path(m, &squares[1..]))
            .collect();
        if exact.len() == 1 {
            found = exact;
        }
    }
    match found.len() {
        0 => Err(MoveError::Illegal(t.to_string())),
        1 => Ok(found[0]),
        _ => {
            // A quiet step and a capture never share from and to, but a capture given by its
            // ends only may fit several moves.
            Err(MoveError::Ambiguous(format!(
                "{t} (could be {})",
                found
                    .iter()
                    .map(|m| pos.move_to_algebraic(m))
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    }
}
