//! The 8x8 conventions of DXP (those of pydraughts): a GAMEREQ position is one character per
//! playable square, top-left first as White sees the board (the order of the Hub position
//! string), and MOVE squares are Hub numbers (bottom-left first). A move is named by its start,
//! its end and the set of captured squares, which is exactly what a [`GameMove`] is.

use super::message::{Message, Setup};
use crate::core::Bits;
use crate::variant::{GameMove, Notation, Position};

/// Number of squares in a GAMEREQ position for game `P` (32 Russian, 64 Turkish).
pub fn square_count<P: Position>() -> usize {
    P::PLAYABLE.count_ones() as usize
}

/// The position of a GAMEREQ setup, or why it cannot be one of game `P`.
pub fn position_of<P: Notation>(setup: &Setup) -> Result<P, String> {
    let n = square_count::<P>();
    if setup.squares.len() != n {
        return Err(format!(
            "wrong variant layout: the position has {} squares, {} has {n}",
            setup.squares.len(),
            P::VARIANT
        ));
    }
    let mut hub = String::with_capacity(n + 1);
    hub.push(setup.to_move.letter());
    hub.extend(setup.squares.chars().map(|c| match c {
        'z' => 'b',
        'Z' => 'B',
        c => c,
    }));
    P::from_hub(&hub).map_err(|e| e.to_string())
}

/// The GAMEREQ setup of a position.
pub fn setup_of<P: Notation>(pos: &P) -> Setup {
    let hub = pos.to_hub();
    Setup {
        to_move: pos.side_to_move(),
        squares: hub[1..]
            .chars()
            .map(|c| match c {
                'b' => 'z',
                'B' => 'Z',
                c => c,
            })
            .collect(),
    }
}

/// The MOVE message of `mv`, captured squares in increasing order.
pub fn move_message<P: Position>(mv: &P::Move, seconds: u32) -> Message {
    let num = |sq| P::hub_number(sq).unwrap_or(0);
    let mut captured: Vec<u32> = Bits(mv.captured()).map(num).collect();
    captured.sort_unstable();
    Message::Move {
        time: seconds,
        from: num(mv.from()),
        to: num(mv.to()),
        captured,
    }
}

/// The legal move of `pos` with this start, end and captured set (in any order), or why there
/// is none.
pub fn find_move<P: Position>(
    pos: &P,
    from: u32,
    to: u32,
    captured: &[u32],
) -> Result<P::Move, String> {
    let text = || {
        let mut t = format!("{from}{}{to}", if captured.is_empty() { '-' } else { 'x' });
        for c in captured {
            t.push_str(&format!("x{c}"));
        }
        t
    };
    let square =
        |n: u32| P::hub_square(n).ok_or_else(|| format!("move {}: there is no square {n}", text()));
    let (f, t) = (square(from)?, square(to)?);
    let mut set = 0u64;
    for &c in captured {
        let bit = square(c)?.bit();
        if set & bit != 0 {
            return Err(format!("move {}: square {c} captured twice", text()));
        }
        set |= bit;
    }
    pos.legal_moves()
        .into_iter()
        .find(|m| m.from() == f && m.to() == t && m.captured() == set)
        .ok_or_else(|| {
            let side = pos.side_to_move().name();
            format!("illegal move {} ({side} to move)", text())
        })
}
