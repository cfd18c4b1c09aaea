//! The learned evaluation's non-linear term: a small network over the pieces, one hidden layer
//! of [`HIDDEN_SIZES`] (64 or 128) clipped-ReLU units, added to the region patterns of [`super::pattern`].
//!
//! Inputs (side-to-move view, [`super::pattern::view`]): one per (kind, square) for own man,
//! own king, enemy man, enemy king on each of the 64 squares ([`INPUTS`]); a position has at
//! most 32 of them set. The first layer's sums of a position (its accumulator) are either
//! summed from scratch ([`Network::refresh`], the rows of the pieces on the board) or changed
//! from those of a nearby position by the inputs that differ ([`Network::update`], what the
//! search's [`super::incremental::EvalStack`] does). Unit `j`:
//! `h_j = clamp(b_j + sum over pieces of w[input][j], 0, 1)`, and the term is
//! `sum_j h_j * out_j`, with an opening and an ending weight per unit like every other weight.
//!
//! Integers: first-layer weights in 1/[`QA`], the output weights in 1/`SCALE` centi-men as
//! the patterns', sums in `i32` (at most 32 rows of `i16` plus a bias cannot overflow, nor
//! can [`MAX_HIDDEN`] products of a unit at most [`QA`] and an `i16`). The loops are the same code
//! for every CPU; where AVX2 is present it is compiled with AVX2 enabled (chosen at run time
//! by [`super::pattern`]), which changes how many lanes an instruction adds, never the sum.

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

/// The network's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden units, one of [`HIDDEN_SIZES`].
    pub hidden: usize,
    /// `INPUTS * hidden` first-layer weights, input-major (the row of an input is contiguous).
    pub w1: Vec<i16>,
    /// `hidden` biases.
    pub b1: Vec<i16>,
    /// `hidden` output weights (opening, ending), 1/`SCALE` centi-men per unit at full output.
    pub out: Vec<[i16; 2]>,
}

/// The input numbers of a position's pieces (side-to-move view), in a fixed order. Always
/// inlined: a call would compile the caller's row sums without its AVX2.
#[inline(always)]
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

impl Network {
    /// A network of `hidden` units (one of [`HIDDEN_SIZES`]) whose every weight is zero (it
    /// adds nothing).
    pub fn zeros(hidden: usize) -> Network {
        assert!(HIDDEN_SIZES.contains(&hidden), "{hidden} hidden units");
        Network {
            hidden,
            w1: vec![0; INPUTS * hidden],
            b1: vec![0; hidden],
            out: vec![[0; 2]; hidden],
        }
    }

    /// The same network with `hidden` units (at least as many as it has): the new units have
    /// every weight zero, so the network computes the same sums.
    pub fn widened(&self, hidden: usize) -> Network {
        let mut n = Network::zeros(hidden);
        let h = self.hidden;
        for i in 0..INPUTS {
            n.w1[i * hidden..i * hidden + h].copy_from_slice(&self.w1[i * h..(i + 1) * h]);
        }
        n.b1[..h].copy_from_slice(&self.b1);
        n.out[..h].copy_from_slice(&self.out);
        n
    }

    /// The term's (opening, ending) sums, in 1/`SCALE` centi-men. Inlined into each caller so
    /// that the caller's target features (AVX2 or none) decide the instructions.
    #[inline(always)]
    pub fn forward(&self, own: Pieces, opp: Pieces) -> (i32, i32) {
        if self.hidden == 64 {
            self.forward_n::<64>(own, opp)
        } else {
            self.forward_n::<128>(own, opp)
        }
    }

    /// [`Network::forward`] for `H` hidden units: the first layer summed from scratch
    /// ([`Network::refresh`]), then the output ([`Network::output`]).
    #[inline(always)]
    fn forward_n<const H: usize>(&self, own: Pieces, opp: Pieces) -> (i32, i32) {
        debug_assert_eq!(self.hidden, H);
        let mut acc = [0i32; MAX_HIDDEN];
        self.refresh_n::<H>(&mut acc, own, opp);
        self.output_n::<H>(&acc)
    }

    /// Sets `acc` (the first `hidden` entries) to the first layer's sums of a position: the
    /// biases plus the rows of its pieces. The accumulator of [`super::incremental`].
    #[inline(always)]
    pub fn refresh(&self, acc: &mut [i32; MAX_HIDDEN], own: Pieces, opp: Pieces) {
        if self.hidden == 64 {
            self.refresh_n::<64>(acc, own, opp)
        } else {
            self.refresh_n::<128>(acc, own, opp)
        }
    }

    #[inline(always)]
    fn refresh_n<const H: usize>(&self, acc: &mut [i32; MAX_HIDDEN], own: Pieces, opp: Pieces) {
        let acc: &mut [i32; H] = (&mut acc[..H]).try_into().expect("H <= MAX_HIDDEN");
        for (a, &b) in acc.iter_mut().zip(self.b1.iter()) {
            *a = b as i32;
        }
        inputs(own, opp, |i| add_row::<H, 1>(acc, self.row::<H>(i)));
    }

