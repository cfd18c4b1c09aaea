//! Iterative deepening for one thread ([`Worker::iterate`]): aspiration windows around the
//! previous score, the main thread's reports and its decision to stop, the helpers' skipped
//! depths (Lazy SMP).

use super::alphabeta::Node;
use super::control::{Shared, ThreadResult};
use super::params::*;
use super::time::Stability;
use super::types::{Report, RootLine};
use super::worker::Worker;
use crate::core::host;
use crate::core::{is_decisive, Score, INFINITE, WIN};
use crate::eval::Evaluate;
use crate::variant::Position;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// The main thread's progress callback.
pub(super) type ReportFn<'a, P> = dyn FnMut(&Report<P>) + 'a;

/// What the main thread remembers of the completed iterations to decide whether to start
/// another.
#[derive(Default)]
struct Progress {
    /// Best-move changes and score drops (the time plan's scale).
    stability: Stability,
    /// Completed iterations in a row with the same best move and a decisive score.
    decisive_streak: u32,
}

impl<P: Evaluate> Worker<P> {
    /// Iterative deepening for one thread. The main thread (id 0) reports and decides when
    /// to stop; helpers skip some depths.
    pub(super) fn iterate(
        &mut self,
        sh: &Shared<P>,
        mut report: Option<&mut ReportFn<'_, P>>,
    ) -> Option<ThreadResult<P>> {
        let job = &sh.job;
        self.reset(job);
        let max_depth = job.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result: Option<ThreadResult<P>> = None;
        let mut progress = Progress::default();
        // The lines of the running iteration completed so far.
        let mut partial = Vec::new();
        let main = self.id == 0;
        for depth in 1..=max_depth {
            // Helpers skip some depths, but never the last one: a helper that finishes the
            // deepest iteration ends the search with its result.
            if !main && depth > 1 && depth < max_depth && skip_depth(self.id, depth) {
                continue;
            }
            let prev = result.as_ref().map_or(&[][..], |r| &r.lines[..]);
            let Some(lines) = self.lines(sh, depth, prev, &mut partial) else {
                break;
            };
            let (score, pv) = (lines[0].score, lines[0].pv.clone());
            let changed = match (&result, pv.first()) {
                (Some(r), Some(m)) => r.pv.first() != Some(m),
                _ => false,
            };
            result = Some(ThreadResult {
                depth,
                score,
                pv,
                lines,
            });
            self.completed = depth;
            sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if !main {
                // Published at once: the main thread answers with what is there when it
                // stops, without waiting for this thread.
                if let Some(r) = &result {
                    let _ = sh.results.send(r.clone());
                }
                if depth == max_depth
                    && !job.limits.infinite
                    && !sh.signals.pondering.load(Ordering::SeqCst)
                {
                    sh.signals.stop.store(true, Ordering::SeqCst);
                }
                continue;
            }
            if let (Some(cb), Some(r)) = (report.as_deref_mut(), &result) {
                let ranked = job.limits.lines() > 1;
                for (k, line) in r.lines.iter().enumerate() {
                    let rank = ranked.then_some(k as u32 + 1);
                    cb(&self.report(sh, depth, rank, line));
                }
            }
            progress.stability.update(changed, score);
            progress.decisive_streak = if is_decisive(score) && !changed {
                progress.decisive_streak + 1
            } else {
                0
            };
            if self.enough(sh, depth, score, &progress) {
                break;
            }
        }
        sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if main {
            hold_until_released(sh);
            if result.is_none() {
                // The first iteration was cut short: its best line if one was completed, else
                // the best root move searched so far.
                let line = partial.into_iter().next().or_else(|| {
                    (self.pv_len[0] > 0).then(|| RootLine {
                        score: self.root_score,
                        pv: self.root_pv(),
                    })
                });
                result = line.map(|l| ThreadResult {
                    depth: 0,
                    score: l.score,
                    pv: l.pv.clone(),
                    lines: vec![l],
                });
            }
        }
        result
    }

    /// One iteration to `depth`: the best line, then (multi-PV) the best line among the
    /// root moves the earlier lines did not start with, and so on; sorted best first (stable,
    /// so equal scores keep the order they were found in). `prev` are the previous
    /// iteration's lines, whose scores centre the aspiration windows; `partial` collects
    /// the lines as they complete. `None` if the search was stopped.
    fn lines(
        &mut self,
        sh: &Shared<P>,
        depth: u32,
        prev: &[RootLine<P::Move>],
        partial: &mut Vec<RootLine<P::Move>>,
    ) -> Option<Vec<RootLine<P::Move>>> {
        let wanted = sh.job.limits.lines().min(sh.root_moves.max(1));
        partial.clear();
        for k in 0..wanted {
            self.set_root_lines_done(partial);
            let score = self.aspiration(sh, depth, prev.get(k).map(|l| l.score))?;
            let pv = self.root_pv();
            if pv.is_empty() && k > 0 {
                break;
            }
            partial.push(RootLine { score, pv });
        }
        self.set_root_lines_done(&[]);
        let mut lines = std::mem::take(partial);
        lines.sort_by_key(|l| std::cmp::Reverse(l.score));
        (!lines.is_empty()).then_some(lines)
    }

