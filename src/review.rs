//! Game review: every position of a game searched once, each move judged by how much of the
//! mover's expected score it gave away, and marked inaccuracy `?!`, mistake `?` or blunder
//! `??` (the rule and its thresholds are in docs/review.md). The rule is here, once: the
//! command line (`damka review`), the web server and the WebAssembly build all classify with
//! [`review_of`]; only where the searches run differs (a [`GameSession`] here, the page's
//! worker or the server's pool there).

use crate::core::{is_decisive, loss_in, win_in, Color, Score, DRAW, WIN};
use crate::engine::{GameSession, GoMode, Limits};
use crate::eval::Evaluate;
use crate::game::{Game, MoveNote, Record};
use crate::variant::{Notation, Outcome, Position};

/// Time per position a review spends when no other limit is given, seconds.
pub const DEFAULT_REVIEW_MOVETIME: f64 = 0.3;

/// Longest game reviewed, in plies: a review searches every position, and a longer record is
/// a mistake or an attack, not a game.
pub const MAX_REVIEW_PLIES: usize = 1_000;

/// How steeply the expected score follows the evaluation, per centi-man: the expected score
/// of an evaluation `s` is `1 / (1 + exp(-EXPECTED_SCALE * s))`. One man ahead expects 0.73,
/// two men 0.88, three 0.95.
pub const EXPECTED_SCALE: f64 = 0.01;

/// A drop in expected score of at least this much is an inaccuracy `?!`.
pub const INACCURACY_DROP: f64 = 0.05;
/// A drop of at least this much is a mistake `?`.
pub const MISTAKE_DROP: f64 = 0.10;
/// A drop of at least this much is a blunder `??`.
pub const BLUNDER_DROP: f64 = 0.15;

/// Evaluations are capped to this many centi-men in the average loss, so that one lost won
/// game does not outweigh the rest of the moves.
pub const LOSS_CAP: Score = 1_000;

/// The mark a reviewed move gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// `?!`: some of the expected score lost.
    Inaccuracy,
    /// `?`: a clear part of it lost.
    Mistake,
    /// `??`: much of it lost.
    Blunder,
}

impl Mark {
    /// Every mark, mildest first.
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark as PDN writes it after a move: `?!`, `?`, `??`.
    pub fn text(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark as a numeric annotation glyph (`$6`, `$2`, `$4`).
    pub fn nag(self) -> u8 {
        match self {
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }

    /// The mark of a drop in expected score, if any.
    pub fn of_drop(drop: f64) -> Option<Mark> {
        if drop >= BLUNDER_DROP {
            Some(Mark::Blunder)
        } else if drop >= MISTAKE_DROP {
            Some(Mark::Mistake)
        } else if drop >= INACCURACY_DROP {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }
}

/// The expected score (0 a loss, 1 a win) of an evaluation from one side's point of view: a
/// forced win or loss is 1 or 0, any other score follows [`EXPECTED_SCALE`].
pub fn expected_score(s: Score) -> f64 {
    if is_decisive(s) {
        return if s > 0 { 1.0 } else { 0.0 };
    }
    1.0 / (1.0 + (-EXPECTED_SCALE * f64::from(s)).exp())
}

/// The search's verdict on one position of a game: its score for the side to move and the
/// best move found there (text, `None` when the game is over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Centi-men, the side to move's point of view.
    pub score: Score,
    /// The best move in algebraic notation.
    pub best: Option<String>,
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// Plies played before it (0: the first move).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move, algebraic.
    pub text: String,
    /// The evaluation after it, centi-men from White's point of view.
    pub eval: Score,
    /// The mover's expected score lost by it (0 when none).
    pub drop: f64,
    /// The centi-men the mover lost by it, evaluations capped at [`LOSS_CAP`].
    pub loss: Score,
    /// Its mark, if it lost enough.
    pub mark: Option<Mark>,
    /// The engine's move in its place, for a marked move.
    pub better: Option<String>,
}

/// What one side did in a reviewed game.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves the side played.
    pub moves: usize,
    /// Inaccuracies, mistakes and blunders, in the order of [`Mark::ALL`].
    pub marks: [usize; 3],
    /// Average centi-men lost per move (evaluations capped at [`LOSS_CAP`]).
    pub average_loss: f64,
}

impl SideSummary {
    /// How many moves got `mark`.
    pub fn count(&self, mark: Mark) -> usize {
        self.marks[mark as usize]
    }
}

/// A reviewed game: each move judged, and a summary per side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Review {
    /// The moves, in order.
    pub moves: Vec<MoveReview>,
    /// The evaluation of the start position, centi-men from White's point of view.
    pub start_eval: Score,
    /// White's summary.
    pub white: SideSummary,
    /// Black's summary.
    pub black: SideSummary,
}

