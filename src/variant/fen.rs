//! FEN in the PDN style shared by both games: `W:Wa1,c3,Kd4:Bb6,Kh8`.
//!
//! The first field is the side to move, then one field per colour listing its squares (`K`
//! before a king). Squares are algebraic, or Hub numbers (1-based, bottom-left first), and
//! numeric ranges such as `1-12` are accepted. Extra fields such as `:H0` or `:F12` (move
//! counters some tools write) are ignored, as is a trailing `.`.

use super::{Pieces, Position, PositionError};
use crate::core::{Bits, Color, Square};

fn parse_square<P: Position>(tok: &str) -> Result<Square, PositionError> {
    if let Some(sq) = Square::parse(tok) {
        if P::PLAYABLE & sq.bit() == 0 {
            return Err(PositionError::new(format!("square {tok} is not playable")));
        }
        return Ok(sq);
    }
    let n: u32 = tok
        .parse()
        .map_err(|_| PositionError::new(format!("bad square {tok:?}")))?;
    P::hub_square(n).ok_or_else(|| PositionError::new(format!("square number {n} out of range")))
}

/// Parses a FEN for game `P`.
pub fn parse_fen<P: Position>(s: &str) -> Result<P, PositionError> {
    let s = s.trim().trim_end_matches('.');
    let s = s.trim_matches('"');
    let mut fields = s.split(':');
    let side = match fields.next().map(|f| f.trim()) {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        _ => return Err(PositionError::new("FEN must start with W or B")),
    };
    let mut sides = [Pieces::default(), Pieces::default()];
    let mut seen = [false, false];
    for field in fields {
        let field = field.trim();
        let Some(first) = field.chars().next() else {
            continue;
        };
        let color = match first {
            'W' | 'w' => Color::White,
            'B' | 'b' => Color::Black,
            // Counters and other annotations written by some tools.
            'H' | 'h' | 'F' | 'f' => continue,
            _ => return Err(PositionError::new(format!("bad FEN field {field:?}"))),
        };
        if seen[color.index()] {
            return Err(PositionError::new("a colour is listed twice"));
        }
        seen[color.index()] = true;
        let body = &field[1..];
        for tok in body.split(',') {
            let tok = tok.trim();
            if tok.is_empty() {
                continue;
            }
            let (king, name) = match tok.strip_prefix(['K', 'k']) {
                Some(rest) => (true, rest),
                None => (false, tok),
            };
            let squares: Vec<Square> = match name.split_once('-') {
                Some((a, b)) => {
                    let a: u32 = a
                        .parse()
                        .map_err(|_| PositionError::new(format!("bad range {tok:?}")))?;
                    let b: u32 = b
                        .parse()
                        .map_err(|_| PositionError::new(format!("bad range {tok:?}")))?;
                    if a > b || b > 64 {
                        return Err(PositionError::new(format!("bad range {tok:?}")));
                    }
                    (a..=b)
                        .map(|n| {
                            P::hub_square(n).ok_or_else(|| {
                                PositionError::new(format!("square number {n} out of range"))
                            })
                        })
                        .collect::<Result<_, _>>()?
                }
                None => vec![parse_square::<P>(name)?],
            };
            for sq in squares {
                if (sides[0].all() | sides[1].all()) & sq.bit() != 0 {
                    return Err(PositionError::new(format!("square {sq} is given twice")));
                }
                let p = &mut sides[color.index()];
                if king {
                    p.kings |= sq.bit();
                } else {
                    p.men |= sq.bit();
                }
            }
        }
    }
    P::from_pieces(sides[0], sides[1], side)
}

/// Writes the FEN of a position with algebraic squares, kings marked `K`.
pub fn write_fen<P: Position>(pos: &P) -> String {
    let mut out = String::new();
    out.push(pos.side_to_move().letter());
    for color in [Color::White, Color::Black] {
        out.push(':');
        out.push(color.letter());
        let p = pos.pieces(color);
        let mut first = true;
        for sq in Bits(p.all()) {
            if !first {
                out.push(',');
            }
            first = false;
            if p.kings & sq.bit() != 0 {
                out.push('K');
            }
            out.push_str(&sq.to_string());
        }
    }
    out
}
