//! The search proper: principal-variation search with late-move reductions and the
//! transposition table ([`Worker::search`]), and capture resolution at its leaves
//! ([`Worker::qsearch`]). A node's position, window and place in the tree travel together
//! in a [`Node`].

use super::control::Shared;
use super::crumbs::leave_crumb;
use super::ordering::{below_killers, pick, Keys};
use super::params::*;
use super::tt::{Bound, TtEntry};
use super::worker::Worker;
use crate::core::{is_decisive, loss_in, win_in, MoveList, Score, DRAW, INFINITE};
use crate::egtb::{endgames, pieces_on_board};
use crate::eval::Evaluate;
use crate::variant::{GameMove, Position};

/// One node to search: the position with its draw-rule counters, the window, the remaining
/// depth, the distance from the root and whether it is on the principal variation.
#[derive(Clone, Copy)]
pub(super) struct Node<'a, P: Position> {
    /// The position.
    pub(super) pos: &'a P,
    /// Its draw-rule counters.
    pub(super) state: P::RuleState,
    /// Lower bound of the window.
    pub(super) alpha: Score,
    /// Upper bound of the window.
    pub(super) beta: Score,
    /// Remaining depth (at or below zero: capture resolution).
    pub(super) depth: i32,
    /// Plies from the root.
    pub(super) ply: usize,
    /// On the principal variation (searched with an open window).
    pub(super) pv: bool,
}

impl<'a, P: Position> Node<'a, P> {
    /// The root of a search of `depth` in the window `alpha..beta`.
    pub(super) fn root(
        pos: &'a P,
        state: P::RuleState,
        alpha: Score,
        beta: Score,
        depth: i32,
    ) -> Self {
        Node {
            pos,
            state,
            alpha,
            beta,
            depth,
            ply: 0,
            pv: true,
        }
    }

    /// The child `pos` (with `state`) of a node whose window is now `alpha..beta`: the window
    /// seen from the other side, `depth` remaining, on the principal variation if the parent is.
    #[inline]
    fn child<'b>(
        &self,
        pos: &'b P,
        state: P::RuleState,
        alpha: Score,
        beta: Score,
        depth: i32,
    ) -> Node<'b, P> {
        Node {
            pos,
            state,
            alpha: -beta,
            beta: -alpha,
            depth,
            ply: self.ply + 1,
            pv: self.pv,
        }
    }

    /// The same node searched with a null window just below `beta` (it only tells whether
    /// the score reaches `beta`), off the principal variation, to `depth`.
    #[inline]
    fn scout(self, depth: i32) -> Self {
        Node {
            alpha: self.beta - 1,
            depth,
            pv: false,
            ..self
        }
    }
}

/// The exact score of a node the endgame databases decide, if any.
#[inline]
fn probe_endgames<P: Position>(
    sh: &Shared<P>,
    pos: &P,
    state: &P::RuleState,
    ply: usize,
) -> Option<Score> {
    let eg = sh.endgames.as_deref()?;
    if !eg.covers(pos) {
        return None;
    }
    eg.value(pos, state).map(|v| endgames::score(v, ply))
}

