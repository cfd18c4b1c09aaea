//! Turkish move generation.
//!
//! Quiet moves come from whole-board shifts (men) and line lookups (kings). Captures are found
//! by recursion over the capturing piece with the captured pieces removed at once, so a later
//! jump may cross their squares. Only sequences that take the most pieces are kept (the majority
//! rule), and a move is recorded once per (from, to, captured set).
//!
//! A king that lands on one of several squares beyond a captured piece and then goes on straight
//! ahead meets the same next piece from each of them, with the same landing squares: those
//! paths differ only by where the king paused, so they are one move. The search follows the
//! straight continuation from the nearest landing square only (the others still count it as a
//! continuation, so they are not taken for the end of a shorter sequence).

use super::square::{crowning_rank, FILE_A, FILE_AB, FILE_GH, FILE_H};
use super::tables::{direction, opposite, rook_attacks, EAST, NORTH, RAYS};
use super::TurkishPosition;
use crate::core::movelist::MAX_MOVES;
use crate::core::{Color, MoveList, Square};
use crate::variant::Move;

/// No previous jump direction (the first jump of a capture).
const NO_DIR: usize = 4;

/// State of one capture search: the list being filled and the majority bookkeeping.
struct Captures<'a> {
    list: &'a mut MoveList<Move>,
    /// Index of the first capture in `list`.
    base: usize,
    /// Index of the first move of the piece being searched (duplicates are only possible
    /// between moves of one piece).
    piece_base: usize,
    /// Most pieces taken by a sequence found so far.
    best: u32,
    from: u8,
    /// Crowning rank of the mover if it is a man, else 0.
    crown: u64,
}

impl Captures<'_> {
    #[inline(always)]
    fn record(&mut self, to: u32, captured: u64) {
        let n = captured.count_ones();
        if n < self.best {
            return;
        }
        if n > self.best {
            self.best = n;
            self.list.truncate(self.base);
            self.piece_base = self.base;
        } else {
            for m in &self.list[self.piece_base..] {
                if m.to == to as u8 && m.captured == captured {
                    return;
                }
            }
        }
        if self.list.len() == MAX_MOVES {
            // Beyond the list's capacity (no game position found so far comes near: random
            // searches top out below 200 captures). Dropping the move beats a panic on a
            // contrived position given as input.
            return;
        }
        self.list.push(Move {
            captured,
            from: self.from,
            to: to as u8,
            promotes: self.crown & (1u64 << to) != 0,
        });
    }
}

/// Men of the side (White if `WHITE`) that can make at least one jump.
#[inline(always)]
fn man_capturers<const WHITE: bool>(men: u64, enemy: u64, empty: u64) -> u64 {
    let fwd = if WHITE {
        (((empty >> 8) & enemy) >> 8) & men
    } else {
        (((empty << 8) & enemy) << 8) & men
    };
    let west = ((((empty & !FILE_GH) << 1) & enemy) << 1) & men;
    let east = ((((empty & !FILE_AB) >> 1) & enemy) >> 1) & men;
    fwd | west | east
}

/// Continues a man's capture from `s`. `empty` includes the start square and the captured ones.
fn man_captures<const WHITE: bool>(
    c: &mut Captures,
    s: u32,
    enemy: u64,
    empty: u64,
    captured: u64,
) {
    let b = 1u64 << s;
    let mut any = false;
    if WHITE {
        if s < 48 && enemy & (b << 8) != 0 && empty & (b << 16) != 0 {
            any = true;
            let m = b << 8;
            man_captures::<WHITE>(c, s + 16, enemy ^ m, empty | m, captured | m);
        }
    } else if s >= 16 && enemy & (b >> 8) != 0 && empty & (b >> 16) != 0 {
        any = true;
        let m = b >> 8;
        man_captures::<WHITE>(c, s - 16, enemy ^ m, empty | m, captured | m);
    }
    if s & 7 >= 2 && enemy & (b >> 1) != 0 && empty & (b >> 2) != 0 {
        any = true;
        let m = b >> 1;
        man_captures::<WHITE>(c, s - 2, enemy ^ m, empty | m, captured | m);
    }
    if s & 7 <= 5 && enemy & (b << 1) != 0 && empty & (b << 2) != 0 {
        any = true;
        let m = b << 1;
        man_captures::<WHITE>(c, s + 2, enemy ^ m, empty | m, captured | m);
    }
    if !any {
        c.record(s, captured);
    }
}

