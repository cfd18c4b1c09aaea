//! Moves between the engine's legal-move list and the GUIs' forms: CheckerBoard's `CBmove`
//! and move list reply, the Kallisto move string, and reading the move texts both send.

use crate::board::{CbMove, Coor, Diagram, Piece, Sq};
use crate::link::MoveDetail;

/// Room in `CBmove` for landing and captured squares.
const CB_SLOTS: usize = 12;

/// The piece that moves, as it stands before the move.
fn mover(d: &MoveDetail, before: &Diagram) -> Piece {
    before.get(d.from).unwrap_or(Piece {
        side: before.side,
        king: false,
    })
}

/// CheckerBoard's record of `d`, played in `before`.
pub fn cb_move(d: &MoveDetail, before: &Diagram) -> CbMove {
    let old = mover(d, before);
    let new = Piece {
        king: old.king || d.promotes,
        ..old
    };
    let mut m = CbMove {
        jumps: d.captured.len() as i32,
        newpiece: new.cb_code(),
        oldpiece: old.cb_code(),
        from: d.from.into(),
        to: d.to.into(),
        ..CbMove::default()
    };
    if !d.captured.is_empty() {
        // path[1..] are the landing squares before the last one (the last is `to`).
        for (i, &sq) in d.landings.iter().take(d.landings.len() - 1).enumerate() {
            if i + 1 < CB_SLOTS {
                m.path[i + 1] = sq.into();
            }
        }
    }
    for (i, &sq) in d.captured.iter().enumerate().take(CB_SLOTS) {
        m.del[i] = sq.into();
        m.delpiece[i] = before.get(sq).map_or(0, Piece::cb_code);
    }
    m
}

/// `before` with `d` played.
pub fn apply(d: &MoveDetail, before: &Diagram) -> Diagram {
    let old = mover(d, before);
    let mut after = before.clone();
    for &sq in &d.captured {
        let _ = after.set(sq, None);
    }
    let _ = after.set(d.from, None);
    let _ = after.set(
        d.to,
        Some(Piece {
            king: old.king || d.promotes,
            ..old
        }),
    );
    after.side = before.side.opposite();
    after
}

/// One move of CheckerBoard's `get movelist` reply: `njumps,oldpiece,newpiece,from,to`, then
/// for each capture `landed,captured,capturedpiece`, squares in CheckerBoard's numbers, ended
/// by `;`.
pub fn cb_movelist_entry(d: &MoveDetail, before: &Diagram) -> String {
    let m = cb_move(d, before);
    let num = |sq: Sq| sq.cb_number().unwrap_or(0);
    let mut s = format!(
        "{},{},{},{},{}",
        d.captured.len(),
        m.oldpiece,
        m.newpiece,
        num(d.from),
        num(d.to)
    );
    for (i, &cap) in d.captured.iter().enumerate() {
        let land = d.landings.get(i).copied().unwrap_or(d.to);
        let piece = before.get(cap).map_or(0, Piece::cb_code);
        s.push_str(&format!(",{},{},{}", num(land), num(cap), piece));
    }
    s.push(';');
    s
}

/// The Kallisto move string: `c3d4` for a quiet move, `c3:d4:f6:g7` (start, every captured
/// piece in order, end) for a capture.
pub fn kallisto_text(d: &MoveDetail) -> String {
    if d.captured.is_empty() {
        format!("{}{}", d.from, d.to)
    } else {
        let mut s = d.from.to_string();
        for c in &d.captured {
            s.push(':');
            s.push_str(&c.to_string());
        }
        s.push(':');
        s.push_str(&d.to.to_string());
        s
    }
}