impl<P: Evaluate> Worker<P> {
    /// Capture resolution: a side that must capture searches its captures (they are all its
    /// moves). A side that need not capture but faces a real capture threat (see
    /// [`real_threat`]) searches all its moves, `threats` times at most along a path, because
    /// the static evaluation cannot see the material about to be lost; unless its static
    /// value already fails low, which the threat could only confirm. Any other position is
    /// quiet and evaluated. The resolution below one horizon node has a budget of
    /// [`QS_NODE_BUDGET`] nodes, past which positions are evaluated as they stand. The node's
    /// depth and principal-variation flag are not used.
    pub(super) fn qsearch(&mut self, sh: &Shared<P>, n: Node<'_, P>, mut threats: u32) -> Score {
        let Node {
            pos,
            state,
            mut alpha,
            beta,
            ply,
            ..
        } = n;
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
            if let Some(s) = probe_endgames(sh, pos, &state, ply) {
                return s;
            }
        }
        if ply >= MAX_PLY {
            return self.evaluate(sh, pos, ply);
        }
        if self.qs_budget == 0 {
            // This leaf has had its share: the position is judged as it stands.
            self.leaves += 1;
            self.leaf_plies += ply as u64;
            return self.evaluate(sh, pos, ply);
        }
        self.qs_budget -= 1;
        if !pos.has_capture() {
            let threatened = threats > 0 && real_threat(pos);
            if !threatened && pos.count_moves() == 0 {
                return loss_in(ply);
            }
            // A threat can only lower the score (barring a counter-threat, the side to move
            // keeps the static value at best): a node already failing low stays failed low.
            let stand = self.evaluate(sh, pos, ply);
            if !threatened || stand <= alpha {
                self.leaves += 1;
                self.leaf_plies += ply as u64;
                return stand;
            }
            threats -= 1;
        }
        let mut list = MoveList::new();
        pos.generate(&mut list);
        let count = list.len();
        if count == 0 {
            return loss_in(ply);
        }
        let mut keys = Keys::new();
        self.qsearch_keys(pos, &list, &mut keys);
        let mut best = -INFINITE;
        for i in 0..count {
            pick(&mut list, &mut keys, i);
            let m = list[i];
            let child = pos.play(&m);
            self.eval_stack.prefetch(child.key());
            let cs = pos.rule_state_after(state, &m, &child);
            let s = -self.qsearch(sh, n.child(&child, cs, alpha, beta, 0), threats);
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

    /// What decides node `n` before its moves are generated: a repetition, the horizon
    /// (capture resolution takes over), a stop, a draw rule, the endgame databases, or a
    /// window the distance to mate closes: `Err(score)`. Else the node is counted and its
    /// window, narrowed by that distance, returned. Inlined: it is the head of `search`,
    /// split off only to keep functions short.
    #[inline(always)]
    fn enter(&mut self, sh: &Shared<P>, n: Node<'_, P>) -> Result<(Score, Score), Score> {
        let Node {
            pos,
            state,
            mut alpha,
            mut beta,
            depth,
            ply,
            ..
        } = n;
        if ply > 0 && self.is_repetition() {
            self.pv_len[ply] = ply;
            return Err(DRAW);
        }
        if depth <= 0 || ply >= MAX_PLY {
            self.qs_budget = QS_NODE_BUDGET;
            return Err(self.qsearch(sh, n, QS_THREAT_REPLIES));
        }
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.should_stop(sh) || self.pause_if_due(sh) {
            return Err(0);
        }
        if ply > 0 {
            if let Some(end) = pos.rule_end(&state) {
                return Err(Self::end_score(pos, end, ply));
            }
            if let Some(s) = probe_endgames(sh, pos, &state, ply) {
                return Err(s);
            }
            // No score can beat a win sooner than this one, or a loss later.
            alpha = alpha.max(loss_in(ply));
            beta = beta.min(win_in(ply + 1));
            if alpha >= beta {
                return Err(alpha);
            }
        }
        Ok((alpha, beta))
    }

    /// Near the horizon a quiet node trusts its static value: it stands when it beats beta
    /// by a margin (RFP_MAX_DEPTH), `Err(value)`; and quiet moves after the first are not
    /// tried when it falls short of alpha by a margin (FUTILITY_MAX_DEPTH), `Ok(true)`. A
    /// threat or a capture due (`capture`) is left to the search. Node `n` in the window
    /// `alpha..beta`.
    #[inline(always)]
    fn static_cut(
        &mut self,
        sh: &Shared<P>,
        n: Node<'_, P>,
        alpha: Score,
        beta: Score,
        capture: bool,
    ) -> Result<bool, Score> {
        let (pos, depth, ply) = (n.pos, n.depth, n.ply);
        if !n.pv
            && ply > 0
            && depth <= STATIC_MAX_DEPTH
            && !is_decisive(alpha)
            && !is_decisive(beta)
            && pieces_on_board(pos) >= RFP_MIN_PIECES
            && !capture
            && !real_threat(pos)
        {
            let stand = self.evaluate(sh, pos, ply);
            if depth <= RFP_MAX_DEPTH && stand - RFP_MARGIN * depth >= beta {
                return Err(stand);
            }
            return Ok(depth <= FUTILITY_MAX_DEPTH && stand + FUTILITY_MARGIN * depth <= alpha);
        }
        Ok(false)
    }

    /// Principal-variation search of node `n`: the transposition table, then the moves in
    /// order, the first with the full window, the others with a null window (late quiet
    /// moves reduced) and searched again if they beat alpha.
    pub(super) fn search(&mut self, sh: &Shared<P>, n: Node<'_, P>) -> Score {
        let Node {
            pos,
            state,
            depth,
            ply,
            pv: pv_node,
            ..
        } = n;
        let (mut alpha, beta) = match self.enter(sh, n) {
            Ok(window) => window,
            Err(decided) => return decided,
        };
        let key = pos.key();
        let excluded = self.excluded[ply];
        let (tte, hint) = match self.probe_table(sh, n, alpha, beta) {
            Ok(found) => found,
            Err(settled) => return settled,
        };

        // No move from the table: the order of the moves is a guess, and the node is searched
        // a ply shallower (internal iterative reduction); the next visit finds a move there.
        let depth = if IIR_MIN_DEPTH > 0 && ply > 0 && hint.is_none() && depth >= IIR_MIN_DEPTH {
            depth - 1
        } else {
            depth
        };

        let mut list = MoveList::new();
        pos.generate(&mut list);
        let count = list.len();
        if count == 0 {
            return loss_in(ply);
        }
        let futile = match self.static_cut(sh, n, alpha, beta, list[0].is_capture()) {
            Ok(futile) => futile,
            Err(stand) => return stand,
        };
        let ext = i32::from(SINGLE_REPLY_EXTENSION && count == 1);
        let singular = match self.singular(sh, n, tte, depth, beta, ext) {
            Ok(m) => m,
            Err(cut) => return cut,
        };
        let crumb = leave_crumb(&sh.crumbs, key, ply, self.id);
        let new_depth = depth - 1 + ext;
        let side = pos.side_to_move().index();
        let mut keys = Keys::new();
        self.search_keys(pos, &list, hint, ply, &mut keys);

        let alpha0 = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<P::Move> = None;
        // Uninitialised storage, as `keys`.
        let mut quiets_tried: MoveList<P::Move> = MoveList::new();
        // Moves searched so far (root moves left out of a restricted root do not count).
        let mut searched = 0;
        for i in 0..count {
            pick(&mut list, &mut keys, i);
            let m = list[i];
            if (ply == 0 && self.skips_root_move(&m)) || (excluded != 0 && m.hint() == excluded) {
                continue;
            }
            let quiet = !m.is_capture() && !m.promotes();
            if futile && quiet && searched > 0 && below_killers(keys[i]) {
                continue;
            }
            let child = pos.play(&m);
            sh.tt.prefetch(child.key());
            self.eval_stack.prefetch(child.key());
            let cs = pos.rule_state_after(state, &m, &child);
            self.push(child.key(), pos.is_reversible(&m));
            let se = i32::from(singular != 0 && m.hint() == singular);
            let full = n.child(&child, cs, alpha, beta, new_depth + se);
            let r = reduction(&self.lmr, i, quiet, (depth, keys[i], ext + se), pv_node);
            let r = if r > 0 && crumb.marked { r + 1 } else { r };
            let s = self.search_child(sh, full, searched == 0, r);
            searched += 1;
            self.pop();
            if self.aborted {
                crumb.pick_up(&sh.crumbs);
                return 0;
            }
            if s > best {
                best = s;
                best_move = Some(m);
                if s > alpha {
                    alpha = s;
                    self.new_best(ply, m, s);
                    if s >= beta {
                        if quiet {
                            self.reward(side, ply, m, depth, &quiets_tried);
                        }
                        break;
                    }
                }
            }
            if quiet && quiets_tried.len() < MAX_QUIETS_TRIED {
                quiets_tried.push(m);
            }
        }

        crumb.pick_up(&sh.crumbs);
        if excluded != 0 {
            // A probe's value is not the node's; with every other move pruned it has none.
            return if searched == 0 { alpha0 } else { best };
        }
        // A root searched without some of its moves has no value of its own to keep.
        if !(ply == 0 && self.root_filter) {
            let bound = bound_of(best, alpha0, beta);
            sh.tt
                .store(key, hint_of(bound, best_move), best, depth, bound, ply);
        }
        best
    }

    /// The table's entry for node `n` in the window `alpha..beta`, and the move to try
    /// first; `Err(score)` when the entry settles the node (off the principal variation). A
    /// singular-extension probe of the node leaves the table's move out: the entry is the
    /// whole node's, neither read nor written by the probe.
    #[inline(always)]
    fn probe_table(
        &self,
        sh: &Shared<P>,
        n: Node<'_, P>,
        alpha: Score,
        beta: Score,
    ) -> Result<(Option<TtEntry>, Option<u32>), Score> {
        let excluded = self.excluded[n.ply];
        if excluded != 0 {
            return Ok((None, Some(excluded)));
        }
        let tte = sh.tt.probe(n.pos.key(), n.ply);
        let Some(e) = tte else {
            return Ok((None, None));
        };
        if !n.pv && e.depth >= n.depth && settles(&e, alpha, beta) {
            return Err(e.score);
        }
        Ok((tte, (e.hint != 0).then_some(e.hint)))
    }

    /// The singular-extension test of node `n` ([`SINGULAR_MIN_DEPTH`]) with its table entry
    /// `tte`, at `depth` (after any reduction) with `beta`, unless the node is extended
    /// already (`ext`): `Ok(hint)` of the table move to search a ply deeper (0 for none), or
    /// `Err(score)` when another move also beats beta.
    fn singular(
        &mut self,
        sh: &Shared<P>,
        n: Node<'_, P>,
        tte: Option<TtEntry>,
        depth: i32,
        beta: Score,
        ext: i32,
    ) -> Result<u32, Score> {
        let Some(e) = tte else { return Ok(0) };
        // The extension is bounded: not beyond twice the iteration's depth from the root.
        if SINGULAR_MIN_DEPTH == 0
            || ext != 0
            || self.excluded[n.ply] != 0
            || n.ply == 0
            || depth < SINGULAR_MIN_DEPTH
            || n.ply >= 2 * (self.completed as usize + 1)
            || e.hint == 0
            || e.bound == Bound::Upper
            || e.depth < depth - 3
            || is_decisive(e.score)
        {
            return Ok(0);
        }
        let sbeta = e.score - SINGULAR_MARGIN * depth;
        self.excluded[n.ply] = e.hint;
        let probe = Node {
            alpha: sbeta - 1,
            beta: sbeta,
            depth: (depth - 1) / 2,
            pv: false,
            ..n
        };
        let s = self.search(sh, probe);
        self.excluded[n.ply] = 0;
        // The probe's line is not this node's.
        self.pv_len[n.ply] = n.ply;
        if self.aborted {
            return Ok(0);
        }
        if s < sbeta {
            Ok(e.hint)
        } else if sbeta >= beta {
            Err(sbeta)
        } else {
            Ok(0)
        }
    }

    /// Searches the child `full` (window and depth as for the first move): the first move
    /// with that window; a later one with a null window, reduced by `r` plies, then again
    /// unreduced if it beats alpha, and with the full window on the principal variation if
    /// it falls inside it. The score is the parent's.
    fn search_child(&mut self, sh: &Shared<P>, full: Node<'_, P>, first: bool, r: i32) -> Score {
        if first {
            return -self.search(sh, full);
        }
        let (alpha, beta) = (-full.beta, -full.alpha);
        let mut s = -self.search(sh, full.scout(full.depth - r));
        if s > alpha && r > 0 {
            s = -self.search(sh, full.scout(full.depth));
        }
        if s > alpha && s < beta && full.pv {
            s = -self.search(sh, full);
        }
        s
    }
}

/// The plies by which the `i`-th move (ordering key `key`) of a node at `depth` with
/// extension `ext` is searched shallower: a late quiet move that is no killer, in a node not
/// extended, by the amount in `table` ([`reduction_table`](super::worker::reduction_table)),
/// one less on the principal variation.
#[inline(always)]
fn reduction(
    table: &[[u8; 64]; 64],
    i: usize,
    quiet: bool,
    (depth, key, ext): (i32, i32, i32),
    pv_node: bool,
) -> i32 {
    if quiet && depth >= LMR_MIN_DEPTH && i >= LMR_MIN_MOVE && below_killers(key) && ext == 0 {
        let r = i32::from(table[(depth as usize).min(63)][i.min(63)]) - i32::from(pv_node);
        r.clamp(0, depth - 2)
    } else {
        0
    }
}

/// Whether a table entry's score settles a node with the window `alpha..beta`.
#[inline]
fn settles(e: &TtEntry, alpha: Score, beta: Score) -> bool {
    match e.bound {
        Bound::Exact => true,
        Bound::Lower => e.score >= beta,
        Bound::Upper => e.score <= alpha,
    }
}

/// The move kept in the table for a node: its best move, unless it failed low (then no
/// move is better than another).
#[inline]
fn hint_of<M: GameMove>(bound: Bound, best_move: Option<M>) -> u32 {
    if bound == Bound::Upper {
        0
    } else {
        best_move.map_or(0, |m| m.hint())
    }
}

/// What a node's `best` score is, searched with a window that started at `alpha0..beta`.
#[inline]
fn bound_of(best: Score, alpha0: Score, beta: Score) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha0 {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

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
