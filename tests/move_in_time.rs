//! A move in time, always: a clock at zero is answered at once with a legal move,
//! even in the positions where the first iteration costs the most, and a hard limit already
//! passed cuts even the first iteration short.

use damka::core::Variant;
use damka::engine::{Engine, GoMode, Limits};
use damka::search::time::TimePlan;
use damka::search::{Job, SearchLimits, Searcher};
use damka::variant::{Notation, Position, TurkishPosition};

/// The Turkish positions where a depth-1 search took the most nodes (one thread, empty
/// table), found by `cargo run --release -p damka-research --bin depth1_nodes -- turkish 2000 SEED 3`
/// (about 130,000 positions of 2,000 games for each seed): 2246 and 1691 nodes (seed 1),
/// 2010 and 1945 (seed 3); seed 2's largest was 1219.
const COSTLIEST_DEPTH_1: [&str; 4] = [
    "W:Wa2,b2,c2,d2,e2,g2,h2,e3,g3,a4,b4,d4,h4:BKf3,g5,a6,f6,h6,c7,f7,g7,h7",
    "B:Wb2,c2,e2,f2,g2,e3,g3,a4,b4,f4:BKh1,c4,Kd5,e5,g5,a6,d6,f6,a7,b7,c7,d7,e7,f7,g7,h7",
    "B:Wa2,b2,d2,e2,f2,g2,h2,a3,b3,f3,d4,g4,h4,Kg8:BKc1,a5,f5,a6,c6,d6,f6,h6,a7,c7,d7,f7,g7,h7",
    "W:Wa2,b2,d2,e2,f2,g2,h2,e3,d4,f4,g4,Kf8:BKc1,b4,c4,e5,d6,a7,b7,c7,d7,e7,g7,h7",
];

/// With a clock at zero the search never starts a second iteration and cuts the first at its
/// hard limit, so it costs at most one depth-1 search (largest found: 2246 nodes) and a
/// clock check's worth of nodes, whatever the speed of the machine.
const ZERO_CLOCK_NODES: u64 = 3000;

#[test]
fn zero_clock_is_answered_with_a_legal_move_after_few_nodes() {
    for threads in [1, 2] {
        let mut e = Engine::new(Variant::Turkish);
        e.set_hash_mb(2);
        e.set_threads(threads);
        for fen in COSTLIEST_DEPTH_1 {
            e.new_game();
            e.set_position(fen, &[]).unwrap();
            let limits = Limits {
                time: Some(0.0),
                inc: 0.0,
                ..Limits::default()
            };
            let o = e
                .search_blocking(limits, GoMode::Think, Box::new(|_| {}))
                .unwrap();
            let best = o.best.expect("a move");
            assert!(e.legal_moves().contains(&best), "{fen}: {best:?}");
            if threads == 1 {
                assert!(o.nodes <= ZERO_CLOCK_NODES, "{fen}: {} nodes", o.nodes);
            }
        }
    }
}

#[test]
fn a_passed_hard_limit_cuts_the_first_iteration_at_its_first_node() {
    let mut s = Searcher::<TurkishPosition>::new(1, 2);
    for fen in COSTLIEST_DEPTH_1 {
        let root = TurkishPosition::from_fen(fen).unwrap();
        let limits = SearchLimits {
            time: TimePlan {
                optimum: Some(0.0),
                maximum: Some(0.0),
            },
            ..SearchLimits::default()
        };
        let f = s.search(Job::new(root, limits), |_| {});
        // The clock is checked at the first node: no iteration completes, and the answer is
        // the hash move or the first move in capture order, legal either way.
        assert!(f.nodes <= 1, "{fen}: {} nodes", f.nodes);
        assert_eq!(f.depth, 0);
        let best = f.best.expect("a move");
        assert!(root.legal_moves().contains(&best), "{fen}");
    }
}
