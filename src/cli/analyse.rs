//! `damka analyse`: analyses one position, printing one line per completed iteration and last
//! `bestmove <move>` (algebraic, every landing square).

use crate::core::{score_text, ScoreStyle, Variant};
use crate::engine::{Engine, GoMode, Info, Limits};
use clap::Args;

/// Default time when no limit is given, seconds.
pub const DEFAULT_MOVETIME: f64 = 5.0;

/// Arguments of `damka analyse`.
#[derive(Args, Debug, Default)]
pub struct AnalyseArgs {
    /// The game.
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Position (FEN or Hub position string); the start position when omitted.
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves to play from the position first (Hub numbers or algebraic), space separated.
    #[arg(long)]
    pub moves: Option<String>,
    /// Depth limit.
    #[arg(long, conflicts_with_all = ["movetime", "nodes"])]
    pub depth: Option<u32>,
    /// Time limit, seconds (5 when no limit is given).
    #[arg(long, conflicts_with = "nodes")]
    pub movetime: Option<f64>,
    /// Node limit.
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Threads, table, endgame databases, evaluation.
    #[command(flatten)]
    pub search: super::search_opts::SearchArgs,
}

/// One iteration line.
pub fn info_line(i: &Info) -> String {
    let pv: Vec<&str> = i.pv.iter().map(|m| m.algebraic.as_str()).collect();
    format!(
        "depth={} mean-depth={:.1} score={} nodes={} time={:.3} nps={:.0} pv=\"{}\"",
        i.depth,
        i.mean_depth,
        score_text(i.score, ScoreStyle::Token),
        i.nodes,
        i.time,
        i.nps,
        pv.join(" ")
    ) + &i
        .egtb_hits
        .map_or(String::new(), |h| format!(" egtb-hits={h}"))
}

/// Runs `damka analyse`; returns the exit status.
pub fn run(args: AnalyseArgs) -> i32 {
    if let Err(status) = args.search.install_eval("analyse") {
        return status;
    }
    let variant = args.variant.unwrap_or(Variant::Russian);
    let mut engine = Engine::new(variant);
    if let Some(n) = args.search.threads {
        engine.set_threads(n as usize);
    }
    if let Some(h) = args.search.hash {
        engine.set_hash_mb(h as usize);
    }
    if let Some((path, cache)) = args.search.egtb.tables() {
        engine.set_endgames(&path.to_string_lossy(), cache);
    }
    for notice in engine.take_notices() {
        eprintln!("damka analyse: {notice}");
    }
    let moves: Vec<&str> = args
        .moves
        .as_deref()
        .map(|m| m.split_whitespace().collect())
        .unwrap_or_default();
    let pos = match &args.fen {
        Some(f) => f.clone(),
        None => engine.fen(),
    };
    if let Err(e) = engine.set_position(&pos, &moves) {
        eprintln!("damka analyse: {e}");
        return 2;
    }
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime: args.movetime,
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime.is_none() {
        limits.movetime = Some(DEFAULT_MOVETIME);
    }
    let res = engine.search_blocking(
        limits,
        GoMode::Analyze,
        Box::new(|i: &Info| println!("{}", info_line(i))),
    );
    for m in engine.take_notices() {
        eprintln!("damka analyse: {m}");
    }
    match res {
        Ok(out) => match out.best {
            Some(m) => {
                println!("bestmove {}", m.algebraic);
                0
            }
            None => {
                println!("bestmove none");
                1
            }
        },
        Err(e) => {
            eprintln!("damka analyse: {e}");
            1
        }
    }
}
