//! `damka bench`: a fixed list of positions per game searched to a fixed depth with a fresh
//! table each; prints one line per position and last `bench nodes=N time=T nps=M`. With one
//! thread the node count is the same on every run (it is the `Bench:` signature of search and
//! evaluation commits).

use crate::core::Variant;
use crate::eval::Evaluate;
use crate::search::{Job, SearchLimits, Searcher};
use crate::variant::{RussianPosition, TurkishPosition};
use clap::Args;
use std::time::Instant;

/// Default bench depth for Russian (narrow tree).
pub const DEFAULT_DEPTH_RUSSIAN: u32 = 11;
/// Default bench depth for Turkish (wide tree).
pub const DEFAULT_DEPTH_TURKISH: u32 = 8;
/// Default table size for bench, MiB.
pub const DEFAULT_HASH_MB: usize = 16;

/// Russian bench positions: openings, middle games, endings.
pub const RUSSIAN: &[&str] = &[
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,d4,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,d4,e3,g3:Bb6,d6,g5,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,b4,e3,g3:Ba5,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,h4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,f4,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
    "W:Wa1,c1,e1,b2,f2,c3,e3,g3,d4,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,f8",
    "B:Wc1,e1,b2,d2,f2,a3,c3,g3,b4,f4,h4:Ba5,c5,e5,b6,f6,h6,a7,e7,g7,d8",
    "W:Wa1,e1,g1,b2,d2,h2,c3,e3,g3,d4,h4:Bb6,f6,h6,c7,e7,g7,d8,f8,c5,e5",
    "B:Wc1,e1,b2,d2,f2,h2,c3,e3,g3,f4:Bb6,d6,h6,a7,c7,e7,g7,b8,f8,g5",
    "W:Wc1,e1,d2,f2,c3,e3,g3,b4,d4:Bb6,d6,f6,a7,c7,e7,b8,h6,g5",
    "B:Wa1,c1,b2,f2,h2,c3,g3,d4,f4,h4:Bb6,f6,h6,a7,c7,g7,b8,d8,e5",
    "W:Wc1,e1,g1,d2,h2,a3,e3,b4,f4:Ba5,d6,f6,h6,c7,e7,g7,d8",
    "W:We1,g1,d2,f2,c3,e3,h4,b4:Bb6,d6,c7,e7,f8,h6,a5",
    "W:WKa1,c3,e3:Bh8,f6",
    "W:WKc1,Ke1,Kg1:BKh8",
    "W:Wc3,e3,g3:Bd6,f6,h6",
    "B:Wa3,c3,f4:Bb6,e7,h6",
    "W:WKd4,e3:BKa7,c7",
    "W:Wb4,d4,f4,h4:Ba7,c7,e7,g7",
    "B:WKh2,c3:Bb6,d6,Kf8",
    "W:Wg3,e1:Bc7,a7,Kh8",
    "W:WKa1:Bh6,f6",
    "B:WKb2,Kh6:BKa7,c5",
];

/// Turkish bench positions: openings, middle games, endings.
pub const TURKISH: &[&str] = &[
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "B:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d4,e3,f3,g3,h3:Ba6,b6,c6,d6,e5,f6,g6,h6,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,d2,e2,f2,g2,h2,a4,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h5,a7,b7,c7,d7,e7,f7,g7,h7",
    "W:Wa2,b2,c2,f2,g2,h2,a3,b3,d4,e4,g3,h3:Ba6,b6,c6,f6,g6,h6,a7,b7,d5,e5,g7,h7",
    "B:Wa2,c2,e2,g2,b3,d3,f3,h3,c4,f4:Bb6,d6,f6,h6,a7,c7,e7,g7,c5,g5",
    "W:Wb2,c2,d2,e2,f2,g2,a4,b4,c4,f4,g4:Bb6,c6,d6,e6,f6,a7,b7,g7,h5,c5",
    "B:Wa3,b3,c3,d3,e3,f3,g3,h3,d2,e2:Ba6,b6,c6,d6,e6,f6,g6,h6,d7,e7",
    "W:Wa3,c3,e3,g3,b4,d4,f4,h4:Ba6,c6,e6,g6,b5,d5,f5,h5",
    "B:Wb2,c2,f2,g2,c3,d3,e3,f3,d4,e4:Bc7,d7,e7,f7,c6,d6,e6,f6,d5,e5",
    "W:Wa2,h2,b3,g3,c4,f4,d5:Bb7,g7,c6,f6,e6,a6,h6",
    "W:WKd1,a3,h3:Be6,f7,g6",
    "W:WKa1,Kh1:BKd8",
    "B:Wd2,e3,f4:Bc6,d7",
    "W:Wb5,c4,g3:Ba7,h7,d6",
    "W:WKe4:Ba7,h7",
    "B:WKa8,b5:BKh1,g4",
    "W:Wa2,b2,c2:Bf7,g7,h7",
    "W:Wd6,e5:Bd2,Ka8",
    "W:WKc3,d4,e4,f4:BKf8,a6,b6,c6",
    "B:Wa5,b5,c5:Ba7,b7,c7",
    "W:We2,f2,g2,h2,e3,f3:Ba7,b7,c7,d7,a6,b6",
];

