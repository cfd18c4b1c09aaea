//! Thread control: the flags a searcher shares with its threads for its whole life
//! ([`Control`]), what the threads of one search share ([`Shared`]), and the small guards that
//! keep a panicking thread from hanging the others.

use super::tt::TransTable;
use super::types::Job;
use crate::core::Score;
use crate::egtb::Endgames;
use crate::variant::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Flags shared by the searcher and its threads for the whole life of the searcher.
#[derive(Default)]
pub struct Control {
    pub(super) stop: AtomicBool,
    pub(super) pondering: AtomicBool,
    /// Nanoseconds from the start of the search to the ponder hit; 0 = not hit.
    pub(super) ponder_hit_ns: AtomicU64,
    busy: Mutex<bool>,
    idle: Condvar,
    start: Mutex<Option<Instant>>,
}

impl Control {
    pub(super) fn begin(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        self.ponder_hit_ns.store(0, Ordering::SeqCst);
        *lock(&self.busy) = true;
    }

    pub(super) fn set_start(&self, t: Instant) {
        *lock(&self.start) = Some(t);
    }

    /// Records a ponder hit: the clock of the running search starts now.
    pub(super) fn ponder_hit(&self) {
        if self.pondering.load(Ordering::SeqCst) {
            let since = lock(&self.start).map_or(Duration::ZERO, |s| s.elapsed());
            self.ponder_hit_ns
                .store((since.as_nanos() as u64).max(1), Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
        }
    }

    pub(super) fn finish(&self) {
        *lock(&self.busy) = false;
        self.idle.notify_all();
    }

    /// Whether a search is running.
    pub fn is_busy(&self) -> bool {
        *lock(&self.busy)
    }

    /// Blocks until no search is running.
    pub fn wait(&self) {
        let mut b = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        while *b {
            b = self.idle.wait(b).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// What every thread of one search shares.
pub(super) struct Shared<P: Position> {
    pub(super) job: Job<P>,
    pub(super) start: Instant,
    pub(super) tt: Arc<TransTable>,
    pub(super) control: Arc<Control>,
    pub(super) nodes: Vec<AtomicU64>,
    pub(super) root_moves: usize,
    pub(super) helpers_left: Mutex<usize>,
    pub(super) helpers_done: Condvar,
    pub(super) results: Mutex<Vec<Option<ThreadResult<P>>>>,
    /// Endgame databases, if any: an exact score at every node they cover.
    pub(super) endgames: Option<Arc<dyn Endgames<P>>>,
}

impl<P: Position> Shared<P> {
    pub(super) fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Seconds since the ponder hit, if there was one.
    pub(super) fn since_ponder_hit(&self, elapsed: f64) -> Option<f64> {
        match self.control.ponder_hit_ns.load(Ordering::SeqCst) {
            0 => None,
            ns => Some(elapsed - ns as f64 * 1e-9),
        }
    }

    /// The main thread's clock check during an iteration.
    pub(super) fn out_of_time(&self) -> bool {
        if self.job.limits.infinite || self.control.pondering.load(Ordering::Relaxed) {
            return false;
        }
        let plan = self.job.limits.time;
        let t = self.elapsed();
        match self.since_ponder_hit(t) {
            None => plan.maximum.is_some_and(|m| t >= m),
            // The clock runs from the ponder hit, but the time already spent pondering counts
            // towards the planned time: stop once that is used up.
            Some(s) => plan.maximum.is_some_and(|m| s >= m) || plan.optimum.is_some_and(|o| t >= o),
        }
    }
}

#[derive(Clone, Debug)]
pub(super) struct ThreadResult<P: Position> {
    pub(super) depth: u32,
    pub(super) score: Score,
    pub(super) pv: Vec<P::Move>,
}

/// Locks a mutex, taking it over from a thread that panicked while holding it.
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs a closure when dropped (also while unwinding).
pub(super) struct OnDrop<F: FnMut()>(pub(super) F);

impl<F: FnMut()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        (self.0)();
    }
}
