//! The learned evaluation kept incrementally along a search path ([`EvalStack`]): one entry per
//! ply holds the pieces of the last position evaluated at that ply (the side to move's and the
//! other side's, on the board as it is), its network accumulator (the first layer's sums), its
//! pattern sums and its score. A position is evaluated from the entry of its own ply (the last
//! position evaluated there: its previous sibling, or a position of an earlier branch) if it
//! holds a position of the same side to move: the accumulator changes by the rows of the
//! inputs that differ only ([`Change::between`], made by [`super::network::Network::step`]),
//! the patterns by the windows that hold a man that differs (each window's weight is kept in
//! the entry, so it is taken off without a lookup), and the same position again costs nothing.
//! Where summing the network again costs less (more inputs differ than there are pieces), it is
//! summed again ([`Change::refresh`]). The sums are kept in 16 bits where the net's network
//! has them ([`super::network::Narrow`]: the compiled-in nets, for every position of a game
//! from its start) and in `i32` otherwise; a set-up position outside the 16-bit form's bounds
//! is evaluated from scratch.
//!
//! The state is found from the pieces alone, never trusted: an entry is used only by comparing
//! its pieces with the position's, so whatever was evaluated at a ply before (another branch,
//! another iteration) gives the exact sums; the search needs no make and unmake hooks. Sums are
//! integers, so the score is exactly [`Net::evaluate`]'s (tested at every node of random
//! searches). Each search thread owns a stack.
//!
//! The stack also keeps the scores of the positions evaluated before ([`ScoreCache`]), by
//! position, for both evaluations ([`EvalStack::score`]): the same position again costs one
//! lookup. Everything is forgotten when the evaluation changes (another net, or the
//! hand-written one) and by [`EvalStack::clear`] (a new game); within one evaluation a score
//! kept is the score the evaluation gives, so keeping them from search to search changes
//! nothing but the time.

use super::cache::{ScoreCache, SCORE_CACHE_BITS};
use super::network::{Change, MAX_HIDDEN};
use super::pattern::{Kernels, Net, Portable, WindowSet, MAX_WINDOWS, RUSSIAN_SET, TURKISH_SET};
use super::rotate;
use crate::core::{Bits, Color, Score, Variant};
use crate::variant::Pieces;

/// One ply's last evaluated position and its sums.
#[derive(Clone)]
#[repr(C, align(64))]
struct Entry {
    /// The network's first-layer sums in 16 bits (the first `hidden` of them), for a network
    /// that has them ([`super::network::Narrow`]). The fields every evaluation reads come
    /// first, in five cache lines.
    narrow: [u16; MAX_HIDDEN],
    /// The pieces of the side to move and of the other side, on the board as it is: own men,
    /// own kings, enemy men, enemy kings. (The net sees Black's board turned half a turn: the
    /// network and the king squares look their squares up through a flip, and the patterns,
    /// if the net has any, turn the men.)
    pieces: [u64; 4],
    /// The score of the position.
    score: Score,
    /// Whether the entry holds a position (an empty one is never compared).
    used: bool,
    /// The side to move of the position held (its pieces are seen from that side).
    side: Color,
    /// The patterns' (opening, ending) sums ...
    patterns: [i32; 2],
    /// ... of these weights, one pair per window (what a window gave, taken off without
    /// looking it up again when its contents change).
    windows: [[i16; 2]; MAX_WINDOWS],
    /// The network's first-layer sums in `i32`, for a network without 16-bit ones.
    acc: [i32; MAX_HIDDEN],
}

impl Entry {
    const EMPTY: Entry = Entry {
        narrow: [0; MAX_HIDDEN],
        acc: [0; MAX_HIDDEN],
        pieces: [0; 4],
        patterns: [0; 2],
        windows: [[0; 2]; MAX_WINDOWS],
        score: 0,
        used: false,
        side: Color::White,
    };
}

/// A search thread's incremental state of the learned evaluation: one entry per ply, made
/// once (no allocation per node). See the module comment.
pub struct EvalStack {
    entries: Vec<Entry>,
    /// The scores of the positions evaluated before.
    scores: ScoreCache,
    /// Which evaluation the entries and scores are of: the address of its net, 1 for the
    /// hand-written one, 0 for none yet. Another evaluation clears them.
    evaluation: usize,
    /// Always the portable loops (for testing them where the fast ones would run; other
    /// targets have only those).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    portable: bool,
}

