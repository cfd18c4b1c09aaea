//! Search: iterative deepening PVS with capture resolution, transposition table, time
//! management and Lazy SMP threads. Generic over the game; never names one.
//!
//! - [`Searcher`] owns the search threads ([`pool::ThreadPool`], created once), the shared
//!   transposition table ([`tt::TransTable`]) and each thread's tables (killers, history). It
//!   starts searches ([`Searcher::go`], non-blocking, results through callbacks) and answers
//!   `stop` and `ponder_hit`.
//! - Lazy SMP: every thread runs the same iterative deepening on the same root, sharing only the
//!   transposition table; helpers skip some depths so that they run ahead of the main thread
//!   and fill the table with results it will need. The main thread decides when to stop, and
//!   the deepest result wins.
//! - Every tunable constant lives in [`params`].

pub mod params;
pub mod pool;
pub mod time;
pub mod tt;

use crate::core::movelist::MAX_MOVES;
use crate::core::{loss_in, win_in, MoveList, Score, DRAW, INFINITE, WIN};
use crate::eval::Evaluate;
use crate::variant::{GameMove, Outcome, Position};
use params::*;
use pool::ThreadPool;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use time::{Stability, TimePlan};
use tt::{Bound, TransTable};

/// What stops a search (besides `stop`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchLimits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Node budget, summed over threads (exact with one thread).
    pub nodes: Option<u64>,
    /// Time plan (see [`TimePlan`]); measured from the start, or for the hard limit of a
    /// pondering search, from the ponder hit.
    pub time: TimePlan,
    /// Do not finish before `stop` (analysis without limit, `infinite`).
    pub infinite: bool,
    /// Analysis: search even a single legal move, do not stop early on a proven result.
    pub analyze: bool,
    /// Pondering: no clock until [`Searcher::ponder_hit`], never finish before it or `stop`.
    pub ponder: bool,
}

/// One search to run: the root, its history and the limits.
#[derive(Clone, Debug)]
pub struct Job<P: Position> {
    /// The position to search.
    pub root: P,
    /// The draw-rule counters at the root.
    pub root_state: P::RuleState,
    /// Keys of the positions before the root, oldest first, back to (and including) the
    /// position after the last irreversible move: the positions the root may repeat.
    pub history: Vec<u64>,
    /// Limits.
    pub limits: SearchLimits,
}

impl<P: Position> Job<P> {
    /// A job for a position without history.
    pub fn new(root: P, limits: SearchLimits) -> Job<P> {
        Job {
            root,
            root_state: root.rule_state_new(),
            history: Vec::new(),
            limits,
        }
    }
}

/// Progress after a completed iteration.
#[derive(Clone, Debug)]
pub struct Report<P: Position> {
    /// Completed depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Mean ply of the evaluated leaves.
    pub mean_depth: f64,
    /// Score for the side to move.
    pub score: Score,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Seconds since the start.
    pub time: f64,
    /// Principal variation.
    pub pv: Vec<P::Move>,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Finished<P: Position> {
    /// Best move (`None` only without legal moves).
    pub best: Option<P::Move>,
    /// Expected reply.
    pub ponder: Option<P::Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Completed depth.
    pub depth: u32,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Seconds.
    pub time: f64,
    /// Principal variation of the chosen thread.
    pub pv: Vec<P::Move>,
}

/// Flags shared by the searcher and its threads for the whole life of the searcher.
#[derive(Default)]
pub struct Control {
    stop: AtomicBool,
    pondering: AtomicBool,
    /// Nanoseconds from the start of the search to the ponder hit; 0 = not hit.
    ponder_hit_ns: AtomicU64,
    busy: Mutex<bool>,
    idle: Condvar,
    start: Mutex<Option<Instant>>,
}

impl Control {
    fn begin(&self, ponder: bool) {
        self.stop.store(false, Ordering::SeqCst);
        self.pondering.store(ponder, Ordering::SeqCst);
        self.ponder_hit_ns.store(0, Ordering::SeqCst);
        *self.busy.lock().unwrap_or_else(|e| e.into_inner()) = true;
    }

