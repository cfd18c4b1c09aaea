//! The retrograde builder: solves the signatures in order (smaller ones first), one pair of
//! tables at a time (a signature with each side to move: `(a, b, c, d)` and `(c, d, a, b)`).
//!
//! Per pair: every position is generated once forward. A position with no legal move is lost
//! (distance 0). A conversion (a capture or a crowning) leads into a table solved before; a
//! conversion into a position lost for the opponent wins at once (distance 1), one into a draw
//! means the position can never be lost. Quiet moves are counted. Then level by level, from
//! the positions decided at distance `n`, the builder goes back over quiet moves (un-moves,
//! checked against "capture is compulsory" in the parent): a parent of a loss at `n` is a win at
//! `n + 1`; a parent of a win at `n` has one quiet move fewer left, and when none is left (and
//! no conversion draws) it is a loss at `n + 1`, the longest way to lose. What is left undecided
//! is a draw. Levels run in parallel (rayon) over the positions with atomic updates.

use super::index::{normalized, turn, Geometry, Indexer, Signature};
use super::store::{self, NO_POSITION};
use super::Value;
use crate::core::{Color, MoveList, Variant};
use crate::variant::{GameMove, Outcome, Pieces, Position};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU16, AtomicU8, Ordering::Relaxed};
use std::time::Instant;

/// Build-time codes: 0 undecided, 1 no position, `2 + 2d` win, `3 + 2d` loss.
const UNDECIDED: u16 = 0;
const INVALID: u16 = 1;
/// A draw decided by a rule of the game before any move (Turkish one piece against one).
const DRAWN: u16 = u16::MAX;
/// Quiet-move count of a position that a conversion keeps from losing.
const ESCAPE: u8 = u8::MAX;

#[inline]
fn win_at(d: u16) -> u16 {
    2 + 2 * d
}
#[inline]
fn loss_at(d: u16) -> u16 {
    3 + 2 * d
}

/// Solved tables kept in memory while larger ones are built (codes as in files).
#[derive(Default)]
pub struct Solved {
    tables: FxHashMap<Signature, (Indexer, Vec<u16>)>,
}

impl Solved {
    /// Adds a solved table.
    pub fn insert(&mut self, ix: Indexer, codes: Vec<u16>) {
        self.tables.insert(ix.signature(), (ix, codes));
    }

    /// The table of a signature, if solved.
    pub fn get(&self, sig: Signature) -> Option<&(Indexer, Vec<u16>)> {
        self.tables.get(&sig)
    }

    /// The value of `pos` for its side to move, if its table is here (a side without pieces
    /// has lost).
    pub fn value<P: Position>(&self, pos: &P) -> Option<Value> {
        let (me, them) = normalized(pos);
        if me.all() == 0 {
            return Some(Value::Loss(0));
        }
        if them.all() == 0 {
            return Some(Value::Win(0));
        }
        let (ix, codes) = self.tables.get(&Signature::of(pos))?;
        Value::from_code(codes[ix.index(me, them) as usize])
    }
}

/// One table being built.
struct Table {
    ix: Indexer,
    val: Vec<AtomicU16>,
    cnt: Vec<AtomicU8>,
}

