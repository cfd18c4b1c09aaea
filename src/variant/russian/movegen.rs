//! Move generation: quiet moves by whole-board shifts, captures by recursion over the
//! kindergarten diagonal tables.
//!
//! Captures follow `../shared/rules/russian.md`: men capture in all four directions; captured
//! pieces stay on the board until the move ends (the Turkish strike), so they block and are
//! never jumped twice; a man reaching the far rank mid-capture goes on as a king; a king must
//! land where it can go on capturing if any landing square allows it; and a move is its
//! (from, to, captured, promotes), generated once. Duplicates are dropped as they are pushed,
//! by comparing with the captures already in the list, and the commonest source of them (a
//! king that can go on along the same line from several landing squares) is never explored
//! twice in the first place.

use super::square::{DARK, FILES_AB, FILES_GH, RANK_1, RANK_8};
use super::tables::{king_attacks, ray_attacks, NE, NEXT, NW, SE, SW};
use super::{RussianMove, RussianPosition};
use crate::core::{Color, MoveList, Square};

/// The two directions perpendicular to `d`.
#[inline(always)]
const fn perpendicular(d: usize) -> (usize, usize) {
    match d {
        NE | SW => (NW, SE),
        _ => (NE, SW),
    }
}

/// Men of `men` that have an enemy piece next to them in some direction and an empty square
/// beyond it: the men that can start a capture.
#[inline(always)]
fn men_that_capture(men: u64, enemy: u64, empty: u64) -> u64 {
    (men & (enemy >> 9) & (empty >> 18) & !FILES_GH)
        | (men & (enemy >> 7) & (empty >> 14) & !FILES_AB)
        | (men & (enemy << 7) & (empty << 14) & !FILES_GH)
        | (men & (enemy << 9) & (empty << 18) & !FILES_AB)
}

/// The recursive capture search for one piece.
struct Capturer<'a, const TRACK: bool> {
    list: &'a mut MoveList<RussianMove>,
    /// Index of the first capture of this position in `list` (for dropping duplicates).
    start: usize,
    /// Opponent pieces, captured ones included: they stay until the move ends.
    enemy: u64,
    /// Every piece except the capturing one (its start square is free during the move).
    occ: u64,
    from: u8,
    /// The rank where the capturing side's men are crowned.
    crown: u64,
    /// Landing squares so far (only when tracking a path for [`path`]).
    path: [u8; 32],
    depth: usize,
    /// The move whose path is wanted, and the path once found.
    target: RussianMove,
    found: Option<Vec<Square>>,
}

