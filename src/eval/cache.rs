//! The scores a search thread has computed, by position ([`ScoreCache`]): iterative deepening
//! and re-searches evaluate the same positions again and again (a quarter to a half of the
//! bench's evaluations), and a cached score costs one memory access where an evaluation costs
//! the hand-written terms, the patterns and the network. A slot keeps the whole position (both
//! sides' pieces, the kings, the side to move), compared in full: a score is only ever that of
//! its own position, never of another with the same hash key.

use crate::core::{Color, Score};

/// Slots of a thread's cache (a power of two): 2^16 slots of 32 bytes, 2 MiB per thread.
pub const SCORE_CACHE_BITS: u32 = 16;

/// One position and its score.
#[derive(Clone, Copy, Default)]
#[repr(C, align(32))]
struct Slot {
    /// White's pieces, Black's pieces, the kings of both.
    board: [u64; 3],
    score: Score,
    /// 1 + the side to move's index; 0: empty.
    side: u32,
}

/// A thread's scores by position (see the module comment). Made once per search thread.
pub struct ScoreCache {
    slots: Vec<Slot>,
}

impl ScoreCache {
    /// An empty cache of 2^`bits` slots.
    pub fn new(bits: u32) -> ScoreCache {
        ScoreCache {
            slots: vec![Slot::default(); 1 << bits],
        }
    }

    /// Forgets every score.
    pub fn clear(&mut self) {
        self.slots.iter_mut().for_each(|s| *s = Slot::default());
    }

    #[inline(always)]
    fn index(&self, key: u64) -> usize {
        // The high bits: the transposition table indexes by the low ones.
        (key >> (64 - self.slots.len().trailing_zeros())) as usize
    }

    /// The score kept for the position `board` (white, black, kings) with `side` to move,
    /// whose hash key is `key`.
    #[inline(always)]
    pub fn get(&self, key: u64, board: [u64; 3], side: Color) -> Option<Score> {
        let s = &self.slots[self.index(key)];
        (s.board == board && s.side == 1 + side.index() as u32).then_some(s.score)
    }

    /// Keeps `score` for the position (it replaces whatever the slot held).
    #[inline(always)]
    pub fn put(&mut self, key: u64, board: [u64; 3], side: Color, score: Score) {
        let i = self.index(key);
        self.slots[i] = Slot {
            board,
            score,
            side: 1 + side.index() as u32,
        };
    }

    /// Asks the CPU to bring the slot of `key` into the cache (a hint: nothing is read).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let slot = &self.slots[self.index(key)];
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; the address is that of a slot, and nothing is read.
        #[allow(unused_unsafe)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(slot as *const Slot as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }
}
