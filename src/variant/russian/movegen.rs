//! Move generation: quiet moves by whole-board shifts, captures by recursion over the
//! kindergarten diagonal tables.
//!
//! Captures follow `docs/rules/russian.md`: men capture in all four directions; captured
//! pieces stay on the board until the move ends (the Turkish strike), so they block and are
//! never jumped twice; a man reaching the far rank mid-capture goes on as a king; a king must
//! land where it can go on capturing if any landing square allows it; and a move is its
//! (from, to, captured, promotes), generated once. The commonest source of duplicates (a king
//! that can go on along the same line from several landing squares) is never explored twice in
//! the first place; the rest (circuits, four captures or more) are dropped as they are pushed,
//! by comparing with the captures already found.
//!
//! Men's captures start with all men at once: the first jumps in each direction are whole-board
//! shifts, and only the men that can go on after their first jump are followed one by one.
//!
//! The file is longer than the project's 600 lines on purpose: generation, perft's bulk counting
//! and path recovery share one private capture walker (`Capturer` with its sinks) and the
//! register [`View`] of the board; split across files they would have to expose those
//! hot-path internals to each other.

use super::square::{DARK, INNER, RANK_1, RANK_8};
use super::tables::{king_attacks, ray_attacks, NE, NEXT, NW, SE, SW};
use super::RussianPosition;
use crate::core::{Color, MoveList, Square};
use crate::variant::Move;

/// The two directions perpendicular to `d`.
#[inline(always)]
const fn perpendicular(d: usize) -> (usize, usize) {
    match d {
        NE | SW => (NW, SE),
        _ => (NE, SW),
    }
}

/// Shift of a one-square step in each direction (NE, NW, SE, SW).
const SHIFT: [i32; 4] = [9, 7, -7, -9];

/// `b` moved by `s` squares (a constant in every use, so this is one shift instruction).
#[inline(always)]
const fn shift(b: u64, s: i32) -> u64 {
    if s > 0 {
        b << s
    } else {
        b >> -s
    }
}

/// Landing squares of jumps in direction `D` from the squares `b` over `avail` onto `empty`.
/// `avail` must lie within [`INNER`], which keeps the shifts from wrapping round the board.
#[inline(always)]
fn jumps<const D: usize>(b: u64, avail: u64, empty: u64) -> u64 {
    shift(shift(b, SHIFT[D]) & avail, SHIFT[D]) & empty
}

/// Squares from which a man jumps in direction `D` over a piece of `avail` onto `empty`.
/// `avail` must lie within [`INNER`], as for [`jumps`].
#[inline(always)]
fn jumpers<const D: usize>(avail: u64, empty: u64) -> u64 {
    shift(avail, -SHIFT[D]) & shift(empty, -2 * SHIFT[D])
}

/// Number of squares in a set that usually has very few (cheaper than a software popcount).
#[inline(always)]
fn sparse_count(mut set: u64) -> usize {
    let mut n = 0;
    while set != 0 {
        set &= set - 1;
        n += 1;
    }
    n
}

/// Where the capture search sends the moves it finds.
trait Sink {
    /// The piece lands on `sq` and goes on capturing from there (for paths only).
    #[inline(always)]
    fn enter(&mut self, _sq: usize) {}
    /// Back from the last `enter`.
    #[inline(always)]
    fn leave(&mut self) {}
    /// A complete move.
    fn add(&mut self, m: Move);
    /// Men's single captures in direction `D` that land on `lands` and stop there.
    #[inline(always)]
    fn add_simple<const D: usize>(&mut self, lands: u64) {
        let mut l = lands;
        while l != 0 {
            let to = l.trailing_zeros() as i32;
            l &= l - 1;
            self.add(Move {
                captured: 1u64 << (to - SHIFT[D]),
                from: (to - 2 * SHIFT[D]) as u8,
                to: to as u8,
                promotes: false,
            });
        }
    }
}

/// Two capture paths with the same start, end and captured set need at least four captured
/// pieces (a circuit round a square, as in the rules file's third position): a path is a chain
/// of diagonal legs, each taking one piece, and with fewer legs two different chains cannot
/// share ends and pieces once the same-line continuation is explored once (see `king_dir`).
/// Only such moves are compared with the moves already found.
const DUPLICATES_FROM: u32 = 4;