    fn set_start(&self, t: Instant) {
        *lock(&self.start) = Some(t);
    }

    /// Records a ponder hit: the clock of the running search starts now.
    fn ponder_hit(&self) {
        if self.pondering.load(Ordering::SeqCst) {
            let since = lock(&self.start).map_or(Duration::ZERO, |s| s.elapsed());
            self.ponder_hit_ns
                .store((since.as_nanos() as u64).max(1), Ordering::SeqCst);
            self.pondering.store(false, Ordering::SeqCst);
        }
    }

    fn finish(&self) {
        *self.busy.lock().unwrap_or_else(|e| e.into_inner()) = false;
        self.idle.notify_all();
    }

    /// Whether a search is running.
    pub fn is_busy(&self) -> bool {
        *self.busy.lock().unwrap_or_else(|e| e.into_inner())
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
struct Shared<P: Position> {
    job: Job<P>,
    start: Instant,
    tt: Arc<TransTable>,
    control: Arc<Control>,
    nodes: Vec<AtomicU64>,
    root_moves: usize,
    helpers_left: Mutex<usize>,
    helpers_done: Condvar,
    results: Mutex<Vec<Option<ThreadResult<P>>>>,
}

impl<P: Position> Shared<P> {
    fn elapsed(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }

    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }

    /// Seconds since the ponder hit, if there was one.
    fn since_ponder_hit(&self, elapsed: f64) -> Option<f64> {
        match self.control.ponder_hit_ns.load(Ordering::SeqCst) {
            0 => None,
            ns => Some(elapsed - ns as f64 * 1e-9),
        }
    }

    /// The main thread's clock check during an iteration.
    fn out_of_time(&self) -> bool {
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
struct ThreadResult<P: Position> {
    depth: u32,
    score: Score,
    pv: Vec<P::Move>,
}

/// One search thread's private state, kept between searches (history, killers) and reused.
pub struct Worker<P: Position> {
    id: usize,
    killers: Vec<[Option<P::Move>; 2]>,
    history: Vec<i32>,
    pv: Vec<P::Move>,
    pv_len: Vec<usize>,
    keys: Vec<u64>,
    rev: Vec<usize>,
    nodes: u64,
    next_check: u64,
    others: u64,
    leaf_plies: u64,
    leaves: u64,
    seldepth: usize,
    completed: u32,
    aborted: bool,
}

impl<P: Evaluate> Worker<P> {
    fn new(id: usize) -> Worker<P> {
        Worker {
            id,
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
            pv: vec![P::Move::default(); (MAX_PLY + 2) * (MAX_PLY + 2)],
            pv_len: vec![0; MAX_PLY + 2],
            keys: Vec::new(),
            rev: Vec::new(),
            nodes: 0,
            next_check: 0,
            others: 0,
            leaf_plies: 0,
            leaves: 0,
            seldepth: 0,
            completed: 0,
            aborted: false,
        }
    }

    fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    // ---- helpers ----

    #[inline]
    fn hist_index(side: usize, m: &P::Move) -> usize {
        (side << 12) | ((m.from().index()) << 6) | m.to().index()
    }

    #[inline]
    fn should_stop(&mut self, sh: &Shared<P>) -> bool {
        if self.aborted {
            return true;
        }
        if sh.control.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + TIME_CHECK_NODES;
            sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.others = sh.total_nodes() - self.nodes;
                // The first iteration always completes, so there is always a searched move.
                if self.completed > 0 && sh.out_of_time() {
                    sh.control.stop.store(true, Ordering::SeqCst);
                    self.aborted = true;
                    return true;
                }
            }
        }
        if self.id == 0 && self.completed > 0 {
            if let Some(n) = sh.job.limits.nodes {
                if self.nodes + self.others >= n && !sh.control.pondering.load(Ordering::Relaxed) {
                    sh.control.stop.store(true, Ordering::SeqCst);
                    self.aborted = true;
                    return true;
                }
            }
        }
        false
    }

    /// Whether the current node (the last key) repeats an earlier position reachable only by
    /// reversible moves.
    #[inline]
    fn is_repetition(&self) -> bool {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let back = self.rev[n];
        let mut j = n;
        while j >= 2 && n - (j - 2) <= back {
            j -= 2;
            if self.keys[j] == key {
                return true;
            }
        }
        false
    }

    #[inline]
    fn push(&mut self, key: u64, reversible: bool) {
        let r = if reversible {
            self.rev.last().copied().unwrap_or(0) + 1
        } else {
            0
        };
        self.keys.push(key);
        self.rev.push(r);
    }

    #[inline]
    fn pop(&mut self) {
        self.keys.pop();
        self.rev.pop();
    }

    #[inline]
    fn end_score(pos: &P, end: crate::variant::GameEnd, ply: usize) -> Score {
        match end.outcome {
            Outcome::Draw => DRAW,
            Outcome::Win(c) if c == pos.side_to_move() => win_in(ply),
            Outcome::Win(_) => loss_in(ply),
        }
    }

    fn update_pv(&mut self, ply: usize, m: P::Move) {
        let row = ply * (MAX_PLY + 2);
        let next = (ply + 1) * (MAX_PLY + 2);
        self.pv[row + ply] = m;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.pv[row + i] = self.pv[next + i];
        }
        self.pv_len[ply] = end;
    }

