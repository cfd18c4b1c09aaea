//! The learned evaluation kept incrementally along a search path ([`EvalStack`]): one entry per
//! ply holds the pieces of the last position evaluated at that ply (seen from its side to
//! move), its network accumulator (the first layer's sums, [`Network::refresh`]), its pattern
//! sums and its score. A position is evaluated from the entry, among a few of the same side to
//! move at nearby plies (its own ply, then two, four, ... plies up: its grandparent and
//! further ancestors, or their siblings), whose pieces differ from its own in the fewest
//! inputs: the accumulator changes by the rows of those inputs only ([`Network::update`]), the
//! patterns by the windows that hold a man that differs ([`Net::pattern_update`]), and the
//! same position again costs nothing. Where refreshing costs less (more inputs differ than
//! there are pieces; more windows touched than half of them), the entry is refreshed.
//!
//! The state is found from the pieces alone, never trusted: an entry is used only by comparing
//! its pieces with the position's, so whatever was evaluated at a ply before (another branch,
//! another iteration) gives the exact sums; the search needs no make and unmake hooks. Sums are
//! integers, so the score is exactly [`Net::evaluate`]'s (tested at every node of random
//! searches). Each search thread owns a stack; [`EvalStack::clear`] forgets every entry (a new
//! search, another net).

use super::network::{Network, MAX_HIDDEN};
use super::pattern::{has_fast, view, windows, windows_touched, Extract, Net, Portable};
use crate::core::{Color, Score};
use crate::variant::Pieces;

/// How many entries of the same side to move are compared, from the position's own ply up
/// (own ply, grandparent, great-great-grandparent, ...). More finds closer ancestors when the
/// nearer ones were not evaluated, for a few more comparisons of piece sets per evaluation.
pub const LOOKBACK: usize = 4;

/// One ply's last evaluated position and its sums.
#[derive(Clone)]
#[repr(C, align(64))]
struct Entry {
    /// The network's first-layer sums (the first `hidden` of them).
    acc: [i32; MAX_HIDDEN],
    /// The pieces seen from the side to move: own men, own kings, enemy men, enemy kings.
    pieces: [u64; 4],
    /// The patterns' (opening, ending) sums.
    patterns: [i32; 2],
    /// The score of the position.
    score: Score,
    /// Whether the entry holds a position (an empty one is never compared).
    used: bool,
    /// The side to move of the position held (its pieces are seen from that side).
    side: Color,
}

impl Entry {
    const EMPTY: Entry = Entry {
        acc: [0; MAX_HIDDEN],
        pieces: [0; 4],
        patterns: [0; 2],
        score: 0,
        used: false,
        side: Color::White,
    };
}

/// A search thread's incremental state of the learned evaluation: one entry per ply, made
/// once (no allocation per node). See the module comment.
pub struct EvalStack {
    entries: Vec<Entry>,
    /// The address of the net the entries were computed by: another net clears them.
    net: usize,
    /// Always the portable loops (for testing them where the fast ones would run).
    portable: bool,
}

impl EvalStack {
    /// A stack for positions at plies `0..plies` (deeper ones are evaluated from scratch).
    pub fn new(plies: usize) -> EvalStack {
        EvalStack {
            entries: vec![Entry::EMPTY; plies],
            net: 0,
            portable: false,
        }
    }

    /// The same, always running the portable loops (for testing them against the fast ones).
    pub fn new_portable(plies: usize) -> EvalStack {
        EvalStack {
            portable: true,
            ..EvalStack::new(plies)
        }
    }

