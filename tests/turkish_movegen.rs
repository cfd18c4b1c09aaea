//! The bitboard Turkish move generator against a plain one written square by square from the
//! rules text, on thousands of random positions (random placements with kings, and positions
//! from random games), plus the test positions of `docs/rules/turkish.md`.

use damka::core::{Bits, Color, MoveList, Rng, Square};
use damka::game::sorted_legal_texts;
use damka::variant::{GameMove, Notation, Pieces, Position, TurkishPosition};
use std::collections::BTreeSet;

#[derive(Clone, Copy, PartialEq, Eq)]
struct Piece {
    color: Color,
    king: bool,
}

type Board = [Option<Piece>; 64];

/// (from, to, captured set, promotes), the identity of a move.
type Key = (u8, u8, u64, bool);

fn board_of(pos: &TurkishPosition) -> Board {
    let mut b = [None; 64];
    for color in [Color::White, Color::Black] {
        let p = pos.pieces(color);
        for sq in Bits(p.men) {
            b[sq.index()] = Some(Piece { color, king: false });
        }
        for sq in Bits(p.kings) {
            b[sq.index()] = Some(Piece { color, king: true });
        }
    }
    b
}

fn at(f: i32, r: i32) -> Option<usize> {
    if (0..8).contains(&f) && (0..8).contains(&r) {
        Some((8 * r + f) as usize)
    } else {
        None
    }
}

const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];

/// Every complete capture path from `s` (the mover already lifted off the board), as
/// (end square, captured set) at each point where no further jump exists.
#[allow(clippy::too_many_arguments)]
fn paths(
    b: &mut Board,
    me: Color,
    king: bool,
    s: usize,
    last: Option<(i32, i32)>,
    captured: u64,
    out: &mut Vec<(usize, u64)>,
) {
    let (f, r) = ((s % 8) as i32, (s / 8) as i32);
    let mut any = false;
    for (df, dr) in DIRS {
        if let Some((lf, lr)) = last {
            if (df, dr) == (-lf, -lr) {
                continue;
            }
        }
        if king {
            // Slide over empty squares to the first piece.
            let mut k = 1;
            while let Some(q) = at(f + k * df, r + k * dr) {
                if b[q].is_some() {
                    break;
                }
                k += 1;
            }
            let Some(v) = at(f + k * df, r + k * dr) else {
                continue;
            };
            if b[v].map(|p| p.color) != Some(me.opposite()) {
                continue;
            }
            let taken = b[v].take();
            let mut j = k + 1;
            while let Some(l) = at(f + j * df, r + j * dr) {
                if b[l].is_some() {
                    break;
                }
                any = true;
                paths(b, me, true, l, Some((df, dr)), captured | 1 << v, out);
                j += 1;
            }
            b[v] = taken;
        } else {
            let forward = if me == Color::White { 1 } else { -1 };
            if dr != 0 && dr != forward {
                continue;
            }
            let (Some(v), Some(l)) = (at(f + df, r + dr), at(f + 2 * df, r + 2 * dr)) else {
                continue;
            };
            if b[v].map(|p| p.color) != Some(me.opposite()) || b[l].is_some() {
                continue;
            }
            let taken = b[v].take();
            any = true;
            paths(b, me, false, l, Some((df, dr)), captured | 1 << v, out);
            b[v] = taken;
        }
    }
    if !any && captured != 0 {
        out.push((s, captured));
    }
}

/// The legal moves by the rules text, square by square.
fn reference_moves(pos: &TurkishPosition) -> BTreeSet<Key> {
    let mut b = board_of(pos);
    let me = pos.side_to_move();
    let crown_rank = if me == Color::White { 7 } else { 0 };
    let mut caps: Vec<Key> = Vec::new();
    for s in 0..64 {
        let Some(p) = b[s] else { continue };
        if p.color != me {
            continue;
        }
        b[s] = None;
        let mut out = Vec::new();
        paths(&mut b, me, p.king, s, None, 0, &mut out);
        b[s] = Some(p);
        for (to, set) in out {
            caps.push((s as u8, to as u8, set, !p.king && to / 8 == crown_rank));
        }
    }
    if let Some(best) = caps.iter().map(|k| k.2.count_ones()).max() {
        return caps
            .into_iter()
            .filter(|k| k.2.count_ones() == best)
            .collect();
    }
    let mut quiet = BTreeSet::new();
    for s in 0..64 {
        let Some(p) = b[s] else { continue };
        if p.color != me {
            continue;
        }
        let (f, r) = ((s % 8) as i32, (s / 8) as i32);
        for (df, dr) in DIRS {
            let forward = if me == Color::White { 1 } else { -1 };
            let mut k = 1;
            while let Some(t) = at(f + k * df, r + k * dr) {
                if b[t].is_some() || (!p.king && (k > 1 || (dr != 0 && dr != forward))) {
                    break;
                }
                quiet.insert((s as u8, t as u8, 0, !p.king && t / 8 == crown_rank));
                k += 1;
            }
        }
    }
    quiet
}