/// Whether `set` has at least [`DUPLICATES_FROM`] squares. Without a popcount instruction
/// (the default build targets any x86-64) clearing the lowest bits is cheaper than
/// `count_ones`.
#[inline(always)]
fn may_have_duplicates(set: u64) -> bool {
    let mut s = set;
    let mut i = 1;
    while i < DUPLICATES_FROM {
        s &= s.wrapping_sub(1);
        i += 1;
    }
    s != 0
}

/// Collects moves into a move list, dropping duplicates.
struct ListSink<'a> {
    list: &'a mut MoveList<Move>,
    /// Index of the first capture of this position in `list`.
    start: usize,
}

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if may_have_duplicates(m.captured) && self.list[self.start..].contains(&m) {
            return;
        }
        self.list.push(m);
    }
}

/// Counts moves, keeping only those that could have duplicates.
struct CountSink {
    n: usize,
    big: MoveList<Move>,
}

impl Sink for CountSink {
    #[inline(always)]
    fn add_simple<const D: usize>(&mut self, lands: u64) {
        self.n += sparse_count(lands);
    }
    #[inline(always)]
    fn add(&mut self, m: Move) {
        if may_have_duplicates(m.captured) {
            if self.big.contains(&m) {
                return;
            }
            self.big.push(m);
        }
        self.n += 1;
    }
}

/// Finds the landing squares of one move.
struct PathSink {
    path: Vec<Square>,
    target: Move,
    found: Vec<Vec<Square>>,
}

impl Sink for PathSink {
    fn enter(&mut self, sq: usize) {
        self.path.push(Square(sq as u8));
    }
    fn leave(&mut self) {
        self.path.pop();
    }
    fn add(&mut self, m: Move) {
        if m == self.target {
            let mut p = self.path.clone();
            p.push(Square(m.to));
            if !self.found.contains(&p) {
                self.found.push(p);
            }
        }
    }
}

/// The recursive capture search for one piece.
struct Capturer<'a, S: Sink> {
    sink: &'a mut S,
    /// Opponent pieces, captured ones included: they stay until the move ends.
    enemy: u64,
    /// Every piece except the capturing one (its start square is free during the move).
    occ: u64,
    /// Empty dark squares (the complement of `occ`).
    empty: u64,
    from: u8,
    /// The rank where the capturing side's men are crowned.
    crown: u64,
}

impl<S: Sink> Capturer<'_, S> {
    /// Sets the piece that captures (on `s`) and the occupancy seen during its move.
    #[inline(always)]
    fn set_piece(&mut self, all: u64, s: usize) {
        self.occ = all ^ (1u64 << s);
        self.empty = DARK & !self.occ;
        self.from = s as u8;
    }

    #[inline(always)]
    fn push(&mut self, to: usize, captured: u64, promotes: bool) {
        self.sink.add(Move {
            captured,
            from: self.from,
            to: to as u8,
            promotes,
        });
    }

    #[inline(always)]
    fn enter(&mut self, sq: usize) {
        self.sink.enter(sq);
    }

    #[inline(always)]
    fn leave(&mut self) {
        self.sink.leave();
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

    /// A man on square set `b` (one square) with `cap` captured: every capture from here, in
    /// all four directions (the one it came from is blocked by the piece it took). Returns
    /// whether there was any.
    #[inline(always)]
    fn man_from(&mut self, b: u64, cap: u64) -> bool {
        let avail = self.enemy & !cap & INNER;
        let j = [
            jumps::<NE>(b, avail, self.empty),
            jumps::<NW>(b, avail, self.empty),
            jumps::<SE>(b, avail, self.empty),
            jumps::<SW>(b, avail, self.empty),
        ];
        if j[0] | j[1] | j[2] | j[3] == 0 {
            return false;
        }
        if j[0] != 0 {
            self.man_land(j[0], j[0] >> 9, cap);
        }
        if j[1] != 0 {
            self.man_land(j[1], j[1] >> 7, cap);
        }
        if j[2] != 0 {
            self.man_land(j[2], j[2] << 7, cap);
        }
        if j[3] != 0 {
            self.man_land(j[3], j[3] << 9, cap);
        }
        true
    }

    /// A man jumps over `over` onto `land`, then goes on if it can (as a king if crowned).
    fn man_land(&mut self, land: u64, over: u64, cap: u64) {
        let ts = land.trailing_zeros() as usize;
        let cap = cap | over;
        let crowned = land & self.crown != 0;
        self.enter(ts);
        let went_on = if crowned {
            self.king_from(ts, cap, true)
        } else {
            self.man_from(land, cap)
        };
        self.leave();
        if !went_on {
            self.push(ts, cap, crowned);
        }
    }
}

