//! The searcher ([`Searcher`]): owns the threads, the shared table and each thread's
//! [`Worker`]; starts a search on every thread, gathers the threads' results and builds the
//! answer ([`Finished`]), with a legal move even if no iteration completed.

use super::control::{lock, Control, OnDrop, Shared, Signals, ThreadResult, ThreadTimes};
use super::params::{BREADCRUMB_PLIES, BREADCRUMB_SLOTS, HELPER_MIN_TIME};
use super::pool::{self, ThreadPool};
use super::tt::TransTable;
use super::types::{answer_without_search, Finished, Job, Report, RootLine};
use super::worker::Worker;
use crate::core::host;
use crate::egtb::endgames::{self, Endgames};
use crate::eval::{evaluator, Evaluate, Evaluator};
use crate::variant::GameMove;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The searcher: search threads, transposition table and per-thread tables.
pub struct Searcher<P: Evaluate> {
    pool: ThreadPool,
    tt: Arc<TransTable>,
    control: Arc<Control>,
    workers: Arc<Vec<Mutex<Worker<P>>>>,
    /// Resources asked for but not granted, not yet taken by [`Searcher::take_notices`].
    notices: Vec<String>,
    endgames: Option<Arc<dyn Endgames<P>>>,
    /// The evaluation the next searches use.
    eval: Evaluator,
}

impl<P: Evaluate> Searcher<P> {
    /// A searcher with `threads` threads and a `hash_mb` MiB table. Threads the system will
    /// not start and memory it will not give are not fatal: the searcher works with what it
    /// got and says so in [`Searcher::take_notices`].
    pub fn new(threads: usize, hash_mb: usize) -> Searcher<P> {
        let mut s = Searcher {
            pool: ThreadPool::new(1),
            tt: Arc::new(TransTable::new(1)),
            control: Arc::new(Control::default()),
            workers: Arc::new(Vec::new()),
            notices: Vec::new(),
            endgames: None,
            eval: Evaluator::default_for(P::VARIANT),
        };
        s.set_threads(threads);
        s.set_hash_mb(hash_mb);
        s
    }

    /// Uses endgame databases from the next search on (`None`: none).
    pub fn set_endgames(&mut self, endgames: Option<Arc<dyn Endgames<P>>>) {
        self.stop_and_wait();
        self.endgames = endgames;
    }

    /// Uses `eval` from the next search on; an evaluation of another game (a net trained for
    /// it) is refused with the reason.
    pub fn set_evaluator(&mut self, eval: Evaluator) -> Result<(), String> {
        if !evaluator::fits::<P>(&eval) {
            return Err(format!(
                "the net {} is not for this game ({})",
                eval.name(),
                eval.variant().map_or("", |v| v.name())
            ));
        }
        self.stop_and_wait();
        self.eval = eval;
        for w in self.workers.iter() {
            lock(w).eval_stack.clear();
        }
        Ok(())
    }

    /// The evaluation in use.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// Number of threads searching (the calling thread counts as one if no search thread
    /// could be started at all).
    pub fn threads(&self) -> usize {
        self.pool.len().max(1)
    }

    /// Table size in MiB.
    pub fn hash_mb(&self) -> usize {
        self.tt.size_mb()
    }

    /// Changes the number of threads (stops a running search first) and returns the number
    /// now running, which is smaller than `n` if the system refused to start some (a notice
    /// says so).
    pub fn set_threads(&mut self, n: usize) -> usize {
        self.stop_and_wait();
        let n = n.max(1);
        if n != self.pool.len() || self.workers.is_empty() {
            let got = self.pool.resize(n);
            // Without threads one search on the caller's thread is what was asked for.
            if got < n && !(host::SINGLE_THREADED && n == 1) {
                self.notices.push(if got == 0 {
                    format!("threads: {n} asked, none could be started; searching on the caller's thread")
                } else {
                    format!("threads: {n} asked, {got} started (the system refused the others)")
                });
            }
            let count = got.max(1);
            if count != self.workers.len() {
                self.workers = Arc::new((0..count).map(|i| Mutex::new(Worker::new(i))).collect());
            }
        }
        self.threads()
    }

