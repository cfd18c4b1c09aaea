//! The learned evaluation: Scan-style region patterns with weights fitted on self-play games
//! (`tools/train`), evaluated from scratch with integer arithmetic.
//!
//! The position is seen from the side to move (Black's pieces through a half turn,
//! [`super::rotate`]), so the evaluation is colour-symmetric by construction. Its terms:
//!
//! - **Region patterns**: each game has a fixed list of windows ([`windows`]) of exactly eight
//!   playable squares (Russian: the dark squares of the 25 4x4 blocks at file and rank
//!   offsets 0 to 4; Turkish: 4x2 blocks at file offsets 0, 2, 4 on every pair of adjacent
//!   ranks, and 2x4 blocks at file offsets 0, 2, 4, 6 on rank offsets 0, 2, 4). A window's
//!   contents (empty, own man, enemy man per square; a king counts as empty here) are a base-3
//!   number < [`PATTERNS`] that indexes the window's own table of weights. A net may have
//!   none ([`Net::has_patterns`]): the generation-7 nets leave them to the network, and then
//!   they cost nothing.
//! - **Kings**: one weight per square for an own king and one for an enemy king.
//! - **Material**: one weight each per own man, enemy man, own king, enemy king.
//! - **Network** (optional): a hidden layer over all the pieces ([`super::network`]), the
//!   one term that is not linear in the pieces.
//!
//! Every weight is a pair (opening, ending), interpolated by the number of pieces on the board
//! like the hand-written evaluation; weights are in 1/[`SCALE`] centi-men.
//!
//! Where the CPU has BMI2, AVX2 and POPCNT (chosen at run time, [`Kernels`]) the eight bits of
//! a window are taken with `pext` and the network's sums are made by its AVX2 kernel
//! ([`Network::step_avx2`]); elsewhere a portable loop takes the same bits in the same order and
//! the network's portable loops run, so both give the same score (tested).

use super::network::{Change, Network, MAX_HIDDEN};
use super::rotate;
use crate::core::{Color, Score, Variant};
use crate::variant::{Pieces, Russian, Turkish};

/// Number of contents of one window: 3^8.
pub const PATTERNS: usize = 6561;
/// Weights are in 1/SCALE centi-men.
pub const SCALE: i32 = 16;
/// Number of king-square weights (own then enemy, 64 each).
pub const KING_WEIGHTS: usize = 128;
/// Number of material weights: own men, enemy men, own kings, enemy kings.
pub const MATERIAL_WEIGHTS: usize = 4;

const fn block(file: u32, rank: u32, w: u32, h: u32, dark_only: bool) -> u64 {
    let mut m = 0u64;
    let mut r = rank;
    while r < rank + h {
        let mut f = file;
        while f < file + w {
            if !dark_only || (f + r).is_multiple_of(2) {
                m |= 1u64 << (r * 8 + f);
            }
            f += 1;
        }
        r += 1;
    }
    m
}

const RUSSIAN_WINDOWS: [u64; 25] = {
    let mut t = [0u64; 25];
    let mut i = 0;
    while i < 25 {
        t[i] = block((i % 5) as u32, (i / 5) as u32, 4, 4, true);
        i += 1;
    }
    t
};

const TURKISH_WINDOWS: [u64; 33] = {
    let mut t = [0u64; 33];
    let mut i = 0;
    // 4x2 blocks: files 0, 2, 4; ranks 0..=6.
    while i < 21 {
        t[i] = block((i % 3) as u32 * 2, (i / 3) as u32, 4, 2, false);
        i += 1;
    }
    // 2x4 blocks: files 0, 2, 4, 6; ranks 0, 2, 4.
    while i < 33 {
        let j = i - 21;
        t[i] = block((j % 4) as u32 * 2, (j / 4) as u32 * 2, 2, 4, false);
        i += 1;
    }
    t
};

/// The most windows a game has.
pub const MAX_WINDOWS: usize = 33;

/// The windows of a game (each a set of exactly eight squares).
pub fn windows(variant: Variant) -> &'static [u64] {
    match variant {
        Variant::Russian => &RUSSIAN_WINDOWS,
        Variant::Turkish => &TURKISH_WINDOWS,
    }
}

