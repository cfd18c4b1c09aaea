//! A plain reference move generator, square by square on an 8x8 array, written straight from
//! `docs/rules/russian.md`, compared with the bitboard generator on thousands of random
//! positions (kings included) and on positions from random games.

use damka::core::{Color, Rng, Square};
use damka::variant::{GameMove, Pieces, Position, RussianPosition};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Empty,
    Man(Color),
    King(Color),
}

/// (from, to, captured set, promotes)
type Key = (u8, u8, u64, bool);

struct Board {
    cells: [[Cell; 8]; 8], // [file][rank]
    side: Color,
}

const DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

fn on_board(f: i32, r: i32) -> bool {
    (0..8).contains(&f) && (0..8).contains(&r)
}

fn bit(f: i32, r: i32) -> u64 {
    1u64 << (r * 8 + f)
}

impl Board {
    fn from_position(pos: &RussianPosition) -> Board {
        let mut cells = [[Cell::Empty; 8]; 8];
        for c in [Color::White, Color::Black] {
            let p = pos.pieces(c);
            for i in 0..64u8 {
                let sq = Square(i);
                let (f, r) = (sq.file() as usize, sq.rank() as usize);
                if p.men & sq.bit() != 0 {
                    cells[f][r] = Cell::Man(c);
                }
                if p.kings & sq.bit() != 0 {
                    cells[f][r] = Cell::King(c);
                }
            }
        }
        Board {
            cells,
            side: pos.side_to_move(),
        }
    }

    /// Whether the square holds an enemy piece of the side to move.
    fn enemy(&self, f: i32, r: i32) -> bool {
        matches!(self.cells[f as usize][r as usize], Cell::Man(c) | Cell::King(c) if c != self.side)
    }

    /// Empty during the move: the moving piece's start square counts as empty, captured pieces
    /// do not.
    fn free(&self, f: i32, r: i32, start: (i32, i32)) -> bool {
        (f, r) == start || self.cells[f as usize][r as usize] == Cell::Empty
    }

    fn crown_rank(&self) -> i32 {
        if self.side == Color::White {
            7
        } else {
            0
        }
    }

    /// Single capture steps of a piece at (f, r): (landing, captured square) pairs, before the
    /// king's landing rule.
    fn steps(
        &self,
        f: i32,
        r: i32,
        king: bool,
        cap: u64,
        start: (i32, i32),
    ) -> Vec<Vec<((i32, i32), u64)>> {
        let mut per_dir = Vec::new();
        for (df, dr) in DIRS {
            let mut v = Vec::new();
            if king {
                let (mut x, mut y) = (f + df, r + dr);
                while on_board(x, y) && self.free(x, y, start) {
                    x += df;
                    y += dr;
                }
                if on_board(x, y) && self.enemy(x, y) && cap & bit(x, y) == 0 {
                    let taken = bit(x, y);
                    let (mut lx, mut ly) = (x + df, y + dr);
                    while on_board(lx, ly) && self.free(lx, ly, start) {
                        v.push(((lx, ly), taken));
                        lx += df;
                        ly += dr;
                    }
                }
            } else {
                let (x, y) = (f + df, r + dr);
                let (lx, ly) = (f + 2 * df, r + 2 * dr);
                if on_board(lx, ly)
                    && self.enemy(x, y)
                    && cap & bit(x, y) == 0
                    && self.free(lx, ly, start)
                {
                    v.push(((lx, ly), bit(x, y)));
                }
            }
            per_dir.push(v);
        }
        per_dir
    }

    fn can_capture(&self, f: i32, r: i32, king: bool, cap: u64, start: (i32, i32)) -> bool {
        self.steps(f, r, king, cap, start)
            .iter()
            .any(|v| !v.is_empty())
    }

    #[allow(clippy::too_many_arguments)]
    fn capture_dfs(
        &self,
        f: i32,
        r: i32,
        king: bool,
        promoted: bool,
        cap: u64,
        start: (i32, i32),
        path: &mut Vec<u8>,
        out: &mut HashMap<Key, HashSet<Vec<u8>>>,
    ) {
        for dir in self.steps(f, r, king, cap, start) {
            if dir.is_empty() {
                continue;
            }
            // Where the piece becomes or stays a king after each landing, and whether it can
            // go on from there.
            let info: Vec<_> = dir
                .iter()
                .map(|&((lx, ly), taken)| {
                    let k = king || ly == self.crown_rank();
                    let more = self.can_capture(lx, ly, k, cap | taken, start);
                    ((lx, ly), taken, k, more)
                })
                .collect();
            let must_go_on = info.iter().any(|i| i.3);
            for ((lx, ly), taken, k, more) in info {
                if must_go_on && !more {
                    continue; // the king's landing rule
                }
                path.push((ly * 8 + lx) as u8);
                let prom = promoted || (k && !king);
                if more {
                    self.capture_dfs(lx, ly, k, prom, cap | taken, start, path, out);
                } else {
                    let key = (
                        (start.1 * 8 + start.0) as u8,
                        (ly * 8 + lx) as u8,
                        cap | taken,
                        prom,
                    );
                    out.entry(key).or_default().insert(path.clone());
                }
                path.pop();
            }
        }
    }