/// Sides as (own pieces, opponent pieces, own crowning rank).
#[inline(always)]
fn sides(pos: &RussianPosition) -> (u64, u64, u64) {
    let v = View::of(pos);
    (v.own, v.enemy, v.crown())
}

/// A position as the side to move sees it, in plain values. Perft counts the moves of
/// children it never makes: building them as a [`RussianPosition`] stores the colour-indexed
/// piece array and reads it back at a variable index, a store-to-load forwarding stall that
/// cost a quarter of the time; a view stays in registers.
#[derive(Clone, Copy, Debug)]
pub struct View {
    /// The pieces of the side to move.
    pub own: u64,
    /// The opponent's pieces.
    pub enemy: u64,
    /// Every king, of both sides.
    pub kings: u64,
    /// The side to move.
    pub side: Color,
}

impl View {
    /// The view of the side to move of `pos`.
    #[inline(always)]
    pub fn of(pos: &RussianPosition) -> View {
        let us = pos.side.index();
        View {
            own: pos.by[us],
            enemy: pos.by[us ^ 1],
            kings: pos.kings,
            side: pos.side,
        }
    }

    /// The rank where the side to move's men are crowned.
    #[inline(always)]
    fn crown(&self) -> u64 {
        match self.side {
            Color::White => RANK_8,
            Color::Black => RANK_1,
        }
    }

    /// The view after the side to move plays `m`: the opponent's turn.
    #[inline(always)]
    pub fn after(&self, m: &Move) -> View {
        View {
            own: self.enemy & !m.captured,
            enemy: self.own ^ (1u64 << m.from) ^ (1u64 << m.to),
            kings: m.kings_after(self.kings),
            side: !self.side,
        }
    }

    /// Number of legal moves of the side to move.
    #[inline(always)]
    pub fn count_moves(&self) -> usize {
        match count_captures(self) {
            0 => count_quiet(self),
            n => n,
        }
    }
}

/// What the capture search starts from.
struct Setup {
    /// Every piece.
    all: u64,
    /// Opponent pieces.
    enemy: u64,
    /// The capturing side's crowning rank.
    crown: u64,
    /// The capturing side's men.
    men: u64,
    /// Squares from which a man could jump in each direction in the position as it is.
    jumpers: [u64; 4],
    /// The capturing side's kings.
    kings: u64,
}

/// The men's first jumps (all men at once, by shifts) and the kings, or `None` when no man
/// can jump and there is no king: the common case, decided without a call.
#[inline(always)]
fn capture_setup(v: &View) -> Option<Setup> {
    let (own, enemy, crown) = (v.own, v.enemy, v.crown());
    let all = own | enemy;
    let empty = DARK & !all;
    let men = own & !v.kings;
    let j = [
        jumpers::<NE>(enemy & INNER, empty),
        jumpers::<NW>(enemy & INNER, empty),
        jumpers::<SE>(enemy & INNER, empty),
        jumpers::<SW>(enemy & INNER, empty),
    ];
    let kings = own & v.kings;
    if (men & (j[0] | j[1] | j[2] | j[3])) | kings == 0 {
        None
    } else {
        Some(Setup {
            all,
            enemy,
            crown,
            men,
            jumpers: j,
            kings,
        })
    }
}

/// Appends every capture of the side to move; returns how many were appended.
#[inline(always)]
pub fn generate_captures(pos: &RussianPosition, list: &mut MoveList<Move>) -> usize {
    match capture_setup(&View::of(pos)) {
        None => 0,
        Some(setup) => {
            let start = list.len();
            let mut sink = ListSink { list, start };
            captures_of(&mut sink, &setup);
            list.len() - start
        }
    }
}

/// Number of captures of the side to move.
#[inline(always)]
pub fn count_captures(v: &View) -> usize {
    match capture_setup(v) {
        None => 0,
        Some(setup) => {
            if setup.kings == 0 {
                if let Some(n) = count_men_captures(&setup) {
                    return n;
                }
            }
            let mut sink = CountSink {
                n: 0,
                big: MoveList::new(),
            };
            captures_of(&mut sink, &setup);
            sink.n
        }
    }
}