/// Number of pattern weights of a game's nets (each window's [`PATTERNS`], window-major), the
/// first of its features ([`features`]); a net without patterns has none of them.
pub fn pattern_count(variant: Variant) -> usize {
    windows(variant).len() * PATTERNS
}

/// Pieces on the board at the start, where the phase is full opening.
pub fn full_phase(variant: Variant) -> i32 {
    match variant {
        Variant::Russian => 24,
        Variant::Turkish => 32,
    }
}

/// `BASE3[b]`: the eight bits of `b` read as base-3 digits (0 or 1).
static BASE3: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let (mut v, mut p, mut k) = (0u16, 1u16, 0);
        while k < 8 {
            if b >> k & 1 != 0 {
                v += p;
            }
            p *= 3;
            k += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// A set of weights for one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    /// Name shown in the Hub `id` line and `--version`.
    pub name: String,
    /// The game.
    pub variant: Variant,
    /// `windows(variant).len() * PATTERNS` pairs (opening, ending), window-major; or none at
    /// all, for a net without region patterns (nothing of them is computed).
    pub patterns: Vec<[i16; 2]>,
    /// Own king on a square (0..64, side-to-move view), then enemy king (64..128).
    pub kings: Vec<[i16; 2]>,
    /// Own man, enemy man, own king, enemy king.
    pub material: [[i16; 2]; MATERIAL_WEIGHTS],
    /// Weight of the hand-written evaluation, in 1/SCALE centi-men per man of its score
    /// (`16 * 100` = taken as it is); 0 = not computed.
    pub classic: [i16; 2],
    /// The network over the pieces, if the net has one.
    pub network: Option<Network>,
}

/// The pieces seen from the side to move: (own, enemy), Black's turned half a turn.
#[inline]
pub fn view(white: Pieces, black: Pieces, side: Color) -> (Pieces, Pieces) {
    match side {
        Color::White => (white, black),
        Color::Black => (turned(black), turned(white)),
    }
}

/// Pieces turned half a turn ([`rotate`]).
#[inline(always)]
fn turned(p: Pieces) -> Pieces {
    Pieces {
        men: rotate(p.men),
        kings: rotate(p.kings),
    }
}

/// The evaluation's inner loops as the CPU allows: how a window's bits are taken
/// ([`Kernels::extract`]) and how the network's sums are made ([`Kernels::network`]).
pub(super) trait Kernels {
    /// The bits of `b` on a window's squares (`mask`, or the same squares listed), in order.
    fn extract(b: u64, mask: u64, squares: &[u8; 8]) -> usize;

