//! Move ordering: the keys that rank the moves of a node (hash move, captures, promotions,
//! killers, history), the selection step that takes them best first, and the killer and
//! history updates after a cut.

use super::params::*;
use super::worker::Worker;
use crate::core::MoveList;
use crate::eval::Evaluate;
use crate::variant::GameMove;

/// Ordering keys, one per move of a list, pushed in the list's order. A move list of keys
/// rather than an array: it leaves its storage uninitialised, where zeroing a full array
/// (1 KiB) per node cost about 2% of the bench's instructions.
pub(super) type Keys = MoveList<i32>;

/// Index of a move in the history table.
#[inline]
fn hist_index<M: GameMove>(side: usize, m: &M) -> usize {
    (side << 12) | ((m.from().index()) << 6) | m.to().index()
}

impl<P: Evaluate> Worker<P> {
    /// Keys of a capture-resolution node, where either all moves capture or none does (a
    /// threat node): captures by the number taken, quiet answers to a threat by promotion,
    /// then history.
    #[inline]
    pub(super) fn qsearch_keys(&self, pos: &P, list: &MoveList<P::Move>, keys: &mut Keys) {
        let side = pos.side_to_move().index();
        keys.clear();
        for m in list.iter() {
            keys.push(if m.is_capture() {
                m.capture_count() as i32 * 4 + m.promotes() as i32
            } else if m.promotes() {
                HISTORY_MAX + 1
            } else {
                self.history[hist_index(side, m)]
            });
        }
    }

    /// Keys of a full-width node: the hash move first, then captures by the number taken,
    /// promotions, the two killers of the ply and the history of quiet moves.
    #[inline]
    pub(super) fn search_keys(
        &self,
        pos: &P,
        list: &MoveList<P::Move>,
        hint: Option<u32>,
        ply: usize,
        keys: &mut Keys,
    ) {
        let side = pos.side_to_move().index();
        let killers = self.killers[ply];
        keys.clear();
        for m in list.iter() {
            keys.push(if hint == Some(m.hint()) {
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
                self.history[hist_index(side, m)]
            });
        }
    }

    /// A quiet move `m` caused a cut at `ply`: it becomes the first killer, its history
    /// grows and that of the quiet moves `tried` before it shrinks.
    pub(super) fn reward(
        &mut self,
        side: usize,
        ply: usize,
        m: P::Move,
        depth: i32,
        tried: &[P::Move],
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
        update(&mut self.history[hist_index(side, &m)], bonus);
        for q in tried {
            update(&mut self.history[hist_index(side, q)], -bonus);
        }
    }
}

/// Whether a move keyed `key` by [`Worker::search_keys`] ranks below the killers: neither the
/// hash move, a capture, a promotion nor a killer (the moves reductions and futility pruning
/// may touch).
#[inline(always)]
pub(super) fn below_killers(key: i32) -> bool {
    key < ORDER_KILLER - 1
}

/// Selection step: brings the best-keyed remaining move to index `i`.
#[inline]
pub(super) fn pick<M: Copy>(list: &mut MoveList<M>, keys: &mut Keys, i: usize) {
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