fn key_of(m: &impl GameMove) -> Key {
    (m.from().0, m.to().0, m.captured(), m.promotes())
}

/// The position after a move, done on the plain board.
fn reference_play(pos: &TurkishPosition, key: Key) -> TurkishPosition {
    let mut b = board_of(pos);
    let (from, to, set, promotes) = key;
    for sq in Bits(set) {
        b[sq.index()] = None;
    }
    let mut p = b[from as usize].take().unwrap();
    p.king |= promotes;
    b[to as usize] = Some(p);
    let mut sides = [Pieces::default(), Pieces::default()];
    for (i, cell) in b.iter().enumerate() {
        if let Some(p) = cell {
            let s = &mut sides[p.color.index()];
            if p.king {
                s.kings |= 1 << i;
            } else {
                s.men |= 1 << i;
            }
        }
    }
    TurkishPosition::from_pieces(sides[0], sides[1], pos.side_to_move().opposite()).unwrap()
}

/// Compares the two generators (and `play`, `count_moves`, `has_capture`, `path`) on `pos`.
fn check(pos: &TurkishPosition) {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let got: Vec<Key> = list.iter().map(key_of).collect();
    let set: BTreeSet<Key> = got.iter().copied().collect();
    assert_eq!(set.len(), got.len(), "duplicate moves in {pos}");
    let want = reference_moves(pos);
    assert_eq!(set, want, "moves of {pos}");
    assert_eq!(pos.count_moves(), got.len(), "count of {pos}");
    assert_eq!(
        pos.has_capture(),
        got.first().is_some_and(|k| k.2 != 0),
        "{pos}"
    );
    for m in list.iter() {
        let next = pos.play(m);
        assert_eq!(next, reference_play(pos, key_of(m)), "{pos} {m:?}");
        assert_eq!(next.key(), next.compute_key());
        let path = pos.path(m);
        assert_eq!(path.last(), Some(&m.to()), "{pos} {m:?}");
        if m.is_capture() {
            assert_eq!(path.len(), m.capture_count() as usize, "{pos} {m:?}");
        }
        assert!(pos.has_path(m, &path), "{pos} {m:?}");
        assert!(!pos.has_path(m, &path[..path.len() - 1]), "{pos} {m:?}");
        let paths = pos.paths(m);
        assert_eq!(paths[0], path, "{pos} {m:?}");
        for (i, p) in paths.iter().enumerate() {
            assert!(pos.has_path(m, p), "{pos} {m:?} {p:?}");
            assert_eq!(p.last(), Some(&m.to()), "{pos} {m:?}");
            assert_eq!(p.len(), path.len(), "{pos} {m:?}");
            assert!(!paths[..i].contains(p), "{pos} {m:?} {p:?} twice");
        }
    }
}

fn random_placement(rng: &mut Rng) -> TurkishPosition {
    loop {
        let mut sides = [Pieces::default(), Pieces::default()];
        let mut used = 0u64;
        let king_odds = 1 + rng.below(4);
        for (c, side) in sides.iter_mut().enumerate() {
            let n = 1 + rng.below(16);
            for _ in 0..n {
                let sq = rng.below(64);
                let bit = 1u64 << sq;
                if used & bit != 0 {
                    continue;
                }
                let crown = if c == 0 { sq >= 56 } else { sq < 8 };
                if crown || rng.below(king_odds + 1) == 0 {
                    side.kings |= bit;
                } else {
                    side.men |= bit;
                }
                used |= bit;
            }
        }
        let side = if rng.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Ok(p) = TurkishPosition::from_pieces(sides[0], sides[1], side) {
            return p;
        }
    }
}