    /// One iteration to `depth` from the root, with an aspiration window around the previous
    /// score that widens after each fail; `None` if the search was stopped.
    fn aspiration(&mut self, sh: &Shared<P>, depth: u32, prev: Option<Score>) -> Option<Score> {
        let job = &sh.job;
        let mut delta = ASPIRATION_DELTA;
        let (mut lo, mut hi) = match prev {
            Some(s) if depth >= ASPIRATION_MIN_DEPTH && s.abs() < WIN - 1000 => {
                ((s - delta).max(-INFINITE), (s + delta).min(INFINITE))
            }
            _ => (-INFINITE, INFINITE),
        };
        loop {
            let root = Node::root(&job.root, job.root_state, lo, hi, depth as i32);
            let s = self.search(sh, root);
            if self.aborted {
                return None;
            }
            if s <= lo && lo > -INFINITE {
                hi = (lo + hi) / 2;
                delta = delta * ASPIRATION_GROWTH_PCT / 100;
                lo = (s - delta).max(-INFINITE);
            } else if s >= hi && hi < INFINITE {
                delta = delta * ASPIRATION_GROWTH_PCT / 100;
                hi = (s + delta).min(INFINITE);
            } else {
                return Some(s);
            }
            if delta > 1000 {
                lo = -INFINITE;
                hi = INFINITE;
            }
        }
    }

    /// The main thread's report of a completed iteration.
    fn report(
        &self,
        sh: &Shared<P>,
        depth: u32,
        rank: Option<u32>,
        line: &RootLine<P::Move>,
    ) -> Report<P> {
        Report {
            rank,
            depth,
            seldepth: self.seldepth as u32,
            mean_depth: if self.leaves > 0 {
                self.leaf_plies as f64 / self.leaves as f64
            } else {
                depth as f64
            },
            score: line.score,
            nodes: sh.total_nodes(),
            time: sh.elapsed(),
            pv: line.pv.clone(),
            book: false,
        }
    }

    /// The main thread's decision after an iteration: whether to stop here (a single legal
    /// move, a proven result, the planned time used, the node budget spent). Never while
    /// analysing, pondering or searching without limit.
    fn enough(&self, sh: &Shared<P>, depth: u32, score: Score, progress: &Progress) -> bool {
        let limits = &sh.job.limits;
        let pondering = sh.signals.pondering.load(Ordering::SeqCst);
        if limits.analyze || limits.infinite || pondering {
            return false;
        }
        if sh.root_moves == 1 {
            return true;
        }
        if progress.decisive_streak >= 4 && depth as i32 > 2 * (WIN - score.abs()) + 4 {
            return true;
        }
        let t = sh.elapsed();
        let since = sh.since_ponder_hit(t).unwrap_or(t);
        let mut plan = limits.time;
        if sh.since_ponder_hit(t).is_some() {
            // Hard limit from the hit; planned time from the start (pondering counts).
            plan.maximum = plan.maximum.map(|m| m + (t - since));
        }
        if !progress.stability.start_next(&plan, t) {
            return true;
        }
        limits.nodes.is_some_and(|n| sh.total_nodes() >= n)
    }
}

/// A pondering or infinite search never finishes on its own: the main thread waits for the
/// hit or the stop, then tells every thread to end.
fn hold_until_released<P: Position>(sh: &Shared<P>) {
    loop {
        let c = &sh.signals;
        if c.stop.load(Ordering::SeqCst) {
            break;
        }
        if !sh.job.limits.infinite && !c.pondering.load(Ordering::SeqCst) {
            break;
        }
        if host::SINGLE_THREADED {
            // No other thread can set the flags: the host must run to deliver them.
            host::pause();
        } else {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    sh.signals.stop.store(true, Ordering::SeqCst);
}

/// Helpers skip some depths so that the threads spread over several depths at once (the
/// skip pattern of early Lazy SMP implementations).
fn skip_depth(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (id - 1) % 20;
    !((depth + PHASE[i]) / SIZE[i]).is_multiple_of(2)
}