impl EvalStack {
    /// A stack for positions at plies `0..plies` (deeper ones are evaluated from scratch).
    pub fn new(plies: usize) -> EvalStack {
        EvalStack {
            entries: vec![Entry::EMPTY; plies],
            scores: ScoreCache::new(SCORE_CACHE_BITS),
            evaluation: 0,
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

    /// Forgets every entry and every score kept.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| e.used = false);
        self.scores.clear();
    }

    /// Clears the stack if its entries are of another evaluation than `net` (`None`: the
    /// hand-written one).
    #[inline(always)]
    fn use_evaluation(&mut self, net: Option<&Net>) {
        let id = net.map_or(1, |n| n as *const Net as usize);
        if id != self.evaluation {
            self.clear();
            self.evaluation = id;
        }
    }

    /// The score of the position `board` (White's pieces, Black's pieces, the kings) with
    /// `side` to move and hash key `key`, at `ply` of the search: kept from before, or by
    /// `net` ([`EvalStack::evaluate`]), or by `classic` where there is no net (the
    /// hand-written evaluation of the position).
    #[inline]
    pub fn score(
        &mut self,
        net: Option<&Net>,
        key: u64,
        board: [u64; 3],
        side: Color,
        ply: usize,
        classic: impl FnOnce() -> Score,
    ) -> Score {
        self.use_evaluation(net);
        if let Some(s) = self.scores.get(key, board, side) {
            return s;
        }
        let s = match net {
            Some(net) => {
                let [w, b, kings] = board;
                self.evaluate(
                    net,
                    Pieces::split(w, kings),
                    Pieces::split(b, kings),
                    side,
                    ply,
                )
            }
            None => classic(),
        };
        self.scores.put(key, board, side, s);
        s
    }

    /// Asks the CPU to bring the kept score of the position with hash key `key` near (a
    /// child about to be searched).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        self.scores.prefetch(key);
    }

    /// The score of the position with these pieces for the side to move, by `net`, at `ply`
    /// of the search: exactly [`Net::evaluate`]'s, computed from its ply's entry.
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
            return from_scratch(net, white, black, side);
        }
        self.use_evaluation(Some(net));
        let seen = match side {
            Color::White => [white, black],
            Color::Black => [black, white],
        };
        #[cfg(target_arch = "x86_64")]
        if super::pattern::has_fast() && !self.portable {
            // SAFETY: BMI2, AVX2 and POPCNT are present (checked at run time).
            return unsafe { self.evaluate_fast(net, seen, side, ply) };
        }
        self.evaluate_portable(net, seen, side, ply)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,avx2,popcnt")]
    fn evaluate_fast(&mut self, net: &Net, seen: [Pieces; 2], side: Color, ply: usize) -> Score {
        self.evaluate_with::<super::pattern::Fast>(net, seen, side, ply)
    }

    /// Not inlined: the caller stays small where the fast path runs.
    #[inline(never)]
    fn evaluate_portable(
        &mut self,
        net: &Net,
        seen: [Pieces; 2],
        side: Color,
        ply: usize,
    ) -> Score {
        self.evaluate_with::<Portable>(net, seen, side, ply)
    }

    /// How many inputs the entry at `ply` differs by from `pieces`, if it holds a position of
    /// the same side to move. Only the own ply's entry is compared: also comparing the entries
    /// two, four and six plies up (and starting from the nearest) cost more instructions per
    /// bench node than the rows it saved (Russian 1,865 against 1,835, Turkish 1,988 against
    /// 1,931, with the generation-7 nets).
    #[inline(always)]
    fn distance(&self, pieces: &[u64; 4], side: Color, ply: usize) -> Option<u32> {
        let e = &self.entries[ply];
        (e.used && e.side == side)
            .then(|| (0..4).map(|k| (e.pieces[k] ^ pieces[k]).count_ones()).sum())
    }

    /// [`EvalStack::evaluate`] with the pieces `[own, opp]` of the side to move and of the
    /// other side, on the board as it is.
    #[inline(always)]
    fn evaluate_with<K: Kernels>(
        &mut self,
        net: &Net,
        [own, opp]: [Pieces; 2],
        side: Color,
        ply: usize,
    ) -> Score {
        // Where a network's 16-bit sums do not hold (a set-up position with more pieces than
        // a side starts with), from scratch; the entry is left as it is.
        let narrow = net.network.as_ref().and_then(|n| n.narrow());
        if narrow.is_some_and(|n| !n.holds(own, opp)) {
            let [white, black] = match side {
                Color::White => [own, opp],
                Color::Black => [opp, own],
            };
            return from_scratch(net, white, black, side);
        }
        let pieces = [own.men, own.kings, opp.men, opp.kings];
        let flip = match side {
            Color::White => 0,
            Color::Black => 63,
        };
        let start = self.distance(&pieces, side, ply);
        let entry = &mut self.entries[ply];
        if start == Some(0) {
            return entry.score;
        }
        update_patterns::<K>(net, entry, &pieces, flip, start.is_some());
        let [mut o, mut e] = entry.patterns;
        if let Some(n) = &net.network {
            let change = accumulator_change(&entry.pieces, &pieces, start, flip);
            // Whether the sums are in 16 bits is the net's, fixed while the stack is of it.
            let (no, ne) = match narrow {
                Some(_) => K::network_narrow(n, &mut entry.narrow, &change),
                None => K::network(n, &mut entry.acc, &change),
            };
            o += no;
            e += ne;
        }
        let score = net.finish(own, opp, flip, o, e);
        entry.pieces = pieces;
        entry.side = side;
        entry.used = true;
        entry.score = score;
        score
    }
}