    /// The row of input `i` for `H` hidden units.
    #[inline(always)]
    fn row<const H: usize>(&self, i: usize) -> &[i16; H] {
        self.w1[i * H..(i + 1) * H]
            .try_into()
            .expect("a row has H weights")
    }

    /// Changes the sums `acc` of a position whose inputs were `old` (own men, own kings, enemy
    /// men, enemy kings, as in [`inputs`]) into those of the position with inputs `new`: the
    /// rows of inputs set only in `old` are taken off, those set only in `new` added. Integer
    /// sums, so the result is exactly [`Network::refresh`]'s.
    #[inline(always)]
    pub fn update(&self, acc: &mut [i32; MAX_HIDDEN], old: &[u64; 4], new: &[u64; 4]) {
        if self.hidden == 64 {
            self.update_n::<64>(acc, old, new)
        } else {
            self.update_n::<128>(acc, old, new)
        }
    }

    #[inline(always)]
    fn update_n<const H: usize>(
        &self,
        acc: &mut [i32; MAX_HIDDEN],
        old: &[u64; 4],
        new: &[u64; 4],
    ) {
        let acc: &mut [i32; H] = (&mut acc[..H]).try_into().expect("H <= MAX_HIDDEN");
        for kind in 0..4 {
            for s in Bits(old[kind] & !new[kind]) {
                add_row::<H, -1>(acc, self.row::<H>(kind * 64 + s.index()));
            }
            for s in Bits(new[kind] & !old[kind]) {
                add_row::<H, 1>(acc, self.row::<H>(kind * 64 + s.index()));
            }
        }
    }

    /// The term's (opening, ending) sums from the first layer's sums `acc` (clipped, weighed
    /// by the output weights).
    #[inline(always)]
    pub fn output(&self, acc: &[i32; MAX_HIDDEN]) -> (i32, i32) {
        if self.hidden == 64 {
            self.output_n::<64>(acc)
        } else {
            self.output_n::<128>(acc)
        }
    }

    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    #[inline(always)]
    fn output_n<const H: usize>(&self, acc: &[i32; MAX_HIDDEN]) -> (i32, i32) {
        let (mut o, mut e) = (0i32, 0i32);
        for (a, w) in acc[..H].iter().zip(self.out[..H].iter()) {
            let h = (*a).clamp(0, QA);
            o += h * w[0] as i32;
            e += h * w[1] as i32;
        }
        (o >> QA_SHIFT, e >> QA_SHIFT)
    }

    /// [`Network::output`] in WebAssembly SIMD: the compiler does not vectorise the loop over
    /// interleaved (opening, ending) weights by itself, and it is a large part of the
    /// evaluation. The same integer sums, so the same scores.
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    #[inline(always)]
    fn output_n<const H: usize>(&self, acc: &[i32; MAX_HIDDEN]) -> (i32, i32) {
        use core::arch::wasm32::*;
        let out = &self.out[..H];
        let (zero, top) = (i32x4_splat(0), i32x4_splat(QA));
        // Lanes: opening, ending, opening, ending.
        let mut sums = zero;
        for k in 0..H / 4 {
            // SAFETY: lanes 4k..4k+4 of `acc` (H <= MAX_HIDDEN) and of `out` (H pairs of i16,
            // 16 bytes) are in bounds; v128 loads need no alignment.
            let (a, w) = unsafe {
                (
                    v128_load(acc.as_ptr().add(4 * k) as *const v128),
                    v128_load(out.as_ptr().add(4 * k) as *const v128),
                )
            };
            // Units clipped to 0..=QA, which fits an i16: [h0 h0 h1 h1 h2 h2 h3 h3] against
            // [o0 e0 o1 e1 o2 e2 o3 e3].
            let h = i32x4_min(i32x4_max(a, zero), top);
            let h = i16x8_narrow_i32x4(h, h);
            let h = i16x8_shuffle::<0, 0, 1, 1, 2, 2, 3, 3>(h, h);
            let products = i32x4_add(i32x4_extmul_low_i16x8(h, w), i32x4_extmul_high_i16x8(h, w));
            sums = i32x4_add(sums, products);
        }
        let o = i32x4_extract_lane::<0>(sums).wrapping_add(i32x4_extract_lane::<2>(sums));
        let e = i32x4_extract_lane::<1>(sums).wrapping_add(i32x4_extract_lane::<3>(sums));
        (o >> QA_SHIFT, e >> QA_SHIFT)
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
            o += h * self.out[j][0] as i64;
            e += h * self.out[j][1] as i64;
        }
        (
            o.div_euclid(QA as i64) as i32,
            e.div_euclid(QA as i64) as i32,
        )
    }
}
