//! The learned evaluation's non-linear term: a small network over the pieces, one hidden layer
//! of [`HIDDEN_SIZES`] (64 or 128) clipped-ReLU units, added to the region patterns of [`super::pattern`].
//!
//! Inputs (side-to-move view, [`super::pattern::view`]): one per (kind, square) for own man,
//! own king, enemy man, enemy king on each of the 64 squares ([`INPUTS`]); a position has at
//! most 32 of them set. The first layer's sums of a position (its accumulator) are either
//! summed from scratch (the rows of the pieces on the board) or changed from those of a nearby
//! position by the inputs that differ, what the search's [`super::incremental::EvalStack`]
//! does; both are a [`Change`] made by [`Network::step`]. Unit `j`:
//! `h_j = clamp(b_j + sum over pieces of w[input][j], 0, 1)`, and the term is
//! `sum_j h_j * out_j`, with an opening and an ending weight per unit like every other weight.
//!
//! Integers: first-layer weights in 1/[`QA`], the output weights in 1/`SCALE` centi-men as
//! the patterns', sums in `i32` (at most 32 rows of `i16` plus a bias cannot overflow, nor
//! can [`MAX_HIDDEN`] products of a unit at most [`QA`] and an `i16`). The portable loops are
//! the same code for every CPU (compiled with AVX2 enabled where it is present); where AVX2
//! is present (chosen at run time by [`super::pattern`]) [`Network::step_avx2`] does the same
//! sums with intrinsics. Neither changes the sum, only how many lanes an instruction adds.

use crate::core::Bits;
use crate::variant::Pieces;

/// The numbers of hidden units a network may have: each has its own compiled forward pass
/// (fixed-size loops the compiler unrolls and vectorises), chosen by the net at run time.
pub const HIDDEN_SIZES: [usize; 2] = [64, 128];
/// The most hidden units a network may have.
pub const MAX_HIDDEN: usize = 128;
/// Inputs: own man, own king, enemy man, enemy king, 64 squares each.
pub const INPUTS: usize = 256;
/// First-layer weights and biases are in 1/QA; a unit's output is an integer in `0..=QA`.
pub const QA: i32 = 256;
const QA_SHIFT: u32 = 8;

/// The network's weights. Made by [`Network::new`], which checks every length, so the loops
/// may rely on them; read by the accessors.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden units, one of [`HIDDEN_SIZES`].
    hidden: usize,
    /// `INPUTS * hidden` first-layer weights, input-major (the row of an input is contiguous).
    w1: Vec<i16>,
    /// `hidden` biases.
    b1: Vec<i16>,
    /// The output weights: `hidden` opening ones, then `hidden` ending ones, 1/`SCALE`
    /// centi-men per unit at full output (two vectors, so that a unit's two products are
    /// each one lane of a vector multiply).
    out: [Vec<i16>; 2],
}

/// The input numbers of a position's pieces (side-to-move view), in a fixed order: the
/// trainer's sparse inputs (the engine adds rows by the squares of a [`Change`]).
#[inline]
pub fn inputs(own: Pieces, opp: Pieces, mut f: impl FnMut(usize)) {
    for (kind, b) in [own.men, own.kings, opp.men, opp.kings]
        .into_iter()
        .enumerate()
    {
        for s in Bits(b) {
            f(kind * 64 + s.index());
        }
    }
}

/// Adds `SIGN` times a row to the sums (fixed-size loop: unrolled and vectorised).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
fn add_row<const H: usize, const SIGN: i32>(acc: &mut [i32; H], row: &[i16; H]) {
    for (a, &w) in acc.iter_mut().zip(row.iter()) {
        *a += SIGN * w as i32;
    }
}

/// [`add_row`] in WebAssembly SIMD: eight weights widened to two vectors of four sums.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add_row<const H: usize, const SIGN: i32>(acc: &mut [i32; H], row: &[i16; H]) {
    use core::arch::wasm32::*;
    for k in 0..H / 8 {
        // SAFETY: elements 8k..8k+8 of both arrays are in bounds (H is a multiple of 8);
        // v128 loads and stores need no alignment.
        unsafe {
            let w = v128_load(row.as_ptr().add(8 * k) as *const v128);
            let (lo, hi) = (i32x4_extend_low_i16x8(w), i32x4_extend_high_i16x8(w));
            let a = acc.as_mut_ptr().add(8 * k) as *mut v128;
            let b = acc.as_mut_ptr().add(8 * k + 4) as *mut v128;
            if SIGN > 0 {
                v128_store(a, i32x4_add(v128_load(a), lo));
                v128_store(b, i32x4_add(v128_load(b), hi));
            } else {
                v128_store(a, i32x4_sub(v128_load(a), lo));
                v128_store(b, i32x4_sub(v128_load(b), hi));
            }
        }
    }
}

