//! `damka perft`: count the leaves of the move tree of one position, or check every position
//! of an EPD file of reference counts.
//!
//! ```text
//! damka perft --variant russian [--fen FEN] --depth N [--divide] [--threads N]
//! damka perft --variant russian --epd FILE [--max-nodes N] [--threads N]
//! ```

use crate::core::Variant;
use crate::dispatch::{dispatch, GameTask};
use crate::eval::Evaluate;
use crate::perft;
use crate::variant::{Notation, Perft};
use clap::Args;
use std::time::Instant;

/// Arguments of `damka perft`.
#[derive(Args, Debug, Default)]
pub struct PerftArgs {
    /// Game: russian or turkish.
    #[arg(long, default_value = "russian")]
    pub variant: String,
    /// Start position (FEN or Hub position string); the initial position when omitted.
    #[arg(long)]
    pub fen: Option<String>,
    /// Depth in plies.
    #[arg(long, allow_hyphen_values = true)]
    pub depth: Option<String>,
    /// Print the leaves below each root move first.
    #[arg(long)]
    pub divide: bool,
    /// Threads (the work is split across them); 1 by default.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Check every position of this EPD file instead (`FEN ;D1 n ;D2 n ...`).
    #[arg(long)]
    pub epd: Option<String>,
    /// With --epd: check only the depths whose expected count is at most this.
    #[arg(long, default_value_t = 100_000_000)]
    pub max_nodes: u64,
}

/// Runs `damka perft`; returns the exit status (0 ok, 1 an EPD count failed, 2 bad input).
pub fn run(args: PerftArgs) -> i32 {
    let variant: Variant = match args.variant.parse() {
        Ok(v) => v,
        Err(e) => return usage(&format!("{e}")),
    };
    struct Run<'a>(&'a PerftArgs);
    impl GameTask for Run<'_> {
        type Output = i32;
        fn run<P: Evaluate + Perft>(self) -> i32 {
            run_for::<P>(self.0)
        }
    }
    dispatch(variant, Run(&args))
}

fn usage(msg: &str) -> i32 {
    eprintln!("damka perft: {msg}");
    2
}

fn run_for<P: Perft>(args: &PerftArgs) -> i32 {
    let threads = args.threads.max(1);
    if let Some(file) = &args.epd {
        return run_epd::<P>(file, args.max_nodes, threads);
    }
    let depth: u32 = match args.depth.as_deref().map(str::parse) {
        Some(Ok(d)) if d <= 64 => d,
        Some(_) => {
            return usage(&format!(
                "bad depth {:?} (expected a whole number 0..=64)",
                args.depth.as_deref().unwrap_or("")
            ))
        }
        None => return usage("--depth N is required (or --epd FILE)"),
    };
    let pos = match &args.fen {
        Some(f) => match P::parse_any(f) {
            Ok(p) => p,
            Err(e) => return usage(&e.to_string()),
        },
        None => P::start(),
    };
    let t0 = Instant::now();
    let nodes = if args.divide {
        let rows = perft::divide_parallel(&pos, depth.max(1), threads);
        if depth == 0 {
            1
        } else {
            for (mv, n) in &rows {
                println!("{} {}", pos.move_to_algebraic(mv), n);
            }
            rows.iter().map(|r| r.1).sum()
        }
    } else {
        perft::perft_parallel(&pos, depth, threads)
    };
    let secs = t0.elapsed().as_secs_f64();
    let nps = if secs > 0.0 {
        nodes as f64 / secs / 1e6
    } else {
        0.0
    };
    println!("perft depth={depth} nodes={nodes} time={secs:.3} nps={nps:.1}");
    0
}

fn run_epd<P: Perft>(file: &str, max_nodes: u64, threads: usize) -> i32 {
    let text = match crate::core::file::read_text(std::path::Path::new(file), "an EPD file") {
        Ok(t) => t,
        Err(e) => return usage(&format!("cannot read {e}")),
    };
    let entries = match perft::parse_epd::<P>(&text) {
        Ok(e) => e,
        Err(e) => return usage(&format!("{file}: {e}")),
    };
    let t0 = Instant::now();
    let checks = perft::check_epd(&entries, max_nodes, threads, |c| {
        println!(
            "{} D{} expected={} got={} {}",
            c.fen,
            c.depth,
            c.expected,
            c.got,
            if c.ok() { "ok" } else { "FAIL" }
        );
    });
    let failed = checks.iter().filter(|c| !c.ok()).count();
    println!(
        "epd positions={} checks={} passed={} failed={} time={:.3}",
        entries.len(),
        checks.len(),
        checks.len() - failed,
        failed,
        t0.elapsed().as_secs_f64()
    );
    if failed == 0 {
        0
    } else {
        1
    }
}
