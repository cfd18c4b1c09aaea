//! The searcher ([`Searcher`]): owns the threads, the shared table and each thread's
//! [`Worker`]; starts a search on every thread, gathers the threads' results and builds the
//! answer ([`Finished`]), with a legal move even if no iteration completed.

use super::control::{lock, Control, OnDrop, Shared, ThreadResult};
use super::pool::ThreadPool;
use super::tt::TransTable;
use super::types::{Finished, Job, Report};
use super::worker::Worker;
use crate::egtb::endgames::{self, Endgames};
use crate::eval::Evaluate;
use crate::variant::GameMove;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The searcher: search threads, transposition table and per-thread tables.
pub struct Searcher<P: Evaluate> {
    pool: ThreadPool,
    tt: Arc<TransTable>,
    control: Arc<Control>,
    workers: Arc<Vec<Mutex<Worker<P>>>>,
    endgames: Option<Arc<dyn Endgames<P>>>,
}

impl<P: Evaluate> Searcher<P> {
    /// A searcher with `threads` threads and a `hash_mb` MiB table.
    pub fn new(threads: usize, hash_mb: usize) -> Searcher<P> {
        let threads = threads.max(1);
        Searcher {
            pool: ThreadPool::new(threads),
            tt: Arc::new(TransTable::with_threads(hash_mb, threads)),
            control: Arc::new(Control::default()),
            workers: Arc::new((0..threads).map(|i| Mutex::new(Worker::new(i))).collect()),
            endgames: None,
        }
    }

    /// Uses endgame databases from the next search on (`None`: none).
    pub fn set_endgames(&mut self, endgames: Option<Arc<dyn Endgames<P>>>) {
        self.stop_and_wait();
        self.endgames = endgames;
    }

    /// Number of threads.
    pub fn threads(&self) -> usize {
        self.pool.len()
    }

    /// Table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Changes the number of threads (stops a running search first).
    pub fn set_threads(&mut self, n: usize) {
        self.stop_and_wait();
        let n = n.max(1);
        if n != self.pool.len() {
            self.pool.resize(n);
            self.workers = Arc::new((0..n).map(|i| Mutex::new(Worker::new(i))).collect());
        }
    }

    /// Replaces the table by an empty one of `mb` MiB (stops a running search first).
    pub fn set_hash_mb(&mut self, mb: usize) {
        self.stop_and_wait();
        // Drop the old table first so that both never take memory at once.
        self.tt = Arc::new(TransTable::new(1));
        self.tt = Arc::new(TransTable::with_threads(mb.max(1), self.pool.len()));
    }

    /// Forgets everything learnt: table (cleared in parallel), killers and history.
    pub fn clear(&mut self) {
        self.stop_and_wait();
        self.tt.clear(self.pool.len());
        for w in self.workers.iter() {
            lock(w).clear();
        }
    }

    /// Asks the running search to stop.
    pub fn stop(&self) {
        self.control.stop.store(true, Ordering::SeqCst);
    }

    /// Ponder hit: the running ponder search goes on as a timed search.
    pub fn ponder_hit(&self) {
        self.control.ponder_hit();
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.control.is_busy()
    }

    /// Waits for the running search (if any) to finish.
    pub fn wait(&self) {
        self.control.wait();
    }

    fn stop_and_wait(&self) {
        if self.control.is_busy() {
            self.stop();
            self.wait();
        }
    }

