//! The evaluation a search uses ([`Evaluator`]): the hand-written one or a learned net. Each
//! engine owns its choice ([`Evaluators`], one per game, set by its options) and gives its
//! searcher the one of the game it plays; the search threads share it read-only. Nothing here
//! is process-wide but the compiled-in nets, parsed once and never changed.

use super::classic::{self, ClassicTerms};
use super::incremental::EvalStack;
use super::netfile;
use super::pattern::Net;
use super::Evaluate;
use crate::core::{Color, Score, Variant, DRAW};
use crate::variant::{Board, Position};
use once_cell::sync::Lazy;
use std::sync::Arc;

static NET_RUSSIAN: Lazy<Option<Arc<Net>>> = Lazy::new(|| parse_compiled_in(Variant::Russian));
static NET_TURKISH: Lazy<Option<Arc<Net>>> = Lazy::new(|| parse_compiled_in(Variant::Turkish));

fn parse_compiled_in(variant: Variant) -> Option<Arc<Net>> {
    crate::data::net(variant).map(|b| {
        Arc::new(netfile::from_bytes(b).expect("the compiled-in net is checked by the tests"))
    })
}

/// The compiled-in net of a game, if there is one.
pub fn compiled_in(variant: Variant) -> Option<&'static Arc<Net>> {
    match variant {
        Variant::Russian => NET_RUSSIAN.as_ref(),
        Variant::Turkish => NET_TURKISH.as_ref(),
    }
}

/// The two evaluations one can ask for by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The hand-written evaluation.
    Classic,
    /// The learned one (the compiled-in net).
    Learned,
}

impl std::str::FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "classic" => Ok(EvalKind::Classic),
            "learned" => Ok(EvalKind::Learned),
            _ => Err(format!("eval must be classic or learned, not {s:?}")),
        }
    }
}

/// The evaluation of one game's positions: a learned net, or the hand-written evaluation.
/// Cloning shares the net.
#[derive(Clone, Debug, Default)]
pub struct Evaluator {
    net: Option<Arc<Net>>,
}

impl Evaluator {
    /// The hand-written evaluation.
    pub fn classic() -> Evaluator {
        Evaluator { net: None }
    }

    /// The learned evaluation with `net` (for the game `net.variant`).
    pub fn learned(net: Arc<Net>) -> Evaluator {
        Evaluator { net: Some(net) }
    }

    /// A game's default: its compiled-in net, or the hand-written evaluation if it has none.
    pub fn default_for(variant: Variant) -> Evaluator {
        Evaluator {
            net: compiled_in(variant).cloned(),
        }
    }

    /// The evaluation `kind` for `variant`; `Learned` fails if no net is compiled in for it.
    pub fn of_kind(variant: Variant, kind: EvalKind) -> Result<Evaluator, String> {
        match kind {
            EvalKind::Classic => Ok(Evaluator::classic()),
            EvalKind::Learned => compiled_in(variant)
                .map(|n| Evaluator::learned(n.clone()))
                .ok_or_else(|| format!("no learned net is compiled in for {}", variant.name())),
        }
    }

    /// The net in use, or `None` for the hand-written evaluation.
    pub fn net(&self) -> Option<&Net> {
        self.net.as_deref()
    }

    /// The game this evaluation is bound to: a net's game, `None` for the hand-written one
    /// (which serves every game).
    pub fn variant(&self) -> Option<Variant> {
        self.net.as_ref().map(|n| n.variant)
    }

    /// `classic` or the net's name (for the Hub `id` line and `--version`).
    pub fn name(&self) -> String {
        self.net()
            .map_or_else(|| "classic".to_string(), |n| n.name.clone())
    }

    /// The score of a position of game `G` for the side to move.
    #[inline]
    pub fn score<G: ClassicTerms>(&self, board: &Board<G>) -> Score {
        if king_against_king(board.by, board.kings) {
            return DRAW;
        }
        let (w, b, side) = (
            board.pieces(Color::White),
            board.pieces(Color::Black),
            board.side_to_move(),
        );
        match &self.net {
            Some(net) => net.evaluate(w, b, side),
            None => classic::evaluate::<G>(w, b, side),
        }
    }
}

impl<G: ClassicTerms> Evaluate for Board<G> {
    #[inline]
    fn evaluate(&self, eval: &Evaluator) -> Score {
        eval.score(self)
    }

    #[inline]
    fn evaluate_at(&self, eval: &Evaluator, stack: &mut EvalStack, ply: usize) -> Score {
        if king_against_king(self.by, self.kings) {
            return DRAW;
        }
        let board = [self.by[0], self.by[1], self.kings];
        let side = self.side_to_move();
        stack.score(eval.net(), self.key(), board, side, ply, || {
            classic::evaluate::<G>(self.pieces(Color::White), self.pieces(Color::Black), side)
        })
    }
}

