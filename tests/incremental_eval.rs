//! The incremental learned evaluation (`EvalStack`) gives exactly the from-scratch score at
//! every node of random searches in both games (long king captures, crownings in the middle of
//! a capture, Turkish majority captures met and counted), by the fast and the portable loops,
//! with random nets of both network sizes and the compiled-in nets (first-layer sums in 16 bits
//! and in `i32`), and from set-up positions with more pieces a side than the 16-bit sums allow;
//! and nothing it keeps passes from one net to another or from one search to the next.

use crate::eval_support;

use damka::core::{Color, Rng, Variant};
use damka::eval::evaluator::king_against_king;
use damka::eval::pattern::Net;
use damka::eval::{evaluator, EvalStack, Evaluate, Evaluator};
use damka::search::{Job, SearchLimits, Searcher};
use damka::variant::{GameMove, Notation, Position, RussianPosition, TurkishPosition};
use eval_support::{cut_off_net, edge_net, extreme_net, random_net};
use std::sync::Arc;

/// What a random search met: nodes compared, and the moves the issue asks to see.
#[derive(Default, Debug)]
struct Met {
    nodes: usize,
    long_captures: usize,
    crowning_captures: usize,
    king_captures: usize,
}

/// A random walk through the tree below `pos` as a search makes it: at every node the
/// position is evaluated (or, one time in four, not: the stack then has gaps, as when the
/// search evaluates only some nodes), then a few random children are searched to `depth`.
/// Every incremental score must equal the from-scratch and the reference score.
struct Walk<'a> {
    net: &'a Net,
    /// The same net as an evaluation, evaluated through `Evaluate::evaluate_at` (the
    /// search's way: scores kept by position, then the stack).
    eval: Evaluator,
    stacks: [EvalStack; 3],
    rng: Rng,
    met: Met,
}

impl Walk<'_> {
    fn node<P: Evaluate>(&mut self, pos: &P, ply: usize, depth: u32) {
        let (w, b, s) = (
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            pos.side_to_move(),
        );
        if self.rng.below(4) != 0 {
            let want = self.net.evaluate_reference(w, b, s);
            assert_eq!(want, self.net.evaluate(w, b, s), "{pos}");
            let [fast, portable, search] = &mut self.stacks;
            for stack in [fast, portable] {
                assert_eq!(
                    want,
                    stack.evaluate(self.net, w, b, s, ply),
                    "{pos} ply {ply}"
                );
            }
            // The search scores one king against one king a draw, whatever the net says.
            let lone_kings = king_against_king([w.all(), b.all()], w.kings | b.kings);
            assert_eq!(
                if lone_kings { 0 } else { want },
                pos.evaluate_at(&self.eval, search, ply),
                "{pos} ply {ply}"
            );
            self.met.nodes += 1;
        }
        if depth == 0 {
            return;
        }
        let moves = pos.legal_moves();
        let children = 1 + self.rng.below(3) as usize;
        for _ in 0..children.min(moves.len()) {
            let m = moves[self.rng.below(moves.len() as u64) as usize];
            self.count(pos, &m);
            self.node(&pos.play(&m), ply + 1, depth - 1);
        }
    }

    fn count<P: Position>(&mut self, pos: &P, m: &P::Move) {
        let kings = pos.pieces(Color::White).kings | pos.pieces(Color::Black).kings;
        if m.capture_count() >= 3 {
            self.met.long_captures += 1;
        }
        if m.is_capture() && m.promotes() {
            self.met.crowning_captures += 1;
        }
        if m.is_capture() && kings != 0 {
            self.met.king_captures += 1;
        }
    }
}

