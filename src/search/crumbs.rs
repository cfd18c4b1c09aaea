//! Lazy SMP breadcrumbs ([`BREADCRUMB_PLIES`]): a thread marks the nodes near the root it is
//! searching, so that another thread arriving at the same node reduces its late moves more
//! and the threads spread over different subtrees.

use super::params::*;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// A node's breadcrumb ([`BREADCRUMB_PLIES`]): the slot this thread marked (to free when the
/// node is done), and whether another thread was searching the node already.
pub(super) struct Crumb {
    slot: Option<usize>,
    pub(super) marked: bool,
}

impl Crumb {
    /// Frees the slot this thread marked, if any.
    #[inline(always)]
    pub(super) fn pick_up(&self, crumbs: &[AtomicU64]) {
        if let Some(i) = self.slot {
            crumbs[i].store(0, Relaxed);
        }
    }
}

/// Marks node `key` at `ply` as searched by thread `id`, or finds it marked by another.
/// Only near the root and with several threads; a slot held by another node is left alone.
#[inline(always)]
pub(super) fn leave_crumb(crumbs: &[AtomicU64], key: u64, ply: usize, id: usize) -> Crumb {
    let mut crumb = Crumb {
        slot: None,
        marked: false,
    };
    if ply >= BREADCRUMB_PLIES || crumbs.is_empty() {
        return crumb;
    }
    let i = (key as usize) & (BREADCRUMB_SLOTS - 1);
    let mine = (key & !0xff) | (id as u64 + 1);
    let held = crumbs[i].load(Relaxed);
    if held == 0 {
        if crumbs[i]
            .compare_exchange(0, mine, Relaxed, Relaxed)
            .is_ok()
        {
            crumb.slot = Some(i);
        }
    } else {
        crumb.marked = held & !0xff == key & !0xff && held != mine;
    }
    crumb
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crumb_marks_a_node_for_other_threads_until_picked_up() {
        let crumbs: Vec<AtomicU64> = (0..BREADCRUMB_SLOTS).map(|_| AtomicU64::new(0)).collect();
        let key = 0x1234_5678_9abc_de42;
        let first = leave_crumb(&crumbs, key, 2, 0);
        assert!(first.slot.is_some() && !first.marked);
        // The same thread deeper in its own path, and another thread: only the latter is told.
        assert!(!leave_crumb(&crumbs, key, 4, 0).marked);
        let other = leave_crumb(&crumbs, key, 2, 1);
        assert!(other.marked && other.slot.is_none());
        // Another node in the same slot is neither marked nor given the slot.
        let clash = leave_crumb(&crumbs, key ^ 0x1_0000_0000, 2, 1);
        assert!(!clash.marked && clash.slot.is_none());
        // Too deep, or with one thread (no table): nothing happens.
        assert!(!leave_crumb(&crumbs, key, BREADCRUMB_PLIES, 1).marked);
        assert!(!leave_crumb(&[], key, 0, 1).marked);
        first.pick_up(&crumbs);
        assert!(crumbs.iter().all(|c| c.load(Relaxed) == 0));
        let again = leave_crumb(&crumbs, key, 2, 1);
        assert!(again.slot.is_some() && !again.marked);
    }
}