    fn root_pv(&self) -> Vec<P::Move> {
        self.pv[..self.pv_len[0]].to_vec()
    }

    // ---- the search proper ----

    /// Capture resolution: a side that must capture searches its captures (they are all its
    /// moves). A side that need not capture but faces a real capture threat (see
    /// [`real_threat`]) searches all its moves, `threats` times at most along a path, because
    /// the static evaluation cannot see the material about to be lost; unless its static
    /// value already fails low, which the threat could only confirm. Any other position is
    /// quiet and evaluated.
    #[allow(clippy::too_many_arguments)]
    fn qsearch(
        &mut self,
        sh: &Shared<P>,
        pos: &P,
        state: P::RuleState,
        mut alpha: Score,
        beta: Score,
        ply: usize,
        mut threats: u32,
    ) -> Score {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.should_stop(sh) {
            return 0;
        }
        if ply > self.seldepth {
            self.seldepth = ply;
        }
        if ply > 0 {
            if let Some(end) = pos.rule_end(&state) {
                return Self::end_score(pos, end, ply);
            }
        }
        if ply >= MAX_PLY {
            return pos.evaluate();
        }
        if !pos.has_capture() {
            let threatened = threats > 0 && real_threat(pos);
            if !threatened && pos.count_moves() == 0 {
                return loss_in(ply);
            }
            // A threat can only lower the score (barring a counter-threat, the side to move
            // keeps the static value at best): a node already failing low stays failed low.
            let stand = pos.evaluate();
            if !threatened || stand <= alpha {
                self.leaves += 1;
                self.leaf_plies += ply as u64;
                return stand;
            }
            threats -= 1;
        }
        let mut list = MoveList::new();
        pos.generate(&mut list);
        let n = list.len();
        if n == 0 {
            return loss_in(ply);
        }
        // Either all moves capture or none does (a threat node): captures by the number taken,
        // quiet answers to a threat by promotion, then history.
        let side = pos.side_to_move().index();
        let mut keys = [0i32; MAX_MOVES];
        for (i, m) in list.iter().enumerate() {
            keys[i] = if m.is_capture() {
                m.capture_count() as i32 * 4 + m.promotes() as i32
            } else if m.promotes() {
                HISTORY_MAX + 1
            } else {
                self.history[Self::hist_index(side, m)]
            };
        }
        let mut best = -INFINITE;
        for i in 0..n {
            pick(&mut list, &mut keys, i);
            let m = list[i];
            let child = pos.play(&m);
            let cs = pos.rule_state_after(state, &m, &child);
            let s = -self.qsearch(sh, &child, cs, -beta, -alpha, ply + 1, threats);
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        sh: &Shared<P>,
        pos: &P,
        state: P::RuleState,
        mut alpha: Score,
        mut beta: Score,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> Score {
        if ply > 0 && self.is_repetition() {
            self.pv_len[ply] = ply;
            return DRAW;
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(sh, pos, state, alpha, beta, ply, QS_THREAT_REPLIES);
        }
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.should_stop(sh) {
            return 0;
        }
        if ply > 0 {
            if let Some(end) = pos.rule_end(&state) {
                return Self::end_score(pos, end, ply);
            }
            // No score can beat a win sooner than this one, or a loss later.
            alpha = alpha.max(loss_in(ply));
            beta = beta.min(win_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }
        let key = pos.key();
        let tte = sh.tt.probe(key, ply);
        let mut hint = None;
        if let Some(e) = tte {
            if e.hint != 0 {
                hint = Some(e.hint);
            }
            if !pv_node
                && e.depth >= depth
                && match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => e.score >= beta,
                    Bound::Upper => e.score <= alpha,
                }
            {
                return e.score;
            }
        }

        let mut list = MoveList::new();
        pos.generate(&mut list);
        let n = list.len();
        if n == 0 {
            return loss_in(ply);
        }
        let ext = i32::from(SINGLE_REPLY_EXTENSION && n == 1);
        let new_depth = depth - 1 + ext;

        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        let mut keys = [0i32; MAX_MOVES];
        for (i, m) in list.iter().enumerate() {
            keys[i] = if hint == Some(m.hint()) {
                ORDER_HASH
            } else if m.is_capture() {
                ORDER_CAPTURE
                    + ORDER_CAPTURE_PER_PIECE * m.capture_count() as i32
                    + i32::from(m.promotes())
            } else if m.promotes() {
                ORDER_PROMOTION
            } else if killers[0] == Some(*m) {
                ORDER_KILLER
            } else if killers[1] == Some(*m) {
                ORDER_KILLER - 1
            } else {
                self.history[Self::hist_index(side, m)]
            };
        }

        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<P::Move> = None;
        let mut quiets_tried: [Option<P::Move>; 64] = [None; 64];
        let mut nq = 0;
        for i in 0..n {
            pick(&mut list, &mut keys, i);
            let m = list[i];
            let quiet = !m.is_capture() && !m.promotes();
            let child = pos.play(&m);
            sh.tt.prefetch(child.key());
            let cs = pos.rule_state_after(state, &m, &child);
            self.push(child.key(), pos.is_reversible(&m));
            let mut s;
            if i == 0 {
                s = -self.search(sh, &child, cs, -beta, -alpha, new_depth, ply + 1, pv_node);
            } else {
                let r = if quiet
                    && depth >= LMR_MIN_DEPTH
                    && i >= LMR_MIN_MOVE
                    && keys[i] < ORDER_KILLER - 1
                    && ext == 0
                {
                    1 + i32::from(i >= LMR_DEEP_MOVE && !pv_node)
                } else {
                    0
                };
                s = -self.search(
                    sh,
                    &child,
                    cs,
                    -alpha - 1,
                    -alpha,
                    new_depth - r,
                    ply + 1,
                    false,
                );
                if s > alpha && r > 0 {
                    s = -self.search(
                        sh,
                        &child,
                        cs,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        false,
                    );
                }
                if s > alpha && s < beta && pv_node {
                    s = -self.search(sh, &child, cs, -beta, -alpha, new_depth, ply + 1, true);
                }
            }
            self.pop();
            if self.aborted {
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    self.update_pv(ply, m);
                    if s >= beta {
                        if quiet {
                            self.reward(side, ply, m, depth, &quiets_tried[..nq]);
                        }
                        break;
                    }
                }
            }
            if quiet && nq < quiets_tried.len() {
                quiets_tried[nq] = Some(m);
                nq += 1;
            }
        }

        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let h = if bound == Bound::Upper {
            0
        } else {
            best_move.map_or(0, |m| m.hint())
        };
        sh.tt.store(key, h, best, depth, bound, ply);
        best
    }

    fn reward(
        &mut self,
        side: usize,
        ply: usize,
        m: P::Move,
        depth: i32,
        tried: &[Option<P::Move>],
    ) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let bonus = (depth * depth).min(400);
        let update = |h: &mut i32, b: i32| {
            *h += b - (*h as i64 * b.abs() as i64 / HISTORY_MAX as i64) as i32;
        };
        update(&mut self.history[Self::hist_index(side, &m)], bonus);
        for q in tried.iter().flatten() {
            update(&mut self.history[Self::hist_index(side, q)], -bonus);
        }
    }