impl<'a> Walk<'a> {
    fn new(net: &'a Net, seed: u64) -> Walk<'a> {
        Walk {
            net,
            eval: Evaluator::learned(Arc::new(net.clone())),
            stacks: [
                EvalStack::new(64),
                EvalStack::new_portable(64),
                EvalStack::new(64),
            ],
            rng: Rng::new(seed),
            met: Met::default(),
        }
    }
}

/// Random searches from positions of random games (every ply of them), with `net`.
fn check_game<P: Evaluate>(net: &Net, seed: u64, roots: usize) -> Met {
    let mut rng = Rng::new(seed);
    let mut walk = Walk::new(net, seed + 1);
    let mut done = 0;
    while done < roots {
        let mut pos = P::start();
        for _ in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() || done == roots {
                break;
            }
            if rng.below(3) == 0 {
                // A new search: sometimes the stack starts empty, sometimes it keeps what
                // the last search left (it must not matter).
                if rng.below(2) == 0 {
                    walk.stacks.iter_mut().for_each(EvalStack::clear);
                }
                walk.node(&pos, 0, 6);
                done += 1;
            }
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    walk.met
}

fn check_variant<P: Evaluate>() {
    let variant = P::VARIANT;
    let mut nets: Vec<Net> = (1..=3).map(|seed| random_net(variant, seed)).collect();
    // Without region patterns: only the network and the linear terms are kept.
    nets[2].patterns.clear();
    // First-layer sums far beyond the i16 range, 64 and 128 units (kept in i32).
    nets.extend((4..=5).map(|seed| extreme_net(variant, seed)));
    // Sums spanning almost all the values of the 16-bit form (kept in 16 bits, wrapping).
    nets.extend((6..=7).map(|seed| edge_net(variant, seed)));
    // A unit below 0 everywhere, by more than a 16-bit sum can take off.
    nets.push(cut_off_net(variant, 8));
    nets.extend(evaluator::compiled_in(variant).map(|n| (**n).clone()));
    let mut met = Met::default();
    for (i, net) in nets.iter().enumerate() {
        let m = check_game::<P>(net, 11 + i as u64 + 100 * variant as u64, 300);
        met.nodes += m.nodes;
        met.long_captures += m.long_captures;
        met.crowning_captures += m.crowning_captures;
        met.king_captures += m.king_captures;
    }
    assert!(met.nodes > 20_000, "{met:?}");
    assert!(met.long_captures > 20, "{met:?}");
    assert!(met.crowning_captures > 5, "{met:?}");
    assert!(met.king_captures > 100, "{met:?}");
}

#[test]
fn incremental_scores_equal_from_scratch() {
    check_variant::<RussianPosition>();
    check_variant::<TurkishPosition>();
}

#[test]
fn set_up_positions_with_more_pieces_than_a_side_starts_with() {
    // A Russian position may be set up with more than 12 pieces a side; the 16-bit sums do
    // not hold there (such positions are evaluated in i32), and below them captures bring
    // the sides back to 12, where they do. Every node's score is exact either way.
    let roots: Vec<RussianPosition> = [
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3,b4,f4:Bc5,g5,b6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8",
        "B:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,b4,d4:Bc5,e5,g5,b6,d6,f6,h6,a7,c7,e7,g7,b8,d8",
        "W:WKa1,Kc1,Ke1,Kg1,Kb2,Kd2,Kf2,Kh2,Ka3,Kc3,Ke3,Kg3,Kb4:Bd6,f6,a7,h8",
        "B:Wb2,d2:BKa1,Kc1,Ke1,Kg1,Kc3,Ke3,Kg3,Kb6,Kd6,Kf6,Kh6,Ka7,Kc7,Ke7",
    ]
    .iter()
    .map(|f| RussianPosition::parse_any(f).expect("a position"))
    .collect();
    let mut nets = vec![
        random_net(Variant::Russian, 2),
        edge_net(Variant::Russian, 6),
    ];
    nets.extend(evaluator::compiled_in(Variant::Russian).map(|n| (**n).clone()));
    for (i, net) in nets.iter().enumerate() {
        let narrow = net
            .network
            .as_ref()
            .and_then(|n| n.narrow())
            .expect("16-bit sums");
        let mut walk = Walk::new(net, 40 + i as u64);
        let (mut beyond, mut within) = (0, 0);
        for root in &roots {
            let (w, b) = (root.pieces(Color::White), root.pieces(Color::Black));
            assert!(!narrow.holds(w, b), "{root}");
            for _ in 0..40 {
                let before = walk.met.nodes;
                walk.node(root, 0, 7);
                assert!(walk.met.nodes > before);
            }
            // Which side of the bound the positions met were on.
            let mut rng = Rng::new(5);
            for _ in 0..200 {
                let mut pos = *root;
                for _ in 0..8 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
                }
                let (w, b) = (pos.pieces(Color::White), pos.pieces(Color::Black));
                if narrow.holds(w, b) {
                    within += 1;
                } else {
                    beyond += 1;
                }
            }
        }
        assert!(beyond > 100 && within > 100, "{beyond} {within}");
    }
}

#[test]
fn another_net_never_sees_the_sums_of_the_last() {
    // Two nets for one game, one stack: each score is the net's own, whichever net evaluated
    // the same positions at the same plies before.
    // Sums in 16 bits (the random nets) and in i32 (the extreme one).
    let nets = [
        random_net(Variant::Russian, 5),
        random_net(Variant::Russian, 6),
        extreme_net(Variant::Russian, 4),
    ];
    let mut stack = EvalStack::new(8);
    let mut pos = RussianPosition::start();
    let mut rng = Rng::new(3);
    for i in 0..400 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = RussianPosition::start();
            continue;
        }
        let (w, b, s) = (
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            pos.side_to_move(),
        );
        let net = &nets[rng.below(3) as usize];
        assert_eq!(
            stack.evaluate(net, w, b, s, i % 8),
            net.evaluate(w, b, s),
            "{pos}"
        );
        pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
    }
}

