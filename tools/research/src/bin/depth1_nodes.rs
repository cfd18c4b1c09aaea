//! Finds the positions where a depth-1 search costs the most nodes: playouts from the start
//! position (seeded; every other move random, the others the depth-1 search's choice), every
//! position searched to depth 1 on one thread, the largest printed with their node counts
//! (FEN). Used to pick the zero-clock test positions of
//! `tests/move_in_time.rs` (a clock at zero answered at once).
//!
//!     cargo run --release -p damka-research --bin depth1_nodes -- [turkish|russian] [GAMES] [SEED] [TOP]

use damka::core::rng::Rng;
use damka::eval::Evaluate;
use damka::search::{Job, SearchLimits, Searcher};
use damka::variant::{Notation, RussianPosition, TurkishPosition};

fn scan<P: Evaluate + Notation>(games: usize, seed: u64, top: usize) {
    let mut rng = Rng::new(seed);
    let mut searcher = Searcher::<P>::new(1, 1);
    let limits = SearchLimits {
        depth: Some(1),
        ..SearchLimits::default()
    };
    let mut found: Vec<(u64, String)> = Vec::new();
    let mut searched = 0u64;
    let mut seen = std::collections::HashSet::new();
    for _ in 0..games {
        let mut pos = P::start();
        for _ply in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            searcher.clear();
            let f = searcher.search(Job::new(pos, limits), |_| {});
            searched += 1;
            let fen = pos.to_fen();
            if seen.insert(fen.clone()) {
                found.push((f.nodes, fen));
            }
            // Half the moves are the search's choice, so that the games look like games
            // (exchanges, kings on both sides), not only like random walks.
            let m = match f.best {
                Some(b) if rng.below(2) == 0 => b,
                _ => moves[rng.below(moves.len() as u64) as usize],
            };
            pos = pos.play(&m);
        }
        found.sort_by_key(|f| std::cmp::Reverse(f.0));
        found.truncate(top);
    }
    println!("# {searched} positions from {games} random games (seed {seed})");
    for (nodes, fen) in &found {
        println!("{nodes:>8} {fen}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map_or("turkish", String::as_str);
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let (games, seed, top) = (num(1, 200) as usize, num(2, 1), num(3, 10) as usize);
    match game {
        "turkish" => scan::<TurkishPosition>(games, seed, top),
        "russian" => scan::<RussianPosition>(games, seed, top),
        other => {
            eprintln!("unknown game {other:?} (turkish or russian)");
            std::process::exit(2);
        }
    }
}
