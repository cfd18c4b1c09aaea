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
//! can [`MAX_HIDDEN`] products of a unit at most [`QA`] and an `i16`). Where a network's
//! every unit takes fewer than 2^16 values over the positions of its game ([`Narrow`]), the
//! search keeps the sums in 16 bits instead ([`Network::step_narrow`]): half the bytes to
//! carry and half the lanes to add, the same sums. The portable loops are
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
    /// The 16-bit form of the sums, where every unit fits ([`Network::bounded`]).
    narrow: Option<Narrow>,
}

/// The first layer's sums in 16 bits, for the positions with at most `per_side` pieces of
/// each side on the squares `squares` (a game's positions, as the board and its start
/// allow). Over those positions unit `j`'s sum lies in `low_j..=low_j + 65535` (`low_j <=
/// 0`, bounded by each side's `per_side` largest weights of the unit, one per square), so
/// `sum - low_j` fits a `u16`. That is what is kept: the biases are kept as `bias - low_j`,
/// rows are added and taken off with wrapping 16-bit arithmetic (exact modulo 2^16, and the
/// result lies in range, so exact), and the unit's clipped value is `min((kept - (-low_j))
/// saturated at 0, QA)`: two 16-bit instructions.
///
/// The form keeps its own copy of the rows of the inputs on `squares` only, packed: the
/// Russian board's 32 dark squares take 32 KiB of rows (128 units) where the whole table,
/// light squares' rows between them, takes 64 KiB, and with rows of 256 bytes the dark
/// squares' fell on only half of the sets of a 32 KiB, 64-set L1 cache.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Narrow {
    /// Where the pieces may stand (on the board as the network sees it: a set closed under
    /// the half turn).
    squares: u64,
    /// The most pieces a side may have.
    per_side: u32,
    /// Per unit, the bias less the unit's lowest sum.
    bias: Vec<u16>,
    /// Per unit, minus the unit's lowest sum.
    floor: Vec<u16>,
    /// The rows of the inputs on `squares`: own men, own kings, enemy men, enemy kings, each
    /// in the order of the squares.
    rows: Vec<i16>,
    /// A square's place in that order (0 for the squares not in `squares`).
    slot: [u8; 64],
    /// How many squares `squares` has.
    count: usize,
}

impl Narrow {
    /// Whether the 16-bit sums hold for the position of the pieces `a` and `b`: at most
    /// `per_side` pieces each, all on the squares the bounds were made for.
    #[inline(always)]
    pub fn holds(&self, a: Pieces, b: Pieces) -> bool {
        let (a, b) = (a.all(), b.all());
        a.count_ones() <= self.per_side
            && b.count_ones() <= self.per_side
            && (a | b) & !self.squares == 0
    }

    /// The place in `rows` of the row of the input of `kind` (below 4) on `square` (one of
    /// `squares`), counted in rows: below `4 * count`.
    #[inline(always)]
    fn row_index(&self, kind: usize, square: usize) -> usize {
        kind * self.count + self.slot[square & 63] as usize
    }

