//! `damka bench`: a fixed list of positions per game searched to a fixed depth with a fresh
//! table each; prints one line per position and last `bench nodes=N time=T nps=M`, where `T`
//! is the time of the searches (not of making and clearing the tables). With one
//! thread the node count is the same on every run (it is the `Bench:` signature of search and
//! evaluation commits).

use crate::core::Variant;
use crate::dispatch::{dispatch, GameTask};
pub use crate::engine::bench::{bench_depth, bench_game, BenchLine};
use crate::eval::{Evaluate, Evaluator, Evaluators};
use crate::search::{Job, SearchLimits, Searcher};
use crate::variant::{Notation, Perft};
use clap::Args;
use std::time::Instant;

/// Default table size for bench, MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// Arguments of `damka bench`.
#[derive(Args, Debug, Default)]
pub struct BenchArgs {
    /// Only this game (both when omitted).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Depth of every search [default: 11 for Russian, 8 for Turkish].
    #[arg(long)]
    pub depth: Option<u32>,
    /// Instead of the node count, measure the time-to-depth speed-up of this many threads
    /// over one on every position (prints each ratio and the median).
    #[arg(long)]
    pub speedup: Option<usize>,
    /// Threads, table, endgame databases, evaluation.
    #[command(flatten)]
    pub search: super::search_opts::SearchArgs,
}

/// The bench of one game: its positions searched to `depth` (the game's own by default).
struct BenchGame<'a> {
    depth: Option<u32>,
    evals: &'a Evaluators,
    threads: usize,
    hash: usize,
    egtb: Option<&'a (std::path::PathBuf, usize)>,
    out: &'a mut dyn FnMut(&BenchLine),
}

impl GameTask for BenchGame<'_> {
    type Output = Result<Vec<BenchLine>, String>;
    fn run<P: Evaluate + Perft>(self) -> Self::Output {
        let mut searcher = Searcher::<P>::new(self.threads, self.hash);
        searcher.set_evaluator(self.evals.get(P::VARIANT).clone())?;
        if let Some((dir, cache)) = self.egtb {
            match crate::egtb::endgames::open_for::<P>(dir, *cache) {
                Ok((_, eg)) => searcher.set_endgames(Some(eg)),
                Err(e) => eprintln!("damka bench: endgame databases not used: {e}"),
            }
        }
        for notice in searcher.take_notices() {
            eprintln!("damka bench: {notice}");
        }
        bench_game::<P>(self.depth, searcher, self.out)
    }
}

