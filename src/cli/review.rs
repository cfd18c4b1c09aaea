//! `damka review GAME.pdn`: reviews every game of a PDN file with [`crate::review`]: prints
//! each marked move with the better one and a summary per side, and writes the games with
//! `{[%eval ...]}` after every move and the marks.

use super::progress::ProgressBar;
use super::search_opts::{LimitArgs, SearchArgs};
use crate::core::Variant;
use crate::dispatch::{dispatch, GameTask};
use crate::engine::{GameSession, DEFAULT_HASH_MB};
use crate::eval::{Evaluate, Evaluator};
use crate::game::pdn::read_all;
use crate::review::{
    annotated_pdn, eval_text, review_game, Mark, Review, SideSummary, DEFAULT_REVIEW_MOVETIME,
};
use crate::variant::Perft;
use clap::Args;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Arguments of `damka review`.
#[derive(Args, Debug, Default)]
pub struct ReviewArgs {
    /// The PDN file of the games to review.
    pub pdn: PathBuf,
    /// The game (the file's `GameType` tag when omitted, else Russian).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// The reviewed PDN to write (`GAME-review.pdn` beside the input when omitted; `-` for
    /// standard output after the summary).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Depth, time or node limit per position.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Threads, table, endgame databases, evaluation.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Where the reviewed PDN goes when `--out` is not given: `NAME-review.pdn` beside the input.
fn default_out(input: &Path) -> PathBuf {
    let stem = input
        .file_stem()
        .map_or("game".into(), |s| s.to_string_lossy().into_owned());
    input.with_file_name(format!("{stem}-review.pdn"))
}

/// Runs the review; returns the exit status (0 done, 1 a write failed, 2 bad input).
pub fn run(args: ReviewArgs) -> i32 {
    let evals = match args.search.evaluators("review") {
        Ok(e) => e,
        Err(code) => return code,
    };
    let (text, variant) = match super::annotate::read_games(&args.pdn, args.variant, "review") {
        Ok(read) => read,
        Err(code) => return code,
    };
    let eval = evals.get(variant).clone();
    let (report, pdn) = match dispatch(
        variant,
        Task {
            args: &args,
            text: &text,
            eval,
        },
    ) {
        Ok(done) => done,
        Err(e) => {
            eprintln!("damka review: {}: {e}", args.pdn.display());
            return 2;
        }
    };
    print!("{report}");
    let out = args.out.clone().unwrap_or_else(|| default_out(&args.pdn));
    if out.as_os_str() == "-" {
        println!();
        print!("{pdn}");
        return 0;
    }
    match std::fs::write(&out, &pdn) {
        Ok(()) => {
            println!("wrote {}", out.display());
            0
        }
        Err(e) => {
            eprintln!("damka review: {}: {e}", out.display());
            1
        }
    }
}

struct Task<'a> {
    args: &'a ReviewArgs,
    text: &'a str,
    eval: Evaluator,
}

impl GameTask for Task<'_> {
    /// The printed report and the reviewed PDN, or the error.
    type Output = Result<(String, String), String>;
    fn run<P: Evaluate + Perft>(self) -> Self::Output {
        let args = self.args;
        let records = read_all::<P>(self.text).map_err(|e| e.to_string())?;
        if records.is_empty() {
            return Err("no game in the file".into());
        }
        let mut session = GameSession::<P>::new(
            args.search.threads_or(1),
            args.search.hash_or(DEFAULT_HASH_MB),
        );
        session.set_evaluator(self.eval)?;
        let limits = args.limits.limits(DEFAULT_REVIEW_MOVETIME);
        let total: usize = records.iter().map(|r| r.game.ply() + 1).sum();
        let mut bar = ProgressBar::new("reviewing", total as u64);
        let (mut report, mut pdn) = (String::new(), String::new());
        let mut before = 0;
        let games = records.len();
        for (k, rec) in records.iter().enumerate() {
            let note = format!("game {}/{games}", k + 1);
            let review = review_game(&mut session, &rec.game, &limits, |done, _| {
                bar.set((before + done) as u64, &note);
                true
            })
            .map_err(|e| format!("game {}: {e}", k + 1))?;
            before += rec.game.ply() + 1;
            let names = (
                rec.tag("White").unwrap_or("?"),
                rec.tag("Black").unwrap_or("?"),
            );
            let _ = writeln!(report, "game {}/{games}: {} - {}", k + 1, names.0, names.1);
            report.push_str(&report_of(&review));
            pdn.push_str(&annotated_pdn(rec, &review));
            pdn.push('\n');
        }
        bar.finish();
        Ok((report, pdn))
    }
}

/// The marked moves (`12. e3-f4?? eval -2.00, better c3-b4`) and the summary of each side.
pub fn report_of(review: &Review) -> String {
    let mut out = String::new();
    let black_first = review
        .moves
        .first()
        .is_some_and(|m| m.mover == crate::core::Color::Black);
    for m in review.moves.iter().filter(|m| m.mark.is_some()) {
        let number = (m.ply + usize::from(black_first)) / 2 + 1;
        let dots = if m.mover == crate::core::Color::White {
            "."
        } else {
            "..."
        };
        let mark = m.mark.map_or("", Mark::text);
        let _ = write!(
            out,
            "  {number}{dots} {}{mark} eval {}",
            m.text,
            eval_text(m.eval)
        );
        if let Some(b) = &m.better {
            let _ = write!(out, ", better {b}");
        }
        out.push('\n');
    }
    for (side, s) in [("White", &review.white), ("Black", &review.black)] {
        let _ = writeln!(out, "  {side}: {}", summary_line(s));
    }
    out
}

fn summary_line(s: &SideSummary) -> String {
    format!(
        "{} moves, inaccuracies {}, mistakes {}, blunders {}, average loss {:.0} centi-men",
        s.moves,
        s.count(Mark::Inaccuracy),
        s.count(Mark::Mistake),
        s.count(Mark::Blunder),
        s.average_loss
    )
}