/// Arguments of `damka bench`.
#[derive(Args, Debug, Default)]
pub struct BenchArgs {
    /// Only this game (both when omitted).
    #[arg(long, value_parser = super::parse_variant)]
    pub variant: Option<Variant>,
    /// Depth of every search [default: 11 for Russian, 8 for Turkish].
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search threads [default: 1].
    #[arg(long)]
    pub threads: Option<usize>,
    /// Transposition table, MiB [default: 16].
    #[arg(long)]
    pub hash: Option<usize>,
    /// Instead of the node count, measure the time-to-depth speed-up of this many threads
    /// over one on every position (prints each ratio and the median).
    #[arg(long)]
    pub speedup: Option<usize>,
    /// The evaluation.
    #[command(flatten)]
    pub eval: super::eval_opts::EvalArgs,
}

/// The result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The game.
    pub variant: Variant,
    /// Index in the list.
    pub index: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds.
    pub time: f64,
    /// Completed depth.
    pub depth: u32,
    /// Score.
    pub score: i32,
    /// Best move, algebraic.
    pub best: String,
}

fn bench_game<P: Evaluate>(
    list: &[&str],
    depth: u32,
    threads: usize,
    hash: usize,
    out: &mut dyn FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, String> {
    let mut searcher = Searcher::<P>::new(threads, hash);
    let mut lines = Vec::new();
    for (index, fen) in list.iter().enumerate() {
        let pos = P::parse_any(fen).map_err(|e| format!("bench position {index}: {e}"))?;
        searcher.clear();
        let job = Job::new(
            pos,
            SearchLimits {
                depth: Some(depth),
                analyze: true,
                ..SearchLimits::default()
            },
        );
        let t = Instant::now();
        let f = searcher.search(job, |_| {});
        let line = BenchLine {
            variant: P::VARIANT,
            index,
            nodes: f.nodes,
            time: t.elapsed().as_secs_f64(),
            depth: f.depth,
            score: f.score,
            best: f.best.map_or("-".into(), |m| pos.move_to_algebraic(&m)),
        };
        out(&line);
        lines.push(line);
    }
    Ok(lines)
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
    let mut lines = Vec::new();
    for v in Variant::ALL {
        if variant.is_some_and(|w| w != v) {
            continue;
        }
        lines.extend(match v {
            Variant::Russian => {
                let d = depth.unwrap_or(DEFAULT_DEPTH_RUSSIAN);
                bench_game::<RussianPosition>(RUSSIAN, d, threads, hash, out)?
            }
            Variant::Turkish => {
                let d = depth.unwrap_or(DEFAULT_DEPTH_TURKISH);
                bench_game::<TurkishPosition>(TURKISH, d, threads, hash, out)?
            }
        });
    }
    Ok(lines)
}

fn speedup_game<P: Evaluate>(
    list: &[&str],
    depth: u32,
    threads: usize,
    hash: usize,
) -> Result<Vec<f64>, String> {
    let mut one = Searcher::<P>::new(1, hash);
    let mut many = Searcher::<P>::new(threads, hash);
    let mut ratios = Vec::new();
    for (index, fen) in list.iter().enumerate() {
        let pos = P::parse_any(fen).map_err(|e| format!("bench position {index}: {e}"))?;
        let limits = SearchLimits {
            depth: Some(depth),
            analyze: true,
            ..SearchLimits::default()
        };
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
    if let Err(e) = args.eval.apply() {
        eprintln!("damka bench: {e}");
        return 2;
    }
    if let Some(n) = args.speedup {
        let n = n.clamp(2, crate::engine::MAX_THREADS);
        let hash = args
            .hash
            .unwrap_or(DEFAULT_HASH_MB)
            .clamp(1, crate::engine::MAX_HASH_MB);
        let mut all = Vec::new();
        for v in Variant::ALL {
            if args.variant.is_some_and(|w| w != v) {
                continue;
            }
            let r = match v {
                Variant::Russian => speedup_game::<RussianPosition>(
                    RUSSIAN,
                    args.depth.unwrap_or(DEFAULT_DEPTH_RUSSIAN),
                    n,
                    hash,
                ),
                Variant::Turkish => speedup_game::<TurkishPosition>(
                    TURKISH,
                    args.depth.unwrap_or(DEFAULT_DEPTH_TURKISH),
                    n,
                    hash,
                ),
            };
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
    let threads = args
        .threads
        .unwrap_or(1)
        .clamp(1, crate::engine::MAX_THREADS);
    let hash = args
        .hash
        .unwrap_or(DEFAULT_HASH_MB)
        .clamp(1, crate::engine::MAX_HASH_MB);
    let start = Instant::now();
    let result = bench(args.variant, depth, threads, hash, &mut |l| {
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
    });
    match result {
        Ok(lines) => {
            let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
            let time = start.elapsed().as_secs_f64();
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