#[test]
fn random_placements_match_reference() {
    // The library's seeded generator, so failures reproduce.
    let mut rng = Rng::new(0x1234_5678_9abc_def1);
    for _ in 0..20_000 {
        check(&random_placement(&mut rng));
    }
}

#[test]
fn random_games_match_reference() {
    let mut rng = Rng::new(0x0fed_cba9_8765_4321);
    let mut positions = 0;
    for _ in 0..60 {
        let mut pos = TurkishPosition::start();
        for _ in 0..200 {
            check(&pos);
            positions += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    assert!(positions > 2000);
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn rules_start_position_has_eight_moves() {
    let pos = TurkishPosition::start();
    let moves = sorted_legal_texts(&pos, TurkishPosition::move_to_algebraic);
    let want: Vec<String> = "abcdefgh".chars().map(|f| format!("{f}3-{f}4")).collect();
    assert_eq!(moves, want);
}

#[test]
fn rules_king_pausing_between_captures_is_one_move() {
    // The rules' example: the white king on a5 captures b5 and e5, pausing on c5 or d5.
    let pos = TurkishPosition::from_fen(
        "W:Wa2,b2,c2,d2,e2,f2,g2,h2,b3,c3,d3,e3,f3,g3,h3,Ka5:\
         Bb5,e5,c6,d6,f6,g6,h6,b7,c7,d7,e7,f7,g7,h7",
    )
    .unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 3, "{moves:?}");
    let taken = sq("b5").bit() | sq("e5").bit();
    let mut ends: Vec<Square> = moves
        .iter()
        .map(|m| {
            assert_eq!(m.from(), sq("a5"));
            assert_eq!(m.captured(), taken);
            m.to()
        })
        .collect();
    ends.sort();
    assert_eq!(ends, vec![sq("f5"), sq("g5"), sq("h5")]);
    check(&pos);
}

#[test]
fn rules_man_crowned_only_at_the_end() {
    let mut pos = TurkishPosition::start();
    for text in ["a3-a4", "a6-a5"] {
        let m = pos.parse_move(text).unwrap();
        pos = pos.play(&m);
    }
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1);
    let m = moves[0];
    assert_eq!(pos.move_to_algebraic(&m), "a4xa6xa8");
    assert_eq!(m.captured(), sq("a5").bit() | sq("a7").bit());
    assert!(m.promotes());
    let next = pos.play(&m);
    assert_eq!(next.pieces(Color::White).kings, sq("a8").bit());
}

#[test]
fn man_reaching_far_rank_mid_capture_goes_on_as_a_man() {
    // The man takes b7 to reach b8, then must go on sideways along rank 8 taking c8 (as a man:
    // one square beyond), and only then is crowned on d8. As a king it could take more.
    let pos = TurkishPosition::from_fen("W:Wb6:Bb7,c8,Kf8,h5").unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(pos.move_to_algebraic(&moves[0]), "b6xb8xd8");
    assert!(moves[0].promotes());
    check(&pos);
}

#[test]
fn king_may_not_turn_back_but_may_recross_taken_squares() {
    // A round trip a1-a3-c3-c1-a1 (or the other way round) takes four pieces and ends on its
    // start square: one move, two paths.
    let pos = TurkishPosition::from_fen("W:WKa1:BKa2,Kb3,c2,Kb1").unwrap();
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(moves[0].to(), sq("a1"));
    assert_eq!(moves[0].capture_count(), 4);
    check(&pos);
    // No 180-degree turn: from d1 the king takes e1 towards h1 and may not come back for c1.
    let pos = TurkishPosition::from_fen("W:WKd1:BKc1,Ke1").unwrap();
    for m in pos.legal_moves() {
        assert_eq!(m.capture_count(), 1);
    }
    check(&pos);
}

#[test]
fn many_kings_many_capture_moves() {
    // Found by hill climbing on the number of legal moves: 195 distinct maximal captures.
    let pos = TurkishPosition::from_fen("W:WKf1,Kf5,Kf6,Ke8:BKe1,d2,a5,h5,c6,d6,e6,g6,b7,c8,Kf8")
        .unwrap();
    assert_eq!(pos.legal_moves().len(), 195);
    check(&pos);
}
