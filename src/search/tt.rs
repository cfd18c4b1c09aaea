//! The transposition table: shared by every search thread without locks.
//!
//! Each entry is two `AtomicU64`: the packed data, and the key XORed with that data. A reader
//! accepts an entry only if `stored_key ^ data == key`, so an entry torn by two threads writing
//! at once is simply a miss (the "XOR trick"); no lock, no `unsafe` in the hot path. Entries
//! are grouped in clusters of four (one 64-byte cache line); replacement prefers the same key,
//! then an empty slot, then the shallowest or oldest entry.

use crate::core::{Score, WIN_THRESHOLD};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How a stored score bounds the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true score is at most the stored one (fail low).
    Upper = 1,
    /// The true score is at least the stored one (fail high).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

/// A decoded entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// The best move's [`crate::variant::GameMove::hint`], 0 if none.
    pub hint: u32,
    /// Score, already converted back to "from this node" by [`score_from_tt`].
    pub score: Score,
    /// Remaining depth the score was searched to.
    pub depth: i32,
    /// Bound type.
    pub bound: Bound,
}

const CLUSTER: usize = 4;
const AGE_BITS: u64 = 6;
const AGE_MASK: u8 = (1 << AGE_BITS) - 1;

#[derive(Default)]
#[repr(C)]
struct Slot {
    key_xor: AtomicU64,
    data: AtomicU64,
}

/// The table. `Sync`: every access is atomic.
pub struct TransTable {
    slots: Vec<Slot>,
    clusters: usize,
    age: AtomicU64,
}

#[inline]
fn pack(hint: u32, score: Score, depth: i32, bound: Bound, age: u8) -> u64 {
    (hint as u64)
        | ((score as i16 as u16 as u64) << 32)
        | ((depth.clamp(0, 255) as u64) << 48)
        | ((bound as u64) << 56)
        | (((age & AGE_MASK) as u64) << 58)
}

#[inline]
fn unpack(d: u64) -> Option<(TtEntry, u8)> {
    let bound = match (d >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => return None,
    };
    Some((
        TtEntry {
            hint: d as u32,
            score: (d >> 32) as u16 as i16 as Score,
            depth: ((d >> 48) & 0xff) as i32,
            bound,
        },
        ((d >> 58) as u8) & AGE_MASK,
    ))
}

/// A win score is stored as "win in n plies from this node" so that it stays right when the
/// same position is met at another ply.
#[inline]
pub fn score_to_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_THRESHOLD {
        s + ply as Score
    } else if s <= -WIN_THRESHOLD {
        s - ply as Score
    } else {
        s
    }
}

/// The inverse of [`score_to_tt`].
#[inline]
pub fn score_from_tt(s: Score, ply: usize) -> Score {
    if s >= WIN_THRESHOLD {
        s - ply as Score
    } else if s <= -WIN_THRESHOLD {
        s + ply as Score
    } else {
        s
    }
}

impl TransTable {
    /// A table of about `mb` MiB (at least one cluster).
    pub fn new(mb: usize) -> TransTable {
        Self::with_threads(mb, 1)
    }

    /// A table of about `mb` MiB, its memory written (zeroed) by `threads` threads at once.
    ///
    /// A size the system refuses to allocate is halved until it is granted, so that a user
    /// asking for more memory than the machine has gets a smaller table, not an abort.
    pub fn with_threads(mb: usize, threads: usize) -> TransTable {
        let mut mb = mb.max(1);
        let (clusters, mut slots) = loop {
            let bytes = mb.saturating_mul(1 << 20);
            let clusters = (bytes / (CLUSTER * std::mem::size_of::<Slot>())).max(1);
            let mut slots: Vec<Slot> = Vec::new();
            if slots.try_reserve_exact(clusters * CLUSTER).is_ok() || mb == 1 {
                break (clusters, slots);
            }
            mb /= 2;
        };
        let n = clusters * CLUSTER;
        // Only reached for a one-MiB table that could not be had: let it fail loudly.
        slots.reserve_exact(n);
        let chunk = n.div_ceil(threads.max(1)).max(1);
        // Written now, not left to the first searches: every page is faulted in here, once.
        in_parallel(
            slots.spare_capacity_mut()[..n].chunks_mut(chunk).collect(),
            |part| {
                for slot in part {
                    slot.write(Slot::default());
                }
            },
        );
        // SAFETY: the scope above initialised all `n` elements (the chunks cover 0..n).
        unsafe { slots.set_len(n) };
        TransTable {
            slots,
            clusters,
            age: AtomicU64::new(0),
        }
    }

    /// Size in MiB (rounded down).
    pub fn size_mb(&self) -> usize {
        (self.slots.len() * std::mem::size_of::<Slot>()) >> 20
    }

    /// Empties the table using `threads` threads (each clears its own chunk).
    pub fn clear(&self, threads: usize) {
        let threads = threads.max(1);
        let chunk = self.slots.len().div_ceil(threads);
        in_parallel(self.slots.chunks(chunk.max(1)).collect(), |part| {
            for slot in part {
                slot.key_xor.store(0, Ordering::Relaxed);
                slot.data.store(0, Ordering::Relaxed);
            }
        });
        self.age.store(0, Ordering::Relaxed);
    }