    /// Replaces the table by an empty one of `mb` MiB (stops a running search first) and
    /// returns the size granted: at most half the memory available
    /// ([`crate::core::host::hash_cap`]), and a size the system refuses is halved until
    /// granted; a notice says so.
    pub fn set_hash_mb(&mut self, mb: usize) -> usize {
        self.stop_and_wait();
        let (mb, capped) = crate::core::host::hash_cap(mb.max(1), crate::core::host::memory_mb());
        self.notices.extend(capped);
        // Drop the old table first so that both never take memory at once.
        self.tt = Arc::new(TransTable::new(1));
        self.tt = Arc::new(TransTable::with_threads(mb, self.threads()));
        let got = self.tt.size_mb();
        if got < mb {
            self.notices.push(format!(
                "hash: {mb} MiB asked, {got} MiB granted (no more memory)"
            ));
        }
        got
    }

    /// Messages about resources asked for but not granted (threads that could not start, a
    /// smaller table), oldest first, each once. The caller shows them to the user.
    pub fn take_notices(&mut self) -> Vec<String> {
        std::mem::take(&mut self.notices)
    }

    /// Messages of the endgame databases not yet taken (a table found damaged by a search),
    /// for front ends that hold no handle on the tables themselves (DXP).
    pub fn take_endgame_messages(&self) -> Vec<String> {
        self.endgames
            .as_ref()
            .map_or_else(Vec::new, |e| e.take_messages())
    }

    /// Forgets everything learnt: table (cleared in parallel), killers and history.
    pub fn clear(&mut self) {
        self.stop_and_wait();
        self.tt.clear(self.threads());
        for w in self.workers.iter() {
            lock(w).clear();
        }
    }

    /// Asks the running search to stop.
    pub fn stop(&self) {
        self.control.stop();
    }

    /// Ponder hit: the running ponder search goes on as a timed search.
    pub fn ponder_hit(&self) {
        self.control.ponder_hit();
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.control.is_busy()
    }

