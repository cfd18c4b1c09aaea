//! Thread control: the flags a searcher shares with its threads for its whole life
//! ([`Control`]), what the threads of one search share ([`Shared`]), and the small guards that
//! keep a panicking thread from hanging the others.

use super::tt::TransTable;
use super::types::{Job, RootLine};
use crate::core::host::Instant;
use crate::core::Score;
use crate::egtb::Endgames;
use crate::eval::Evaluator;
use crate::variant::Position;
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// The flags of one search, shared by its threads and the searcher. Each search has its own,
/// so a helper still finishing the previous search (the main thread never waits for it) can
/// never be restarted, or stopped too late, by the next one.
pub(super) struct Signals {
    /// Every thread of the search stops at its next node.
    pub(super) stop: AtomicBool,
    /// Pondering: no clock until the ponder hit.
    pub(super) pondering: AtomicBool,
    /// Nanoseconds from the start of the search to the ponder hit; 0 = not hit.
    pub(super) ponder_hit_ns: AtomicU64,
    /// When the search started.
    pub(super) start: Instant,
}

impl Signals {
    pub(super) fn new(ponder: bool) -> Signals {
        Signals {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            ponder_hit_ns: AtomicU64::new(0),
            start: Instant::now(),
        }
    }

    /// Records a ponder hit: the clock of the search starts now.
    fn ponder_hit(&self) {
        if self.pondering.load(Ordering::SeqCst) {
            let since = self.start.elapsed();
            self.ponder_hit_ns
                .store((since.as_nanos() as u64).max(1), Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
        }
    }
}

/// What the searcher shares with its threads for its whole life: whether a search is running
/// (until its main thread has answered) and the signals of the current one.
#[derive(Default)]
pub struct Control {
    busy: Mutex<bool>,
    idle: Condvar,
    current: Mutex<Option<Arc<Signals>>>,
    /// The main thread of recent searches spent more time waiting for a core than running:
    /// the machine is oversubscribed, and helpers would only take CPU from the main thread.
    starved: AtomicBool,
}

impl Control {
    /// Whether helpers should sit out: see [`Control::record_main_thread`].
    pub(super) fn starved(&self) -> bool {
        self.starved.load(Ordering::Relaxed)
    }

    /// Records how the main thread fared in a search, from its scheduler statistics at the
    /// start and at the end: starved once it waited for a core longer than it ran, no longer
    /// once it waited less than a quarter as long as it ran (the gap keeps the state from
    /// flapping). Searches shorter than [`STARVATION_MIN_NS`] say too little to count.
    pub(super) fn record_main_thread(&self, start: Option<ThreadTimes>, end: Option<ThreadTimes>) {
        let (Some(s), Some(e)) = (start, end) else {
            return;
        };
        let ran = e.cpu_ns.saturating_sub(s.cpu_ns);
        let waited = e.wait_ns.saturating_sub(s.wait_ns);
        if ran + waited < STARVATION_MIN_NS {
            return;
        }
        if waited > ran {
            self.starved.store(true, Ordering::Relaxed);
        } else if waited * 4 < ran {
            self.starved.store(false, Ordering::Relaxed);
        }
    }

    /// A search with `signals` starts.
    pub(super) fn begin(&self, signals: Arc<Signals>) {
        *lock(&self.current) = Some(signals);
        *lock(&self.busy) = true;
    }

    /// Tells the current search, if any, to stop.
    pub(super) fn stop(&self) {
        if let Some(s) = lock(&self.current).as_ref() {
            s.stop.store(true, Ordering::SeqCst);
        }
    }

    /// Records a ponder hit in the current search, if any.
    pub(super) fn ponder_hit(&self) {
        if let Some(s) = lock(&self.current).as_ref() {
            s.ponder_hit();
        }
    }