    /// Starts a new search: entries of older searches become preferred victims.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn age(&self) -> u8 {
        (self.age.load(Ordering::Relaxed) as u8) & AGE_MASK
    }

    #[inline]
    fn cluster(&self, key: u64) -> &[Slot] {
        let i = crate::core::mul_high(key, self.clusters as u64) as usize;
        &self.slots[i * CLUSTER..(i + 1) * CLUSTER]
    }

    /// Hints the processor to fetch the cluster of `key`.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        let c = self.cluster(key);
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is a hint; any address is allowed and nothing is read.
        #[allow(unused_unsafe)]
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(c.as_ptr() as *const i8);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = c;
    }

    /// The entry stored for `key`, if any; the score is adjusted for `ply`.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<TtEntry> {
        for slot in self.cluster(key) {
            let d = slot.data.load(Ordering::Relaxed);
            let k = slot.key_xor.load(Ordering::Relaxed);
            if k ^ d == key {
                if let Some((mut e, _)) = unpack(d) {
                    e.score = score_from_tt(e.score, ply);
                    return Some(e);
                }
            }
        }
        None
    }

    /// Stores a result. `hint` 0 keeps the move already stored for the same key.
    #[inline]
    pub fn store(&self, key: u64, hint: u32, score: Score, depth: i32, bound: Bound, ply: usize) {
        let age = self.age();
        let cluster = self.cluster(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, slot) in cluster.iter().enumerate() {
            let d = slot.data.load(Ordering::Relaxed);
            let k = slot.key_xor.load(Ordering::Relaxed);
            match unpack(d) {
                None => {
                    if victim_worth > i32::MIN {
                        victim = i;
                        victim_worth = i32::MIN;
                    }
                }
                Some((e, e_age)) => {
                    if k ^ d == key {
                        // Same position: keep a deeper result of this search unless the new one
                        // is exact.
                        if bound != Bound::Exact && e_age == age && e.depth > depth + 2 {
                            return;
                        }
                        let hint = if hint == 0 { e.hint } else { hint };
                        write(
                            slot,
                            key,
                            pack(hint, score_to_tt(score, ply), depth, bound, age),
                        );
                        return;
                    }
                    let stale = (age.wrapping_sub(e_age) & AGE_MASK) as i32;
                    let worth = e.depth - 8 * stale;
                    if worth < victim_worth {
                        victim = i;
                        victim_worth = worth;
                    }
                }
            }
        }
        write(
            &cluster[victim],
            key,
            pack(hint, score_to_tt(score, ply), depth, bound, age),
        );
    }

    /// Permille of the first 1000 clusters' slots used by the current search.
    pub fn hashfull(&self) -> u32 {
        let age = self.age();
        let n = (1000 * CLUSTER).min(self.slots.len());
        let used = self.slots[..n]
            .iter()
            .filter(|s| matches!(unpack(s.data.load(Ordering::Relaxed)), Some((_, a)) if a == age))
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[inline]
/// Runs `work` on every part, each on a thread of its own; a part whose thread the system
/// refuses to start is done by the caller, so a table is never lost to a thread limit.
fn in_parallel<T: Send>(parts: Vec<T>, work: impl Fn(T) + Sync) {
    let cells: Vec<Mutex<Option<T>>> = parts.into_iter().map(|p| Mutex::new(Some(p))).collect();
    let take = |cell: &Mutex<Option<T>>| cell.lock().unwrap_or_else(|e| e.into_inner()).take();
    let (work, take) = (&work, &take);
    std::thread::scope(|s| {
        for cell in &cells {
            let started = std::thread::Builder::new().spawn_scoped(s, move || {
                if let Some(p) = take(cell) {
                    work(p);
                }
            });
            if started.is_err() {
                if let Some(p) = take(cell) {
                    work(p);
                }
            }
        }
    });
}

fn write(slot: &Slot, key: u64, data: u64) {
    slot.data.store(data, Ordering::Relaxed);
    slot.key_xor.store(key ^ data, Ordering::Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::WIN;

    #[test]
    fn store_and_probe() {
        let tt = TransTable::new(1);
        assert!(tt.probe(12345, 0).is_none());
        tt.store(12345, 77, -250, 7, Bound::Lower, 0);
        let e = tt.probe(12345, 0).unwrap();
        assert_eq!(
            (e.hint, e.score, e.depth, e.bound),
            (77, -250, 7, Bound::Lower)
        );
        assert!(tt.probe(12346, 0).is_none());
        tt.clear(2);
        assert!(tt.probe(12345, 0).is_none());
    }

    #[test]
    fn parallel_allocation_gives_an_empty_table_of_the_size_asked() {
        let tt = TransTable::with_threads(3, 3);
        assert_eq!(tt.size_mb(), 3);
        assert_eq!(tt.hashfull(), 0);
        for k in 1..1000u64 {
            assert!(tt.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15), 0).is_none());
        }
    }

    #[test]
    fn win_scores_follow_the_ply() {
        let tt = TransTable::new(1);
        // A win 5 plies from the root found at ply 3 is a win in 2 from that node.
        tt.store(9, 1, WIN - 5, 4, Bound::Exact, 3);
        assert_eq!(tt.probe(9, 3).unwrap().score, WIN - 5);
        assert_eq!(tt.probe(9, 1).unwrap().score, WIN - 3);
        tt.store(10, 1, -(WIN - 6), 4, Bound::Exact, 2);
        assert_eq!(tt.probe(10, 4).unwrap().score, -(WIN - 8));
    }

    #[test]
    fn deeper_entries_survive_and_hint_kept() {
        let tt = TransTable::new(1);
        tt.store(5, 42, 10, 9, Bound::Lower, 0);
        tt.store(5, 0, 20, 2, Bound::Upper, 0);
        assert_eq!(tt.probe(5, 0).unwrap().depth, 9);
        tt.store(5, 0, 30, 9, Bound::Exact, 0);
        let e = tt.probe(5, 0).unwrap();
        assert_eq!((e.hint, e.score), (42, 30));
    }
}
