//! `damka book build|probe`: grows an opening book file (drop-out expansion, resumable, with
//! a progress bar) and lists the book moves of a position.

use super::progress::ProgressBar;
use crate::book::build::{BuildConfig, Builder, Expansion, PositionSearch};
use crate::book::{compiled_in, Book};
use crate::core::{score_text, ScoreStyle, Variant};
use crate::dispatch::{dispatch, GameTask};
use crate::eval::{Evaluate, Evaluators};
use crate::variant::{Notation, Perft};
use clap::{Args, Subcommand};
use std::path::{Path, PathBuf};

/// Arguments of `damka book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// The `book` subcommands.
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Grow a book file from the start position (goes on with the file if it exists).
    Build(BuildArgs),
    /// List the book moves of a position.
    Probe(ProbeArgs),
}

/// Arguments of `damka book build`.
#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// The game.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// The book file (read first if it exists, written as the build goes).
    #[arg(long)]
    pub out: PathBuf,
    /// Positions up to this many plies from the start are searched.
    #[arg(long, default_value_t = 16)]
    pub plies: usize,
    /// Depth of each search.
    #[arg(long, default_value_t = 12, conflicts_with = "movetime")]
    pub depth: u32,
    /// Time of each search instead of a depth, seconds.
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Positions in the book when the build stops.
    #[arg(long, default_value_t = 2000)]
    pub positions: usize,
    /// Moves valued per position.
    #[arg(long, default_value_t = 4)]
    pub lines: u32,
    /// Moves more than this below their position's best are not followed, centi-men.
    #[arg(long, default_value_t = 40)]
    pub margin: i32,
    /// Seed breaking ties between lines of equal cost.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The evaluation.
    #[command(flatten)]
    pub eval: super::search_opts::EvalArgs,
}

/// Arguments of `damka book probe`.
#[derive(Args, Debug, Clone)]
pub struct ProbeArgs {
    /// The game.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// The position and the moves played from it.
    #[command(flatten)]
    pub position: super::search_opts::PositionArgs,
    /// The book file; the compiled-in book of the game when omitted.
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// Runs `damka book`; returns the exit status.
pub fn run(args: BookArgs) -> i32 {
    match args.command {
        BookCommand::Build(a) => match a.eval.evaluators() {
            Ok(evals) => dispatch(a.variant, BuildTask(&a, evals)),
            Err(e) => {
                eprintln!("damka book: {e}");
                2
            }
        },
        BookCommand::Probe(a) => dispatch(a.variant, ProbeTask(&a)),
    }
}

/// Writes `book` to `path` through a temporary file, so that an interrupted write never
/// leaves a damaged book.
pub fn save(book: &Book, path: &Path) -> Result<(), String> {
    let tmp = path.with_extension("book.tmp");
    std::fs::write(&tmp, book.to_bytes())
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

struct BuildTask<'a>(&'a BuildArgs, Evaluators);

impl GameTask for BuildTask<'_> {
    type Output = i32;
    fn run<P: Evaluate + Perft>(self) -> i32 {
        let a = self.0;
        let mut book = if a.out.exists() {
            match Book::load(&a.out) {
                Ok(b) if b.variant() == a.variant => b,
                Ok(b) => {
                    eprintln!("damka book: {} is a {} book", a.out.display(), b.variant());
                    return 2;
                }
                Err(e) => {
                    eprintln!("damka book: {e}");
                    return 2;
                }
            }
        } else {
            // Told now rather than at the first save, a few positions into the work.
            let folder = a.out.parent().filter(|p| !p.as_os_str().is_empty());
            if let Some(folder) = folder.filter(|f| !f.is_dir()) {
                eprintln!("damka book: no folder {}", folder.display());
                return 2;
            }
            Book::new(a.variant)
        };
        let cfg = BuildConfig {
            expansion: Expansion {
                margin: a.margin,
                seed: a.seed,
                ..Expansion::default()
            },
            search: PositionSearch {
                depth: Some(a.depth),
                movetime: a.movetime,
                lines: a.lines.max(1),
                threads: a.threads,
            },
            ..BuildConfig::new(a.plies, a.positions)
        };
        let mut builder = Builder::<P>::new(cfg, &book);
        if let Err(e) = builder.set_evaluator(self.1.get(P::VARIANT).clone()) {
            eprintln!("damka book: {e}");
            return 2;
        }
        let mut bar = ProgressBar::new("book", a.positions as u64);
        let mut since_save = 0;
        while builder.step(&mut book) {
            since_save += 1;
            let n = book.positions();
            bar.set(n as u64, &format!("frontier {}", builder.frontier_len()));
            if since_save >= 10 {
                if let Err(e) = save(&book, &a.out) {
                    eprintln!("\ndamka book: {e}");
                    return 1;
                }
                since_save = 0;
            }
        }
        bar.set(book.positions() as u64, "");
        bar.finish();
        match save(&book, &a.out) {
            Ok(()) => {
                eprintln!(
                    "damka book: {} positions, {} moves in {}",
                    book.positions(),
                    book.entries().len(),
                    a.out.display()
                );
                0
            }
            Err(e) => {
                eprintln!("damka book: {e}");
                1
            }
        }
    }
}

struct ProbeTask<'a>(&'a ProbeArgs);

impl GameTask for ProbeTask<'_> {
    type Output = i32;
    fn run<P: Evaluate + Perft>(self) -> i32 {
        let a = self.0;
        let book = match &a.book {
            Some(p) => match Book::load(p) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("damka book: {e}");
                    return 2;
                }
            },
            None => match compiled_in(a.variant) {
                Some(b) => (*b).clone(),
                None => Book::new(a.variant),
            },
        };
        let mut game = match &a.position.fen {
            Some(f) => match crate::game::Game::<P>::from_fen(f)
                .or_else(|_| P::parse_any(f).map(crate::game::Game::new))
            {
                Ok(g) => g,
                Err(e) => {
                    eprintln!("damka book: bad position: {e}");
                    return 2;
                }
            },
            None => crate::game::Game::<P>::from_start(),
        };
        for m in a.position.move_list() {
            if let Err(e) = game.play_text(m) {
                eprintln!("damka book: {m}: {e}");
                return 2;
            }
        }
        let pos = game.position();
        let moves = book.probe(pos);
        if moves.is_empty() {
            println!("not in the book");
            return 1;
        }
        for m in moves {
            println!(
                "{} {} depth={}",
                pos.move_to_algebraic(&m.mv),
                score_text(m.score, ScoreStyle::Token),
                m.depth
            );
        }
        0
    }
}