    /// [`Network::step`].
    #[inline(always)]
    fn network(n: &Network, acc: &mut [i32; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        n.step(acc, change)
    }

    /// [`Network::step_narrow`].
    #[inline(always)]
    fn network_narrow(n: &Network, acc: &mut [u16; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        n.step_narrow(acc, change)
    }
}

/// Code for any CPU.
pub(super) struct Portable;
impl Kernels for Portable {
    #[inline(always)]
    fn extract(b: u64, _mask: u64, squares: &[u8; 8]) -> usize {
        let mut code = 0usize;
        for (k, &s) in squares.iter().enumerate() {
            code |= (((b >> s) & 1) as usize) << k;
        }
        code
    }
}

/// BMI2's `pext` and AVX2: only for code that runs where [`has_fast`] holds.
#[cfg(target_arch = "x86_64")]
pub(super) struct Fast;
#[cfg(target_arch = "x86_64")]
impl Kernels for Fast {
    #[inline(always)]
    fn extract(b: u64, mask: u64, _squares: &[u8; 8]) -> usize {
        // SAFETY: only reached from `eval_fast` and the incremental evaluation's fast path,
        // which run only where BMI2 was detected (`has_fast`).
        unsafe { std::arch::x86_64::_pext_u64(b, mask) as usize }
    }

    #[inline(always)]
    fn network(n: &Network, acc: &mut [i32; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        // SAFETY: as for `extract`, AVX2 was detected.
        unsafe { n.step_avx2(acc, change) }
    }

    #[inline(always)]
    fn network_narrow(n: &Network, acc: &mut [u16; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        // SAFETY: as for `extract`, AVX2 was detected.
        unsafe { n.step_narrow_avx2(acc, change) }
    }
}

/// The squares of every window of a game, ascending (the order `pext` takes them in): made at
/// compile time, so the evaluation reads them with no check of a lazy value.
fn window_squares(variant: Variant) -> &'static [[u8; 8]] {
    match variant {
        Variant::Russian => &RUSSIAN_SET.squares,
        Variant::Turkish => &TURKISH_SET.squares,
    }
}

/// A game's windows, as arrays of their own length (so the loops over them know it): the
/// masks, the squares of each ([`window_squares`]) and the windows of each square.
pub(super) struct WindowSet<const N: usize> {
    pub(super) masks: [u64; N],
    pub(super) squares: [[u8; 8]; N],
    /// Bit `w` of entry `s`: window `w` holds square `s`.
    pub(super) of: [u64; 64],
}

impl<const N: usize> WindowSet<N> {
    const fn new(masks: [u64; N]) -> WindowSet<N> {
        let mut squares = [[0u8; 8]; N];
        let mut of = [0u64; 64];
        let mut w = 0;
        while w < N {
            let (mut s, mut k) = (0, 0);
            while s < 64 {
                if masks[w] >> s & 1 != 0 {
                    squares[w][k] = s as u8;
                    of[s] |= 1 << w;
                    k += 1;
                }
                s += 1;
            }
            w += 1;
        }
        WindowSet { masks, squares, of }
    }

    /// The windows (bit `w` for window `w`) that hold one of the squares `squares`.
    #[inline(always)]
    pub(super) fn touched(&self, squares: u64) -> u64 {
        let mut w = 0;
        for s in crate::core::Bits(squares) {
            w |= self.of[s.index()];
        }
        w
    }
}

pub(super) static RUSSIAN_SET: WindowSet<25> = WindowSet::new(RUSSIAN_WINDOWS);
pub(super) static TURKISH_SET: WindowSet<33> = WindowSet::new(TURKISH_WINDOWS);

/// Whether the fast paths may run: BMI2, AVX2 and POPCNT present.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(super) fn has_fast() -> bool {
    *HAS_FAST
}

/// BMI2 (`pext` for the windows), AVX2 (wider integer adds for the network) and POPCNT (the
/// piece counts, a software loop in the default build): the CPUs that have one have the others.
#[cfg(target_arch = "x86_64")]
static HAS_FAST: once_cell::sync::Lazy<bool> = once_cell::sync::Lazy::new(|| {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
});

impl Net {
    /// A net of zeros for a game (the trainer's starting point).
    pub fn zeros(variant: Variant, name: &str) -> Net {
        Net {
            name: name.to_string(),
            variant,
            patterns: vec![[0; 2]; pattern_count(variant)],
            kings: vec![[0; 2]; KING_WEIGHTS],
            material: [[0; 2]; MATERIAL_WEIGHTS],
            classic: [0; 2],
            network: None,
        }
    }

    /// The same net with its network's 16-bit sums ([`Network::bounded`]) for the positions
    /// of its game: on the squares its board plays on, at most as many pieces a side as a
    /// side starts with (what every game from the start keeps to; a set-up position with
    /// more is evaluated with `i32` sums).
    pub fn bounded(mut self) -> Net {
        use crate::variant::Rules;
        let (squares, start) = match self.variant {
            Variant::Russian => (Russian::PLAYABLE, Russian::START[0]),
            Variant::Turkish => (Turkish::PLAYABLE, Turkish::START[0]),
        };
        self.network = self
            .network
            .take()
            .map(|n| n.bounded(squares, start.count_ones()));
        self
    }

    /// Whether the net has region patterns (otherwise they are not computed).
    #[inline(always)]
    pub fn has_patterns(&self) -> bool {
        !self.patterns.is_empty()
    }

    /// The weight pair of window `w` holding the men `own` and `opp`.
    #[inline(always)]
    pub(super) fn window<K: Kernels>(&self, w: usize, own: u64, opp: u64) -> [i16; 2] {
        match self.variant {
            Variant::Russian => self.window_in::<K, 25>(&RUSSIAN_SET, w, own, opp),
            Variant::Turkish => self.window_in::<K, 33>(&TURKISH_SET, w, own, opp),
        }
    }

    /// [`Net::window`] with the game's windows `set` (the net's game's).
    #[inline(always)]
    pub(super) fn window_in<K: Kernels, const N: usize>(
        &self,
        set: &WindowSet<N>,
        w: usize,
        own: u64,
        opp: u64,
    ) -> [i16; 2] {
        let (mask, squares) = (set.masks[w], &set.squares[w]);
        // A window has eight squares, so its contents are eight bits (`as u8` says so).
        let a = K::extract(own, mask, squares) as u8;
        let b = K::extract(opp, mask, squares) as u8;
        self.patterns[w * PATTERNS + BASE3[a as usize] as usize + 2 * BASE3[b as usize] as usize]
    }

    /// The patterns' (opening, ending) sums over every window, for the men `own` and `opp`.
    #[inline(always)]
    fn pattern_sums<K: Kernels>(&self, own: u64, opp: u64) -> [i32; 2] {
        let (mut o, mut e) = (0i32, 0i32);
        if !self.has_patterns() {
            return [o, e];
        }
        for w in 0..windows(self.variant).len() {
            let p = self.window::<K>(w, own, opp);
            o += p[0] as i32;
            e += p[1] as i32;
        }
        [o, e]
    }

    #[inline(always)]
    fn eval_with<K: Kernels>(&self, own: Pieces, opp: Pieces) -> Score {
        let [mut o, mut e] = self.pattern_sums::<K>(own.men, opp.men);
        if let Some(n) = &self.network {
            let pieces = [own.men, own.kings, opp.men, opp.kings];
            let (no, ne) = K::network(n, &mut [0; MAX_HIDDEN], &Change::refresh(pieces, 0));
            o += no;
            e += ne;
        }
        self.finish(own, opp, 0, o, e)
    }

    /// Adds kings and material to the pattern sums and interpolates. `own` and `opp` are
    /// the pieces of the side to move and of the other side, seen from the side to move
    /// through `flip` (0: as they are; 63: turned half a turn, as the network's
    /// [`Change::flip`]).
    #[inline(always)]
    pub(super) fn finish(
        &self,
        own: Pieces,
        opp: Pieces,
        flip: usize,
        mut o: i32,
        mut e: i32,
    ) -> Score {
        for s in crate::core::Bits(own.kings) {
            let k = self.kings[s.index() ^ flip];
            o += k[0] as i32;
            e += k[1] as i32;
        }
        for s in crate::core::Bits(opp.kings) {
            let k = self.kings[64 + (s.index() ^ flip)];
            o += k[0] as i32;
            e += k[1] as i32;
        }
        let counts = [
            own.men.count_ones(),
            opp.men.count_ones(),
            own.kings.count_ones(),
            opp.kings.count_ones(),
        ];
        for (c, m) in counts.iter().zip(self.material.iter()) {
            o += *c as i32 * m[0] as i32;
            e += *c as i32 * m[1] as i32;
        }
        if self.classic != [0, 0] {
            let turn = |p: Pieces| if flip == 0 { p } else { turned(p) };
            let c = classic(self.variant, turn(own), turn(opp));
            o += c * self.classic[0] as i32 / 100;
            e += c * self.classic[1] as i32 / 100;
        }
        let full = full_phase(self.variant);
        let phase = ((own.all() | opp.all()).count_ones() as i32).min(full);
        (o * phase + e * (full - phase)).div_euclid(full * SCALE)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "bmi2,avx2,popcnt")]
    fn eval_fast(&self, own: Pieces, opp: Pieces) -> Score {
        self.eval_with::<Fast>(own, opp)
    }

    /// The score for the side to move of the position with these pieces (run-time choice of
    /// the window extraction).
    #[inline]
    pub fn evaluate(&self, white: Pieces, black: Pieces, side: Color) -> Score {
        let (own, opp) = view(white, black, side);
        #[cfg(target_arch = "x86_64")]
        if *HAS_FAST {
            // SAFETY: BMI2, AVX2 and POPCNT are present (checked at run time).
            return unsafe { self.eval_fast(own, opp) };
        }
        self.eval_with::<Portable>(own, opp)
    }

    /// The same score, always by the portable extraction.
    pub fn evaluate_portable(&self, white: Pieces, black: Pieces, side: Color) -> Score {
        let (own, opp) = view(white, black, side);
        self.eval_with::<Portable>(own, opp)
    }

    /// The same score by the plainest computation: every window's base-3 index built square
    /// by square (3^k per square), the network unit by unit, for testing the fast paths.
    pub fn evaluate_reference(&self, white: Pieces, black: Pieces, side: Color) -> Score {
        let (own, opp) = view(white, black, side);
        let (mut o, mut e) = (0i32, 0i32);
        let windows = if self.has_patterns() {
            windows(self.variant)
        } else {
            &[]
        };
        for (w, &mask) in windows.iter().enumerate() {
            let (mut idx, mut p3) = (0usize, 1usize);
            for s in 0..64 {
                if mask >> s & 1 == 0 {
                    continue;
                }
                let digit = if own.men >> s & 1 != 0 {
                    1
                } else if opp.men >> s & 1 != 0 {
                    2
                } else {
                    0
                };
                idx += digit * p3;
                p3 *= 3;
            }
            o += self.patterns[w * PATTERNS + idx][0] as i32;
            e += self.patterns[w * PATTERNS + idx][1] as i32;
        }
        if let Some(n) = &self.network {
            let (no, ne) = n.forward_reference(own, opp);
            o += no;
            e += ne;
        }
        self.finish(own, opp, 0, o, e)
    }
}

/// The hand-written evaluation for the side to move whose pieces are `own` (pieces already
/// seen from the side to move, so called as if White were to move).
#[inline]
pub fn classic(variant: Variant, own: Pieces, opp: Pieces) -> i32 {
    match variant {
        Variant::Russian => super::classic::evaluate::<Russian>(own, opp, Color::White),
        Variant::Turkish => super::classic::evaluate::<Turkish>(own, opp, Color::White),
    }
}

/// The active features of a position for training: `(feature, value)` pairs, features
/// numbered patterns first (window-major), then the king squares, then material, then the
/// hand-written evaluation (value: its score in men); plus the phase weight of the opening
/// half, in `[0, 1]`. Score = sum of value x (phase x opening weight + (1 - phase) x ending
/// weight) / SCALE, as [`Net::evaluate`] computes in integers (up to rounding).
pub fn features(
    variant: Variant,
    white: Pieces,
    black: Pieces,
    side: Color,
    out: &mut Vec<(u32, f32)>,
) -> f32 {
    let (own, opp) = view(white, black, side);
    let sq = window_squares(variant);
    for (w, squares) in sq.iter().enumerate() {
        let a = Portable::extract(own.men, 0, squares);
        let b = Portable::extract(opp.men, 0, squares);
        let idx = BASE3[a] as usize + 2 * BASE3[b] as usize;
        out.push(((w * PATTERNS + idx) as u32, 1.0));
    }
    let base = pattern_count(variant) as u32;
    for s in crate::core::Bits(own.kings) {
        out.push((base + s.0 as u32, 1.0));
    }
    for s in crate::core::Bits(opp.kings) {
        out.push((base + 64 + s.0 as u32, 1.0));
    }
    let m = base + KING_WEIGHTS as u32;
    let counts = [own.men, opp.men, own.kings, opp.kings];
    for (i, c) in counts.iter().enumerate() {
        if *c != 0 {
            out.push((m + i as u32, c.count_ones() as f32));
        }
    }
    let c = classic(variant, own, opp);
    out.push((m + MATERIAL_WEIGHTS as u32, c as f32 / 100.0));
    let full = full_phase(variant);
    let phase = ((own.all() | opp.all()).count_ones() as i32).min(full);
    phase as f32 / full as f32
}

/// Number of features of a game (see [`features`]).
pub fn feature_count(variant: Variant) -> usize {
    pattern_count(variant) + KING_WEIGHTS + MATERIAL_WEIGHTS + 1
}