/// How a first layer's sums change: the rows to take off (`off`) and to add (`on`), each four
/// sets of squares as in [`inputs`] (own men, own kings, enemy men, enemy kings), starting from
/// the sums as they are or (`from_bias`) from the biases. A piece on square `s` is input
/// `s ^ flip` of its kind: `flip` 0 reads the board as it is, 63 turns it half a turn
/// ([`super::rotate`]), so Black's pieces need no turning before they are looked up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// Start from the biases (a refresh) rather than from the sums.
    pub from_bias: bool,
    /// Inputs whose rows are taken off.
    pub off: [u64; 4],
    /// Inputs whose rows are added.
    pub on: [u64; 4],
    /// 0, or 63 for the board turned half a turn.
    pub flip: usize,
}

impl Change {
    /// The sums of a position from scratch: the biases plus the rows of `pieces`.
    pub fn refresh(pieces: [u64; 4], flip: usize) -> Change {
        Change {
            from_bias: true,
            off: [0; 4],
            on: pieces,
            flip,
        }
    }

    /// From the sums of the inputs `old` to those of `new`: the rows of inputs set only in
    /// `old` off, those set only in `new` on.
    pub fn between(old: &[u64; 4], new: &[u64; 4], flip: usize) -> Change {
        Change {
            from_bias: false,
            off: std::array::from_fn(|k| old[k] & !new[k]),
            on: std::array::from_fn(|k| new[k] & !old[k]),
            flip,
        }
    }
}

impl Network {
    /// A network of `hidden` units (one of [`HIDDEN_SIZES`]) with these weights (see the
    /// fields' order and units); an error if a length does not fit `hidden`.
    pub fn new(
        hidden: usize,
        w1: Vec<i16>,
        b1: Vec<i16>,
        out: [Vec<i16>; 2],
    ) -> Result<Network, String> {
        if !HIDDEN_SIZES.contains(&hidden) {
            return Err(format!("{hidden} hidden units (allowed: {HIDDEN_SIZES:?})"));
        }
        let lengths = [w1.len(), b1.len(), out[0].len(), out[1].len()];
        if lengths != [INPUTS * hidden, hidden, hidden, hidden] {
            return Err(format!(
                "weights of lengths {lengths:?} for {hidden} hidden units"
            ));
        }
        Ok(Network {
            hidden,
            w1,
            b1,
            out,
        })
    }