/// Whether the board (each side's pieces `by`, the kings) holds one king against one king.
/// In both games neither side can force a win there unless a capture is on or a king is shut
/// in a corner of one diagonal with the other king on it (Russian a1 and h8), and the search
/// plays both out before it trusts a score: everywhere else the ending is a draw. Scored by
/// the evaluations, one king's square would look better than the other's, and the search
/// would give material away to reach the ending (or fail to see a draw it can force).
#[inline(always)]
pub fn king_against_king(by: [u64; 2], kings: u64) -> bool {
    (by[0] | by[1]).count_ones() == 2 && by[0].count_ones() == 1 && (by[0] | by[1]) & !kings == 0
}

/// The evaluation of each game, as an engine's options (or the command line) choose it: the
/// searcher of the game being played gets that game's.
#[derive(Clone, Debug)]
pub struct Evaluators {
    russian: Evaluator,
    turkish: Evaluator,
}

impl Default for Evaluators {
    /// Each game's default ([`Evaluator::default_for`]).
    fn default() -> Self {
        Evaluators {
            russian: Evaluator::default_for(Variant::Russian),
            turkish: Evaluator::default_for(Variant::Turkish),
        }
    }
}

impl Evaluators {
    /// The evaluation of `variant`.
    pub fn get(&self, variant: Variant) -> &Evaluator {
        match variant {
            Variant::Russian => &self.russian,
            Variant::Turkish => &self.turkish,
        }
    }

    /// Sets the evaluation of `variant`; a net of another game is refused.
    pub fn set(&mut self, variant: Variant, eval: Evaluator) -> Result<(), String> {
        if let Some(v) = eval.variant().filter(|&v| v != variant) {
            return Err(format!(
                "a {} net cannot evaluate {}",
                v.name(),
                variant.name()
            ));
        }
        match variant {
            Variant::Russian => self.russian = eval,
            Variant::Turkish => self.turkish = eval,
        }
        Ok(())
    }

    /// Uses `kind` for every game; `Learned` leaves a game without a compiled-in net as it is.
    pub fn set_kind(&mut self, kind: EvalKind) {
        for v in Variant::ALL {
            if let Ok(e) = Evaluator::of_kind(v, kind) {
                let _ = self.set(v, e);
            }
        }
    }

    /// Loads a weights file and uses it for the game the file is for (returned).
    pub fn load_file(&mut self, path: &std::path::Path) -> Result<Variant, String> {
        let net = netfile::load(path)?;
        let v = net.variant;
        self.set(v, Evaluator::learned(Arc::new(net)))?;
        Ok(v)
    }

    /// `russian:<name> turkish:<name>` ([`Evaluator::name`] of each game).
    pub fn names(&self) -> String {
        Variant::ALL
            .iter()
            .map(|&v| format!("{}:{}", v.name(), self.get(v).name()))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Whether `eval` may evaluate positions of `P` (the hand-written evaluation, or a net of
/// `P`'s game).
pub fn fits<P: Position>(eval: &Evaluator) -> bool {
    eval.variant().is_none_or(|v| v == P::VARIANT)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{EvalStack, Evaluate};
    use crate::variant::fen::parse_fen;
    use crate::variant::{RussianPosition, TurkishPosition};

    /// Both evaluations of `fen` (the plain score and the search's), by each evaluation of
    /// game `P` there is.
    fn scores<P: Position + Evaluate>(fen: &str, variant: Variant) -> Vec<Score> {
        let pos: P = parse_fen(fen).unwrap();
        let mut out = Vec::new();
        for kind in [EvalKind::Classic, EvalKind::Learned] {
            let Ok(eval) = Evaluator::of_kind(variant, kind) else {
                continue;
            };
            let mut stack = EvalStack::new(8);
            out.push(pos.evaluate(&eval));
            out.push(pos.evaluate_at(&eval, &mut stack, 3));
        }
        out
    }

    #[test]
    fn a_king_against_a_king_is_a_draw_and_a_man_more_is_not() {
        for fen in ["W:WKc1:BKa3", "B:WKh2:BKd8", "W:WKa1:BKg7"] {
            let s = scores::<RussianPosition>(fen, Variant::Russian);
            assert!(s.iter().all(|&s| s == DRAW), "{fen}: {s:?}");
        }
        for fen in ["W:WKd4:BKa7", "B:WKh1:BKa8"] {
            let s = scores::<TurkishPosition>(fen, Variant::Turkish);
            assert!(s.iter().all(|&s| s == DRAW), "{fen}: {s:?}");
        }
        let s = scores::<RussianPosition>("W:WKc1,e1:BKa3", Variant::Russian);
        assert!(s.iter().all(|&s| s > DRAW), "two kings against one: {s:?}");
        let s = scores::<RussianPosition>("W:WKc1:Ba3", Variant::Russian);
        assert!(s.iter().all(|&s| s != DRAW), "a king against a man: {s:?}");
    }
}
