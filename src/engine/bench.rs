//! The bench: a fixed list of positions per game ([`crate::data::bench_positions`]) searched
//! to a fixed depth with a fresh table each. With one thread the node count is the same on
//! every run and every machine (the `Bench:` signature of search and evaluation commits); the
//! command line's `damka bench` and the WebAssembly build both run it, which is how they show
//! that they search alike.

use crate::core::host::Instant;
use crate::core::Variant;
use crate::eval::Evaluate;
use crate::search::{Job, SearchLimits, Searcher};
use crate::variant::Notation;

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

/// The default depth of `damka bench` for `variant`: with the positions of
/// [`crate::data::bench_positions`], the `Bench:` signature of search and evaluation commits
/// (change only on purpose).
pub fn bench_depth(variant: Variant) -> u32 {
    match variant {
        Variant::Russian => 11,
        Variant::Turkish => 8,
    }
}

/// Searches the bench positions of `P` one after the other with `searcher` (its table
/// cleared before each) to `depth` (the game's [`bench_depth`] when `None`), calling `out`
/// after each position.
pub fn bench_game<P: Evaluate>(
    depth: Option<u32>,
    mut searcher: Searcher<P>,
    out: &mut dyn FnMut(&BenchLine),
) -> Result<Vec<BenchLine>, String> {
    let depth = depth.unwrap_or(bench_depth(P::VARIANT));
    let mut lines = Vec::new();
    for (index, fen) in crate::data::bench_positions(P::VARIANT).lines().enumerate() {
        let pos = P::parse_any(fen).map_err(|e| format!("bench position {index}: {e}"))?;
        searcher.clear();
        let job = Job::new(pos, SearchLimits::to_depth(depth));
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
