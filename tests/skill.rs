//! Strength levels (`skill` 1 to 10): level 10 is the engine as it is; lower levels play
//! legal moves, chosen among near-best ones with a seeded randomness (the same seed gives the
//! same moves, other seeds other moves), and weaker ones than full strength; every level, in
//! both games, answers within its clock at fast time controls.

use damka::core::{Rng, Variant};
use damka::engine::{Engine, GoMode, Limits};
use damka::protocol::hub::start_position;
use std::collections::HashSet;

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// Positions of a seeded random game, as Hub move lists from the start.
fn openings(variant: Variant, seed: u64, count: usize) -> Vec<Vec<String>> {
    let mut e = Engine::new(variant);
    let start = start_position(variant);
    let mut rng = Rng::new(seed);
    let mut moves: Vec<String> = Vec::new();
    let mut out = Vec::new();
    while out.len() < count {
        let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
        e.set_position(&start, &refs).unwrap();
        let legal = e.legal_moves();
        if legal.is_empty() {
            break;
        }
        if legal.len() >= 3 {
            out.push(moves.clone());
        }
        moves.push(legal[rng.below(legal.len() as u64) as usize].hub.clone());
    }
    out
}

/// The engine's move (Hub numbers), its score and nodes after `moves` from the start, by a
/// search (the opening book, which would answer in the first positions, is turned off).
fn think(e: &mut Engine, moves: &[String], limits: Limits) -> (String, i32, u64) {
    e.set_option("book", "false").unwrap();
    let start = start_position(e.variant());
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    e.set_position(&start, &refs).unwrap();
    let o = e
        .search_blocking(limits, GoMode::Think, Box::new(|_| {}))
        .unwrap();
    (o.best.unwrap().hub, o.score, o.nodes)
}

#[test]
fn level_ten_is_the_engine_as_it_is() {
    for variant in Variant::ALL {
        for moves in openings(variant, 1, 5) {
            let mut plain = Engine::new(variant);
            let mut ten = Engine::new(variant);
            ten.set_option("skill", "10").unwrap();
            ten.set_option("seed", "77").unwrap();
            assert_eq!(
                think(&mut plain, &moves, depth(7)),
                think(&mut ten, &moves, depth(7)),
                "{moves:?}"
            );
        }
    }
}

#[test]
fn lower_levels_play_legal_moves_varied_by_the_seed_and_reproducible() {
    for variant in Variant::ALL {
        for level in [1, 4, 8] {
            let mut chosen = HashSet::new();
            let mut e = Engine::new(variant);
            e.set_option("skill", &level.to_string()).unwrap();
            for seed in 1..=12 {
                let again = |e: &mut Engine| {
                    e.set_option("seed", &seed.to_string()).unwrap();
                    e.new_game();
                    think(e, &[], depth(30)).0
                };
                let m = again(&mut e);
                assert!(e.legal_moves().iter().any(|l| l.hub == m), "{m}");
                assert_eq!(again(&mut e), m, "seed {seed}: same moves");
                chosen.insert(m);
            }
            assert!(
                chosen.len() > 1,
                "{variant} level {level}: always {chosen:?}"
            );
        }
    }
}

#[test]
fn bad_levels_are_refused() {
    let mut e = Engine::new(Variant::Russian);
    for bad in ["0", "11", "x", "-3"] {
        assert!(e.set_option("skill", bad).is_err(), "{bad}");
    }
    let decl = e.options().into_iter().find(|o| o.name == "skill").unwrap();
    assert_eq!(decl.value, "10");
}

/// The score, by a full-strength search, that the side to move gives up by playing the move
/// a level chooses instead of the best one, summed over positions.
fn given_up(variant: Variant, level: u8) -> i32 {
    let mut judge = Engine::new(variant);
    let mut player = Engine::new(variant);
    player.set_option("skill", &level.to_string()).unwrap();
    player.set_option("seed", "5").unwrap();
    let mut total = 0;
    for moves in openings(variant, 9, 16) {
        let (_, best, _) = think(&mut judge, &moves, depth(6));
        let (m, _, _) = think(&mut player, &moves, depth(6));
        let mut after = moves.clone();
        after.push(m);
        let refs: Vec<&str> = after.iter().map(String::as_str).collect();
        let start = start_position(variant);
        judge.set_position(&start, &refs).unwrap();
        if judge.legal_moves().is_empty() {
            continue; // The move won at once: nothing given up.
        }
        let (_, reply, _) = think(&mut judge, &after, depth(5));
        total += (best - -reply).max(0);
    }
    total
}

#[test]
fn the_weakest_level_gives_up_more_than_full_strength() {
    for variant in Variant::ALL {
        let weak = given_up(variant, 1);
        let full = given_up(variant, 10);
        assert!(
            weak > full + 50,
            "{variant}: level 1 gave up {weak}, level 10 {full}"
        );
    }
}

/// Every level of both games on a fast clock (a second left and 0.05 s a move, as at the end
/// of a blitz game), from the start and from positions of a random game: each move is legal
/// and comes before the clock would run out. The levels below 10 search several root lines
/// under their node caps, which the clock must still cut short.
#[test]
fn every_level_moves_legally_within_its_time_at_fast_clocks() {
    let clock = Limits {
        time: Some(1.0),
        inc: 0.05,
        ..Limits::default()
    };
    let allowed = clock.time.unwrap() + clock.inc;
    for variant in Variant::ALL {
        let games = openings(variant, 21, 40);
        let positions: Vec<Vec<String>> = [0, 12, 24, 36]
            .iter()
            .filter_map(|&i| games.get(i).cloned())
            .collect();
        assert_eq!(positions.len(), 4, "{variant}: a game long enough");
        for level in 1..=10u8 {
            let mut e = Engine::new(variant);
            e.set_option("skill", &level.to_string()).unwrap();
            e.set_option("seed", "3").unwrap();
            for moves in &positions {
                let start = std::time::Instant::now();
                let (m, _, _) = think(&mut e, moves, clock.clone());
                let took = start.elapsed().as_secs_f64();
                assert!(
                    e.legal_moves().iter().any(|l| l.hub == m),
                    "{variant} level {level}: {m} after {moves:?}"
                );
                assert!(
                    took < allowed,
                    "{variant} level {level}: {took:.3} s of {allowed} s after {moves:?}"
                );
            }
        }
    }
}