    /// The main thread has answered: the searcher is free for the next search.
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
        let mut b = lock(&self.busy);
        while *b {
            b = self.idle.wait(b).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// What every thread of one search shares.
pub(super) struct Shared<P: Position> {
    pub(super) job: Job<P>,
    pub(super) tt: Arc<TransTable>,
    pub(super) signals: Arc<Signals>,
    /// Nodes of each thread, as last published.
    pub(super) nodes: Vec<AtomicU64>,
    pub(super) root_moves: usize,
    /// Where helpers publish each completed iteration as soon as it completes. A channel,
    /// not a lock: the main thread takes what is there without ever blocking on a helper
    /// (one descheduled while holding a lock would hold up the answer).
    pub(super) results: Sender<ThreadResult<P>>,
    /// Endgame databases, if any: an exact score at every node they cover.
    pub(super) endgames: Option<Arc<dyn Endgames<P>>>,
    /// The searcher's evaluation, shared read-only by the threads.
    pub(super) eval: Evaluator,
    /// Breadcrumbs ([`super::params::BREADCRUMB_PLIES`]): which thread is searching which
    /// node near the root, `key` with its low byte replaced by the thread's id + 1; 0 = free.
    /// Empty with one thread.
    pub(super) crumbs: Vec<AtomicU64>,
}

impl<P: Position> Shared<P> {
    pub(super) fn elapsed(&self) -> f64 {
        self.signals.start.elapsed().as_secs_f64()
    }

    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Seconds since the ponder hit, if there was one.
    pub(super) fn since_ponder_hit(&self, elapsed: f64) -> Option<f64> {
        match self.signals.ponder_hit_ns.load(Ordering::SeqCst) {
            0 => None,
            ns => Some(elapsed - ns as f64 * 1e-9),
        }
    }

    /// The main thread's clock check during an iteration.
    pub(super) fn out_of_time(&self) -> bool {
        if self.job.limits.infinite || self.signals.pondering.load(Ordering::Relaxed) {
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
    /// Every root line of the iteration, best first (`pv` is the first one's).
    pub(super) lines: Vec<RootLine<P::Move>>,
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

/// Shortest search (running plus waiting, nanoseconds) whose scheduler statistics count.
const STARVATION_MIN_NS: u64 = 2_000_000;

/// A thread's scheduler statistics: time run on a core and time spent runnable but waiting
/// for one, nanoseconds since the thread started.
#[derive(Clone, Copy, Debug)]
pub(super) struct ThreadTimes {
    cpu_ns: u64,
    wait_ns: u64,
}

impl ThreadTimes {
    /// The calling thread's statistics, where the system gives them (Linux: the first two
    /// fields of `/proc/thread-self/schedstat`); `None` elsewhere, and then helpers always run.
    pub(super) fn now() -> Option<ThreadTimes> {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let mut f = s.split_whitespace().map(|x| x.parse::<u64>());
        Some(ThreadTimes {
            cpu_ns: f.next()?.ok()?,
            wait_ns: f.next()?.ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn times(cpu_ms: u64, wait_ms: u64) -> Option<ThreadTimes> {
        Some(ThreadTimes {
            cpu_ns: cpu_ms * 1_000_000,
            wait_ns: wait_ms * 1_000_000,
        })
    }

    #[test]
    fn helpers_sit_out_while_the_main_thread_waits_longer_than_it_runs() {
        let c = Control::default();
        assert!(!c.starved());
        // Ran 10 ms, waited 30 ms: starved.
        c.record_main_thread(times(0, 0), times(10, 30));
        assert!(c.starved());
        // Waited a little less than it ran: still starved (no flapping).
        c.record_main_thread(times(10, 30), times(30, 45));
        assert!(c.starved());
        // Too short to say anything.
        c.record_main_thread(times(30, 45), times(30, 46));
        assert!(c.starved());
        // Waited under a quarter of its running time: helpers come back.
        c.record_main_thread(times(30, 46), times(70, 50));
        assert!(!c.starved());
        // No statistics (not Linux): nothing changes.
        c.record_main_thread(None, times(70, 500));
        assert!(!c.starved());
    }
}
