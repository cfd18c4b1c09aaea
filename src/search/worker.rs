//! One search thread's private state ([`Worker`]): killers and history kept from search to
//! search, the principal-variation table, the keys of the path (for repetitions), and the
//! counters of the running search, reset in one place ([`Worker::reset`]).

use super::control::Shared;
use super::params::*;
use super::types::Job;
use crate::core::{host, loss_in, win_in, Score, DRAW};
use crate::eval::{EvalStack, Evaluate};
use crate::variant::{GameEnd, Outcome, Position};
use std::sync::atomic::Ordering;

/// One search thread's private state, kept between searches (history, killers) and reused.
pub struct Worker<P: Position> {
    /// Thread index; 0 is the main thread.
    pub(super) id: usize,
    /// Two killer moves per ply.
    pub(super) killers: Vec<[Option<P::Move>; 2]>,
    /// History of quiet moves by side, from-square and to-square.
    pub(super) history: Vec<i32>,
    /// Triangular principal-variation table, one row per ply.
    pub(super) pv: Vec<P::Move>,
    /// Length of each row of `pv`.
    pub(super) pv_len: Vec<usize>,
    /// Keys of the game history and of the path to the current node.
    pub(super) keys: Vec<u64>,
    /// For each key, how many reversible moves led to it.
    pub(super) rev: Vec<usize>,
    /// Nodes searched by this thread in this search.
    pub(super) nodes: u64,
    /// Node count at which the stop conditions are checked next.
    pub(super) next_check: u64,
    /// Node count at which the host gets its next turn ([`Worker::pause_if_due`]).
    next_pause: u64,
    /// Nodes of the other threads, as last read (main thread only).
    pub(super) others: u64,
    /// Sum of the plies of the evaluated leaves (for the mean depth).
    pub(super) leaf_plies: u64,
    /// Evaluated leaves.
    pub(super) leaves: u64,
    /// Deepest ply reached.
    pub(super) seldepth: usize,
    /// Last completed iteration.
    pub(super) completed: u32,
    /// Score of the best root move of the running iteration so far (valid when `pv_len[0]`
    /// is not zero): the answer if the first iteration is cut short.
    pub(super) root_score: Score,
    /// Capture-resolution nodes left below the current horizon node (see
    /// [`QS_NODE_BUDGET`]).
    pub(super) qs_budget: u32,
    /// Whether the running search was told to stop (the scores it returns are void).
    pub(super) aborted: bool,
    /// Whether some root moves are left out of the running iteration (`root_skip`): a
    /// restricted root, or the second and later lines of a multi-PV search.
    pub(super) root_filter: bool,
    /// The evaluation's sums kept from node to node (the learned evaluation's accumulator),
    /// this thread's own.
    pub(super) eval_stack: EvalStack,
    /// The root moves left out: those outside the job's [`Job::root_moves`] ...
    pub(super) root_outside: Vec<P::Move>,
    /// ... and those plus the first moves of the lines already searched in this iteration.
    pub(super) root_skip: Vec<P::Move>,
    /// Per ply, the table move a singular-extension probe of that node leaves out (its
    /// hint; 0 for none).
    pub(super) excluded: Vec<u32>,
    /// Late-move reductions by depth and move index ([`reduction_table`]).
    pub(super) lmr: Box<[[u8; 64]; 64]>,
}

