//! The page's game review and board editor checks, from the library's rule
//! ([`damka::review::review_of`]): the server and the WebAssembly build both answer with these
//! views, so a review looks the same whichever engine searched the positions.

use crate::PageGame;
use damka::core::Score;
use damka::game::{Game, Record};
use damka::review::{self, Mark, Review, SideSummary, Verdict};
use damka::variant::Position;
use serde::{Deserialize, Serialize};

/// A review asked for: the game (start FEN, empty for the usual start, and the moves in Hub
/// or algebraic text) and the search's verdict on each of its positions.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct ReviewRequest {
    /// The start position (FEN; empty or absent: the usual start).
    #[serde(default)]
    pub fen: String,
    /// The moves played.
    pub moves: Vec<String>,
    /// One per position: the start, then after each move.
    pub verdicts: Vec<VerdictIn>,
    /// Tags for the PDN (`White`, `Black`, `Event` ...).
    #[serde(default)]
    pub tags: Vec<(String, String)>,
}

/// A search's verdict on one position, as a page sends it.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
pub struct VerdictIn {
    /// Centi-men for the side to move (a forced win or loss as the library scores it).
    pub score: Score,
    /// The best move there (Hub or algebraic); absent when the game is over.
    #[serde(default)]
    pub best: Option<String>,
}

/// One reviewed move as the page draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveMarkView {
    /// The ply after the move (the move list's `data-ply`).
    pub ply: usize,
    /// The move, algebraic.
    pub text: String,
    /// The evaluation after it, men from White's point of view (forced results as +-100).
    pub eval: f64,
    /// The same as `[%eval]` writes it (`0.35`, `#3`).
    pub eval_text: String,
    /// `?!`, `?` or `??`, absent when unmarked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<&'static str>,
    /// The engine's move in its place, for a marked move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub better: Option<String>,
    /// Centi-men lost (capped, see the library).
    pub loss: Score,
}

/// A side's summary as the page shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SummaryView {
    /// Moves played.
    pub moves: usize,
    /// `?!` moves.
    pub inaccuracies: usize,
    /// `?` moves.
    pub mistakes: usize,
    /// `??` moves.
    pub blunders: usize,
    /// Average centi-men lost per move.
    pub average_loss: f64,
}

/// A reviewed game as the page draws and keeps it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReviewView {
    /// The evaluation of the start position, men from White's point of view.
    pub start_eval: f64,
    /// Every move, in order.
    pub moves: Vec<MoveMarkView>,
    /// White's summary.
    pub white: SummaryView,
    /// Black's summary.
    pub black: SummaryView,
    /// The game as PDN with `[%eval]` after every move and the marks.
    pub pdn: String,
}

fn men(white_score: Score) -> f64 {
    if damka::core::is_decisive(white_score) {
        return if white_score > 0 { 100.0 } else { -100.0 };
    }
    f64::from(white_score) / 100.0
}

fn summary(s: &SideSummary) -> SummaryView {
    SummaryView {
        moves: s.moves,
        inaccuracies: s.count(Mark::Inaccuracy),
        mistakes: s.count(Mark::Mistake),
        blunders: s.count(Mark::Blunder),
        average_loss: s.average_loss,
    }
}

/// The page's view of `review` of `record`.
pub fn view_of<P: Position>(record: &Record<P>, review: &Review) -> ReviewView {
    ReviewView {
        start_eval: men(review.start_eval),
        moves: review
            .moves
            .iter()
            .map(|m| MoveMarkView {
                ply: m.ply + 1,
                text: m.text.clone(),
                eval: men(m.eval),
                eval_text: review::eval_text(m.eval),
                mark: m.mark.map(Mark::text),
                better: m.better.clone(),
                loss: m.loss,
            })
            .collect(),
        white: summary(&review.white),
        black: summary(&review.black),
        pdn: review::annotated_pdn(record, review),
    }
}

pub(crate) fn typed_review<P: Position>(
    game: &Game<P>,
    req: &ReviewRequest,
) -> Result<ReviewView, String> {
    let verdicts: Vec<Verdict> = req
        .verdicts
        .iter()
        .map(|v| Verdict {
            score: v.score,
            best: v.best.clone(),
        })
        .collect();
    let review = review::review_of(game, &verdicts).map_err(|e| e.to_string())?;
    let mut record = Record::new(game.clone());
    for (k, v) in req.tags.iter().take(16) {
        record.set_tag(k, v);
    }
    Ok(view_of(&record, &review))
}