    /// A network of `hidden` units (one of [`HIDDEN_SIZES`]) whose every weight is zero (it
    /// adds nothing).
    pub fn zeros(hidden: usize) -> Network {
        let (w1, b1) = (vec![0; INPUTS * hidden], vec![0; hidden]);
        Network::new(hidden, w1, b1, [vec![0; hidden], vec![0; hidden]])
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The same network with `hidden` units (one of [`HIDDEN_SIZES`], at least as many as it
    /// has): the new units have every weight zero, so the network computes the same sums.
    pub fn widened(&self, hidden: usize) -> Network {
        let h = self.hidden;
        assert!(hidden >= h, "{hidden} hidden units, fewer than {h}");
        let mut w1 = vec![0; INPUTS * hidden];
        for i in 0..INPUTS {
            w1[i * hidden..i * hidden + h].copy_from_slice(&self.w1[i * h..(i + 1) * h]);
        }
        let grow = |v: &[i16]| {
            let mut g = v.to_vec();
            g.resize(hidden, 0);
            g
        };
        let out = [grow(&self.out[0]), grow(&self.out[1])];
        Network::new(hidden, w1, grow(&self.b1), out).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Hidden units, one of [`HIDDEN_SIZES`].
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The `INPUTS * hidden` first-layer weights, in 1/[`QA`], input-major (the row of an
    /// input is contiguous).
    pub fn w1(&self) -> &[i16] {
        &self.w1
    }

    /// The `hidden` biases, in 1/[`QA`].
    pub fn b1(&self) -> &[i16] {
        &self.b1
    }

    /// The output weights: `hidden` opening ones, then `hidden` ending ones, in 1/`SCALE`
    /// centi-men per unit at full output.
    pub fn out(&self) -> &[Vec<i16>; 2] {
        &self.out
    }

    /// The term's (opening, ending) sums, in 1/`SCALE` centi-men. Inlined into each caller so
    /// that the caller's target features (AVX2 or none) decide the instructions.
    #[inline(always)]
    pub fn forward(&self, own: Pieces, opp: Pieces) -> (i32, i32) {
        let mut acc = [0i32; MAX_HIDDEN];
        let pieces = [own.men, own.kings, opp.men, opp.kings];
        self.step(&mut acc, &Change::refresh(pieces, 0))
    }

    /// Changes the first layer's sums `acc` (the first `hidden` entries) as `change` says,
    /// then gives the term's (opening, ending) sums from them (each unit clipped, weighed by
    /// its output weights). Integer sums, so changing the sums of one position into those of
    /// another gives exactly what summing them from scratch does. The accumulator of
    /// [`super::incremental`].
    #[inline(always)]
    pub fn step(&self, acc: &mut [i32; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        if self.hidden == 64 {
            self.step_n::<64>(acc, change)
        } else {
            self.step_n::<128>(acc, change)
        }
    }

    #[inline(always)]
    fn step_n<const H: usize>(&self, acc: &mut [i32; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        debug_assert_eq!(self.hidden, H);
        let sums: &mut [i32; H] = (&mut acc[..H]).try_into().expect("H <= MAX_HIDDEN");
        if change.from_bias {
            for (a, &b) in sums.iter_mut().zip(self.b1.iter()) {
                *a = b as i32;
            }
        }
        for kind in 0..4 {
            for s in Bits(change.off[kind]) {
                add_row::<H, -1>(sums, self.row::<H>(kind * 64 + (s.index() ^ change.flip)));
            }
            for s in Bits(change.on[kind]) {
                add_row::<H, 1>(sums, self.row::<H>(kind * 64 + (s.index() ^ change.flip)));
            }
        }
        self.output_n::<H>(acc)
    }

    /// The row of input `i` for `H` hidden units.
    #[inline(always)]
    fn row<const H: usize>(&self, i: usize) -> &[i16; H] {
        self.w1[i * H..(i + 1) * H]
            .try_into()
            .expect("a row has H weights")
    }

    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    #[inline(always)]
    fn output_n<const H: usize>(&self, acc: &[i32; MAX_HIDDEN]) -> (i32, i32) {
        let (mut o, mut e) = (0i32, 0i32);
        let [open, end] = &self.out;
        for ((a, wo), we) in acc[..H].iter().zip(&open[..H]).zip(&end[..H]) {
            let h = (*a).clamp(0, QA);
            o += h * *wo as i32;
            e += h * *we as i32;
        }
        (o >> QA_SHIFT, e >> QA_SHIFT)
    }

    /// The output in WebAssembly SIMD: eight units at a time, clipped and narrowed to
    /// `i16`, then multiplied by the opening and the ending weights and summed in pairs. The
    /// same integer sums, so the same scores.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn output_n<const H: usize>(&self, acc: &[i32; MAX_HIDDEN]) -> (i32, i32) {
        use core::arch::wasm32::*;
        let [open, end] = &self.out;
        let (open, end) = (&open[..H], &end[..H]);
        let (zero, top) = (i16x8_splat(0), i16x8_splat(QA as i16));
        let (mut so, mut se) = (i32x4_splat(0), i32x4_splat(0));
        for k in 0..H / 8 {
            // SAFETY: elements 8k..8k+8 of `acc` (H <= MAX_HIDDEN) and of `open` and `end`
            // (H weights each, checked by the slicing above) are in bounds; v128 loads need
            // no alignment.
            let (a, b, wo, we) = unsafe {
                (
                    v128_load(acc.as_ptr().add(8 * k) as *const v128),
                    v128_load(acc.as_ptr().add(8 * k + 4) as *const v128),
                    v128_load(open.as_ptr().add(8 * k) as *const v128),
                    v128_load(end.as_ptr().add(8 * k) as *const v128),
                )
            };
            // Narrowing saturates to the i16 range, which keeps the clip to 0..=QA exact.
            let h = i16x8_min(i16x8_max(i16x8_narrow_i32x4(a, b), zero), top);
            so = i32x4_add(so, i32x4_dot_i16x8(h, wo));
            se = i32x4_add(se, i32x4_dot_i16x8(h, we));
        }
        let sum = |v: v128| {
            i32x4_extract_lane::<0>(v)
                .wrapping_add(i32x4_extract_lane::<1>(v))
                .wrapping_add(i32x4_extract_lane::<2>(v))
                .wrapping_add(i32x4_extract_lane::<3>(v))
        };
        (sum(so) >> QA_SHIFT, sum(se) >> QA_SHIFT)
    }

    /// [`Network::step`] with AVX2 intrinsics: the sums of 64 units are kept in eight
    /// registers while every row of the change is added (the compiled loops load and store
    /// the sums once per row), and the output is taken from the same registers: the units
    /// narrowed to `i16` with saturation (which keeps the clip to `0..=QA` exact), then
    /// multiplied by the opening and the ending weights, sixteen units an instruction. The
    /// same integer sums as [`Network::step`] (tested against it), about half the
    /// instructions.
    ///
    /// Always inlined and not compiled for AVX2 itself (a function that is cannot be inlined
    /// for sure): it is for callers compiled with AVX2, the evaluation's fast paths, where the
    /// intrinsics become single instructions.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn step_avx2(&self, acc: &mut [i32; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        // SAFETY: AVX2 as the caller promises; `hidden` is the network's (`Network::new`).
        unsafe {
            if self.hidden == 64 {
                avx2::step::<64>(self, acc, change)
            } else {
                avx2::step::<128>(self, acc, change)
            }
        }
    }

    /// The same sums by the plainest loops (every input of every square tested), for testing
    /// [`Network::forward`].
    pub fn forward_reference(&self, own: Pieces, opp: Pieces) -> (i32, i32) {
        let (mut o, mut e) = (0i64, 0i64);
        let hidden = self.hidden;
        for j in 0..hidden {
            let mut a = self.b1[j] as i64;
            for s in 0..64 {
                let on = [own.men, own.kings, opp.men, opp.kings].map(|b| b >> s & 1 != 0);
                for (kind, &set) in on.iter().enumerate() {
                    if set {
                        a += self.w1[(kind * 64 + s) * hidden + j] as i64;
                    }
                }
            }
            let h = a.clamp(0, QA as i64);
            o += h * self.out[0][j] as i64;
            e += h * self.out[1][j] as i64;
        }
        (
            o.div_euclid(QA as i64) as i32,
            e.div_euclid(QA as i64) as i32,
        )
    }
}

/// [`Network::step_avx2`]'s loops. Every function here is always inlined, so that the
/// intrinsics are compiled with the AVX2 of the caller they end up in (a closure or a function
/// not inlined would be compiled without it, and each intrinsic would become a call).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{Change, Network, MAX_HIDDEN, QA, QA_SHIFT};
    use crate::core::Bits;
    use std::arch::x86_64::*;

    /// The sums of 64 units, eight to a register. (All 128 units would fill the sixteen
    /// registers and leave none to widen a row's weights in; rows of weights widened to `i32`
    /// beforehand, added straight from memory, took fewer instructions but twice the cache
    /// lines, and were slower by the clock.)
    type Units = [__m256i; 8];

    /// Eight weights from `p`, widened to `i32`.
    ///
    /// # Safety
    /// AVX2, and eight `i16` readable at `p`.
    #[inline(always)]
    unsafe fn widen(p: *const i16) -> __m256i {
        // SAFETY: as the caller promises; unaligned loads need no alignment.
        unsafe { _mm256_cvtepi16_epi32(_mm_loadu_si128(p as *const __m128i)) }
    }

    /// Adds (`ADD`) or takes off units `base..base + 64` of the rows of the inputs of `kind`
    /// on the squares `bits` (seen through `flip`).
    ///
    /// # Safety
    /// AVX2, `w1` the first-layer weights of a network of `H` units, `base + 64 <= H`.
    #[inline(always)]
    unsafe fn rows<const H: usize, const ADD: bool>(
        r: &mut Units,
        w1: &[i16],
        bits: u64,
        kind: usize,
        flip: usize,
        base: usize,
    ) {
        for s in Bits(bits) {
            // SAFETY: a row starts at `(kind * 64 + square) * H` with `kind < 4` and
            // `square < 64`, so its units `base..base + 64` lie in `w1` (`INPUTS * H` long,
            // checked by `Network::new`).
            unsafe {
                let row = w1.as_ptr().add((kind * 64 + (s.index() ^ flip)) * H + base);
                for (k, v) in r.iter_mut().enumerate() {
                    let w = widen(row.add(8 * k));
                    *v = if ADD {
                        _mm256_add_epi32(*v, w)
                    } else {
                        _mm256_sub_epi32(*v, w)
                    };
                }
            }
        }
    }

    /// The sum of the eight lanes.
    ///
    /// # Safety
    /// AVX2.
    #[inline(always)]
    unsafe fn lanes_sum(v: __m256i) -> i32 {
        // SAFETY: AVX2 as the caller promises; no memory is touched.
        unsafe {
            let x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b01_00_11_10>(x));
            let x = _mm_add_epi32(x, _mm_shuffle_epi32::<0b10_11_00_01>(x));
            _mm_cvtsi128_si32(x)
        }
    }

    /// [`Network::step_avx2`] for `H` units.
    ///
    /// # Safety
    /// AVX2, and `n.hidden == H`.
    #[inline(always)]
    pub(super) unsafe fn step<const H: usize>(
        n: &Network,
        acc: &mut [i32; MAX_HIDDEN],
        change: &Change,
    ) -> (i32, i32) {
        // SAFETY: units `base..base + 64` (`base + 64 <= H`) are in `acc` (`H <= MAX_HIDDEN`)
        // and in `b1` and both output vectors (`H` long, checked by `Network::new`);
        // unaligned loads and stores need no alignment.
        unsafe {
            let zero = _mm256_setzero_si256();
            let top = _mm256_set1_epi16(QA as i16);
            let (mut so, mut se) = (zero, zero);
            for half in 0..H / 64 {
                let base = half * 64;
                let mut r: Units = [zero; 8];
                for (k, v) in r.iter_mut().enumerate() {
                    *v = if change.from_bias {
                        widen(n.b1.as_ptr().add(base + 8 * k))
                    } else {
                        _mm256_loadu_si256(acc.as_ptr().add(base + 8 * k) as *const __m256i)
                    };
                }
                // Each kind and sign on its own line: unrolled, so that an empty set (most of
                // them) costs a test.
                let (off, on, flip, w1) = (&change.off, &change.on, change.flip, &n.w1[..]);
                rows::<H, false>(&mut r, w1, off[0], 0, flip, base);
                rows::<H, true>(&mut r, w1, on[0], 0, flip, base);
                rows::<H, false>(&mut r, w1, off[1], 1, flip, base);
                rows::<H, true>(&mut r, w1, on[1], 1, flip, base);
                rows::<H, false>(&mut r, w1, off[2], 2, flip, base);
                rows::<H, true>(&mut r, w1, on[2], 2, flip, base);
                rows::<H, false>(&mut r, w1, off[3], 3, flip, base);
                rows::<H, true>(&mut r, w1, on[3], 3, flip, base);
                for (k, v) in r.iter().enumerate() {
                    _mm256_storeu_si256(acc.as_mut_ptr().add(base + 8 * k) as *mut __m256i, *v);
                }
                for k in 0..4 {
                    // Lanes of the pack: units 0-3, 8-11 | 4-7, 12-15; the permute puts them
                    // in order, so the weights are read as they are stored.
                    let h = _mm256_packs_epi32(r[2 * k], r[2 * k + 1]);
                    let h = _mm256_permute4x64_epi64::<0b11_01_10_00>(h);
                    let h = _mm256_min_epi16(_mm256_max_epi16(h, zero), top);
                    let at = base + 16 * k;
                    let wo = _mm256_loadu_si256(n.out[0].as_ptr().add(at) as *const __m256i);
                    let we = _mm256_loadu_si256(n.out[1].as_ptr().add(at) as *const __m256i);
                    so = _mm256_add_epi32(so, _mm256_madd_epi16(h, wo));
                    se = _mm256_add_epi32(se, _mm256_madd_epi16(h, we));
                }
            }
            (lanes_sum(so) >> QA_SHIFT, lanes_sum(se) >> QA_SHIFT)
        }
    }
}