impl<P: Evaluate> Worker<P> {
    pub(super) fn new(id: usize) -> Worker<P> {
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
            next_pause: 0,
            others: 0,
            leaf_plies: 0,
            leaves: 0,
            seldepth: 0,
            completed: 0,
            root_score: 0,
            qs_budget: QS_NODE_BUDGET,
            aborted: false,
            root_filter: false,
            eval_stack: EvalStack::new(MAX_PLY + 2),
            root_outside: Vec::new(),
            root_skip: Vec::new(),
            excluded: vec![0; MAX_PLY + 2],
            lmr: reduction_table(),
        }
    }

    /// Forgets what was learnt (killers and history) and what the evaluation kept.
    pub(super) fn clear(&mut self) {
        self.eval_stack.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Prepares for a new search of `job`: the path starts with the game history and the
    /// root, and every per-search counter starts from zero. Killers and history are kept.
    pub(super) fn reset(&mut self, job: &Job<P>) {
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
        self.next_pause = 0;
        self.others = 0;
        self.leaves = 0;
        self.leaf_plies = 0;
        self.seldepth = 0;
        self.completed = 0;
        self.root_score = 0;
        self.pv_len[0] = 0;
        self.aborted = false;
        self.root_outside.clear();
        if !job.root_moves.is_empty() {
            let allowed = job.allowed_root_moves();
            let legal = job.root.legal_moves();
            let outside = legal.iter().filter(|m| !allowed.contains(m));
            self.root_outside.extend(outside.copied());
        }
        self.set_root_lines_done(&[]);
    }

    /// The root moves of the running iteration are those of the job less the first moves of
    /// `done`, the lines already searched in it.
    pub(super) fn set_root_lines_done(&mut self, done: &[super::RootLine<P::Move>]) {
        self.root_skip.clear();
        self.root_skip.extend_from_slice(&self.root_outside);
        self.root_skip
            .extend(done.iter().filter_map(|l| l.pv.first().copied()));
        self.root_filter = !self.root_skip.is_empty();
    }

    /// Whether the root move `m` is left out of the running iteration.
    #[inline]
    pub(super) fn skips_root_move(&self, m: &P::Move) -> bool {
        self.root_filter && self.root_skip.contains(m)
    }

    /// Whether the search must stop now: told to, or (main thread, checked every
    /// [`TIME_CHECK_NODES`] nodes) out of time, or (after the first iteration) out of nodes.
    #[inline]
    pub(super) fn should_stop(&mut self, sh: &Shared<P>) -> bool {
        if self.aborted {
            return true;
        }
        if sh.signals.stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + TIME_CHECK_NODES;
            sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.others = sh.total_nodes() - self.nodes;
                // Even the first iteration is cut short: a legal move is always at hand (the
                // best root move searched so far, the hash move or the first ordered move).
                if sh.out_of_time() {
                    sh.signals.stop.store(true, Ordering::SeqCst);
                    self.aborted = true;
                    return true;
                }
            }
        }
        if self.id == 0 && self.completed > 0 {
            if let Some(n) = sh.job.limits.nodes {
                if self.nodes + self.others >= n && !sh.signals.pondering.load(Ordering::Relaxed) {
                    sh.signals.stop.store(true, Ordering::SeqCst);
                    self.aborted = true;
                    return true;
                }
            }
        }
        false
    }

    /// Without threads (WebAssembly) the host gets a turn every [`PAUSE_NODES`] nodes of the
    /// main search, or a `stop` sent during the search could never arrive; whether the search
    /// must stop now. Not in capture resolution: the host pauses the search by unwinding
    /// every function that can reach [`host::pause`], and the fewer and colder those are,
    /// the less the rest costs. Compiled out natively.
    #[inline]
    pub(super) fn pause_if_due(&mut self, sh: &Shared<P>) -> bool {
        host::SINGLE_THREADED && self.nodes >= self.next_pause && self.pause(sh)
    }

    #[inline(never)]
    fn pause(&mut self, sh: &Shared<P>) -> bool {
        self.next_pause = self.nodes + PAUSE_NODES;
        host::pause();
        if sh.signals.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether the current node (the last key) repeats an earlier position reachable only by
    /// reversible moves.
    #[inline]
    pub(super) fn is_repetition(&self) -> bool {
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

    /// Enters a child node.
    #[inline]
    pub(super) fn push(&mut self, key: u64, reversible: bool) {
        let r = if reversible {
            self.rev.last().copied().unwrap_or(0) + 1
        } else {
            0
        };
        self.keys.push(key);
        self.rev.push(r);
    }

    /// Leaves a child node.
    #[inline]
    pub(super) fn pop(&mut self) {
        self.keys.pop();
        self.rev.pop();
    }

    /// The static evaluation of `pos`, at `ply` of the search (through this thread's
    /// [`EvalStack`]).
    #[inline]
    pub(super) fn evaluate(&mut self, sh: &Shared<P>, pos: &P, ply: usize) -> Score {
        pos.evaluate_at(&sh.eval, &mut self.eval_stack, ply)
    }

    /// The score of a game ended by a rule, for the side to move at `ply`.
    #[inline]
    pub(super) fn end_score(pos: &P, end: GameEnd, ply: usize) -> Score {
        match end.outcome {
            Outcome::Draw => DRAW,
            Outcome::Win(c) if c == pos.side_to_move() => win_in(ply),
            Outcome::Win(_) => loss_in(ply),
        }
    }

    /// `m` followed by the child's variation becomes the variation at `ply`.
    pub(super) fn update_pv(&mut self, ply: usize, m: P::Move) {
        let row = ply * (MAX_PLY + 2);
        let next = (ply + 1) * (MAX_PLY + 2);
        self.pv[row + ply] = m;
        let end = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..end {
            self.pv[row + i] = self.pv[next + i];
        }
        self.pv_len[ply] = end;
    }

    /// `m` is the best move so far at `ply`, with score `s`: the variation, and at the root
    /// the score of the answer if the iteration is cut short.
    #[inline]
    pub(super) fn new_best(&mut self, ply: usize, m: P::Move, s: Score) {
        self.update_pv(ply, m);
        if ply == 0 {
            self.root_score = s;
        }
    }

    /// The principal variation from the root.
    pub(super) fn root_pv(&self) -> Vec<P::Move> {
        self.pv[..self.pv_len[0]].to_vec()
    }
}

/// Late-move reductions by remaining depth and move index, both capped at 63
/// ([`LMR_DIVISOR`]): built once per search thread ([`Worker::new`]), so the hot path reads
/// a plain array.
pub(super) fn reduction_table() -> Box<[[u8; 64]; 64]> {
    let mut t = Box::new([[0u8; 64]; 64]);
    for (depth, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((depth as f64).ln() * (i as f64).ln() / LMR_DIVISOR) as u8;
        }
    }
    t
}