impl<const TRACK: bool> Capturer<'_, TRACK> {
    #[inline(always)]
    fn push(&mut self, to: usize, captured: u64, promotes: bool) {
        let m = RussianMove {
            captured,
            from: self.from,
            to: to as u8,
            promotes,
        };
        if TRACK {
            if m == self.target && self.found.is_none() {
                let mut p: Vec<Square> =
                    self.path[..self.depth].iter().map(|&s| Square(s)).collect();
                p.push(Square(to as u8));
                self.found = Some(p);
            }
            return;
        }
        if self.list[self.start..].contains(&m) {
            return;
        }
        self.list.push(m);
    }

    #[inline(always)]
    fn enter(&mut self, sq: usize) {
        if TRACK {
            self.path[self.depth] = sq as u8;
            self.depth += 1;
        }
    }

    #[inline(always)]
    fn leave(&mut self) {
        if TRACK {
            self.depth -= 1;
        }
    }

    /// Whether a king on `s` can capture in direction `d`, `cap` being already captured.
    #[inline(always)]
    fn king_can(&self, s: usize, d: usize, cap: u64) -> bool {
        let b = ray_attacks(s, d, self.occ) & self.enemy & !cap;
        b != 0 && NEXT[d][b.trailing_zeros() as usize] & !self.occ != 0
    }

    /// A king on `s` captures in direction `d` (if it can), then goes on.
    fn king_dir(&mut self, s: usize, d: usize, cap: u64, promotes: bool) {
        let occ = self.occ;
        let b = ray_attacks(s, d, occ) & self.enemy & !cap;
        if b == 0 {
            return;
        }
        let bs = b.trailing_zeros() as usize;
        let beyond = ray_attacks(bs, d, occ);
        let land = beyond & !occ;
        if land == 0 {
            return;
        }
        let cap = cap | b;
        // Going on along the same line is possible from every landing square or from none,
        // and leads to the same moves: explore it once, from the nearest landing square.
        let further = beyond & self.enemy & !cap;
        let same = further != 0 && NEXT[d][further.trailing_zeros() as usize] & !occ != 0;
        let (p1, p2) = perpendicular(d);
        let mut turn = 0u64;
        let mut l = land;
        while l != 0 {
            let sq = l.trailing_zeros() as usize;
            l &= l - 1;
            if self.king_can(sq, p1, cap) || self.king_can(sq, p2, cap) {
                turn |= 1u64 << sq;
            }
        }
        if !same && turn == 0 {
            let mut l = land;
            while l != 0 {
                let sq = l.trailing_zeros() as usize;
                l &= l - 1;
                self.push(sq, cap, promotes);
            }
            return;
        }
        if same {
            let first = NEXT[d][bs].trailing_zeros() as usize;
            self.enter(first);
            self.king_dir(first, d, cap, promotes);
            self.leave();
        }
        while turn != 0 {
            let sq = turn.trailing_zeros() as usize;
            turn &= turn - 1;
            self.enter(sq);
            self.king_dir(sq, p1, cap, promotes);
            self.king_dir(sq, p2, cap, promotes);
            self.leave();
        }
    }

    /// A king on `s` (the start, or a man just crowned) with `cap` captured: every capture
    /// from here. Returns whether there was any.
    fn king_from(&mut self, s: usize, cap: u64, promotes: bool) -> bool {
        let mut any = false;
        for d in 0..4 {
            if self.king_can(s, d, cap) {
                any = true;
                self.king_dir(s, d, cap, promotes);
            }
        }
        any
    }

    /// A man on `s` with `cap` captured: every capture from here (in all four directions, the
    /// one it came from being blocked by the piece it took). Returns whether there was any.
    fn man_from(&mut self, s: usize, cap: u64) -> bool {
        let mut any = false;
        for next in &NEXT {
            let n = next[s] & self.enemy & !cap;
            if n == 0 {
                continue;
            }
            let t = next[n.trailing_zeros() as usize];
            if t == 0 || t & self.occ != 0 {
                continue;
            }
            any = true;
            let ts = t.trailing_zeros() as usize;
            let ncap = cap | n;
            let crowned = t & self.crown != 0;
            self.enter(ts);
            let went_on = if crowned {
                self.king_from(ts, ncap, true)
            } else {
                self.man_from(ts, ncap)
            };
            self.leave();
            if !went_on {
                self.push(ts, ncap, crowned);
            }
        }
        any
    }
}

/// Sides as (own pieces, opponent pieces, own crowning rank).
#[inline(always)]
fn sides(pos: &RussianPosition) -> (u64, u64, u64) {
    match pos.side {
        Color::White => (pos.white, pos.black, RANK_8),
        Color::Black => (pos.black, pos.white, RANK_1),
    }
}

/// Appends every capture of the side to move; returns how many were appended.
#[inline]
pub fn generate_captures(pos: &RussianPosition, list: &mut MoveList<RussianMove>) -> usize {
    let (own, enemy, crown) = sides(pos);
    let all = own | enemy;
    let empty = DARK & !all;
    let start = list.len();
    let mut men = men_that_capture(own & !pos.kings, enemy, empty);
    let mut kings = own & pos.kings;
    if men == 0 && kings == 0 {
        return 0;
    }
    let mut c = Capturer::<false> {
        list,
        start,
        enemy,
        occ: all,
        from: 0,
        crown,
        path: [0; 32],
        depth: 0,
        target: RussianMove::default(),
        found: None,
    };
    while men != 0 {
        let s = men.trailing_zeros() as usize;
        men &= men - 1;
        c.occ = all ^ (1u64 << s);
        c.from = s as u8;
        c.man_from(s, 0);
    }
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        c.occ = all ^ (1u64 << s);
        c.from = s as u8;
        for d in 0..4 {
            c.king_dir(s, d, 0, false);
        }
    }
    c.list.len() - start
}

