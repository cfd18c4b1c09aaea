//! Russian end-of-game rules through `Game`: no legal move, threefold repetition and the
//! FMJD-64 draw rules 7.2.4 - 7.2.8, each with a sequence that triggers it and one that just
//! misses it.

use crate::game_support;

use damka::core::Color;
use damka::game::Game;
use damka::variant::Move;
use damka::variant::{EndRule, GameEnd, GameMove, Notation, Outcome, Position, RussianPosition};
use game_support::{draw, end, ends_after, play};

type G = Game<RussianPosition>;

const LONG_DIAGONAL: u64 = 0x8040_2010_0804_0201;

fn game(fen: &str) -> G {
    game_support::game(fen)
}

/// What kind of move the walk plays at a ply.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Want {
    /// A quiet king move.
    King,
    /// A man move (quiet).
    Man,
}

/// Whether `mv` may be the walk's move at `ply` (1-based): quiet, of the wanted kind, leading
/// to a position not seen before in which the side to move has no capture, and accepted by
/// `keep`.
fn fits(
    g: &G,
    ply: usize,
    mv: &Move,
    men: &[usize],
    keep: &dyn Fn(usize, &RussianPosition) -> bool,
) -> bool {
    let pos = g.position();
    let want = if men.contains(&ply) {
        Want::Man
    } else {
        Want::King
    };
    let is_king = pos.pieces(pos.side_to_move()).kings & mv.from().bit() != 0;
    if mv.is_capture() || is_king != (want == Want::King) {
        return false;
    }
    let next = pos.play(mv);
    !next.has_capture() && keep(ply, &next) && !g.positions().contains(&next)
}