/// Why a review did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewError {
    /// The caller stopped it.
    Cancelled,
    /// The game is longer than [`MAX_REVIEW_PLIES`].
    TooLong(usize),
    /// The verdicts do not fit the game (a bug of the caller, or a page's bad request).
    Mismatch(String),
}

impl std::fmt::Display for ReviewError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReviewError::Cancelled => write!(f, "review cancelled"),
            ReviewError::TooLong(n) => write!(
                f,
                "the game has {n} plies; a review takes games of at most {MAX_REVIEW_PLIES}"
            ),
            ReviewError::Mismatch(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for ReviewError {}

/// The score of a position whose game is over, for the side to move, by the rules.
pub fn rules_score<P: Position>(game: &Game<P>) -> Option<Score> {
    let end = game.result()?;
    Some(match end.outcome {
        Outcome::Draw => DRAW,
        Outcome::Win(c) if c == game.position().side_to_move() => win_in(0),
        Outcome::Win(_) => loss_in(0),
    })
}

/// Reviews `game` from `verdicts`, one per position (the start, then after each move): the
/// rule of the module's documentation, the same wherever the searches ran. A best move that
/// is not legal where it is said to be is dropped, never shown.
pub fn review_of<P: Position>(game: &Game<P>, verdicts: &[Verdict]) -> Result<Review, ReviewError> {
    if game.ply() > MAX_REVIEW_PLIES {
        return Err(ReviewError::TooLong(game.ply()));
    }
    if verdicts.len() != game.ply() + 1 {
        return Err(ReviewError::Mismatch(format!(
            "{} verdicts for a game of {} positions",
            verdicts.len(),
            game.ply() + 1
        )));
    }
    let white_view = |s: Score, side: Color| if side == Color::White { s } else { -s };
    let positions = game.positions();
    let mut review = Review {
        start_eval: white_view(verdicts[0].score, game.start().side_to_move()),
        ..Review::default()
    };
    for (ply, mv) in game.moves().iter().enumerate() {
        let pos = &positions[ply];
        let mover = pos.side_to_move();
        let text = pos.move_to_algebraic(mv);
        let before = verdicts[ply].score;
        let after = -verdicts[ply + 1].score;
        let best = verdicts[ply]
            .best
            .as_deref()
            .and_then(|b| pos.parse_move(b).ok());
        // The engine's own choice is never marked: a deeper look after it may score it
        // lower, but no other move was better.
        let played_best = best == Some(*mv);
        let drop = if played_best {
            0.0
        } else {
            (expected_score(before) - expected_score(after)).max(0.0)
        };
        let capped = |s: Score| s.clamp(-LOSS_CAP, LOSS_CAP);
        let loss = if played_best {
            0
        } else {
            (capped(before) - capped(after)).max(0)
        };
        let mark = Mark::of_drop(drop);
        review.moves.push(MoveReview {
            ply,
            mover,
            text,
            eval: white_view(after, mover),
            drop,
            loss,
            mark,
            better: best
                .filter(|_| mark.is_some())
                .map(|b| pos.move_to_algebraic(&b)),
        });
    }
    for color in [Color::White, Color::Black] {
        let mine: Vec<&MoveReview> = review.moves.iter().filter(|m| m.mover == color).collect();
        let mut s = SideSummary {
            moves: mine.len(),
            ..SideSummary::default()
        };
        for m in &mine {
            if let Some(mark) = m.mark {
                s.marks[mark as usize] += 1;
            }
        }
        if !mine.is_empty() {
            s.average_loss =
                mine.iter().map(|m| f64::from(m.loss)).sum::<f64>() / mine.len() as f64;
        }
        match color {
            Color::White => review.white = s,
            Color::Black => review.black = s,
        }
    }
    Ok(review)
}

/// An evaluation as `[%eval]` writes it: pawns (men) with two decimals from White's point of
/// view, or `#N` / `#-N` for a forced win or loss in N moves of the side ahead.
pub fn eval_text(white_score: Score) -> String {
    if is_decisive(white_score) {
        let plies = WIN - white_score.abs();
        let moves = (plies + 1) / 2;
        return if white_score > 0 {
            format!("#{moves}")
        } else {
            format!("#-{moves}")
        };
    }
    format!("{:.2}", f64::from(white_score) / 100.0)
}

/// The notes `review` puts after each move of its game: the mark, and a comment with the
/// evaluation after the move (`[%eval 0.35]`) and, for a marked move, the better one.
pub fn notes(review: &Review) -> Vec<MoveNote> {
    review
        .moves
        .iter()
        .map(|m| {
            let mut comment = format!("[%eval {}]", eval_text(m.eval));
            if let Some(better) = &m.better {
                comment.push_str(&format!(" better {better}"));
            }
            MoveNote {
                mark: m.mark.map_or("", Mark::text).into(),
                comment,
            }
        })
        .collect()
}

/// `record` as PDN with the review's evaluations and marks after its moves.
pub fn annotated_pdn<P: Position>(record: &Record<P>, review: &Review) -> String {
    record.to_pdn_annotated(&notes(review))
}

/// Searches every position of `game` with `session` within `limits` (the rules decide a
/// position where the game is over) and reviews it. `step(done, total)` is called after each
/// position; the review stops with [`ReviewError::Cancelled`] when it returns false.
pub fn review_game<P: Evaluate>(
    session: &mut GameSession<P>,
    game: &Game<P>,
    limits: &Limits<P::Move>,
    mut step: impl FnMut(usize, usize) -> bool,
) -> Result<Review, ReviewError> {
    if game.ply() > MAX_REVIEW_PLIES {
        return Err(ReviewError::TooLong(game.ply()));
    }
    let total = game.ply() + 1;
    let mut verdicts = Vec::with_capacity(total);
    let mut prefix = Game::new(*game.start());
    for i in 0..total {
        if i > 0 {
            prefix.play_unchecked(game.moves()[i - 1]);
        }
        verdicts.push(verdict(session, &prefix, limits));
        if !step(i + 1, total) {
            return Err(ReviewError::Cancelled);
        }
    }
    review_of(game, &verdicts)
}

/// The verdict on the current position of `game`: the rules' when the game is over, else
/// the search's (a draw without a move when the search fails, which it does not on a
/// position with a legal move).
fn verdict<P: Evaluate>(
    session: &mut GameSession<P>,
    game: &Game<P>,
    limits: &Limits<P::Move>,
) -> Verdict {
    if let Some(score) = rules_score(game) {
        return Verdict { score, best: None };
    }
    session.set_game(game.clone());
    match session.search_blocking(limits, GoMode::Analyze, |_| {}) {
        Ok(f) => Verdict {
            score: f.score,
            best: f.best.map(|b| game.position().move_to_algebraic(&b)),
        },
        Err(_) => Verdict {
            score: DRAW,
            best: None,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::RussianPosition;

    fn game(moves: &[&str]) -> Game<RussianPosition> {
        let mut g = Game::from_start();
        for m in moves {
            g.play_text(m).unwrap();
        }
        g
    }

    fn v(score: Score, best: Option<&str>) -> Verdict {
        Verdict {
            score,
            best: best.map(String::from),
        }
    }

    #[test]
    fn expected_score_is_even_at_zero_and_rises_with_the_score() {
        assert!((expected_score(0) - 0.5).abs() < 1e-9);
        assert!(expected_score(100) > 0.7 && expected_score(100) < 0.75);
        assert!(expected_score(-100) < 0.3);
        assert_eq!(expected_score(win_in(5)), 1.0);
        assert_eq!(expected_score(loss_in(5)), 0.0);
        let mut last = 0.0;
        for s in (-900..=900).step_by(50) {
            let e = expected_score(s);
            assert!(e > last, "{s}");
            last = e;
        }
    }

    #[test]
    fn drops_are_marked_by_the_thresholds() {
        assert_eq!(Mark::of_drop(0.0), None);
        assert_eq!(Mark::of_drop(INACCURACY_DROP - 1e-6), None);
        assert_eq!(Mark::of_drop(INACCURACY_DROP), Some(Mark::Inaccuracy));
        assert_eq!(Mark::of_drop(MISTAKE_DROP), Some(Mark::Mistake));
        assert_eq!(Mark::of_drop(BLUNDER_DROP), Some(Mark::Blunder));
        assert_eq!(Mark::of_drop(0.9), Some(Mark::Blunder));
        assert_eq!(
            Mark::ALL.map(Mark::text),
            ["?!", "?", "??"],
            "the texts the page and PDN show"
        );
    }

    /// c3-d4 f6-g5 b2-c3 reviewed, `last` the verdict of the final position: White even,
    /// Black to move even, then Black's g5 loses two men: after it White (to move) is +2.00,
    /// and the engine preferred f6-e5.
    fn two_men_away(last: Verdict) -> (Game<RussianPosition>, Review) {
        let g = game(&["c3-d4", "f6-g5", "b2-c3"]);
        let verdicts = [
            v(0, Some("c3-d4")),
            v(0, Some("f6-e5")),
            v(200, Some("b2-c3")),
            last,
        ];
        let r = review_of(&g, &verdicts).unwrap();
        (g, r)
    }

    #[test]
    fn a_move_that_gives_the_game_away_is_a_blunder_with_the_better_move() {
        let (_, r) = two_men_away(v(-200, None));
        assert_eq!(r.moves.len(), 3);
        assert_eq!(r.moves[0].mark, None, "the engine's own move");
        let bad = &r.moves[1];
        assert_eq!((bad.mover, bad.mark), (Color::Black, Some(Mark::Blunder)));
        assert_eq!(bad.better.as_deref(), Some("f6-e5"));
        assert_eq!(bad.eval, 200, "White's view");
        assert_eq!(bad.loss, 200);
        assert_eq!(r.black.count(Mark::Blunder), 1);
        assert_eq!(r.black.average_loss, 200.0);
        assert_eq!(r.white.marks, [0, 0, 0]);
        assert_eq!((r.white.moves, r.black.moves), (2, 1));
        // The best move is not marked even when the next position scores lower.
        assert_eq!(r.moves[2].mark, None);
    }

    #[test]
    fn small_losses_are_inaccuracies_and_unknown_best_moves_are_dropped() {
        let g = game(&["c3-d4", "f6-g5"]);
        let verdicts = [v(0, Some("e3-f4")), v(25, Some("g7-h6")), v(-25, None)];
        let r = review_of(&g, &verdicts).unwrap();
        // White lost 25 centi-men: 0.5 -> 0.438, an inaccuracy.
        assert_eq!(r.moves[0].mark, Some(Mark::Inaccuracy));
        assert_eq!(r.moves[0].better.as_deref(), Some("e3-f4"));
        // Black's move gained 25: no mark, no better move.
        assert_eq!((r.moves[1].mark, r.moves[1].loss), (None, 0));
        assert_eq!(r.moves[1].better, None);
        assert_eq!(r.start_eval, 0);
        let said_nonsense = [v(0, Some("zz-top")), v(25, None), v(-25, None)];
        let r = review_of(&g, &said_nonsense).unwrap();
        assert_eq!(r.moves[0].mark, Some(Mark::Inaccuracy));
        assert_eq!(r.moves[0].better, None);
    }

    #[test]
    fn verdicts_that_do_not_fit_and_long_games_are_errors() {
        let g = game(&["c3-d4"]);
        assert!(matches!(
            review_of(&g, &[v(0, None)]),
            Err(ReviewError::Mismatch(_))
        ));
        let mut long = Game::<RussianPosition>::from_start();
        let verdicts: Vec<Verdict> = (0..=MAX_REVIEW_PLIES + 2).map(|_| v(0, None)).collect();
        // Kings shuffling would take a set-up position; a fake count is enough here: the
        // check is on the game's length before anything else.
        while long.ply() <= MAX_REVIEW_PLIES && !long.is_over() {
            let m = long.legal_moves()[0];
            long.play_unchecked(m);
        }
        if long.ply() > MAX_REVIEW_PLIES {
            assert!(matches!(
                review_of(&long, &verdicts),
                Err(ReviewError::TooLong(_))
            ));
        }
    }

    #[test]
    fn pdn_carries_an_eval_for_every_move_and_the_marks() {
        let (g, r) = two_men_away(v(win_in(3), None));
        let rec = Record::new(g.clone());
        let text = annotated_pdn(&rec, &r);
        assert_eq!(text.matches("[%eval ").count(), 3, "{text}");
        assert!(
            text.contains("f6-g5?? {[%eval 2.00] better f6-e5}"),
            "{text}"
        );
        assert!(text.contains("{[%eval #-2]}"), "{text}");
        let back = Record::<RussianPosition>::from_pdn(&text).unwrap();
        assert_eq!(back.game, g);
        assert_eq!(eval_text(-35), "-0.35");
        assert_eq!(eval_text(win_in(1)), "#1");
    }

    #[test]
    fn a_searched_review_finds_a_man_given_away_and_can_be_cancelled() {
        // White's e3-f4 gives two men away: g5:e3:c5.
        let g = game(&["c3-d4", "f6-g5", "e3-f4", "g5:e3:c5"]);
        let mut session = GameSession::<RussianPosition>::new(1, 16);
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let mut seen = Vec::new();
        let r = review_game(&mut session, &g, &limits, |d, t| {
            seen.push((d, t));
            true
        })
        .unwrap();
        assert_eq!(seen.len(), g.ply() + 1);
        assert_eq!(seen.last(), Some(&(5, 5)));
        assert_eq!(r.moves.len(), 4);
        assert_eq!(r.moves[2].mark, Some(Mark::Blunder), "{:?}", r.moves[2]);
        assert!(r.moves[2].better.is_some());
        assert_eq!(r.white.count(Mark::Blunder), 1);
        assert_eq!(r.black.marks, [0, 0, 0], "{:?}", r.moves);
        let cancelled = review_game(&mut session, &g, &limits, |d, _| d < 2);
        assert_eq!(cancelled, Err(ReviewError::Cancelled));
    }
}
