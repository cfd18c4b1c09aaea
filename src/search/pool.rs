//! A fixed set of search threads, created once and reused by every search (no thread is
//! spawned per `go`). Each thread runs the jobs sent to it, in order, until the pool is
//! dropped.

use crossbeam_channel::{unbounded, Sender};
use std::thread::JoinHandle;

type Job = Box<dyn FnOnce() + Send + 'static>;

struct Member {
    tx: Option<Sender<Job>>,
    handle: Option<JoinHandle<()>>,
}

/// The pool. Dropping it ends its threads once their current job is done.
pub struct ThreadPool {
    members: Vec<Member>,
}

/// Stack size of a search thread: recursion to the maximum ply with a move list per node.
const STACK_SIZE: usize = 64 << 20;

impl ThreadPool {
    /// A pool of `n` threads (at least one).
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

    /// Always false: a pool has at least one thread.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Grows or shrinks the pool to `n` threads (at least one). Must not be called while a
    /// job is running that waits for a thread being removed.
    pub fn resize(&mut self, n: usize) {
        let n = n.max(1);
        while self.members.len() > n {
            let mut m = self.members.pop().expect("non-empty");
            m.tx.take();
            if let Some(h) = m.handle.take() {
                let _ = h.join();
            }
        }
        while self.members.len() < n {
            let (tx, rx) = unbounded::<Job>();
            let id = self.members.len();
            let handle = std::thread::Builder::new()
                .name(format!("search-{id}"))
                .stack_size(STACK_SIZE)
                .spawn(move || {
                    while let Ok(job) = rx.recv() {
                        // A panicking job must not take the thread with it: later searches
                        // still need it.
                        let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                    }
                })
                .expect("cannot start a search thread");
            self.members.push(Member {
                tx: Some(tx),
                handle: Some(handle),
            });
        }
    }

    /// Runs `job` on thread `i`, after the jobs already queued there.
    pub fn run_on(&self, i: usize, job: impl FnOnce() + Send + 'static) {
        if let Some(tx) = &self.members[i].tx {
            // The receiver lives as long as the member; a send cannot fail before drop.
            let _ = tx.send(Box::new(job));
        }
    }
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
    use std::sync::Arc;

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
}