/// Continues a king's capture from `s`; `occ` holds every piece still on the board except the
/// king itself; `last` is the direction of the previous jump. With `skip_straight`, a capture
/// straight on in direction `last` is noted but not followed (see the module comment).
fn king_captures(
    c: &mut Captures,
    s: u32,
    enemy: u64,
    occ: u64,
    captured: u64,
    last: usize,
    skip_straight: bool,
) {
    let mut any = false;
    let mut victims = rook_attacks(s, occ) & enemy;
    while victims != 0 {
        let v = victims.trailing_zeros();
        victims &= victims - 1;
        let d = direction(s, v);
        if d == opposite(last) {
            continue;
        }
        let mut land = rook_attacks(v, occ) & RAYS[d][v as usize] & !occ;
        if land == 0 {
            continue;
        }
        any = true;
        if skip_straight && d == last {
            continue;
        }
        let vb = 1u64 << v;
        let (enemy, occ, captured) = (enemy ^ vb, occ ^ vb, captured | vb);
        let nearest = if d == NORTH || d == EAST {
            land.trailing_zeros()
        } else {
            63 - land.leading_zeros()
        };
        king_captures(c, nearest, enemy, occ, captured, d, false);
        land &= !(1u64 << nearest);
        while land != 0 {
            let l = land.trailing_zeros();
            land &= land - 1;
            king_captures(c, l, enemy, occ, captured, d, true);
        }
    }
    if !any && captured != 0 {
        c.record(s, captured);
    }
}

/// Whether the king on `k` can capture at least once.
#[inline(always)]
fn king_can_capture(k: u32, enemy: u64, occ: u64) -> bool {
    let mut victims = rook_attacks(k, occ) & enemy;
    while victims != 0 {
        let v = victims.trailing_zeros();
        victims &= victims - 1;
        let d = direction(k, v);
        if RAYS[d][v as usize] & !occ & rook_attacks(v, occ) != 0 {
            return true;
        }
    }
    false
}

impl TurkishPosition {
    #[inline(always)]
    fn sides<const WHITE: bool>(&self) -> (u64, u64) {
        if WHITE {
            (self.by[0], self.by[1])
        } else {
            (self.by[1], self.by[0])
        }
    }

    /// Appends every maximal capture; returns whether there was any.
    pub(super) fn generate_captures<const WHITE: bool>(&self, list: &mut MoveList<Move>) -> bool {
        let (us, them) = self.sides::<WHITE>();
        let occ = us | them;
        let empty = !occ;
        let men = us & !self.kings;
        let base = list.len();
        let mut c = Captures {
            list,
            base,
            piece_base: base,
            best: 1,
            from: 0,
            crown: crowning_rank(if WHITE { Color::White } else { Color::Black }),
        };
        let mut capturers = man_capturers::<WHITE>(men, them, empty);
        while capturers != 0 {
            let s = capturers.trailing_zeros();
            capturers &= capturers - 1;
            c.from = s as u8;
            c.piece_base = c.list.len();
            man_captures::<WHITE>(&mut c, s, them, empty | (1u64 << s), 0);
        }
        c.crown = 0;
        let mut kings = us & self.kings;
        while kings != 0 {
            let s = kings.trailing_zeros();
            kings &= kings - 1;
            c.from = s as u8;
            c.piece_base = c.list.len();
            king_captures(&mut c, s, them, occ ^ (1u64 << s), 0, NO_DIR, false);
        }
        c.list.len() > base
    }

    /// Appends every quiet move (to be called only when there is no capture).
    pub(super) fn generate_quiet<const WHITE: bool>(&self, list: &mut MoveList<Move>) {
        let (us, them) = self.sides::<WHITE>();
        let occ = us | them;
        let empty = !occ;
        let men = us & !self.kings;
        let crown = crowning_rank(if WHITE { Color::White } else { Color::Black });
        let push = |list: &mut MoveList<Move>, from: u32, to: u32, man: bool| {
            list.push(Move {
                captured: 0,
                from: from as u8,
                to: to as u8,
                promotes: man && crown & (1u64 << to) != 0,
            })
        };
        let mut fwd = if WHITE {
            (men << 8) & empty
        } else {
            (men >> 8) & empty
        };
        while fwd != 0 {
            let t = fwd.trailing_zeros();
            fwd &= fwd - 1;
            push(list, if WHITE { t - 8 } else { t + 8 }, t, true);
        }
        let mut west = ((men & !FILE_A) >> 1) & empty;
        while west != 0 {
            let t = west.trailing_zeros();
            west &= west - 1;
            push(list, t + 1, t, true);
        }
        let mut east = ((men & !FILE_H) << 1) & empty;
        while east != 0 {
            let t = east.trailing_zeros();
            east &= east - 1;
            push(list, t - 1, t, true);
        }
        let mut kings = us & self.kings;
        while kings != 0 {
            let s = kings.trailing_zeros();
            kings &= kings - 1;
            let mut to = rook_attacks(s, occ) & empty;
            while to != 0 {
                let t = to.trailing_zeros();
                to &= to - 1;
                push(list, s, t, false);
            }
        }
    }

    /// Number of quiet moves (to be called only when there is no capture).
    #[inline(always)]
    pub(super) fn count_quiet<const WHITE: bool>(&self) -> usize {
        let (us, them) = self.sides::<WHITE>();
        let occ = us | them;
        let empty = !occ;
        let men = us & !self.kings;
        let fwd = if WHITE { men << 8 } else { men >> 8 };
        let mut n = (fwd & empty).count_ones()
            + (((men & !FILE_A) >> 1) & empty).count_ones()
            + (((men & !FILE_H) << 1) & empty).count_ones();
        let mut kings = us & self.kings;
        while kings != 0 {
            let s = kings.trailing_zeros();
            kings &= kings - 1;
            n += (rook_attacks(s, occ) & empty).count_ones();
        }
        n as usize
    }