impl Table {
    fn new(ix: Indexer) -> Table {
        let n = ix.size() as usize;
        Table {
            ix,
            val: (0..n).map(|_| AtomicU16::new(UNDECIDED)).collect(),
            cnt: (0..n).map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

/// The first look at a position: terminal, won by a conversion, or its quiet moves counted.
fn init_one<P: Position>(t: &Table, i: usize, solved: &Solved, list: &mut MoveList<P::Move>) {
    let Some((w, b)) = t.ix.pieces(i as u64) else {
        t.val[i].store(INVALID, Relaxed);
        return;
    };
    let Ok(pos) = P::from_pieces(w, b, Color::White) else {
        t.val[i].store(INVALID, Relaxed);
        return;
    };
    if let Some(end) = pos.rule_end(&pos.rule_state_new()) {
        let code = match end.outcome {
            Outcome::Win(Color::White) => win_at(0),
            Outcome::Win(Color::Black) => loss_at(0),
            Outcome::Draw => DRAWN,
        };
        t.val[i].store(code, Relaxed);
        return;
    }
    list.clear();
    pos.generate(list);
    if list.is_empty() {
        t.val[i].store(loss_at(0), Relaxed);
        return;
    }
    let (mut quiet, mut escape, mut wins) = (0u8, false, false);
    for m in list.iter() {
        if m.is_capture() || m.promotes() {
            let child = pos.play(m);
            match solved.value(&child) {
                Some(Value::Loss(_)) => wins = true,
                Some(Value::Draw) => escape = true,
                Some(Value::Win(_)) => {}
                None => panic!("table of {} missing while building", Signature::of(&child)),
            }
        } else {
            quiet += 1;
        }
    }
    if wins {
        t.val[i].store(win_at(1), Relaxed);
    } else if escape {
        t.cnt[i].store(ESCAPE, Relaxed);
    } else if quiet == 0 {
        t.val[i].store(loss_at(1), Relaxed);
    } else {
        t.cnt[i].store(quiet, Relaxed);
    }
}

/// Calls `f` with the index (in the partner table) of every position that reaches position
/// `(w, b)` (White to move) by a legal quiet move of Black.
fn parents<P: Position>(
    g: &Geometry,
    into: &Indexer,
    w: Pieces,
    b: Pieces,
    mut f: impl FnMut(u64),
) {
    // The parent, turned so that the side that moved is White: its pieces are Black's turned.
    let (mover, other) = (turn(b), turn(w));
    let occupied = mover.all() | other.all();
    let mut emit = |parent: Pieces| {
        if let Ok(p) = P::from_pieces(parent, other, Color::White) {
            if !p.has_capture() {
                f(into.index(parent, other));
            }
        }
    };
    let mut men = mover.men;
    while men != 0 {
        let s = men.trailing_zeros() as usize;
        men &= men - 1;
        let mut from = g.man_from[s] & !occupied;
        while from != 0 {
            let p = from & from.wrapping_neg();
            from ^= p;
            emit(Pieces {
                men: mover.men ^ (1 << s) ^ p,
                kings: mover.kings,
            });
        }
    }
    let mut kings = mover.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as i8;
        kings &= kings - 1;
        for &(df, dr) in &g.king_dirs {
            let (mut f, mut r) = (s & 7, s >> 3);
            loop {
                f += df;
                r += dr;
                if !(0..8).contains(&f) || !(0..8).contains(&r) {
                    break;
                }
                let t = 1u64 << (r * 8 + f);
                if t & occupied != 0 || t & g.playable == 0 {
                    break;
                }
                emit(Pieces {
                    men: mover.men,
                    kings: mover.kings ^ (1 << s) ^ t,
                });
            }
        }
    }
}

/// Decides the parents in `into` of the positions of `from` decided at distance `n`.
/// Returns how many positions were at distance `n`.
fn back_one_level<P: Position>(g: &Geometry, from: &Table, into: &Table, n: u16) -> usize {
    let (win_n, loss_n) = (win_at(n), loss_at(n));
    (0..from.val.len())
        .into_par_iter()
        .with_min_len(4096)
        .map(|i| {
            let v = from.val[i].load(Relaxed);
            if v != win_n && v != loss_n {
                return 0;
            }
            let (w, b) = from.ix.pieces(i as u64).expect("a decided position exists");
            parents::<P>(g, &into.ix, w, b, |pi| {
                let pi = pi as usize;
                if into.val[pi].load(Relaxed) != UNDECIDED {
                    return;
                }
                if v == loss_n {
                    let _ =
                        into.val[pi].compare_exchange(UNDECIDED, win_at(n + 1), Relaxed, Relaxed);
                } else if into.cnt[pi].load(Relaxed) != ESCAPE
                    && into.cnt[pi].fetch_sub(1, Relaxed) == 1
                {
                    let _ =
                        into.val[pi].compare_exchange(UNDECIDED, loss_at(n + 1), Relaxed, Relaxed);
                }
            });
            1
        })
        .sum()
}

/// Final file codes of a built table.
fn final_codes(t: &Table) -> Vec<u16> {
    t.val
        .par_iter()
        .map(|v| match v.load(Relaxed) {
            UNDECIDED | DRAWN => 0,
            INVALID => NO_POSITION,
            c => {
                let d = (c - 2) / 2;
                if c % 2 == 0 {
                    1 + 2 * d
                } else {
                    2 + 2 * d
                }
            }
        })
        .collect()
}

/// Solves `sig` and its mirror `sig.swapped()`; returns their codes (one table if the two are
/// the same). `progress` is told each level.
pub fn solve_pair<P: Position>(
    sig: Signature,
    solved: &Solved,
    mut progress: impl FnMut(u16),
) -> Vec<(Indexer, Vec<u16>)> {
    let g = Geometry::of::<P>();
    let mut tables = vec![Table::new(Indexer::new(g, sig))];
    if sig.swapped() != sig {
        tables.push(Table::new(Indexer::new(g, sig.swapped())));
    }
    for t in &tables {
        (0..t.val.len())
            .into_par_iter()
            .with_min_len(1024)
            .for_each_init(MoveList::new, |list, i| init_one::<P>(t, i, solved, list));
    }
    let partner = |k: usize| if tables.len() == 2 { 1 - k } else { 0 };
    let mut n = 0u16;
    loop {
        progress(n);
        let mut found = 0;
        for k in 0..tables.len() {
            found += back_one_level::<P>(g, &tables[k], &tables[partner(k)], n);
        }
        if found == 0 && n >= 1 {
            break;
        }
        n += 1;
    }
    tables.iter().map(|t| (t.ix, final_codes(t))).collect()
}

/// What a build did for one signature.
#[derive(Clone, Debug)]
pub struct SigReport {
    /// The signature (side to move first).
    pub sig: Signature,
    /// Indices in the table.
    pub indices: u64,
    /// Positions (indices that are a position).
    pub positions: u64,
    /// Wins, draws and losses for the side to move.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Longest distance to conversion.
    pub max_distance: u16,
    /// File size in bytes.
    pub bytes: u64,
    /// Seconds spent solving the pair (0 when the file was already there).
    pub seconds: f64,
    /// Whether it was built now (not found from an earlier run).
    pub built: bool,
}

/// Counts of a table's codes.
pub fn report_of(
    sig: Signature,
    codes: &[u16],
    bytes: u64,
    seconds: f64,
    built: bool,
) -> SigReport {
    let mut r = SigReport {
        sig,
        indices: codes.len() as u64,
        positions: 0,
        wins: 0,
        draws: 0,
        losses: 0,
        max_distance: 0,
        bytes,
        seconds,
        built,
    };
    for &c in codes {
        match Value::from_code(c) {
            None => continue,
            Some(Value::Draw) => r.draws += 1,
            Some(Value::Win(d)) => {
                r.wins += 1;
                r.max_distance = r.max_distance.max(d);
            }
            Some(Value::Loss(d)) => {
                r.losses += 1;
                r.max_distance = r.max_distance.max(d);
            }
        }
        r.positions += 1;
    }
    r
}

/// The file of a signature in a directory.
pub fn file_of(dir: &Path, variant: Variant, sig: Signature) -> PathBuf {
    dir.join(variant.name())
        .join(format!("{}.egtb", sig.stem()))
}

/// Builds every signature up to `max_pieces` into `dir` (keeping files already there), calling
/// `progress(sig, level, fraction_done)` as it goes. Returns a report per signature.
pub fn build_all<P: Position>(
    dir: &Path,
    max_pieces: u32,
    mut progress: impl FnMut(Signature, u16, f64),
) -> io::Result<Vec<SigReport>> {
    std::fs::create_dir_all(dir.join(P::VARIANT.name()))?;
    let g = Geometry::of::<P>();
    let sigs = Signature::all_up_to(max_pieces);
    let total: u64 = sigs.iter().map(|&s| Indexer::new(g, s).size()).sum();
    let mut done = 0u64;
    let mut solved = Solved::default();
    let mut reports = Vec::new();
    for &sig in &sigs {
        if solved.get(sig).is_some() {
            continue;
        }
        let pair: Vec<Signature> = if sig.swapped() == sig {
            vec![sig]
        } else {
            vec![sig, sig.swapped()]
        };
        let paths: Vec<PathBuf> = pair.iter().map(|&s| file_of(dir, P::VARIANT, s)).collect();
        let existing: Option<Vec<_>> = paths.iter().map(|p| store::read_all(p).ok()).collect();
        if let Some(found) = existing.filter(|f| f.iter().all(|(h, _)| h.variant == P::VARIANT)) {
            for ((h, mut codes), path) in found.into_iter().zip(&paths) {
                let bytes = std::fs::metadata(path)?.len();
                // Files fill numbers without a position; mark them again.
                let ix = Indexer::new(g, h.sig);
                codes.par_iter_mut().enumerate().for_each(|(i, c)| {
                    if ix.pieces(i as u64).is_none() {
                        *c = NO_POSITION;
                    }
                });
                reports.push(report_of(h.sig, &codes, bytes, 0.0, false));
                done += codes.len() as u64;
                solved.insert(Indexer::new(g, h.sig), codes);
            }
            progress(sig, 0, done as f64 / total as f64);
            continue;
        }
        let start = Instant::now();
        let frac = done as f64 / total as f64;
        let out = solve_pair::<P>(sig, &solved, |n| progress(sig, n, frac));
        let secs = start.elapsed().as_secs_f64();
        for (ix, codes) in out {
            let path = file_of(dir, P::VARIANT, ix.signature());
            let bytes = store::write(&path, P::VARIANT, ix.signature(), &codes)?;
            reports.push(report_of(ix.signature(), &codes, bytes, secs, true));
            done += codes.len() as u64;
            solved.insert(ix, codes);
        }
        progress(sig, 0, done as f64 / total as f64);
    }
    Ok(reports)
}