    /// The row of the input of `kind` on `square` (one of `squares`), for `H` hidden units.
    #[inline(always)]
    fn row<const H: usize>(&self, kind: usize, square: usize) -> &[i16; H] {
        let at = self.row_index(kind, square) * H;
        self.rows[at..at + H]
            .try_into()
            .expect("a row has H weights")
    }
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
            narrow: None,
        })
    }

    /// The same network with the 16-bit form of its sums ([`Narrow`]) for the positions with
    /// at most `per_side` pieces of each side on `squares` (and their half turns), if every
    /// unit's sums over them take fewer than 2^16 values; otherwise as it is (the search then
    /// keeps the sums in `i32`).
    pub fn bounded(mut self, squares: u64, per_side: u32) -> Network {
        let squares = squares | super::rotate(squares);
        let h = self.hidden;
        let (mut bias, mut floor) = (Vec::with_capacity(h), Vec::with_capacity(h));
        for j in 0..h {
            let b = self.b1[j] as i64;
            let (mut high, mut low) = (b, b);
            for side in 0..2 {
                // A side's highest sum: its `per_side` largest positive weights of the unit,
                // at most one per square (a man or a king); likewise the lowest. The other
                // side's squares are not taken out, so these bound the sums, maybe loosely.
                let (mut up, mut down): (Vec<i64>, Vec<i64>) = Bits(squares)
                    .map(|s| {
                        let w = [0, 1].map(|k| self.w1[((2 * side + k) * 64 + s.index()) * h + j]);
                        let (lo, hi) = (w[0].min(w[1]) as i64, w[0].max(w[1]) as i64);
                        (hi.max(0), lo.min(0))
                    })
                    .unzip();
                up.sort_unstable_by(|x, y| y.cmp(x));
                down.sort_unstable();
                high += up.iter().take(per_side as usize).sum::<i64>();
                low += down.iter().take(per_side as usize).sum::<i64>();
            }
            // The range kept takes in 0 (the clip's lower end), so `-low` fits a `u16` too.
            let (low, high) = (low.min(0), high.max(0));
            if high - low > u16::MAX as i64 {
                self.narrow = None;
                return self;
            }
            bias.push((b - low) as u16);
            floor.push((-low) as u16);
        }
        let (mut slot, count) = ([0u8; 64], squares.count_ones() as usize);
        let mut rows = Vec::with_capacity(4 * count * h);
        for kind in 0..4 {
            for (i, s) in Bits(squares).enumerate() {
                slot[s.index()] = i as u8;
                rows.extend_from_slice(self.row_n(kind * 64 + s.index()));
            }
        }
        self.narrow = Some(Narrow {
            squares,
            per_side,
            bias,
            floor,
            rows,
            slot,
            count,
        });
        self
    }

    /// The 16-bit form of the sums, if the network has one ([`Network::bounded`]).
    pub fn narrow(&self) -> Option<&Narrow> {
        self.narrow.as_ref()
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

    /// [`Network::step`] on the 16-bit sums of [`Narrow`] (`acc`, the first `hidden`
    /// entries), for a position [`Narrow::holds`] for, from sums of such a position (or from
    /// the biases): the same (opening, ending) sums. The network must have its 16-bit form.
    #[inline(always)]
    pub fn step_narrow(&self, acc: &mut [u16; MAX_HIDDEN], change: &Change) -> (i32, i32) {
        let narrow = self.narrow.as_ref().expect("a network with 16-bit sums");
        if self.hidden == 64 {
            self.step_narrow_n::<64>(narrow, acc, change)
        } else {
            self.step_narrow_n::<128>(narrow, acc, change)
        }
    }

    #[inline(always)]
    fn step_narrow_n<const H: usize>(
        &self,
        narrow: &Narrow,
        acc: &mut [u16; MAX_HIDDEN],
        change: &Change,
    ) -> (i32, i32) {
        let sums: &mut [u16; H] = (&mut acc[..H]).try_into().expect("H <= MAX_HIDDEN");
        if change.from_bias {
            sums.copy_from_slice(&narrow.bias[..H]);
        }
        for kind in 0..4 {
            for s in Bits(change.off[kind]) {
                let row = narrow.row::<H>(kind, s.index() ^ change.flip);
                for (a, &w) in sums.iter_mut().zip(row.iter()) {
                    *a = a.wrapping_sub(w as u16);
                }
            }
            for s in Bits(change.on[kind]) {
                let row = narrow.row::<H>(kind, s.index() ^ change.flip);
                for (a, &w) in sums.iter_mut().zip(row.iter()) {
                    *a = a.wrapping_add(w as u16);
                }
            }
        }
        let (mut o, mut e) = (0i32, 0i32);
        let [open, end] = &self.out;
        let units = sums
            .iter()
            .zip(&narrow.floor[..H])
            .zip(&open[..H])
            .zip(&end[..H]);
        for (((&a, &f), &wo), &we) in units {
            let h = a.saturating_sub(f).min(QA as u16) as i32;
            o += h * wo as i32;
            e += h * we as i32;
        }
        (o >> QA_SHIFT, e >> QA_SHIFT)
    }

    /// [`Network::step_narrow`] with AVX2 intrinsics: the sums of all 128 units in eight
    /// registers, each row added by eight 16-bit adds. Always inlined, for the callers
    /// compiled with AVX2 (as [`Network::step_avx2`]).
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    pub unsafe fn step_narrow_avx2(
        &self,
        acc: &mut [u16; MAX_HIDDEN],
        change: &Change,
    ) -> (i32, i32) {
        let narrow = self.narrow.as_ref().expect("a network with 16-bit sums");
        // SAFETY: AVX2 as the caller promises; `hidden` is the network's (`Network::new`).
        unsafe {
            if self.hidden == 64 {
                avx2::step_narrow::<64>(self, narrow, acc, change)
            } else {
                avx2::step_narrow::<128>(self, narrow, acc, change)
            }
        }
    }

    /// The row of input `i`.
    fn row_n(&self, i: usize) -> &[i16] {
        &self.w1[i * self.hidden..(i + 1) * self.hidden]
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

/// The AVX2 loops (see the module).
#[cfg(target_arch = "x86_64")]
mod avx2;