/// Finds moves up to ply `plies` that all [`fits`], by depth-first search with backtracking
/// (a greedy walk can run into a corner), within a node budget. Leaves them played in `g`.
fn find(
    g: &mut G,
    plies: usize,
    men: &[usize],
    keep: &dyn Fn(usize, &RussianPosition) -> bool,
    budget: &mut u32,
) -> bool {
    if g.ply() >= plies {
        return true;
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let ply = g.ply() + 1;
    for mv in g.legal_moves() {
        if fits(g, ply, &mv, men, keep) {
            g.play(mv).unwrap();
            if find(g, plies, men, keep, budget) {
                return true;
            }
            g.undo();
        }
    }
    false
}

/// Walks `plies` plies (kings only, except men at the plies listed in `men`), then replays the
/// walk checking after every ply that the game goes on until `end_at`, where it must end with
/// `end`.
fn walk_until(
    g: &mut G,
    plies: usize,
    men: &[usize],
    keep: &dyn Fn(usize, &RussianPosition) -> bool,
    end_at: Option<usize>,
    end: Option<GameEnd>,
) {
    let target = end_at.unwrap_or(plies);
    let mut probe = g.clone();
    let mut budget = 200_000;
    assert!(
        find(&mut probe, target, men, keep, &mut budget),
        "no walk of {target} plies from {}",
        g.position().to_fen()
    );
    for mv in &probe.moves()[g.ply()..] {
        let ply = g.ply() + 1;
        g.play(*mv).unwrap();
        let r = g.result();
        if Some(ply) == end_at {
            assert_eq!(r, end, "ply {ply}: {}", g.position().to_fen());
            return;
        }
        assert_eq!(r, None, "ply {ply}: {}", g.position().to_fen());
    }
}

/// The game from `fen` after a walk of kings (men at the plies in `men`) that the rule `rule`
/// ends in a draw at ply `at`, not before.
fn drawn_at(fen: &str, men: &[usize], at: usize, rule: EndRule) -> G {
    let mut g = game(fen);
    walk_until(&mut g, at, men, &any, Some(at), draw(rule));
    g
}

/// Plays one move that [`fits`] as a king move at the next ply.
fn step(g: &mut G) {
    let ply = g.ply() + 1;
    let mv = g
        .legal_moves()
        .into_iter()
        .find(|m| fits(g, ply, m, &[], &any))
        .expect("a king move");
    g.play(mv).unwrap();
}

fn any(_: usize, _: &RussianPosition) -> bool {
    true
}

#[test]
fn no_legal_move_loses() {
    // Black's only man is taken.
    let win = |c| end(Outcome::Win(c), EndRule::NoLegalMove);
    ends_after::<RussianPosition>("W:Wc3:Bd4", &["c3:e5"], win(Color::White));
    // Blocked: White's man on a1 can neither step to b2 nor take it (c3 is occupied).
    let g = game("W:Wa1:Bb2,c3");
    assert_eq!(g.result(), win(Color::Black));
    assert!(g.is_over());
}

#[test]
fn threefold_repetition() {
    let mut g = game("W:WKc1,h2:BKf8,a7");
    let cycle = ["c1-d2", "f8-g7", "d2-c1", "g7-f8"];
    play(&mut g, &cycle);
    assert_eq!(g.repetitions(), 2);
    play(&mut g, &cycle[..3]);
    assert_eq!(
        g.result(),
        None,
        "the start position has occurred twice only"
    );
    play(&mut g, &cycle[3..]);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(g.result(), draw(EndRule::Repetition));
    // Undo takes the draw back.
    g.undo();
    assert_eq!(g.result(), None);
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    // The same pieces with the other side to move are another position.
    let mut g = game("W:WKc1,h2:BKf8,a7");
    play(
        &mut g,
        &[
            "c1-d2", "f8-g7", "d2-e1", "g7-f8", "e1-d2", "f8-g7", "d2-c1",
        ],
    );
    // Pieces as at the start but Black to move: not a repetition of it.
    assert_eq!(g.repetitions(), 1);
    assert_eq!(g.result(), None);
}

#[test]
fn rule_7_2_4_three_kings_against_a_king() {
    // The white man keeps 7.2.7 (exactly three pieces) out and breaks the king-move count.
    drawn_at(
        "W:WKc1,Ke1,Kg1,a3:BKh4",
        &[5],
        30,
        EndRule::ThreeKingsAgainstKing,
    );

    // A promotion restarts the count: the man crowns at ply 3 (b6-c7, c7-b8 or d8).
    let fen = "W:WKc1,Ke1,Kg1,b6:BKh4";
    let g = drawn_at(fen, &[1, 3], 33, EndRule::ThreeKingsAgainstKing);
    assert_eq!(g.position().pieces(Color::White).kings.count_ones(), 4);
}

#[test]
fn rule_7_2_4_just_missed() {
    let mut g = game("W:WKc1,Ke1,Kg1,a3:BKh4");
    walk_until(&mut g, 29, &[5], &any, None, None);
    assert_eq!(g.result(), None);
}

#[test]
fn rule_7_2_5_kings_only() {
    drawn_at("W:WKc1,h2:BKf8,a7", &[], 30, EndRule::KingMovesOnly);
    // A man move at ply 29 resets it; kings only from then on reach 30 plies at ply 59.
    drawn_at("W:WKc1,h2:BKf8,a7", &[29], 59, EndRule::KingMovesOnly);
}

#[test]
fn rule_7_2_6_balance_four_or_five_pieces() {
    // 5 pieces: 30 moves = 60 plies. Men move now and then so 7.2.5 never ends it first.
    let balance = EndRule::BalanceUnchanged;
    drawn_at("W:WKc1,a3,h2:BKf8,a7", &[21, 42], 60, balance);
}

#[test]
fn rule_7_2_6_balance_six_or_seven_pieces() {
    // 7 pieces: 60 moves = 120 plies.
    let (fen, men) = ("W:WKc1,a3,h2,e3:BKf8,a7,h6", [25, 50, 75, 100]);
    drawn_at(fen, &men, 120, EndRule::BalanceUnchanged);
}

#[test]
fn rule_7_2_7_long_diagonal() {
    let on_diag = |_: usize, p: &RussianPosition| p.pieces(Color::Black).kings & LONG_DIAGONAL != 0;
    let mut g = game("W:WKc1,Ke1,h2:BKh8");
    walk_until(
        &mut g,
        10,
        &[],
        &on_diag,
        Some(10),
        draw(EndRule::LongDiagonal),
    );
}

#[test]
fn rule_7_2_7_restarts_when_the_king_leaves_the_diagonal() {
    // Black leaves the long diagonal with its 2nd move (ply 4) and comes back at ply 6: the
    // five moves count from there, so the game ends at ply 16, not 10.
    let keep = |ply: usize, p: &RussianPosition| {
        let on = p.pieces(Color::Black).kings & LONG_DIAGONAL != 0;
        if ply == 4 || ply == 5 {
            !on
        } else {
            on
        }
    };
    let mut g = game("W:WKc1,Ke1,h2:BKh8");
    walk_until(
        &mut g,
        16,
        &[],
        &keep,
        Some(16),
        draw(EndRule::LongDiagonal),
    );
}

#[test]
fn rule_7_2_8_small_ending() {
    drawn_at("W:WKc1,h2:BKf8", &[], 10, EndRule::SmallEnding);
    // One king against one king.
    drawn_at("W:WKc1:BKf8", &[], 10, EndRule::SmallEnding);
}

#[test]
fn rule_7_2_8_just_missed_and_restarted() {
    let mut g = game("W:WKc1,h2:BKf8");
    walk_until(&mut g, 9, &[], &any, None, None);
    // The man crowns at ply 3: the count starts again there, ending at ply 13.
    drawn_at("W:WKc1,b6:BKh4", &[1, 3], 13, EndRule::SmallEnding);
}

#[test]
fn two_men_against_a_king_is_no_small_ending() {
    // 7.2.8 needs a king on the strong side.
    let mut g = game("W:Wa3,c3:BKh8");
    for _ in 0..6 {
        let pos = *g.position();
        let Some(mv) = pos
            .legal_moves()
            .into_iter()
            .find(|m| !pos.play(m).has_capture() && !g.positions().contains(&pos.play(m)))
        else {
            break;
        };
        g.play(mv).unwrap();
        if g.position().pieces(Color::White).kings != 0 {
            break;
        }
        assert_eq!(g.result(), None);
    }
}

#[test]
fn undo_restores_the_counters() {
    let mut g = game("W:WKc1,h2:BKf8");
    walk_until(&mut g, 9, &[], &any, None, None);
    let before = *g.rule_state();
    step(&mut g);
    assert_eq!(g.result(), draw(EndRule::SmallEnding));
    g.undo();
    assert_eq!(*g.rule_state(), before);
    assert_eq!(g.result(), None);
}

#[test]
fn display_of_results() {
    let mut g = game("W:Wc3:Bd4");
    play(&mut g, &["c3:e5"]);
    assert_eq!(
        g.result().unwrap().to_string(),
        "White wins (no legal move)"
    );
}

#[test]
fn an_illegal_move_is_refused_and_changes_nothing() {
    let mut g = G::from_start();
    let other = game("W:WKc1:BKf8");
    let foreign = other.legal_moves()[0];
    assert!(g.play(foreign).is_err());
    assert_eq!(g.ply(), 0);
    assert!(g.play_text("c3-c5").is_err());
    assert!(g.play_text("a3-b4").is_ok());
    assert_eq!(g.move_texts(), ["a3-b4"]);
    assert_eq!(g.move_number(), 1);
    assert_eq!(
        g.undo().map(|m| m.from()),
        Some(damka::core::Square::parse("a3").unwrap())
    );
    assert_eq!(g.undo(), None);
}