/// A search of `pos` to `depth` by `searcher` (its table cleared first): nodes, score, move.
fn search<P: Evaluate>(searcher: &mut Searcher<P>, pos: P, depth: u32) -> (u64, i32, String) {
    searcher.clear();
    let job = Job::new(pos, SearchLimits::to_depth(depth));
    let f = searcher.search(job, |_| {});
    (f.nodes, f.score, format!("{:?}", f.best))
}

#[test]
fn searches_do_not_depend_on_the_searches_before() {
    // The same search by a fresh searcher and by one that searched other positions (with
    // another net, then with the hand-written evaluation) before: the same tree, node for
    // node, so nothing the evaluation keeps passes from a search or a net to the next.
    let positions: Vec<RussianPosition> = [
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,c3,e3,g3:Ba7,c7,e7,g7,b6,d6,f6,h6,a5,c5,g5",
        "W:Wc1,e1,b2,f2,c3,e3,g3,d4:Bb6,d6,f6,a7,c7,e7,b8,h6",
    ]
    .iter()
    .map(|f| RussianPosition::parse_any(f).expect("a position"))
    .collect();
    let learned = evaluator::compiled_in(Variant::Russian).map_or_else(
        || Evaluator::learned(Arc::new(random_net(Variant::Russian, 8))),
        |n| Evaluator::learned(n.clone()),
    );
    let other = Evaluator::learned(Arc::new(random_net(Variant::Russian, 9)));
    let mut used = Searcher::<RussianPosition>::new(1, 4);
    for eval in [other, Evaluator::classic(), learned.clone()] {
        used.set_evaluator(eval).expect("a Russian evaluation");
        for &p in positions.iter().rev() {
            search(&mut used, p, 7);
        }
    }
    let mut fresh = Searcher::<RussianPosition>::new(1, 4);
    fresh.set_evaluator(learned).expect("a Russian net");
    for &p in &positions {
        assert_eq!(search(&mut fresh, p, 7), search(&mut used, p, 7));
    }
}