/// The landing squares of a man's next jumps from the square set `b` (one square) over a
/// piece of `avail` (within [`INNER`]) onto `empty`, all four directions together: from one
/// square they are distinct, and each jumped piece is the midpoint of its jump.
#[inline(always)]
fn man_next(b: u64, avail: u64, empty: u64) -> u64 {
    jumps::<NE>(b, avail, empty)
        | jumps::<NW>(b, avail, empty)
        | jumps::<SE>(b, avail, empty)
        | jumps::<SW>(b, avail, empty)
}

/// The square jumped over between squares `a` and `b` of one man's jump.
#[inline(always)]
fn midpoint(a: u32, b: u32) -> u64 {
    1u64 << ((a + b) >> 1)
}

/// Number of captures when the side has men only, counted without the general search: the
/// men's capture trees walked three jumps deep with no move made. `None` when a man would be
/// crowned during a capture or a capture could take four pieces or more (where two paths may
/// be one move): the general search counts those.
#[inline(always)]
fn count_men_captures(setup: &Setup) -> Option<usize> {
    let j = setup.jumpers;
    let men = setup.men;
    let crown = setup.crown;
    let lands = [
        shift(men & j[NE], 2 * SHIFT[NE]),
        shift(men & j[NW], 2 * SHIFT[NW]),
        shift(men & j[SE], 2 * SHIFT[SE]),
        shift(men & j[SW], 2 * SHIFT[SW]),
    ];
    let any = lands[0] | lands[1] | lands[2] | lands[3];
    if any & crown != 0 {
        return None;
    }
    // A landing square goes on exactly when it is one of the position's jumpers (see
    // `first_jumps`); the others end the move.
    let goes_on = j[0] | j[1] | j[2] | j[3];
    let mut n = (lands[0] & !goes_on).count_ones()
        + (lands[1] & !goes_on).count_ones()
        + (lands[2] & !goes_on).count_ones()
        + (lands[3] & !goes_on).count_ones();
    if any & goes_on == 0 {
        return Some(n as usize);
    }
    let avail = setup.enemy & INNER;
    let empty = DARK & !setup.all;
    for (d, l) in lands.iter().enumerate() {
        let mut special = l & goes_on;
        while special != 0 {
            let t1 = special.trailing_zeros();
            special &= special - 1;
            let s0 = (t1 as i32 - 2 * SHIFT[d]) as u32;
            // The start square is empty while the man moves.
            let empty = empty | (1u64 << s0);
            let cap1 = midpoint(s0, t1);
            let mut next1 = man_next(1u64 << t1, avail & !cap1, empty);
            debug_assert!(next1 != 0, "a landing square among the jumpers goes on");
            if next1 & crown != 0 {
                return None;
            }
            while next1 != 0 {
                let t2 = next1.trailing_zeros();
                next1 &= next1 - 1;
                let cap2 = cap1 | midpoint(t1, t2);
                let mut next2 = man_next(1u64 << t2, avail & !cap2, empty);
                if next2 == 0 {
                    n += 1;
                    continue;
                }
                if next2 & crown != 0 {
                    return None;
                }
                while next2 != 0 {
                    let t3 = next2.trailing_zeros();
                    next2 &= next2 - 1;
                    let cap3 = cap2 | midpoint(t2, t3);
                    if man_next(1u64 << t3, avail & !cap3, empty) != 0 {
                        return None;
                    }
                    n += 1;
                }
            }
        }
    }
    Some(n as usize)
}

/// The capture search proper. Kept out of line: most positions have no capture and stop
/// before it.
#[inline(never)]
fn captures_of<S: Sink>(sink: &mut S, setup: &Setup) {
    let mut c = Capturer {
        sink,
        enemy: setup.enemy,
        occ: setup.all,
        empty: 0,
        from: 0,
        crown: setup.crown,
    };
    let all = setup.all;
    let j = setup.jumpers;
    let goes_on = j[0] | j[1] | j[2] | j[3];
    let men = setup.men;
    first_jumps::<S, NE>(&mut c, shift(men & j[NE], 2 * SHIFT[NE]), goes_on, all);
    first_jumps::<S, NW>(&mut c, shift(men & j[NW], 2 * SHIFT[NW]), goes_on, all);
    first_jumps::<S, SE>(&mut c, shift(men & j[SE], 2 * SHIFT[SE]), goes_on, all);
    first_jumps::<S, SW>(&mut c, shift(men & j[SW], 2 * SHIFT[SW]), goes_on, all);
    let mut kings = setup.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        c.set_piece(all, s);
        for d in 0..4 {
            c.king_dir(s, d, 0, false);
        }
    }
}

