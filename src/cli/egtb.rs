//! `damka egtb`: build, probe and verify the endgame databases.
//!
//! ```text
//! damka egtb build  --variant russian --pieces 5 [--dir DIR] [--threads N]
//! damka egtb probe  --variant russian --fen FEN [--dir DIR]
//! damka egtb verify --variant russian [--pieces N] [--dir DIR] [--threads N]
//! ```
//! DIR defaults to a `damka` folder under the user's data directory; each game has its own
//! folder in it.

use super::egtb_positions::PositionsArgs;
use crate::core::Variant;
use crate::dispatch::{dispatch, GameTask};
use crate::egtb::build::{self, SigReport};
use crate::egtb::index::{Geometry, Indexer, Signature};
use crate::egtb::verify::{self, Verified};
use crate::egtb::{default_dir, Tablebase, Value};
use crate::eval::Evaluate;
use crate::variant::{Notation, Perft, Position};
use clap::{Args, Subcommand};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `damka egtb`.
#[derive(Args, Debug)]
pub struct EgtbArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: EgtbAction,
}

/// The `egtb` actions.
#[derive(Subcommand, Debug)]
pub enum EgtbAction {
    /// Build every table up to N pieces (keeps tables already built).
    Build(BuildArgs),
    /// Print the value of a position, its distance to conversion and the best moves.
    Probe(ProbeArgs),
    /// Check every stored value against its successors.
    Verify(BuildArgs),
    /// Print random balanced endgame positions (match starts for databases against none).
    Positions(PositionsArgs),
    /// Check a PDN file of games: every game in which the named player reached a database
    /// win (under the draw rules, with the game's own counters) must be won by it.
    CheckGames(CheckGamesArgs),
}

/// Arguments of `egtb check-games`.
#[derive(Args, Debug)]
pub struct CheckGamesArgs {
    /// Game: russian or turkish.
    #[arg(long, default_value = "russian")]
    pub variant: String,
    /// The PDN file.
    #[arg(long)]
    pub pdn: PathBuf,
    /// The player (its name in the White/Black tags) whose database wins are checked.
    #[arg(long)]
    pub player: String,
    /// The database folder.
    #[command(flatten)]
    pub dir: DirArg,
}

/// Arguments of `egtb build` and `egtb verify`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Game: russian or turkish.
    #[arg(long, default_value = "russian")]
    pub variant: String,
    /// Largest number of pieces.
    #[arg(long, default_value_t = 4)]
    pub pieces: u32,
    /// The database folder.
    #[command(flatten)]
    pub dir: DirArg,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
}

/// Arguments of `egtb probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Game: russian or turkish.
    #[arg(long, default_value = "russian")]
    pub variant: String,
    /// The position (FEN or Hub position string).
    #[arg(long)]
    pub fen: String,
    /// The database folder.
    #[command(flatten)]
    pub dir: DirArg,
}

/// `--dir`: the database folder.
#[derive(Args, Debug)]
pub struct DirArg {
    /// Database folder (default: `damka/egtb` under the user's data directory).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

impl DirArg {
    /// The folder given, else [`default_dir`].
    pub fn path(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(default_dir)
    }
}

fn usage(msg: &str) -> i32 {
    eprintln!("damka egtb: {msg}");
    2
}

/// Runs `damka egtb`; returns the exit status (0 ok, 1 a check failed, 2 bad input).
pub fn run(args: EgtbArgs) -> i32 {
    let variant = match &args.action {
        EgtbAction::Build(a) | EgtbAction::Verify(a) => a.variant.parse::<Variant>(),
        EgtbAction::Probe(a) => a.variant.parse::<Variant>(),
        EgtbAction::Positions(a) => a.variant.parse::<Variant>(),
        EgtbAction::CheckGames(a) => a.variant.parse::<Variant>(),
    };
    let variant = match variant {
        Ok(v) => v,
        Err(e) => return usage(&e.to_string()),
    };
    struct Run(EgtbArgs);
    impl GameTask for Run {
        type Output = i32;
        fn run<P: Evaluate + Perft>(self) -> i32 {
            run_for::<P>(self.0)
        }
    }
    dispatch(variant, Run(args))
}

fn pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut b = rayon::ThreadPoolBuilder::new();
    if let Some(t) = threads {
        b = b.num_threads(t.max(1));
    }
    b.build().map_err(|e| e.to_string())
}

fn run_for<P: Evaluate + Notation>(args: EgtbArgs) -> i32 {
    match args.action {
        EgtbAction::Build(a) => run_build::<P>(a),
        EgtbAction::Probe(a) => run_probe::<P>(a),
        EgtbAction::Verify(a) => run_verify::<P>(a),
        EgtbAction::Positions(a) => super::egtb_positions::run::<P>(a),
        EgtbAction::CheckGames(a) => {
            let dir = a.dir.path();
            match crate::egtb::endgames::open_for::<P>(&dir, 64) {
                Ok((_, eg)) => {
                    super::egtb_positions::check_games::<P>(&a.pdn, &a.player, eg.as_ref())
                }
                Err(e) => usage(&e),
            }
        }
    }
}

fn check_pieces(n: u32) -> Result<(), String> {
    if (2..=8).contains(&n) {
        Ok(())
    } else {
        Err(format!("--pieces {n}: expected 2..=8"))
    }
}