/// Runs the bench of one game (or both with `None`), calling `out` after each position.
/// `depth` `None` uses each game's default.
pub fn bench(
    variant: Option<Variant>,
    depth: Option<u32>,
    threads: usize,
    hash: usize,
    out: &mut dyn FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, String> {
    let evals = Evaluators::default();
    bench_with_endgames(variant, depth, threads, hash, None, &evals, out)
}

/// [`bench`] with endgame databases (folder, cache MiB) and the evaluation of each game.
pub fn bench_with_endgames(
    variant: Option<Variant>,
    depth: Option<u32>,
    threads: usize,
    hash: usize,
    egtb: Option<&(std::path::PathBuf, usize)>,
    evals: &Evaluators,
    out: &mut dyn FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, String> {
    let mut lines = Vec::new();
    for v in Variant::ALL {
        if variant.is_some_and(|w| w != v) {
            continue;
        }
        let task = BenchGame {
            depth,
            evals,
            threads,
            hash,
            egtb,
            out: &mut *out,
        };
        lines.extend(dispatch(v, task)?);
    }
    Ok(lines)
}

/// The time-to-depth speed-up of `threads` threads over one on each of a game's positions.
struct Speedup {
    depth: Option<u32>,
    evals: Evaluators,
    threads: usize,
    hash: usize,
}

impl GameTask for Speedup {
    type Output = Result<Vec<f64>, String>;
    fn run<P: Evaluate + Perft>(self) -> Self::Output {
        let eval = self.evals.get(P::VARIANT).clone();
        speedup_game::<P>(self.depth, eval, self.threads, self.hash)
    }
}

fn speedup_game<P: Evaluate>(
    depth: Option<u32>,
    eval: Evaluator,
    threads: usize,
    hash: usize,
) -> Result<Vec<f64>, String> {
    let depth = depth.unwrap_or(bench_depth(P::VARIANT));
    let list = crate::data::bench_positions(P::VARIANT);
    let mut one = Searcher::<P>::new(1, hash);
    let mut many = Searcher::<P>::new(threads, hash);
    one.set_evaluator(eval.clone())?;
    many.set_evaluator(eval)?;
    for notice in many.take_notices() {
        eprintln!("damka bench: {notice}");
    }
    let mut ratios = Vec::new();
    for (index, fen) in list.lines().enumerate() {
        let pos = P::parse_any(fen).map_err(|e| format!("bench position {index}: {e}"))?;
        let limits = SearchLimits::to_depth(depth);
        let time = |s: &mut Searcher<P>| {
            s.clear();
            let c = main_thread_cpu();
            let t = Instant::now();
            s.search(Job::new(pos, limits), |_| {});
            let wall = t.elapsed().as_secs_f64();
            let cpu = match (c, main_thread_cpu()) {
                (Some(a), Some(b)) => (b - a) as f64 * 1e-9,
                _ => wall,
            };
            (wall, cpu)
        };
        let (w1, c1) = time(&mut one);
        let (wn, cn) = time(&mut many);
        let r = c1 / cn.max(1e-6);
        println!(
            "{:<8} {:>2} depth={depth} wall1={w1:.3} wall{threads}={wn:.3} cpu1={c1:.3} \
             cpu{threads}={cn:.3} speedup={r:.2}",
            P::VARIANT.name(),
            index + 1
        );
        ratios.push(r);
    }
    Ok(ratios)
}

/// CPU time (ns) of the running search's main thread (`search-0`), from Linux's
/// `/proc/self/task/*/schedstat`. On a machine shared with other work a process does not get
/// one core per thread, so wall time would not show the speed-up; when every thread gets the
/// same share of a core, the main thread's CPU time to reach a depth is the wall time it would
/// take with a core per thread. `None` where `/proc` is not available.
fn main_thread_cpu() -> Option<u64> {
    let mut total = None;
    for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
        let dir = task.path();
        let comm = std::fs::read_to_string(dir.join("comm")).unwrap_or_default();
        if comm.trim() == "search-0" {
            let stat = std::fs::read_to_string(dir.join("schedstat")).ok()?;
            let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
            total = Some(total.unwrap_or(0) + ns);
        }
    }
    total
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n == 0 {
        0.0
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Runs `damka bench`; returns the exit status.
pub fn run(args: BenchArgs) -> i32 {
    let evals = match args.search.evaluators("bench") {
        Ok(e) => e,
        Err(status) => return status,
    };
    if let Some(n) = args.speedup {
        let n = n.clamp(2, crate::engine::MAX_THREADS);
        let hash = args.search.hash_or(DEFAULT_HASH_MB);
        let mut all = Vec::new();
        for v in Variant::ALL {
            if args.variant.is_some_and(|w| w != v) {
                continue;
            }
            let task = Speedup {
                depth: args.depth,
                evals: evals.clone(),
                threads: n,
                hash,
            };
            let r = dispatch(v, task);
            match r {
                Ok(mut r) => {
                    println!("{} median speedup={:.2}", v.name(), median(&mut r));
                    all.extend(r);
                }
                Err(e) => {
                    eprintln!("damka bench: {e}");
                    return 1;
                }
            }
        }
        println!("speedup threads={n} median={:.2}", median(&mut all));
        return 0;
    }
    let depth = args.depth.map(|d| d.clamp(1, 100));
    let threads = args.search.threads_or(1);
    let hash = args.search.hash_or(DEFAULT_HASH_MB);
    // Only tables named on the command line: the bench signature must not depend on what the
    // user has built into the default folder.
    let egtb = args.search.egtb.named_tables();
    let result = bench_with_endgames(
        args.variant,
        depth,
        threads,
        hash,
        egtb.as_ref(),
        &evals,
        &mut |l| {
            println!(
                "{:<8} {:>2} depth={:<3} score={:<6} nodes={:<10} time={:.3} best={}",
                l.variant.name(),
                l.index + 1,
                l.depth,
                l.score,
                l.nodes,
                l.time,
                l.best
            );
        },
    );
    match result {
        Ok(lines) => {
            let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
            // The searches' time: making the tables and clearing them before each position
            // is the same work whatever the evaluation, and is not search speed.
            let time: f64 = lines.iter().map(|l| l.time).sum();
            let nps = (nodes as f64 / time.max(1e-9)) as u64;
            println!("bench nodes={nodes} time={time:.3} nps={nps}");
            0
        }
        Err(e) => {
            eprintln!("damka bench: {e}");
            1
        }
    }
}
