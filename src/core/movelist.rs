//! A fixed-capacity move list that never allocates, for the hot paths (move generation, search).

use std::mem::MaybeUninit;

/// Enough for any legal position of either game: a Russian position has at most a few dozen
/// moves, a Turkish one with many kings may have well over a hundred.
pub const MAX_MOVES: usize = 256;

/// A stack-allocated list of at most [`MAX_MOVES`] moves.
pub struct MoveList<M: Copy> {
    len: usize,
    moves: [MaybeUninit<M>; MAX_MOVES],
}

impl<M: Copy> MoveList<M> {
    /// An empty list. Leaves the storage uninitialised: zeroing 256 moves per node costs more
    /// than generating them.
    #[inline]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Appends a move. Panics only if a generator breaks the capacity bound, which is a bug.
    #[inline]
    pub fn push(&mut self, m: M) {
        assert!(self.len < MAX_MOVES, "move list overflow");
        self.moves[self.len] = MaybeUninit::new(m);
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps only the first `n` moves.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        if n < self.len {
            self.len = n;
        }
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[M] {
        // SAFETY: the first `len` entries were written by `push` and `M: Copy` has no drop glue;
        // `MaybeUninit<M>` has the same layout as `M`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr() as *const M, self.len) }
    }

    /// The moves as a mutable slice (for ordering in place).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        // SAFETY: as in `as_slice`; the borrow of `self` is unique.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr() as *mut M, self.len) }
    }

    /// Iterates over the moves.
    #[inline]
    pub fn iter(&self) -> std::slice::Iter<'_, M> {
        self.as_slice().iter()
    }
}

impl<M: Copy> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy> std::ops::Deref for MoveList<M> {
    type Target = [M];
    fn deref(&self) -> &[M] {
        self.as_slice()
    }
}

impl<M: Copy> std::ops::DerefMut for MoveList<M> {
    fn deref_mut(&mut self) -> &mut [M] {
        self.as_mut_slice()
    }
}

impl<'a, M: Copy> IntoIterator for &'a MoveList<M> {
    type Item = &'a M;
    type IntoIter = std::slice::Iter<'a, M>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<M: Copy + std::fmt::Debug> std::fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_and_read() {
        let mut l: MoveList<u32> = MoveList::new();
        assert!(l.is_empty());
        for i in 0..10 {
            l.push(i);
        }
        assert_eq!(l.len(), 10);
        assert_eq!(l[3], 3);
        l.as_mut_slice().reverse();
        assert_eq!(l[0], 9);
        l.truncate(2);
        assert_eq!(l.as_slice(), &[9, 8]);
        l.clear();
        assert!(l.is_empty());
    }
}