impl PageGame {
    /// The game of a review request: its start and moves, each checked.
    pub fn of_request(variant: damka::core::Variant, req: &ReviewRequest) -> Result<Self, String> {
        if req.moves.len() > review::MAX_REVIEW_PLIES {
            return Err(review::ReviewError::TooLong(req.moves.len()).to_string());
        }
        let mut g = PageGame::new(variant, Some(&req.fen))?;
        for (i, m) in req.moves.iter().enumerate() {
            g.play_text(m)
                .map_err(|e| format!("move {} ({m}): {e}", i + 1))?;
        }
        Ok(g)
    }
}

/// Checks a position set up on the board editor: it must read as a position of `variant`,
/// each side must have a piece and at most a full set, and no man may stand on the row where
/// it would have been crowned. Returns the position's FEN as the library writes it.
pub fn check_setup(variant: damka::core::Variant, fen: &str) -> Result<String, String> {
    if fen.trim().is_empty() {
        return Err("no position given".into());
    }
    let g = PageGame::new(variant, Some(fen))?;
    let board = g.board();
    let cells = board.as_bytes();
    let count = |c: &[u8]| cells.iter().filter(|x| c.contains(x)).count();
    let (white, black) = (count(b"wW"), count(b"bB"));
    let full = if variant == damka::core::Variant::Turkish {
        16
    } else {
        12
    };
    if white == 0 || black == 0 {
        return Err("each side needs at least one piece".into());
    }
    if white > full || black > full {
        return Err(format!("at most {full} pieces a side"));
    }
    if cells[56..64].contains(&b'w') {
        return Err("a white man on the last row would be a king".into());
    }
    if cells[0..8].contains(&b'b') {
        return Err("a black man on the first row would be a king".into());
    }
    Ok(g.fen())
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::core::Variant;

    fn request(moves: &[&str], scores: &[(Score, Option<&str>)]) -> ReviewRequest {
        ReviewRequest {
            fen: String::new(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            verdicts: scores
                .iter()
                .map(|(s, b)| VerdictIn {
                    score: *s,
                    best: b.map(String::from),
                })
                .collect(),
            tags: vec![("White".into(), "Ann".into())],
        }
    }

    #[test]
    fn a_review_view_marks_the_blunder_and_writes_evals() {
        let req = request(
            &["c3-d4", "f6-g5", "e3-f4", "g5:e3:c5"],
            &[
                (0, Some("c3-d4")),
                (0, Some("f6-g5")),
                (0, Some("b2-c3")),
                (600, Some("g5:e3:c5")),
                (-600, None),
            ],
        );
        let g = PageGame::of_request(Variant::Russian, &req).unwrap();
        let v = g.review(&req).unwrap();
        assert_eq!(v.moves.len(), 4);
        assert_eq!(v.moves[2].ply, 3);
        assert_eq!(v.moves[2].mark, Some("??"));
        assert_eq!(v.moves[2].better.as_deref(), Some("b2-c3"));
        assert_eq!(v.moves[2].eval, -6.0);
        assert_eq!(v.white.blunders, 1);
        assert_eq!(v.pdn.matches("[%eval").count(), 4, "{}", v.pdn);
        assert!(v.pdn.contains("[White \"Ann\"]"));
    }

    #[test]
    fn bad_requests_are_errors() {
        let short = request(&["c3-d4"], &[(0, None)]);
        let g = PageGame::of_request(Variant::Russian, &short).unwrap();
        assert!(g.review(&short).is_err());
        let illegal = request(&["c3-d4", "c3-d4"], &[]);
        let e = PageGame::of_request(Variant::Russian, &illegal).unwrap_err();
        assert!(e.starts_with("move 2 (c3-d4)"), "{e}");
        let long = ReviewRequest {
            moves: vec!["c3-d4".into(); 2_000],
            ..ReviewRequest::default()
        };
        let e = PageGame::of_request(Variant::Russian, &long).unwrap_err();
        assert!(e.contains("2000 plies"), "{e}");
    }

    #[test]
    fn set_up_positions_are_checked() {
        assert_eq!(
            check_setup(Variant::Russian, "W:Wc3:Bd6").unwrap(),
            PageGame::new(Variant::Russian, Some("W:Wc3:Bd6"))
                .unwrap()
                .fen()
        );
        for bad in ["", "W:Wc3:B", "W:Wz9:Bd6", "W:Wb8:Bd6", "B:Wc3:Ba1"] {
            assert!(check_setup(Variant::Russian, bad).is_err(), "{bad}");
        }
        assert!(check_setup(Variant::Turkish, "W:Wd3:Bd6").is_ok());
    }
}
