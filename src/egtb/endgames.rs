//! What the search sees of the databases: one generic trait, [`Endgames`], so that the search
//! never names a game. [`Tablebase`] implements it for every game whose draw counters are
//! known ([`CountedDraws`]); the values it gives are already under those rules.

use super::rules::{under_rules, CountedDraws};
use super::{pieces_on_board, Tablebase, Value};
use crate::core::Score;
use crate::variant::{GameMove, Position};
use std::any::Any;
use std::sync::Arc;

/// The score of a database win found `ply` plies from the root with `d` plies to conversion
/// is `TB_WIN - ply - d`: below every score of a win at a known number of plies
/// (`core::WIN_THRESHOLD` and above, which the search keeps for game ends), above any
/// evaluation, and higher for a nearer conversion so that the search converts.
pub const TB_WIN: Score = 8_000;

/// The lowest database win score (very long distances are cut there).
const TB_WIN_MIN: Score = TB_WIN - 900;

/// Endgame databases as the search uses them.
pub trait Endgames<P: Position>: Send + Sync {
    /// Whether `pos` may be in the databases (few enough pieces): a cheap test before
    /// [`Endgames::value`].
    fn covers(&self, pos: &P) -> bool;
    /// The value of `pos` for its side to move under the game's rules, with the draw-rule
    /// counters `state`; `None` when the databases cannot tell (missing, damaged, or a
    /// counter the tables cannot judge).
    fn value(&self, pos: &P, state: &P::RuleState) -> Option<Value>;
    /// Messages for the user not yet taken (a table found missing or damaged), each once.
    fn take_messages(&self) -> Vec<String> {
        Vec::new()
    }
}

impl<P: CountedDraws> Endgames<P> for Tablebase {
    #[inline]
    fn covers(&self, pos: &P) -> bool {
        pieces_on_board(pos) <= self.max_pieces()
    }

    fn value(&self, pos: &P, state: &P::RuleState) -> Option<Value> {
        let v = self.probe(pos).ok()?;
        under_rules(v, pos.plies_left(state))
    }

    fn take_messages(&self) -> Vec<String> {
        Tablebase::take_messages(self)
    }
}

/// The search score of value `v` at `ply` plies from the root. A game already over (distance
/// 0: no legal move, or a Turkish end rule) scores as the search scores game ends.
pub fn score(v: Value, ply: usize) -> Score {
    let win = |d: u16| (TB_WIN - ply as Score - d as Score).max(TB_WIN_MIN);
    match v {
        Value::Win(0) => crate::core::win_in(ply),
        Value::Loss(0) => crate::core::loss_in(ply),
        Value::Win(d) => win(d),
        Value::Draw => 0,
        Value::Loss(d) => -win(d),
    }
}

/// The move to play at the root by the databases alone, when they decide the root under the
/// rules as a win or a loss: the fastest conversion that keeps the win, or the slowest loss.
/// `None` for a draw (the search chooses among the moves, which it sees as draws or worse) or
/// when a value is unknown.
pub fn root_move<P: Position>(
    eg: &dyn Endgames<P>,
    pos: &P,
    state: &P::RuleState,
) -> Option<(P::Move, Value)> {
    if !eg.covers(pos) {
        return None;
    }
    let root = eg.value(pos, state)?;
    if root == Value::Draw {
        return None;
    }
    let mut best: Option<(P::Move, Value)> = None;
    for m in pos.legal_moves() {
        let child = pos.play(&m);
        let cs = pos.rule_state_after(*state, &m, &child);
        let v = match child.rule_end(&cs) {
            Some(_) => Value::Draw,
            None => eg.value(&child, &cs)?.back(m.is_capture() || m.promotes()),
        };
        if best.is_none_or(|(_, b)| super::probe::preference(v) < super::probe::preference(b)) {
            best = Some((m, v));
        }
    }
    // The move must keep the root's value (it does when the tables agree with themselves).
    best.filter(|&(_, v)| std::mem::discriminant(&v) == std::mem::discriminant(&root))
}

/// Tables opened for game `P`: themselves (hits, messages) and as the search sees them.
pub type Opened<P> = (Arc<Tablebase>, Arc<dyn Endgames<P>>);

/// Opens the tables of game `P` in `dir` for a caller generic over the game (the command
/// line): the tables themselves (hits, messages) and the same tables as the search sees them.
pub fn open_for<P: Position>(dir: &std::path::Path, cache_mb: usize) -> Result<Opened<P>, String> {
    let tb = Arc::new(Tablebase::open(dir, P::VARIANT, cache_mb)?);
    Ok((tb.clone(), as_endgames::<P>(tb)?))
}

/// Tables already open, as the search of game `P` sees them. The game is chosen here, at the
/// boundary, by `P::VARIANT`.
pub fn as_endgames<P: Position>(tb: Arc<Tablebase>) -> Result<Arc<dyn Endgames<P>>, String> {
    use crate::core::Variant;
    use crate::variant::{RussianPosition, TurkishPosition};
    let any: Box<dyn Any> = match P::VARIANT {
        Variant::Russian => Box::new(tb as Arc<dyn Endgames<RussianPosition>>),
        Variant::Turkish => Box::new(tb as Arc<dyn Endgames<TurkishPosition>>),
    };
    let eg = any.downcast::<Arc<dyn Endgames<P>>>().map_err(|_| {
        format!(
            "no endgame databases for this position type ({})",
            P::VARIANT
        )
    })?;
    Ok(*eg)
}