/// Whether the side to move has a capture.
#[inline]
pub fn has_capture(pos: &RussianPosition) -> bool {
    let (own, enemy, _) = sides(pos);
    let all = own | enemy;
    let empty = DARK & !all;
    if men_that_capture(own & !pos.kings, enemy, empty) != 0 {
        return true;
    }
    let mut kings = own & pos.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for (d, next) in NEXT.iter().enumerate() {
            let b = ray_attacks(s, d, all) & enemy;
            if b != 0 && next[b.trailing_zeros() as usize] & empty != 0 {
                return true;
            }
        }
    }
    false
}

/// Appends every quiet move of the side to move (only legal when there is no capture).
#[inline]
pub fn generate_quiet(pos: &RussianPosition, list: &mut MoveList<RussianMove>) {
    let (own, enemy, crown) = sides(pos);
    let all = own | enemy;
    let empty = DARK & !all;
    let men = own & !pos.kings;
    // Whole-board shifts; a step wrapping round the board edge lands on a light square, which
    // `empty` never contains.
    let (left, right, dl, dr) = match pos.side {
        Color::White => ((men << 7) & empty, (men << 9) & empty, -7i32, -9i32),
        Color::Black => ((men >> 9) & empty, (men >> 7) & empty, 9, 7),
    };
    for (mut t, back) in [(left, dl), (right, dr)] {
        while t != 0 {
            let s = t.trailing_zeros() as i32;
            t &= t - 1;
            list.push(RussianMove {
                captured: 0,
                from: (s + back) as u8,
                to: s as u8,
                promotes: crown & (1u64 << s) != 0,
            });
        }
    }
    let mut kings = own & pos.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        let mut t = king_attacks(s, all) & !all;
        while t != 0 {
            let to = t.trailing_zeros() as u8;
            t &= t - 1;
            list.push(RussianMove {
                captured: 0,
                from: s as u8,
                to,
                promotes: false,
            });
        }
    }
}

/// Number of quiet moves of the side to move, counted without generating them.
#[inline]
pub fn count_quiet(pos: &RussianPosition) -> usize {
    let (own, enemy, _) = sides(pos);
    let all = own | enemy;
    let empty = DARK & !all;
    let men = own & !pos.kings;
    let mut n = match pos.side {
        Color::White => ((men << 7) & empty).count_ones() + ((men << 9) & empty).count_ones(),
        Color::Black => ((men >> 7) & empty).count_ones() + ((men >> 9) & empty).count_ones(),
    };
    let mut kings = own & pos.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        n += (king_attacks(s, all) & !all).count_ones();
    }
    n as usize
}

/// The landing squares of a capture, found by re-running the capture search for its piece.
pub fn capture_path(pos: &RussianPosition, mv: &RussianMove) -> Option<Vec<Square>> {
    let (own, enemy, crown) = sides(pos);
    let all = own | enemy;
    let s = mv.from as usize;
    if own & (1u64 << s) == 0 {
        return None;
    }
    let mut dummy = MoveList::new();
    let mut c = Capturer::<true> {
        list: &mut dummy,
        start: 0,
        enemy,
        occ: all ^ (1u64 << s),
        from: mv.from,
        crown,
        path: [0; 32],
        depth: 0,
        target: *mv,
        found: None,
    };
    if pos.kings & (1u64 << s) != 0 {
        for d in 0..4 {
            c.king_dir(s, d, 0, false);
        }
    } else {
        c.man_from(s, 0);
    }
    c.found
}