    /// Whether the side to move (White if `WHITE`) has a capture.
    #[inline(always)]
    pub(super) fn has_capture_of<const WHITE: bool>(&self) -> bool {
        let (us, them) = self.sides::<WHITE>();
        let occ = us | them;
        if man_capturers::<WHITE>(us & !self.kings, them, !occ) != 0 {
            return true;
        }
        let mut kings = us & self.kings;
        while kings != 0 {
            let s = kings.trailing_zeros();
            kings &= kings - 1;
            if king_can_capture(s, them, occ) {
                return true;
            }
        }
        false
    }

    /// The landing squares of a capture `mv`, found by following capture paths that take only
    /// pieces of `mv`'s captured set until one takes all of them and ends on `mv.to`.
    pub(super) fn capture_path(&self, mv: &Move) -> Option<Vec<Square>> {
        let mut first = None;
        self.follow_from(mv, None, &mut |p| {
            first = Some(p.to_vec());
            true
        });
        first
    }

    /// Every capture path of `mv`.
    pub(super) fn capture_paths(&self, mv: &Move) -> Vec<Vec<Square>> {
        let mut all = Vec::new();
        self.follow_from(mv, None, &mut |p| {
            all.push(p.to_vec());
            false
        });
        all
    }

    /// Whether `landings` is one of the capture paths of `mv`.
    pub(super) fn is_capture_path(&self, mv: &Move, landings: &[Square]) -> bool {
        landings.len() == mv.captured.count_ones() as usize
            && self.follow_from(mv, Some(landings), &mut |_| true)
    }

    /// Walks the paths of `mv` (through `landings` only, if given), telling `found` each
    /// complete one; stops when `found` says so, and returns whether it did.
    fn follow_from(
        &self,
        mv: &Move,
        landings: Option<&[Square]>,
        found: &mut dyn FnMut(&[Square]) -> bool,
    ) -> bool {
        let us = self.by[self.side.index()];
        let them = self.by[self.side.opposite().index()];
        let from = mv.from as u32;
        if us & (1u64 << from) == 0 {
            return false;
        }
        let mut walk = Walk {
            side: self.side,
            king: self.kings & (1u64 << from) != 0,
            mv,
            landings,
            found,
        };
        let occ = (us | them) & !(1u64 << from);
        walk.follow(from, them, occ, 0, NO_DIR, &mut Vec::new())
    }
}

/// A depth-first search for a path of one capture move, optionally only through given landing
/// squares (see [`TurkishPosition::capture_path`]).
struct Walk<'a> {
    side: Color,
    king: bool,
    mv: &'a Move,
    landings: Option<&'a [Square]>,
    /// Told each complete path; returns whether to stop.
    found: &'a mut dyn FnMut(&[Square]) -> bool,
}

impl Walk<'_> {
    fn follow(
        &mut self,
        s: u32,
        enemy: u64,
        occ: u64,
        captured: u64,
        last: usize,
        path: &mut Vec<Square>,
    ) -> bool {
        let mv = self.mv;
        if captured == mv.captured {
            return s == mv.to as u32 && (self.found)(path);
        }
        // (victim, landing, direction) of every next jump that takes a piece of the move.
        let mut jumps: Vec<(u32, u32, usize)> = Vec::new();
        if self.king {
            for (d, rays) in RAYS.iter().enumerate() {
                if d == opposite(last) {
                    continue;
                }
                let ray = rook_attacks(s, occ) & rays[s as usize];
                let victim = ray & occ & enemy & mv.captured;
                if victim == 0 {
                    continue;
                }
                let v = victim.trailing_zeros();
                let land = rook_attacks(v, occ) & rays[v as usize] & !occ;
                for l in crate::core::Bits(land) {
                    jumps.push((v, l.0 as u32, d));
                }
            }
        } else {
            let (f, r) = ((s & 7) as i32, (s >> 3) as i32);
            let fwd = if self.side == Color::White { 1 } else { -1 };
            for (df, dr) in [(0, fwd), (-1, 0), (1, 0)] {
                let (vf, vr, lf, lr) = (f + df, r + dr, f + 2 * df, r + 2 * dr);
                if !(0..8).contains(&lf) || !(0..8).contains(&lr) {
                    continue;
                }
                let v = (8 * vr + vf) as u32;
                let l = (8 * lr + lf) as u32;
                if enemy & mv.captured & (1u64 << v) != 0 && occ & (1u64 << l) == 0 {
                    jumps.push((v, l, direction(s, l)));
                }
            }
        }
        for (v, l, d) in jumps {
            if let Some(want) = self.landings {
                if want.get(path.len()) != Some(&Square(l as u8)) {
                    continue;
                }
            }
            let vb = 1u64 << v;
            path.push(Square(l as u8));
            if self.follow(l, enemy ^ vb, occ ^ vb, captured | vb, d, path) {
                return true;
            }
            path.pop();
        }
        false
    }
}