    /// Starts a search and returns at once; `on_report` gets each completed iteration of the
    /// main thread, `on_done` the result (exactly once). Fails if a search is running.
    pub fn go(
        &mut self,
        job: Job<P>,
        mut on_report: impl FnMut(&Report<P>) + Send + 'static,
        on_done: impl FnOnce(Finished<P>) + Send + 'static,
    ) -> Result<(), Job<P>> {
        if self.control.is_busy() {
            return Err(job);
        }
        let threads = self.pool.len();
        self.control.begin(job.limits.ponder);
        self.tt.new_search();
        let root_moves = job.root.count_moves();
        // A root the databases decide as a win or a loss is played from them at once (the
        // fastest safe conversion), unless the caller asked to analyse or ponder.
        let lim = job.limits;
        let by_tables = match &self.endgames {
            Some(eg) if !(lim.analyze || lim.infinite || lim.ponder) => {
                endgames::root_move(eg.as_ref(), &job.root, &job.root_state)
            }
            _ => None,
        };
        let root_moves = if by_tables.is_some() { 0 } else { root_moves };
        let sh = Arc::new(Shared {
            endgames: self.endgames.clone(),
            start: Instant::now(),
            tt: self.tt.clone(),
            control: self.control.clone(),
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            root_moves,
            helpers_left: Mutex::new(threads - 1),
            helpers_done: Condvar::new(),
            results: Mutex::new(vec![None; threads]),
            job,
        });
        self.control.set_start(sh.start);
        for i in 1..threads {
            let sh = sh.clone();
            let workers = self.workers.clone();
            self.pool.run_on(i, move || {
                // Counts this helper as done even if it panics, so the main thread never waits
                // forever.
                let _done = OnDrop(|| {
                    let mut left = lock(&sh.helpers_left);
                    *left -= 1;
                    sh.helpers_done.notify_all();
                });
                let r = {
                    let mut w = lock(&workers[i]);
                    if root_moves == 0 {
                        None
                    } else {
                        w.iterate(&sh, None)
                    }
                };
                lock(&sh.results)[i] = r;
            });
        }
        let workers = self.workers.clone();
        let control = self.control.clone();
        self.pool.run_on(0, move || {
            // Marks the search finished even if a callback panics, so `wait` never hangs.
            let _finish = OnDrop(|| control.finish());
            let main = if root_moves == 0 {
                None
            } else {
                let mut w = lock(&workers[0]);
                w.iterate(&sh, Some(&mut on_report))
            };
            sh.control.stop.store(true, Ordering::SeqCst);
            {
                let mut left = lock(&sh.helpers_left);
                while *left > 0 {
                    left = sh
                        .helpers_done
                        .wait(left)
                        .unwrap_or_else(|e| e.into_inner());
                }
            }
            let mut best = main;
            for r in lock(&sh.results).iter().flatten() {
                let better = match &best {
                    None => true,
                    Some(b) => {
                        !r.pv.is_empty()
                            && (r.depth > b.depth || (r.depth == b.depth && r.score > b.score))
                    }
                };
                if better {
                    best = Some(r.clone());
                }
            }
            if let Some((m, v)) = by_tables {
                on_report(&Report {
                    depth: 1,
                    seldepth: 1,
                    mean_depth: 1.0,
                    score: endgames::score(v, 0),
                    nodes: 0,
                    time: sh.elapsed(),
                    pv: vec![m],
                });
            }
            let finished = match by_tables {
                Some((m, v)) => Finished {
                    best: Some(m),
                    ponder: None,
                    score: endgames::score(v, 0),
                    depth: 1,
                    nodes: 0,
                    time: sh.elapsed(),
                    pv: vec![m],
                },
                None => finish(&sh, best),
            };
            on_done(finished);
        });
        Ok(())
    }

    /// Runs a search to the end on the pool and returns its result.
    pub fn search(
        &mut self,
        job: Job<P>,
        on_report: impl FnMut(&Report<P>) + Send + 'static,
    ) -> Finished<P> {
        // `&mut self` means no other caller can start a search in between.
        self.stop_and_wait();
        let (tx, rx) = crossbeam_channel::bounded(1);
        let started = self.go(job, on_report, move |f| {
            let _ = tx.send(f);
        });
        debug_assert!(started.is_ok(), "the searcher was idle");
        let f = rx.recv();
        self.wait();
        f.unwrap_or_else(|_| Finished {
            best: None,
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time: 0.0,
            pv: Vec::new(),
        })
    }
}

impl<P: Evaluate> Drop for Searcher<P> {
    fn drop(&mut self) {
        self.stop_and_wait();
    }
}

/// Builds the result: the chosen thread's move, or a fallback legal move (hash move first)
/// if no iteration completed.
fn finish<P: Evaluate>(sh: &Shared<P>, best: Option<ThreadResult<P>>) -> Finished<P> {
    let root = &sh.job.root;
    let legal = root.legal_moves();
    let nodes = sh.total_nodes();
    let time = sh.elapsed();
    let (best_move, score, depth, pv) = match best {
        Some(r) if !r.pv.is_empty() && legal.contains(&r.pv[0]) => {
            (Some(r.pv[0]), r.score, r.depth, r.pv)
        }
        _ => {
            let hinted = sh
                .tt
                .probe(root.key(), 0)
                .and_then(|e| legal.iter().copied().find(|m| m.hint() == e.hint));
            let m = hinted.or_else(|| legal.first().copied());
            (m, 0, 0, m.into_iter().collect())
        }
    };
    let ponder = best_move.and_then(|m| {
        let next = root.play(&m);
        let replies = next.legal_moves();
        if pv.len() >= 2 && replies.contains(&pv[1]) {
            Some(pv[1])
        } else {
            sh.tt
                .probe(next.key(), 1)
                .and_then(|e| replies.iter().copied().find(|r| r.hint() == e.hint))
        }
    });
    Finished {
        best: best_move,
        ponder,
        score,
        depth,
        nodes,
        time,
        pv,
    }
}