/// [`Net::evaluate`], out of line: the plies beyond the stack are rare, and inlined it would
/// make [`EvalStack::evaluate`] too large to inline into the search.
#[cold]
#[inline(never)]
fn from_scratch(net: &Net, white: Pieces, black: Pieces, side: Color) -> Score {
    net.evaluate(white, black, side)
}

/// The entry's pattern sums made those of `pieces` (seen through `flip`, see [`Entry`]):
/// changed by the windows that hold a man that differs (`from_entry`: the entry holds a
/// position of the same side to move), each window's kept weight off and its new one on, or
/// summed again where every window is touched.
#[inline(always)]
fn update_patterns<K: Kernels>(
    net: &Net,
    entry: &mut Entry,
    pieces: &[u64; 4],
    flip: usize,
    from_entry: bool,
) {
    if !net.has_patterns() {
        entry.patterns = [0, 0];
        return;
    }
    let turn = |b: u64| if flip == 0 { b } else { rotate(b) };
    let men = [turn(pieces[0]), turn(pieces[2])];
    let differ =
        from_entry.then(|| turn((entry.pieces[0] ^ pieces[0]) | (entry.pieces[2] ^ pieces[2])));
    match net.variant {
        Variant::Russian => update_in::<K, 25>(net, &RUSSIAN_SET, entry, men, differ),
        Variant::Turkish => update_in::<K, 33>(net, &TURKISH_SET, entry, men, differ),
    }
}

/// [`update_patterns`] with the net's game's windows `set`, the men `[own, opp]` as the net
/// sees them, and the squares where they differ from the entry's (`None`: sum every window).
#[inline(always)]
fn update_in<K: Kernels, const N: usize>(
    net: &Net,
    set: &WindowSet<N>,
    entry: &mut Entry,
    [own, opp]: [u64; 2],
    differ: Option<u64>,
) {
    let windows = &mut entry.windows[..N];
    entry.patterns = if let Some(differ) = differ {
        let [mut o, mut e] = entry.patterns;
        for w in Bits(set.touched(differ)) {
            let w = w.index();
            let after = net.window_in::<K, N>(set, w, own, opp);
            let before = std::mem::replace(&mut windows[w], after);
            o += after[0] as i32 - before[0] as i32;
            e += after[1] as i32 - before[1] as i32;
        }
        [o, e]
    } else {
        let (mut o, mut e) = (0, 0);
        for (w, kept) in windows.iter_mut().enumerate() {
            let after = net.window_in::<K, N>(set, w, own, opp);
            *kept = after;
            o += after[0] as i32;
            e += after[1] as i32;
        }
        [o, e]
    };
}

/// How the entry's accumulator (of the inputs `old`) becomes that of `pieces`: changed by the
/// `differ` inputs that differ, or summed again where that has fewer rows to add (or the entry
/// holds nothing: `differ` is `None`).
#[inline(always)]
fn accumulator_change(
    old: &[u64; 4],
    pieces: &[u64; 4],
    differ: Option<u32>,
    flip: usize,
) -> Change {
    let on_board: u32 = pieces.iter().map(|b| b.count_ones()).sum();
    match differ {
        Some(d) if d <= on_board => Change::between(old, pieces, flip),
        _ => Change::refresh(*pieces, flip),
    }
}
