//! The options shared by several commands, declared once: threads and table size
//! (`--threads`, `--hash`), the endgame databases (`--egtb-path`, `--egtb-cache`), the
//! evaluation (`--eval`, `--eval-file`), a position (`--fen`, `--moves`), the limits of a
//! search (`--depth`, `--movetime`, `--nodes`) and the strength level (`--skill`, `--seed`).

use crate::engine::{Limits, DEFAULT_EGTB_CACHE_MB, MAX_HASH_MB, MAX_THREADS};
use crate::eval::{EvalKind, Evaluators};
use clap::Args;
use std::path::PathBuf;

/// `--egtb-path DIR` and `--egtb-cache MiB`.
#[derive(Args, Debug, Clone)]
pub struct EgtbArgs {
    /// Endgame database folder (as given to `damka egtb build --dir`). Default: the folder
    /// `damka egtb build` writes to when it names none, if it exists; "" uses no tables.
    #[arg(long = "egtb-path", value_parser = any_path)]
    pub path: Option<PathBuf>,
    /// Endgame database cache in MiB.
    #[arg(long = "egtb-cache", default_value_t = DEFAULT_EGTB_CACHE_MB)]
    pub cache: usize,
}

/// A path, the empty one included (clap's own parser refuses it; here it means "none").
fn any_path(s: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(s))
}

impl Default for EgtbArgs {
    fn default() -> Self {
        EgtbArgs {
            path: None,
            cache: DEFAULT_EGTB_CACHE_MB,
        }
    }
}

impl EgtbArgs {
    /// The folder and cache size to play with: the folder given (none for an empty value),
    /// else the default folder when tables were built there.
    pub fn tables(&self) -> Option<(PathBuf, usize)> {
        let dir = match &self.path {
            Some(p) if p.as_os_str().is_empty() => None,
            Some(p) => Some(p.clone()),
            None => crate::egtb::default_dir_if_present(),
        };
        dir.map(|p| (p, self.cache))
    }

    /// The folder and cache size only when a folder is named: for runs whose node counts must
    /// not depend on what the user has built (`bench`).
    pub fn named_tables(&self) -> Option<(PathBuf, usize)> {
        self.path
            .clone()
            .filter(|p| !p.as_os_str().is_empty())
            .map(|p| (p, self.cache))
    }
}

/// `--eval classic|learned` and `--eval-file FILE`.
#[derive(Args, Debug, Default, Clone)]
pub struct EvalArgs {
    /// Evaluation: `learned` (the compiled-in net, the default where there is one) or
    /// `classic` (hand-written), for both games.
    #[arg(long, value_parser = |s: &str| s.parse::<EvalKind>())]
    pub eval: Option<EvalKind>,
    /// Load a learned net from this weights file (for the game it was trained for).
    #[arg(long, conflicts_with = "eval")]
    pub eval_file: Option<PathBuf>,
}

impl EvalArgs {
    /// The chosen evaluation of each game; the error is a one-line message.
    pub fn evaluators(&self) -> Result<Evaluators, String> {
        let mut evals = Evaluators::default();
        if let Some(k) = self.eval {
            // `learned` for both games at once keeps a game without a compiled-in net as it is.
            evals.set_kind(k);
        }
        if let Some(p) = &self.eval_file {
            evals.load_file(p)?;
        }
        Ok(evals)
    }
}

/// The search's resources and knowledge: threads, table, endgame databases, evaluation.
#[derive(Args, Debug, Default, Clone)]
pub struct SearchArgs {
    /// Search threads [default: 1].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_THREADS as i64))]
    pub threads: Option<u32>,
    /// Transposition table, MiB [default: 64; bench: 16].
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=MAX_HASH_MB as i64))]
    pub hash: Option<u32>,
    /// The endgame databases.
    #[command(flatten)]
    pub egtb: EgtbArgs,
    /// The evaluation.
    #[command(flatten)]
    pub eval: EvalArgs,
}

impl SearchArgs {
    /// Search threads, `default` when not given.
    pub fn threads_or(&self, default: usize) -> usize {
        self.threads.map_or(default, |t| t as usize)
    }

    /// Table size in MiB, `default` when not given.
    pub fn hash_or(&self, default: usize) -> usize {
        self.hash.map_or(default, |h| h as usize)
    }

    /// The chosen evaluation of each game for command `command`; on failure prints
    /// `damka COMMAND: reason` on stderr and gives the exit status 2.
    pub fn evaluators(&self, command: &str) -> Result<Evaluators, i32> {
        self.eval.evaluators().map_err(|e| {
            eprintln!("damka {command}: {e}");
            2
        })
    }
}

/// `--fen` and `--moves`: a position and the moves played from it first.
#[derive(Args, Debug, Default, Clone)]
pub struct PositionArgs {
    /// Position (FEN or Hub position string); the start position when omitted.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play from the position first (Hub numbers or algebraic), space separated.
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The moves, one text each (none when `--moves` is not given).
    pub fn move_list(&self) -> Vec<&str> {
        self.moves
            .as_deref()
            .map_or(Vec::new(), |m| m.split_whitespace().collect())
    }
}

/// `--depth`, `--movetime` and `--nodes`: the limits of each search (of one position, or of
/// each position of a game).
#[derive(Args, Debug, Default, Clone)]
pub struct LimitArgs {
    /// Depth limit of each position searched.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub depth: Option<u32>,
    /// Time limit of each position searched, seconds (when no limit is given: 5 for one
    /// position, 1 per position of `analyse --pdn`, 0.3 per position of `review`).
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<f64>,
    /// Node limit of each position searched.
    #[arg(long)]
    pub nodes: Option<u64>,
}

impl LimitArgs {
    /// The limits given, or `default_movetime` seconds when none is.
    pub fn limits<M>(&self, default_movetime: f64) -> Limits<M> {
        let none = self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none();
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: if none {
                Some(default_movetime)
            } else {
                self.movetime
            },
            ..Limits::default()
        }
    }
}

/// `--skill` and `--seed`: the engine's strength level and the seed of its choices.
#[derive(Args, Debug, Clone)]
pub struct StrengthArgs {
    /// Strength level, 1 (beginner) to 10 (full strength).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub skill: u8,
    /// Seed of the strength level's (and the opening book's) choices (0: from the clock).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl Default for StrengthArgs {
    fn default() -> Self {
        StrengthArgs { skill: 10, seed: 0 }
    }
}