/// The squares of a move text: algebraic (`c3d4`, `c3:d4:e5`, `c3-d4`, `c3xe5`) or
/// CheckerBoard numbers (`22-18`, `22x15x8`).
pub fn squares_of(text: &str) -> Result<Vec<Sq>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err("empty move".into());
    }
    let mut out = Vec::new();
    for token in t.split([':', '-', 'x', 'X']) {
        let token = token.trim();
        if token.is_empty() {
            return Err(format!("bad move {t:?}"));
        }
        if token.bytes().all(|b| b.is_ascii_digit()) {
            let n: i32 = token.parse().map_err(|_| format!("bad square in {t:?}"))?;
            out.push(Sq::from_cb_number(n).ok_or(format!("no square {n} in {t:?}"))?);
        } else {
            // Algebraic squares may be run together (`c3d4`).
            let b = token.as_bytes();
            if b.len() % 2 != 0 {
                return Err(format!("bad square in {t:?}"));
            }
            for pair in b.chunks(2) {
                let s = std::str::from_utf8(pair).map_err(|_| format!("bad move {t:?}"))?;
                let sq = Sq::parse(s).ok_or(format!("bad square {s:?} in {t:?}"))?;
                if !sq.is_dark() {
                    return Err(format!("{sq} is a light square"));
                }
                out.push(sq);
            }
        }
    }
    if out.len() < 2 {
        return Err(format!("a move names at least two squares, not {t:?}"));
    }
    Ok(out)
}

/// The legal move a text names. Between start and end a text may list the landing squares
/// (CheckerBoard, damka) or the captured squares (Kallisto), in any order for the latter;
/// start and end alone must fit exactly one move.
pub fn find<'a>(moves: &'a [MoveDetail], text: &str) -> Result<&'a MoveDetail, String> {
    let sq = squares_of(text)?;
    let (from, to, middle) = (sq[0], sq[sq.len() - 1], &sq[1..sq.len() - 1]);
    // A capture separator names a capture, `-` a quiet move; run-together squares either.
    let capture = if text.contains([':', 'x', 'X']) {
        Some(true)
    } else if text.contains('-') {
        Some(false)
    } else {
        None
    };
    let ends: Vec<&MoveDetail> = moves
        .iter()
        .filter(|m| m.from == from && m.to == to)
        .filter(|m| capture.is_none_or(|c| c != m.captured.is_empty()))
        .collect();
    if middle.is_empty() {
        return match ends.len() {
            0 => Err(format!("illegal move {text:?}")),
            1 => Ok(ends[0]),
            _ => Err(format!(
                "ambiguous move {text:?}: give the captured squares"
            )),
        };
    }
    let by_landing = ends
        .iter()
        .find(|m| m.landings.len() == middle.len() + 1 && m.landings[..middle.len()] == *middle);
    if let Some(m) = by_landing {
        return Ok(m);
    }
    let mut want = middle.to_vec();
    want.sort_unstable();
    ends.iter()
        .find(|m| {
            let mut got = m.captured.clone();
            got.sort_unstable();
            got == want
        })
        .copied()
        .ok_or(format!("illegal move {text:?}"))
}

impl Coor {
    /// The square of these array coordinates, if any.
    pub fn square(self) -> Option<Sq> {
        Sq::from_cb(self.x, self.y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::legal_moves;

    #[test]
    fn kallisto_and_checkerboard_forms() {
        let d = Diagram::from_cb_fen("W:Wc3:Bd4,f6").unwrap();
        let moves = legal_moves(&d.to_fen()).unwrap();
        let m = &moves[0];
        assert_eq!(kallisto_text(m), "c3:d4:f6:g7");
        assert_eq!(find(&moves, "c3:f6:d4:g7").unwrap(), m);
        assert_eq!(find(&moves, "c3:e5:g7").unwrap(), m);
        assert_eq!(find(&moves, "c3g7").unwrap(), m);
        assert!(find(&moves, "c3d4").is_err());
        assert!(find(&moves, "c3-g7").is_err());
        let quiet = legal_moves("W:Wc3:Bh8").unwrap();
        assert!(find(&quiet, "c3:d4").is_err());
        assert!(find(&quiet, "c3d4").is_ok() && find(&quiet, "c3-d4").is_ok());
        assert!(find(&moves, "c3:d5").is_err());
        let cb = cb_move(m, &d);
        assert_eq!(cb.jumps, 2);
        assert_eq!(cb.path[1].square().unwrap().to_string(), "e5");
        assert_eq!(cb.del[1].square().unwrap().to_string(), "f6");
        let after = apply(m, &d);
        assert_eq!(after.to_fen(), "B:Wg7:B");
        // c3 = 22, e5 = 15, g7 = 8 (b8 = 1); d4 = 18, f6 = 11.
        assert_eq!(cb_movelist_entry(m, &d), "2,5,5,22,8,15,18,6,8,11,6;");
    }
}