fn clock(secs: f64) -> String {
    let s = secs.max(0.0) as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// What build and verify both start from: a checked piece count, the folder and the threads.
fn prepare(a: &BuildArgs) -> Result<(std::path::PathBuf, rayon::ThreadPool), String> {
    check_pieces(a.pieces)?;
    Ok((a.dir.path(), pool(a.threads)?))
}

fn run_build<P: Position>(a: BuildArgs) -> i32 {
    let (dir, pool) = match prepare(&a) {
        Ok(x) => x,
        Err(e) => return usage(&e),
    };
    // A folder that cannot be made is the user's input, told before any work (exit 2).
    if let Err(e) = std::fs::create_dir_all(&dir) {
        return usage(&format!("cannot make the folder {}: {e}", dir.display()));
    }
    println!(
        "building {} tables up to {} pieces in {}",
        P::VARIANT,
        a.pieces,
        dir.display()
    );
    let t0 = Instant::now();
    let mut last = 0.0f64;
    let result = pool.install(|| {
        build::build_all::<P>(&dir, a.pieces, |sig, level, frac| {
            let el = t0.elapsed().as_secs_f64();
            if el - last < 0.25 && level != 0 {
                return;
            }
            last = el;
            let left = if frac > 0.0 { el / frac - el } else { 0.0 };
            eprint!(
                "\r{:>12}  level {:>3}  {:5.1}% of positions  elapsed {}  left ~{}   ",
                sig.to_string(),
                level,
                100.0 * frac,
                clock(el),
                clock(left)
            );
            let _ = std::io::stderr().flush();
        })
    });
    eprintln!();
    match result {
        Ok(reports) => {
            print_reports(&reports);
            println!("total time {:.1} s", t0.elapsed().as_secs_f64());
            0
        }
        Err(e) => {
            eprintln!("damka egtb build: {e}");
            1
        }
    }
}

/// Prints one line per table and the totals.
pub fn print_reports(reports: &[SigReport]) {
    println!(
        "{:<12} {:>12} {:>12} {:>11} {:>11} {:>11} {:>5} {:>11} {:>8}",
        "table", "indices", "positions", "wins", "draws", "losses", "dtc", "bytes", "seconds"
    );
    let (mut pos, mut bytes) = (0u64, 0u64);
    for r in reports {
        println!(
            "{:<12} {:>12} {:>12} {:>11} {:>11} {:>11} {:>5} {:>11} {:>8.2}",
            format!("{} {}", r.sig.stem(), r.sig),
            r.indices,
            r.positions,
            r.wins,
            r.draws,
            r.losses,
            r.max_distance,
            r.bytes,
            r.seconds
        );
        pos += r.positions;
        bytes += r.bytes;
    }
    println!("{} tables, {pos} positions, {bytes} bytes", reports.len());
}

fn describe(v: Value) -> String {
    match v {
        Value::Win(d) => format!("win, conversion in {d} plies"),
        Value::Draw => "draw".to_string(),
        Value::Loss(d) => format!("loss, conversion in {d} plies"),
    }
}

fn run_probe<P: Position + Notation>(a: ProbeArgs) -> i32 {
    let pos = match P::parse_any(&a.fen) {
        Ok(p) => p,
        Err(e) => return usage(&e.to_string()),
    };
    let dir = a.dir.path();
    let tb = match Tablebase::open(&dir, P::VARIANT, 16) {
        Ok(t) => t,
        Err(e) => return usage(&e),
    };
    let value = match tb.probe(&pos) {
        Ok(v) => v,
        Err(e) => return usage(&e.to_string()),
    };
    println!("value {} ({})", describe(value), Signature::of(&pos));
    match tb.rank_moves(&pos) {
        Ok(moves) => {
            for (m, v) in moves {
                println!("{:<16} {}", pos.move_to_algebraic(&m), describe(v));
            }
            0
        }
        Err(e) => usage(&e.to_string()),
    }
}

fn run_verify<P: Position>(a: BuildArgs) -> i32 {
    let (dir, pool) = match prepare(&a) {
        Ok(x) => x,
        Err(e) => return usage(&e),
    };
    if !dir.is_dir() {
        return usage(&format!("no folder {}", dir.display()));
    }
    let g = Geometry::of::<P>();
    let results: Vec<Verified> = pool.install(|| {
        verify::verify_all::<P>(&dir, a.pieces, |v| match (&v.unreadable, &v.first_error) {
            (Some(why), _) => println!(
                "{} {:<10} unreadable: {why}",
                v.sig.stem(),
                v.sig.to_string()
            ),
            (None, Some(e)) => println!(
                "{} {:<10} {} of {} wrong, first: {e}",
                v.sig.stem(),
                v.sig.to_string(),
                v.errors,
                v.positions
            ),
            (None, None) => println!(
                "{} {:<10} {} positions ok ({} indices)",
                v.sig.stem(),
                v.sig.to_string(),
                v.positions,
                Indexer::new(g, v.sig).size()
            ),
        })
    });
    let failed = results
        .iter()
        .filter(|v| v.unreadable.is_some() || v.errors > 0)
        .count();
    if failed == 0 {
        println!("verify: all {} tables ok", results.len());
        0
    } else {
        println!("verify: {failed} of {} tables failed", results.len());
        1
    }
}