    /// Iterative deepening for one thread. The main thread (id 0) reports and decides when
    /// to stop; helpers skip some depths.
    fn iterate(
        &mut self,
        sh: &Shared<P>,
        mut report: Option<&mut ReportFn<'_, P>>,
    ) -> Option<ThreadResult<P>> {
        let job = &sh.job;
        self.keys.clear();
        self.rev.clear();
        for (i, &k) in job.history.iter().enumerate() {
            self.keys.push(k);
            self.rev.push(i);
        }
        self.keys.push(job.root.key());
        self.rev.push(job.history.len());
        self.nodes = 0;
        self.next_check = 0;
        self.others = 0;
        self.leaves = 0;
        self.leaf_plies = 0;
        self.seldepth = 0;
        self.completed = 0;
        self.aborted = false;

        let max_depth = job.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut result: Option<ThreadResult<P>> = None;
        let mut stability = Stability::default();
        let mut decisive_streak = 0;
        let main = self.id == 0;
        for depth in 1..=max_depth {
            // Helpers skip some depths, but never the last one: a helper that finishes the
            // deepest iteration ends the search with its result.
            if !main && depth > 1 && depth < max_depth && skip_depth(self.id, depth) {
                continue;
            }
            let prev = result.as_ref().map(|r| r.score);
            let mut delta = ASPIRATION_DELTA;
            let (mut lo, mut hi) = match prev {
                Some(s) if depth >= ASPIRATION_MIN_DEPTH && s.abs() < WIN - 1000 => {
                    ((s - delta).max(-INFINITE), (s + delta).min(INFINITE))
                }
                _ => (-INFINITE, INFINITE),
            };
            let score = loop {
                let s = self.search(sh, &job.root, job.root_state, lo, hi, depth as i32, 0, true);
                if self.aborted {
                    break None;
                }
                if s <= lo && lo > -INFINITE {
                    hi = (lo + hi) / 2;
                    delta = delta * ASPIRATION_GROWTH_PCT / 100;
                    lo = (s - delta).max(-INFINITE);
                } else if s >= hi && hi < INFINITE {
                    delta = delta * ASPIRATION_GROWTH_PCT / 100;
                    hi = (s + delta).min(INFINITE);
                } else {
                    break Some(s);
                }
                if delta > 1000 {
                    lo = -INFINITE;
                    hi = INFINITE;
                }
            };
            let Some(score) = score else { break };
            let pv = self.root_pv();
            let changed = match (&result, pv.first()) {
                (Some(r), Some(m)) => r.pv.first() != Some(m),
                _ => false,
            };
            result = Some(ThreadResult { depth, score, pv });
            self.completed = depth;
            sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if !main {
                if depth == max_depth
                    && !job.limits.infinite
                    && !sh.control.pondering.load(Ordering::SeqCst)
                {
                    sh.control.stop.store(true, Ordering::SeqCst);
                }
                continue;
            }
            let r = result.as_ref().expect("just set");
            if let Some(cb) = report.as_deref_mut() {
                let t = sh.elapsed();
                cb(&Report {
                    depth,
                    seldepth: self.seldepth as u32,
                    mean_depth: if self.leaves > 0 {
                        self.leaf_plies as f64 / self.leaves as f64
                    } else {
                        depth as f64
                    },
                    score,
                    nodes: sh.total_nodes(),
                    time: t,
                    pv: r.pv.clone(),
                });
            }
            stability.update(changed, score);
            decisive_streak = if crate::core::is_decisive(score) && !changed {
                decisive_streak + 1
            } else {
                0
            };
            let limits = &job.limits;
            let pondering = sh.control.pondering.load(Ordering::SeqCst);
            if !limits.analyze && !limits.infinite && !pondering {
                if sh.root_moves == 1 {
                    break;
                }
                if decisive_streak >= 4 && depth as i32 > 2 * (WIN - score.abs()) + 4 {
                    break;
                }
                let t = sh.elapsed();
                let since = sh.since_ponder_hit(t).unwrap_or(t);
                let mut plan = limits.time;
                if sh.since_ponder_hit(t).is_some() {
                    // Hard limit from the hit; planned time from the start (pondering counts).
                    plan.maximum = plan.maximum.map(|m| m + (t - since));
                }
                if !stability.start_next(&plan, t) {
                    break;
                }
                if let Some(n) = limits.nodes {
                    if sh.total_nodes() >= n {
                        break;
                    }
                }
            }
        }
        sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if main {
            // A pondering or infinite search never finishes on its own: wait for the hit or
            // the stop, then end.
            loop {
                let c = &sh.control;
                if c.stop.load(Ordering::SeqCst) {
                    break;
                }
                if !sh.job.limits.infinite && !c.pondering.load(Ordering::SeqCst) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            sh.control.stop.store(true, Ordering::SeqCst);
        }
        result
    }
}

/// The main thread's progress callback.
type ReportFn<'a, P> = dyn FnMut(&Report<P>) + 'a;

/// Whether the opponent threatens to win material: it would have a capture (if it were its
/// turn) that takes two pieces or more, or after which the side to move cannot capture back.
/// A threat answered by a recapture is an exchange offer, which the evaluation may judge.
fn real_threat<P: Position>(pos: &P) -> bool {
    let opp = pos.null_move();
    if !opp.has_capture() {
        return false;
    }
    let mut list = MoveList::new();
    opp.generate(&mut list);
    list.iter()
        .any(|m| m.capture_count() >= 2 || !opp.play(m).has_capture())
}

/// Helpers skip some depths so that the threads spread over several depths at once (the
/// skip pattern of early Lazy SMP implementations).
fn skip_depth(id: usize, depth: u32) -> bool {
    const SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (id - 1) % 20;
    !((depth + PHASE[i]) / SIZE[i]).is_multiple_of(2)
}

/// Runs a closure when dropped (also while unwinding).
struct OnDrop<F: FnMut()>(F);

impl<F: FnMut()> Drop for OnDrop<F> {
    fn drop(&mut self) {
        (self.0)();
    }
}

/// Selection step: brings the best-keyed remaining move to index `i`.
#[inline]
fn pick<M: Copy>(list: &mut MoveList<M>, keys: &mut [i32; MAX_MOVES], i: usize) {
    let n = list.len();
    let mut b = i;
    for j in i + 1..n {
        if keys[j] > keys[b] {
            b = j;
        }
    }
    if b != i {
        list.as_mut_slice().swap(i, b);
        keys.swap(i, b);
    }
}

/// The searcher: search threads, transposition table and per-thread tables.
pub struct Searcher<P: Evaluate> {
    pool: ThreadPool,
    tt: Arc<TransTable>,
    control: Arc<Control>,
    workers: Arc<Vec<Mutex<Worker<P>>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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
        }
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
        let sh = Arc::new(Shared {
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
            let finished = finish(&sh, best);
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
