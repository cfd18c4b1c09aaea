//! [`Network::step_avx2`]'s and [`Network::step_narrow_avx2`]'s loops. Every function here is
//! always inlined, so that the intrinsics are compiled with the AVX2 of the caller they end up
//! in (a closure or a function not inlined would be compiled without it, and each intrinsic
//! would become a call).

use super::{Change, Narrow, Network, MAX_HIDDEN, QA, QA_SHIFT};
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

/// Adds (`ADD`) or takes off, with wrapping 16-bit arithmetic, the rows of `narrow` of the
/// inputs of `kind` on the squares `bits` (seen through `flip`) to the 16-bit sums of `H`
/// units.
///
/// # Safety
/// AVX2, `narrow` the 16-bit form of a network of `H` units.
#[inline(always)]
unsafe fn narrow_rows<const H: usize, const ADD: bool>(
    r: &mut [__m256i; 8],
    narrow: &Narrow,
    bits: u64,
    kind: usize,
    flip: usize,
) {
    for s in Bits(bits) {
        let at = narrow.row_index(kind, s.index() ^ flip);
        // SAFETY: `kind < 4`, so the row's index is below `4 * count`, and `rows` holds
        // `4 * count` rows of `H` weights (`Network::bounded`): the row's `H` weights are in
        // it; unaligned loads need no alignment.
        unsafe {
            let row = narrow.rows.as_ptr().add(at * H);
            for (k, v) in r.iter_mut().take(H / 16).enumerate() {
                let w = _mm256_loadu_si256(row.add(16 * k) as *const __m256i);
                *v = if ADD {
                    _mm256_add_epi16(*v, w)
                } else {
                    _mm256_sub_epi16(*v, w)
                };
            }
        }
    }
}

/// [`Network::step_narrow_avx2`] for `H` units.
///
/// # Safety
/// AVX2, `n.hidden == H`, and `narrow` the network's.
#[inline(always)]
pub(super) unsafe fn step_narrow<const H: usize>(
    n: &Network,
    narrow: &Narrow,
    acc: &mut [u16; MAX_HIDDEN],
    change: &Change,
) -> (i32, i32) {
    // SAFETY: units `0..H` are in `acc` (`H <= MAX_HIDDEN`), in both output vectors
    // (`H` long, checked by `Network::new`) and in `narrow`'s two vectors (`H` long, made
    // by `Network::bounded`); unaligned loads and stores need no alignment.
    unsafe {
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let start = if change.from_bias {
            narrow.bias.as_ptr()
        } else {
            acc.as_ptr()
        };
        let mut r = [zero; 8];
        for (k, v) in r.iter_mut().take(H / 16).enumerate() {
            *v = _mm256_loadu_si256(start.add(16 * k) as *const __m256i);
        }
        let (off, on, flip) = (&change.off, &change.on, change.flip);
        narrow_rows::<H, false>(&mut r, narrow, off[0], 0, flip);
        narrow_rows::<H, true>(&mut r, narrow, on[0], 0, flip);
        narrow_rows::<H, false>(&mut r, narrow, off[1], 1, flip);
        narrow_rows::<H, true>(&mut r, narrow, on[1], 1, flip);
        narrow_rows::<H, false>(&mut r, narrow, off[2], 2, flip);
        narrow_rows::<H, true>(&mut r, narrow, on[2], 2, flip);
        narrow_rows::<H, false>(&mut r, narrow, off[3], 3, flip);
        narrow_rows::<H, true>(&mut r, narrow, on[3], 3, flip);
        let (mut so, mut se) = (zero, zero);
        for (k, v) in r.iter().take(H / 16).enumerate() {
            _mm256_storeu_si256(acc.as_mut_ptr().add(16 * k) as *mut __m256i, *v);
            let floor = _mm256_loadu_si256(narrow.floor.as_ptr().add(16 * k) as *const __m256i);
            let h = _mm256_min_epu16(_mm256_subs_epu16(*v, floor), top);
            let wo = _mm256_loadu_si256(n.out[0].as_ptr().add(16 * k) as *const __m256i);
            let we = _mm256_loadu_si256(n.out[1].as_ptr().add(16 * k) as *const __m256i);
            so = _mm256_add_epi32(so, _mm256_madd_epi16(h, wo));
            se = _mm256_add_epi32(se, _mm256_madd_epi16(h, we));
        }
        (lanes_sum(so) >> QA_SHIFT, lanes_sum(se) >> QA_SHIFT)
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