    /// Waits for the running search (if any) to finish: its result computed and handed to
    /// `on_done` (which may still be running).
    pub fn wait(&self) {
        if host::SINGLE_THREADED {
            // The search waits for the caller's thread: run it now.
            pool::run_deferred();
        }
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
    ///
    /// The main thread answers as soon as it decides to stop: it takes the best result the
    /// helpers have published so far and never waits for a helper (one descheduled on a busy
    /// machine would make it late); the helpers see the stop at their next node and finish
    /// on their own, before their next search starts.
    pub fn go(
        &mut self,
        job: Job<P>,
        mut on_report: impl FnMut(&Report<P>) + Send + 'static,
        on_done: impl FnOnce(Finished<P>) + Send + 'static,
    ) -> Result<(), Job<P>> {
        if self.control.is_busy() {
            return Err(job);
        }
        let threads = self.workers.len();
        let signals = Arc::new(Signals::new(job.limits.ponder));
        self.control.begin(signals.clone());
        self.tt.new_search();
        let root_moves = job.allowed_root_moves().len();
        let by_tables = self.table_move(&job);
        let root_moves = if by_tables.is_some() { 0 } else { root_moves };
        let (published_tx, published) = crossbeam_channel::unbounded();
        let sh = Arc::new(Shared {
            endgames: self.endgames.clone(),
            eval: self.eval.clone(),
            tt: self.tt.clone(),
            signals,
            nodes: (0..threads).map(|_| AtomicU64::new(0)).collect(),
            root_moves,
            results: published_tx,
            job,
            crumbs: if threads > 1 && BREADCRUMB_PLIES > 0 {
                (0..BREADCRUMB_SLOTS).map(|_| AtomicU64::new(0)).collect()
            } else {
                Vec::new()
            },
        });
        // A search that must answer within a few milliseconds is left to the main thread: a
        // helper could not finish an iteration in that time, and would only compete with it
        // for a core.
        let limits = &sh.job.limits;
        let hurried = !limits.ponder
            && !limits.infinite
            && limits.time.maximum.is_some_and(|m| m < HELPER_MIN_TIME);
        // On an oversubscribed machine helpers only take CPU time from the main thread (with
        // the scheduler's per-session fair share, from the same share): they sit out.
        let helpers = if hurried || self.control.starved() {
            0
        } else {
            threads - 1
        };
        for i in 1..=helpers {
            let sh = sh.clone();
            let workers = self.workers.clone();
            self.pool.run_on(i, move || {
                if root_moves > 0 && !sh.signals.stop.load(Ordering::SeqCst) {
                    lock(&workers[i]).iterate(&sh, None);
                }
            });
        }
        let workers = self.workers.clone();
        let control = self.control.clone();
        self.pool.run_on(0, move || {
            // Marks the search finished even if a callback panics, so `wait` never hangs; but
            // only once, since a new search may have begun by then.
            let answered = Cell::new(false);
            let _finish = OnDrop(|| {
                if !answered.get() {
                    control.finish();
                }
            });
            let before = ThreadTimes::now();
            let main = if root_moves == 0 {
                None
            } else {
                let mut w = lock(&workers[0]);
                w.iterate(&sh, Some(&mut on_report))
            };
            control.record_main_thread(before, ThreadTimes::now());
            sh.signals.stop.store(true, Ordering::SeqCst);
            let mut best = main;
            for r in published.try_iter() {
                let better = match &best {
                    None => true,
                    Some(b) => {
                        !r.pv.is_empty()
                            && (r.depth > b.depth || (r.depth == b.depth && r.score > b.score))
                    }
                };
                if better {
                    best = Some(r);
                }
            }
            let finished = match by_tables {
                Some((m, v)) => {
                    let line = RootLine {
                        score: endgames::score(v, 0),
                        pv: vec![m],
                    };
                    answer_without_search(line, 1, sh.elapsed(), false, &mut on_report)
                }
                None => finish(&sh, best),
            };
            // Free before answering: whoever gets the answer may start the next search at
            // once, without waiting for this thread to be scheduled again (on a busy machine
            // that wait was the longest part of an answer at a zero clock).
            control.finish();
            answered.set(true);
            on_done(finished);
        });
        Ok(())
    }

    /// A root the databases decide as a win or a loss is played from them at once (the
    /// fastest safe conversion), unless the caller asked to analyse or ponder, or for several
    /// lines or some root moves only: the move and its database value.
    fn table_move(&self, job: &Job<P>) -> Option<(P::Move, crate::egtb::Value)> {
        let lim = job.limits;
        let free = lim.lines() == 1 && job.root_moves.is_empty();
        match &self.endgames {
            Some(eg) if free && !(lim.analyze || lim.infinite || lim.ponder) => {
                endgames::root_move(eg.as_ref(), &job.root, &job.root_state)
            }
            _ => None,
        }
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
        if host::SINGLE_THREADED {
            pool::run_deferred();
        }
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
            lines: Vec::new(),
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
    let legal = sh.job.allowed_root_moves();
    let nodes = sh.total_nodes();
    let time = sh.elapsed();
    let (best_move, score, depth, pv, lines) = match best {
        Some(r) if !r.pv.is_empty() && legal.contains(&r.pv[0]) => {
            (Some(r.pv[0]), r.score, r.depth, r.pv, r.lines)
        }
        _ => {
            let hinted = sh
                .tt
                .probe(root.key(), 0)
                .and_then(|e| legal.iter().copied().find(|m| m.hint() == e.hint));
            // Else the first move in capture-resolution order: most pieces taken, promotion.
            let first = legal
                .iter()
                .copied()
                .rev()
                .max_by_key(|m| (m.capture_count(), m.promotes()));
            let m = hinted.or(first);
            (m, 0, 0, m.into_iter().collect(), Vec::new())
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
        lines,
    }
}