/// The men's first jumps in direction `D`, landing on `lands`. Most captures end after one
/// jump: those are found for all men together by shifts; only the others (`goes_on` is every
/// square a man could jump from in the position) are followed one by one.
#[inline(always)]
fn first_jumps<S: Sink, const D: usize>(
    c: &mut Capturer<'_, S>,
    lands: u64,
    goes_on: u64,
    all: u64,
) {
    if lands == 0 {
        return;
    }
    // Landing squares from which the man goes on: crowned, or with a next jump. A jump back
    // (over the piece just taken) would land on the start square, occupied in the position, so
    // the position's own jumpers are exactly the landing squares with a next jump.
    let mut special = lands & (goes_on | c.crown);
    c.sink.add_simple::<D>(lands & !special);
    while special != 0 {
        let to = special.trailing_zeros() as i32;
        special &= special - 1;
        c.set_piece(all, (to - 2 * SHIFT[D]) as usize);
        c.man_land(1u64 << to, 1u64 << (to - SHIFT[D]), 0);
    }
}

/// Whether the side to move has a capture.
#[inline]
pub fn has_capture(pos: &RussianPosition) -> bool {
    let (own, enemy, _) = sides(pos);
    let all = own | enemy;
    let empty = DARK & !all;
    let men = own & !pos.kings;
    let avail = enemy & INNER;
    if jumps::<NE>(men, avail, empty)
        | jumps::<NW>(men, avail, empty)
        | jumps::<SE>(men, avail, empty)
        | jumps::<SW>(men, avail, empty)
        != 0
    {
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
pub fn generate_quiet(pos: &RussianPosition, list: &mut MoveList<Move>) {
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
            list.push(Move {
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
            list.push(Move {
                captured: 0,
                from: s as u8,
                to,
                promotes: false,
            });
        }
    }
}

/// The sum of the move counts of the positions after each move of `pos`: the children are
/// never made, only viewed ([`View`]), and quiet moves need no move list.
#[inline(always)]
pub fn count_moves_after_each(pos: &RussianPosition) -> u64 {
    let v = View::of(pos);
    match v.side {
        Color::White => after_each::<true>(pos, &v),
        Color::Black => after_each::<false>(pos, &v),
    }
}

/// [`count_moves_after_each`] with the side to move (White when `WHITE`) known at compile
/// time: the step shifts are constants and the side-dependent masks of the children fold.
#[inline(always)]
fn after_each<const WHITE: bool>(pos: &RussianPosition, v: &View) -> u64 {
    let v = View {
        side: if WHITE { Color::White } else { Color::Black },
        ..*v
    };
    let mut list = MoveList::new();
    if generate_captures(pos, &mut list) != 0 {
        // A plain loop, not an iterator adaptor: an adaptor's closure may be left out of
        // line, and then it loses the caller's target features (popcnt in perft).
        let mut n = 0;
        for m in list.iter() {
            n += v.after(m).count_moves() as u64;
        }
        return n;
    }
    after_quiet::<WHITE>(&v)
}

/// The sum of the move counts of the positions after each quiet move of `v` (only
/// meaningful when there is no capture), whose side is White when `WHITE`: the children are
/// made from the shifted square sets directly.
#[inline(always)]
fn after_quiet<const WHITE: bool>(v: &View) -> u64 {
    let (own, enemy, crown) = (v.own, v.enemy, v.crown());
    let all = own | enemy;
    let empty = DARK & !all;
    let men = own & !v.kings;
    let mut n = if WHITE {
        steps_after::<7>(v, men, empty, crown) + steps_after::<9>(v, men, empty, crown)
    } else {
        steps_after::<-9>(v, men, empty, crown) + steps_after::<-7>(v, men, empty, crown)
    };
    let mut kings = own & v.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        let from = 1u64 << s;
        let mut t = king_attacks(s, all) & !all;
        while t != 0 {
            let to = t & t.wrapping_neg();
            t &= t - 1;
            n += count_child(v, own ^ from ^ to, v.kings ^ from ^ to);
        }
    }
    n
}

/// The sum of the move counts after each step of a man of `v` by `S` squares.
#[inline(always)]
fn steps_after<const S: i32>(v: &View, men: u64, empty: u64, crown: u64) -> u64 {
    let mut n = 0;
    let mut t = shift(men, S) & empty;
    while t != 0 {
        let to = t & t.wrapping_neg();
        t &= t - 1;
        let from = shift(to, -S);
        n += count_child(v, v.own ^ from ^ to, v.kings | (to & crown));
    }
    n
}

/// The move count after a quiet move of the side to move of `v` that leaves its pieces on
/// `own` and the kings on `kings`. Inlined into its callers so that it shares their target
/// features (the popcnt instruction in perft).
#[inline(always)]
fn count_child(v: &View, own: u64, kings: u64) -> u64 {
    View {
        own: v.enemy,
        enemy: own,
        kings,
        side: !v.side,
    }
    .count_moves() as u64
}

/// Number of quiet moves of the side to move, counted without generating them.
#[inline]
pub fn count_quiet(v: &View) -> usize {
    let (own, enemy) = (v.own, v.enemy);
    let all = own | enemy;
    let empty = DARK & !all;
    let men = own & !v.kings;
    let mut n = match v.side {
        Color::White => ((men << 7) & empty).count_ones() + ((men << 9) & empty).count_ones(),
        Color::Black => ((men >> 7) & empty).count_ones() + ((men >> 9) & empty).count_ones(),
    };
    let mut kings = own & v.kings;
    while kings != 0 {
        let s = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        n += (king_attacks(s, all) & !all).count_ones();
    }
    n as usize
}

/// Every path (landing squares) of a capture, found by re-running the capture search for its
/// piece.
pub fn capture_paths(pos: &RussianPosition, mv: &Move) -> Vec<Vec<Square>> {
    let (own, enemy, crown) = sides(pos);
    let all = own | enemy;
    let s = mv.from as usize;
    if own & (1u64 << s) == 0 {
        return Vec::new();
    }
    let mut sink = PathSink {
        path: Vec::new(),
        target: *mv,
        found: Vec::new(),
    };
    let mut c = Capturer {
        sink: &mut sink,
        enemy,
        occ: all,
        empty: 0,
        from: 0,
        crown,
    };
    c.set_piece(all, s);
    if pos.kings & (1u64 << s) != 0 {
        for d in 0..4 {
            c.king_dir(s, d, 0, false);
        }
    } else {
        c.man_from(1u64 << s, 0);
    }
    // The search goes on along a line from the nearest landing square only (the other
    // landing squares lead to the same moves); a king may pause on any of them.
    let mut all: Vec<Vec<Square>> = Vec::new();
    for path in sink.found {
        for p in pauses_on_lines(s, mv.captured, &path) {
            if !all.contains(&p) {
                all.push(p);
            }
        }
    }
    all
}

/// `path` (from `start`, taking `captured`) with every pause between two captures on one line
/// replaced in turn by each square between the two captured pieces: the same move by another
/// path. A pause is on one line when the steps before and after it go the same way; the
/// squares between the two pieces it passed are empty, or the king could not have crossed them.
fn pauses_on_lines(start: usize, captured: u64, path: &[Square]) -> Vec<Vec<Square>> {
    let xy = |s: usize| ((s % 8) as i32, (s / 8) as i32);
    let step = |a: usize, b: usize| {
        let ((ax, ay), (bx, by)) = (xy(a), xy(b));
        ((bx - ax).signum(), (by - ay).signum())
    };
    let mut out = vec![path.to_vec()];
    let mut prev = start;
    for i in 0..path.len().saturating_sub(1) {
        let (here, next) = (path[i].0 as usize, path[i + 1].0 as usize);
        let d = step(prev, here);
        if d == step(here, next) {
            let (mut x, mut y) = xy(prev);
            let mut between = Vec::new();
            let mut passed = 0;
            while passed < 2 {
                x += d.0;
                y += d.1;
                let sq = (8 * y + x) as usize;
                if captured & (1u64 << sq) != 0 {
                    passed += 1;
                } else if passed == 1 {
                    between.push(Square(sq as u8));
                }
            }
            out = out
                .iter()
                .flat_map(|p| {
                    between.iter().map(move |&alt| {
                        let mut q = p.clone();
                        q[i] = alt;
                        q
                    })
                })
                .collect();
        }
        prev = here;
    }
    out
}
