//! A fixed set of search threads, created once and reused by every search (no thread is
//! spawned per `go`). Each thread runs the jobs sent to it, in order, until the pool is
//! dropped.

use crate::core::host;
use crossbeam_channel::{unbounded, Sender};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

type PoolTask = Box<dyn FnOnce() + Send + 'static>;

struct Member {
    tx: Option<Sender<PoolTask>>,
    handle: Option<JoinHandle<()>>,
}

/// The pool. Dropping it ends its threads once their current job is done.
pub struct ThreadPool {
    members: Vec<Member>,
}

/// Stack size of a search thread: recursion to the maximum ply with a move list per node.
const STACK_SIZE: usize = 64 << 20;

impl ThreadPool {
    /// A pool of `n` threads (at least one asked); see [`ThreadPool::resize`] for threads
    /// that cannot be started.
    pub fn new(n: usize) -> ThreadPool {
        let mut p = ThreadPool {
            members: Vec::new(),
        };
        p.resize(n);
        p
    }

    /// Number of threads.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether no thread could be started at all.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Grows or shrinks the pool to `n` threads (at least one asked) and returns the number
    /// it has. A thread the system refuses to start (address space, thread limit) is not
    /// fatal: the pool keeps the threads it could start, possibly none, and the caller reports
    /// the shortfall. Must not be called while a job is running that waits for a thread being
    /// removed.
    pub fn resize(&mut self, n: usize) -> usize {
        // No thread can start without threads: the jobs wait for `run_deferred`.
        let n = if host::SINGLE_THREADED { 0 } else { n.max(1) };
        while self.members.len() > n {
            let mut m = self.members.pop().expect("non-empty");
            m.tx.take();
            if let Some(h) = m.handle.take() {
                let _ = h.join();
            }
        }
        while self.members.len() < n {
            let (tx, rx) = unbounded::<PoolTask>();
            let id = self.members.len();
            let Ok(handle) = spawn(id, move || {
                while let Ok(job) = rx.recv() {
                    // A panicking job must not take the thread with it: later searches still
                    // need it.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            }) else {
                break;
            };
            self.members.push(Member {
                tx: Some(tx),
                handle: Some(handle),
            });
        }
        self.members.len()
    }

    /// Runs `job` on thread `i`, after the jobs already queued there. If the pool has no
    /// thread `i` (it could not be started), on a thread of its own if one can be started
    /// now, else on the calling thread, so that work is never lost.
    ///
    /// Without threads at all ([`host::SINGLE_THREADED`]) the job waits for [`run_deferred`]
    /// instead: the caller (a Hub session driven by a web worker) returns at once, as it would
    /// natively, and runs the search when it is ready to.
    pub fn run_on(&self, i: usize, job: impl FnOnce() + Send + 'static) {
        if host::SINGLE_THREADED {
            DEFERRED.with(|d| d.borrow_mut().push_back(Box::new(job)));
            return;
        }
        if let Some(tx) = self.members.get(i).and_then(|m| m.tx.as_ref()) {
            // The receiver lives as long as the member; a send cannot fail before drop.
            let _ = tx.send(Box::new(job));
            return;
        }
        let cell = Arc::new(Mutex::new(Some(job)));
        let take = |c: &Mutex<Option<_>>| c.lock().unwrap_or_else(|e| e.into_inner()).take();
        let theirs = cell.clone();
        let started = spawn(self.members.len(), move || {
            if let Some(job) = take(&theirs) {
                job();
            }
        });
        if started.is_err() {
            if let Some(job) = take(&cell) {
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            }
        }
    }
}

thread_local! {
    /// Jobs waiting for [`run_deferred`] (only where [`host::SINGLE_THREADED`]).
    static DEFERRED: RefCell<VecDeque<PoolTask>> = const { RefCell::new(VecDeque::new()) };
}

/// Runs the jobs [`ThreadPool::run_on`] deferred, in order, on the calling thread, until none
/// is left (a job may queue more); returns whether it ran any. Nothing is borrowed while a job
/// runs, so the host may hand the session more input (a `stop`) while a job is paused in
/// [`host::pause`].
pub fn run_deferred() -> bool {
    let mut ran = false;
    while let Some(job) = DEFERRED.with(|d| d.borrow_mut().pop_front()) {
        job();
        ran = true;
    }
    ran
}

/// Whether jobs wait for [`run_deferred`].
pub fn has_deferred() -> bool {
    DEFERRED.with(|d| !d.borrow().is_empty())
}

thread_local! {
    /// Test hook (see [`refuse_thread_starts_from`]): pool threads with this index or higher
    /// fail to start when the pool is grown from this thread.
    static REFUSE_FROM: Cell<Option<usize>> = const { Cell::new(None) };
}

/// Test-only hook: from now on, pools grown from the calling thread fail to start their
/// thread number `from` and above, as the system does when it runs out of address space or
/// threads; `None` lifts it. Thread-local, so tests running at the same time are not
/// affected, and nothing in the engine ever calls it.
#[doc(hidden)]
pub fn refuse_thread_starts_from(from: Option<usize>) {
    REFUSE_FROM.with(|r| r.set(from));
}

/// Starts pool thread `id`.
fn spawn(id: usize, body: impl FnOnce() + Send + 'static) -> std::io::Result<JoinHandle<()>> {
    if REFUSE_FROM.with(Cell::get).is_some_and(|from| id >= from) {
        return Err(std::io::Error::other(
            "thread start refused by the test hook",
        ));
    }
    std::thread::Builder::new()
        .name(format!("search-{id}"))
        .stack_size(STACK_SIZE)
        .spawn(body)
}

impl Drop for ThreadPool {
    fn drop(&mut self) {
        for m in &mut self.members {
            m.tx.take();
        }
        for m in &mut self.members {
            if let Some(h) = m.handle.take() {
                let _ = h.join();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn jobs_run_on_every_thread_and_pool_resizes() {
        let mut pool = ThreadPool::new(3);
        let count = Arc::new(AtomicUsize::new(0));
        for i in 0..3 {
            let c = count.clone();
            pool.run_on(i, move || {
                c.fetch_add(1, Ordering::SeqCst);
            });
        }
        pool.resize(1);
        let c = count.clone();
        pool.run_on(0, move || {
            c.fetch_add(1, Ordering::SeqCst);
        });
        drop(pool);
        assert_eq!(count.load(Ordering::SeqCst), 4);
    }

    #[test]
    fn threads_that_cannot_start_leave_a_smaller_pool_that_still_works() {
        refuse_thread_starts_from(Some(2));
        let mut pool = ThreadPool::new(4);
        assert_eq!(pool.len(), 2);
        assert_eq!(pool.resize(3), 2);
        refuse_thread_starts_from(Some(0));
        let mut empty = ThreadPool::new(2);
        assert!(empty.is_empty());
        // No thread at all, and none can be started now: the job runs on the caller.
        let count = Arc::new(AtomicUsize::new(0));
        let c = count.clone();
        empty.run_on(0, move || {
            c.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(count.load(Ordering::SeqCst), 1);
        refuse_thread_starts_from(None);
        // One can be started now: the job gets a thread of its own.
        let (tx, rx) = crossbeam_channel::bounded(1);
        empty.run_on(0, move || {
            let _ = tx.send(std::thread::current().name().map(String::from));
        });
        let name = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        assert_eq!(name.as_deref(), Some("search-0"));
        assert_eq!(empty.resize(2), 2);
        assert_eq!(pool.resize(4), 4);
    }
}
