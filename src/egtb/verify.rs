//! `verify`: every stored value checked against the values of its successors (one step of the
//! minimax that defines it). Wins have distances that fall by one along the best line down to
//! a conversion or the end, so a table that passes is right everywhere, given that the tables
//! it converts into are.

use super::build::{file_of, Solved};
use super::index::{Geometry, Indexer, Signature};
use super::probe::preference;
use super::{store, Value};
use crate::core::{Color, MoveList};
use crate::variant::{GameMove, Notation, Outcome, Position};
use rayon::prelude::*;
use std::path::Path;

/// The value of a position computed from its successors' stored values.
pub fn value_from_successors<P: Position>(pos: &P, solved: &Solved) -> Option<Value> {
    if let Some(end) = pos.rule_end(&pos.rule_state_new()) {
        return Some(match end.outcome {
            Outcome::Draw => Value::Draw,
            Outcome::Win(c) if c == pos.side_to_move() => Value::Win(0),
            Outcome::Win(_) => Value::Loss(0),
        });
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let mut best: Option<Value> = None;
    for m in list.iter() {
        let v = solved
            .value(&pos.play(m))?
            .back(m.is_capture() || m.promotes());
        if best.is_none_or(|b| preference(v) < preference(b)) {
            best = Some(v);
        }
    }
    Some(best.unwrap_or(Value::Loss(0)))
}

/// The result of verifying one table.
#[derive(Clone, Debug)]
pub struct Verified {
    /// The table.
    pub sig: Signature,
    /// Positions checked.
    pub positions: u64,
    /// Positions whose stored value disagrees with their successors (or that could not be
    /// checked), with the first one found as a FEN.
    pub errors: u64,
    /// The first disagreement.
    pub first_error: Option<String>,
    /// A file that could not be read or failed a block check.
    pub unreadable: Option<String>,
}

/// Verifies every table up to `max_pieces` in `dir`; `progress` is called per table.
pub fn verify_all<P: Position + Notation>(
    dir: &Path,
    max_pieces: u32,
    mut progress: impl FnMut(&Verified),
) -> Vec<Verified> {
    let g = Geometry::of::<P>();
    let mut solved = Solved::default();
    let mut out = Vec::new();
    let sigs = Signature::all_up_to(max_pieces);
    // Load everything first: a table is checked against those it converts into.
    for &sig in &sigs {
        match store::read_all(&file_of(dir, P::VARIANT, sig)) {
            Ok((h, codes)) if h.sig == sig && codes.len() as u64 == Indexer::new(g, sig).size() => {
                solved.insert(Indexer::new(g, sig), codes)
            }
            Ok(_) => out.push(unreadable(
                sig,
                "header does not match the file name".into(),
            )),
            Err(e) => out.push(unreadable(sig, e.to_string())),
        }
    }
    for v in &out {
        progress(v);
    }
    for &sig in &sigs {
        let Some((ix, codes)) = solved.get(sig) else {
            continue;
        };
        let bad: Vec<(u64, Option<String>)> = (0..ix.size() as usize)
            .into_par_iter()
            .with_min_len(1024)
            .filter_map(|i| {
                let i = i as u64;
                let (w, b) = ix.pieces(i)?;
                let pos = P::from_pieces(w, b, Color::White).ok()?;
                let stored = Value::from_code(codes[i as usize]);
                let computed = value_from_successors(&pos, &solved);
                (stored != computed || computed.is_none()).then(|| {
                    let fen = format!(
                        "{} stored {stored:?}, successors give {computed:?}",
                        pos.to_fen()
                    );
                    (i, Some(fen))
                })
            })
            .collect();
        let positions = (0..ix.size())
            .into_par_iter()
            .filter(|&i| ix.pieces(i).is_some())
            .count() as u64;
        let v = Verified {
            sig,
            positions,
            errors: bad.len() as u64,
            first_error: bad.into_iter().min_by_key(|(i, _)| *i).and_then(|(_, f)| f),
            unreadable: None,
        };
        progress(&v);
        out.push(v);
    }
    out
}

fn unreadable(sig: Signature, why: String) -> Verified {
    Verified {
        sig,
        positions: 0,
        errors: 0,
        first_error: None,
        unreadable: Some(why),
    }
}
