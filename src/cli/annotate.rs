//! `damka analyse --pdn FILE`: annotates every game of a PDN file. Each position of a game is
//! searched once; after each move is written the engine's best move there, the score before
//! the move (the best score) and after it (the next position's score, from the mover's side),
//! and the move is marked `?` or `??` when it loses more than `--mistake` or `--blunder`
//! centi-men against the best. The annotated file reads back as the same games.

use super::analyse::AnalyseArgs;
use super::progress::ProgressBar;
use crate::core::{loss_in, score_text, win_in, Score, ScoreStyle, Variant, DRAW};
use crate::dispatch::{dispatch, GameTask};
use crate::engine::{GameSession, GoMode, Limits, DEFAULT_HASH_MB};
use crate::eval::{Evaluate, Evaluator};
use crate::game::pdn::{detect_variant, read_all};
use crate::game::{Game, MoveNote};
use crate::variant::{Notation, Outcome, Perft, Position};
use std::path::Path;

/// Time per position when no limit is given, seconds.
pub const DEFAULT_ANNOTATE_MOVETIME: f64 = 1.0;

/// Thresholds of the marks, centi-men lost against the best move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thresholds {
    /// More than this: `?`.
    pub mistake: Score,
    /// More than this: `??`.
    pub blunder: Score,
}

/// The search's verdict on one position: its score for the side to move and best move.
struct Verdict<M> {
    score: Score,
    best: Option<M>,
}

/// The text of the PDN file `path` and its game (`variant`, else the file's `GameType` tag,
/// else Russian); a file that cannot be read is said on stderr as `damka COMMAND: ...` and is
/// exit status 2.
pub(super) fn read_games(
    path: &Path,
    variant: Option<Variant>,
    command: &str,
) -> Result<(String, Variant), i32> {
    let text = crate::core::file::read_text(path, "a PDN file").map_err(|e| {
        eprintln!("damka {command}: {e}");
        2
    })?;
    let variant = variant
        .or_else(|| detect_variant(&text))
        .unwrap_or(Variant::Russian);
    Ok((text, variant))
}

/// Runs the annotation; returns the exit status.
pub fn run(args: &AnalyseArgs, path: &Path) -> i32 {
    let evals = match args.search.eval.evaluators() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("damka analyse: {e}");
            return 2;
        }
    };
    let (text, variant) = match read_games(path, args.variant, "analyse") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let eval = evals.get(variant).clone();
    dispatch(
        variant,
        Task {
            args,
            text: &text,
            eval,
        },
    )
}

struct Task<'a> {
    args: &'a AnalyseArgs,
    text: &'a str,
    eval: Evaluator,
}

impl GameTask for Task<'_> {
    type Output = i32;
    fn run<P: Evaluate + Perft>(self) -> i32 {
        let args = self.args;
        let records = match read_all::<P>(self.text) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("damka analyse: {e}");
                return 2;
            }
        };
        let mut session = GameSession::<P>::new(
            args.search.threads_or(1),
            args.search.hash_or(DEFAULT_HASH_MB),
        );
        if let Err(e) = session.set_evaluator(self.eval) {
            eprintln!("damka analyse: {e}");
            return 2;
        }
        let limits = args.limits.limits(DEFAULT_ANNOTATE_MOVETIME);
        let marks = Thresholds {
            mistake: args.mistake,
            blunder: args.blunder,
        };
        let total: usize = records.iter().map(|r| r.game.ply() + 1).sum();
        let mut bar = ProgressBar::new("annotating", total as u64);
        let mut out = String::new();
        let mut done = 0;
        let games = records.len();
        for (k, rec) in records.iter().enumerate() {
            let note = format!("game {}/{games}", k + 1);
            let verdicts = judge_game(&mut session, &rec.game, &limits, |_| {
                done += 1;
                bar.set(done as u64, &note);
            });
            let notes = notes(&rec.game, &verdicts, marks);
            out.push_str(&rec.to_pdn_annotated(&notes));
            out.push('\n');
        }
        bar.finish();
        let written = match &args.out {
            Some(p) => std::fs::write(p, &out).map_err(|e| format!("{}: {e}", p.display())),
            None => {
                print!("{out}");
                Ok(())
            }
        };
        match written {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("damka analyse: {e}");
                1
            }
        }
    }
}

/// Searches every position of `game` (the start, then after each move) and calls `step`
/// after each.
fn judge_game<P: Evaluate>(
    session: &mut GameSession<P>,
    game: &Game<P>,
    limits: &Limits<P::Move>,
    mut step: impl FnMut(usize),
) -> Vec<Verdict<P::Move>> {
    let mut out = Vec::with_capacity(game.ply() + 1);
    let mut prefix = Game::new(*game.start());
    for i in 0..=game.ply() {
        if i > 0 {
            prefix.play_unchecked(game.moves()[i - 1]);
        }
        out.push(judge(session, &prefix, limits));
        step(i);
    }
    out
}

/// The verdict on the current position of `game`: the rules' when the game is over, else
/// the search's.
fn judge<P: Evaluate>(
    session: &mut GameSession<P>,
    game: &Game<P>,
    limits: &Limits<P::Move>,
) -> Verdict<P::Move> {
    if let Some(end) = game.result() {
        let score = match end.outcome {
            Outcome::Draw => DRAW,
            Outcome::Win(c) if c == game.position().side_to_move() => win_in(0),
            Outcome::Win(_) => loss_in(0),
        };
        return Verdict { score, best: None };
    }
    session.set_game(game.clone());
    match session.search_blocking(limits, GoMode::Analyze, |_| {}) {
        Ok(f) => Verdict {
            score: f.score,
            best: f.best,
        },
        Err(_) => Verdict {
            score: DRAW,
            best: None,
        },
    }
}

/// The note of each move from the verdicts on the positions before and after it.
fn notes<P: Position>(
    game: &Game<P>,
    verdicts: &[Verdict<P::Move>],
    marks: Thresholds,
) -> Vec<MoveNote> {
    let text = |s: Score| score_text(s, ScoreStyle::Token);
    game.moves()
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let pos = &game.positions()[i];
            let before = verdicts[i].score;
            let after = -verdicts[i + 1].score;
            let best = verdicts[i].best;
            let lost = before.saturating_sub(after);
            // The best move itself is never marked: a deeper look after it may score it
            // lower, but no other move was better.
            let mark = if best == Some(*mv) {
                ""
            } else if lost > marks.blunder {
                "??"
            } else if lost > marks.mistake {
                "?"
            } else {
                ""
            };
            let best_text = best.map_or("-".into(), |b| pos.move_to_algebraic(&b));
            MoveNote {
                mark: mark.into(),
                comment: format!("best {best_text} {}, after {}", text(before), text(after)),
            }
        })
        .collect()
}