    /// Every legal move with every path of each.
    fn moves(&self) -> HashMap<Key, HashSet<Vec<u8>>> {
        let mut caps = HashMap::new();
        for f in 0..8 {
            for r in 0..8 {
                let king = match self.cells[f as usize][r as usize] {
                    Cell::Man(c) if c == self.side => false,
                    Cell::King(c) if c == self.side => true,
                    _ => continue,
                };
                self.capture_dfs(f, r, king, false, 0, (f, r), &mut Vec::new(), &mut caps);
            }
        }
        if !caps.is_empty() {
            return caps;
        }
        let mut quiet = HashMap::new();
        let fwd = if self.side == Color::White { 1 } else { -1 };
        for f in 0..8 {
            for r in 0..8 {
                let from = (r * 8 + f) as u8;
                match self.cells[f as usize][r as usize] {
                    Cell::Man(c) if c == self.side => {
                        for df in [-1, 1] {
                            let (x, y) = (f + df, r + fwd);
                            if on_board(x, y) && self.cells[x as usize][y as usize] == Cell::Empty {
                                let to = (y * 8 + x) as u8;
                                let key = (from, to, 0, y == self.crown_rank());
                                quiet.insert(key, HashSet::from([vec![to]]));
                            }
                        }
                    }
                    Cell::King(c) if c == self.side => {
                        for (df, dr) in DIRS {
                            let (mut x, mut y) = (f + df, r + dr);
                            while on_board(x, y)
                                && self.cells[x as usize][y as usize] == Cell::Empty
                            {
                                let to = (y * 8 + x) as u8;
                                quiet.insert((from, to, 0, false), HashSet::from([vec![to]]));
                                x += df;
                                y += dr;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
        quiet
    }
}

fn check(pos: &RussianPosition) {
    let reference = Board::from_position(pos).moves();
    let fast = pos.legal_moves();
    let fast_keys: Vec<Key> = fast
        .iter()
        .map(|m| (m.from().0, m.to().0, m.captured(), m.promotes()))
        .collect();
    let set: HashSet<Key> = fast_keys.iter().copied().collect();
    assert_eq!(set.len(), fast_keys.len(), "duplicate moves in {pos}");
    let ref_set: HashSet<Key> = reference.keys().copied().collect();
    assert_eq!(set, ref_set, "move sets differ in {pos}\n{}", pos.diagram());
    assert_eq!(pos.count_moves(), fast.len(), "count_moves in {pos}");
    assert_eq!(
        pos.has_capture(),
        fast.iter().any(|m| m.is_capture()),
        "{pos}"
    );
    for (m, k) in fast.iter().zip(&fast_keys) {
        let path: Vec<u8> = pos.path(m).iter().map(|s| s.0).collect();
        assert!(
            reference[k].contains(&path),
            "path {path:?} of {m:?} not legal in {pos}"
        );
        // Every path the reference knows, and no other; the first is `path`'s.
        let paths: Vec<Vec<u8>> = pos
            .paths(m)
            .iter()
            .map(|p| p.iter().map(|s| s.0).collect())
            .collect();
        assert_eq!(paths[0], path, "{m:?} in {pos}");
        let set: HashSet<Vec<u8>> = paths.iter().cloned().collect();
        assert_eq!(set.len(), paths.len(), "a path twice for {m:?} in {pos}");
        assert_eq!(set, reference[k], "paths of {m:?} in {pos}");
        let next = pos.play(m);
        assert_eq!(next.key(), next.compute_key());
    }
}

#[test]
fn random_placements_match_reference() {
    let mut rng = Rng::new(0x0123_4567_89AB_CDEF);
    let dark: Vec<Square> = (0..64u8).map(Square).filter(|s| s.is_dark()).collect();
    for i in 0..6000 {
        let mut w = Pieces::default();
        let mut b = Pieces::default();
        // Vary the density: sparse boards exercise long king lines, dense ones long captures.
        let density = 3 + (i % 6) as u64;
        let king_share = [0u64, 2, 5][i % 3];
        for &sq in &dark {
            let x = rng.next_u64();
            if x % 16 >= density {
                continue;
            }
            let king = (x >> 8) % 10 < king_share;
            let white = (x >> 16) & 1 == 0;
            match (white, king) {
                (true, true) => w.kings |= sq.bit(),
                (false, true) => b.kings |= sq.bit(),
                (true, false) if sq.rank() != 7 => w.men |= sq.bit(),
                (false, false) if sq.rank() != 0 => b.men |= sq.bit(),
                _ => {}
            }
        }
        let side = if rng.next_u64() & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        check(&RussianPosition::from_pieces(w, b, side).unwrap());
    }
}

#[test]
fn random_games_match_reference() {
    let mut rng = Rng::new(0xDEAD_BEEF_1234_5678);
    for _ in 0..300 {
        let mut pos = RussianPosition::start();
        for _ in 0..120 {
            check(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
}