    /// Forgets every entry: nothing computed for one search (or one net) reaches the next.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| e.used = false);
    }

    /// The score of the position with these pieces for the side to move, by `net`, at `ply`
    /// of the search: exactly [`Net::evaluate`]'s, computed from the nearest entry.
    #[inline]
    pub fn evaluate(
        &mut self,
        net: &Net,
        white: Pieces,
        black: Pieces,
        side: Color,
        ply: usize,
    ) -> Score {
        if ply >= self.entries.len() {
            return net.evaluate(white, black, side);
        }
        let id = net as *const Net as usize;
        if id != self.net {
            self.clear();
            self.net = id;
        }
        #[cfg(target_arch = "x86_64")]
        if has_fast() && !self.portable {
            // SAFETY: BMI2 and AVX2 are present (checked at run time).
            return unsafe { self.evaluate_fast(net, white, black, side, ply) };
        }
        self.evaluate_with::<Portable>(net, white, black, side, ply)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,avx2")]
    fn evaluate_fast(
        &mut self,
        net: &Net,
        white: Pieces,
        black: Pieces,
        side: Color,
        ply: usize,
    ) -> Score {
        self.evaluate_with::<super::pattern::Pext>(net, white, black, side, ply)
    }

    /// The entry of the same side to move, at `ply` or an even number of plies above, whose
    /// pieces differ from `pieces` in the fewest inputs, and that number.
    #[inline(always)]
    fn nearest(&self, pieces: &[u64; 4], side: Color, ply: usize) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        for q in (0..=ply).rev().step_by(2).take(LOOKBACK) {
            let e = &self.entries[q];
            if !e.used || e.side != side {
                continue;
            }
            let d: u32 = (0..4).map(|k| (e.pieces[k] ^ pieces[k]).count_ones()).sum();
            if best.is_none_or(|(_, bd)| d < bd) {
                best = Some((q, d));
                if d == 0 {
                    break;
                }
            }
        }
        best
    }

    #[inline(always)]
    fn evaluate_with<E: Extract>(
        &mut self,
        net: &Net,
        white: Pieces,
        black: Pieces,
        side: Color,
        ply: usize,
    ) -> Score {
        let (own, opp) = view(white, black, side);
        let pieces = [own.men, own.kings, opp.men, opp.kings];
        let near = self.nearest(&pieces, side, ply);
        if let Some((q, 0)) = near {
            return self.entries[q].score;
        }
        if let Some((q, _)) = near.filter(|&(q, _)| q != ply) {
            // Start from the other ply's entry: only the sums it needs are copied.
            let hidden = net.network.as_ref().map_or(0, |n| n.hidden);
            let (upper, lower) = self.entries.split_at_mut(ply);
            let (src, dst) = (&upper[q], &mut lower[0]);
            dst.acc[..hidden].copy_from_slice(&src.acc[..hidden]);
            dst.patterns = src.patterns;
            dst.pieces = src.pieces;
            dst.side = side;
            dst.used = true;
        }
        let entry = &mut self.entries[ply];
        let start = near.map(|(_, d)| d);
        update_patterns::<E>(net, entry, &pieces, start.is_some());
        let [mut o, mut e] = entry.patterns;
        if let Some(n) = &net.network {
            update_accumulator(n, entry, &pieces, start);
            let (no, ne) = n.output(&entry.acc);
            o += no;
            e += ne;
        }
        let score = net.finish(own, opp, o, e);
        entry.pieces = pieces;
        entry.side = side;
        entry.used = true;
        entry.score = score;
        score
    }
}

/// The entry's pattern sums made those of `pieces`: changed by the windows that hold a man
/// that differs (`from_entry`: the entry holds a position of the same side to move), or summed
/// again where that touches more than half the windows (two lookups per touched window
/// against one per window).
#[inline(always)]
fn update_patterns<E: Extract>(net: &Net, entry: &mut Entry, pieces: &[u64; 4], from_entry: bool) {
    let new = [pieces[0], pieces[2]];
    if from_entry {
        let old = [entry.pieces[0], entry.pieces[2]];
        let touched = windows_touched(net.variant, (old[0] ^ new[0]) | (old[1] ^ new[1]));
        if 2 * touched.count_ones() as usize <= windows(net.variant).len() {
            net.pattern_update::<E>(&mut entry.patterns, old, new, touched);
            return;
        }
    }
    entry.patterns = net.pattern_sums::<E>(new[0], new[1]);
}

/// The entry's accumulator made that of `pieces`: changed by the `differ` inputs that differ
/// from the entry's pieces, or summed again where that has fewer rows to add (or the entry
/// holds nothing: `differ` is `None`).
#[inline(always)]
fn update_accumulator(n: &Network, entry: &mut Entry, pieces: &[u64; 4], differ: Option<u32>) {
    let on_board: u32 = pieces.iter().map(|b| b.count_ones()).sum();
    match differ {
        Some(d) if d <= on_board => n.update(&mut entry.acc, &entry.pieces, pieces),
        _ => {
            let own = Pieces {
                men: pieces[0],
                kings: pieces[1],
            };
            let opp = Pieces {
                men: pieces[2],
                kings: pieces[3],
            };
            n.refresh(&mut entry.acc, own, opp)
        }
    }
}
