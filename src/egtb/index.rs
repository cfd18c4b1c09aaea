//! Indexing: a position of one material signature, seen from the side to move, to a dense
//! number and back.
//!
//! Colour-mirror symmetry: a position with Black to move is the same problem as the board turned
//! half a turn (square `s` to `63 - s`) with the colours swapped and White to move. Both games
//! are symmetric under that turn (Russian keeps its dark squares and the long diagonal a1-h8,
//! Turkish men move forward or sideways), so the tables store only positions with White to
//! move: half the positions, and nothing lost, since the signature `(a, b, c, d)` (White has `a`
//! men and `b` kings, Black `c` men and `d` kings) with Black to move is stored as `(c, d, a, b)`
//! with White to move.
//!
//! Each piece kind is ranked combinatorially (the colex rank of a k-subset): White's men among
//! the squares a White man can stand on, Black's men among Black's man squares not taken by a
//! White man, White's kings among the squares left, then Black's kings among the squares left.
//! Kings and Turkish men are ranked exactly; Russian Black men are ranked in the 28 Black man
//! squares minus the White men on them, whose count varies, so the range is sized for the
//! largest case and some numbers decode to nothing (counted per table in `docs/egtb.md`).

use crate::core::Color;
use crate::variant::{GameMove, Pieces, Position};
use once_cell::sync::OnceCell;
use std::fmt;

/// Binomial coefficients `C(n, k)` for `n <= 64`, `k <= 8` (no table here has more than eight
/// pieces of one kind).
const BINOM: [[u64; 9]; 65] = {
    let mut t = [[0u64; 9]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, zero when `k > n`.
#[inline]
pub fn binom(n: u32, k: u32) -> u64 {
    BINOM[n as usize][k as usize]
}

/// The square half a turn away (`s` to `63 - s`).
#[inline]
pub fn rotate(set: u64) -> u64 {
    set.reverse_bits()
}

/// A material signature seen from the side to move: its men and kings, then the opponent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// Men of the side to move.
    pub my_men: u8,
    /// Kings of the side to move.
    pub my_kings: u8,
    /// Men of the opponent.
    pub their_men: u8,
    /// Kings of the opponent.
    pub their_kings: u8,
}

impl Signature {
    /// The signature of `(men, kings)` for the side to move and for the opponent.
    pub const fn new(my_men: u8, my_kings: u8, their_men: u8, their_kings: u8) -> Signature {
        Signature {
            my_men,
            my_kings,
            their_men,
            their_kings,
        }
    }

    /// The signature of a position (from its side to move).
    pub fn of<P: Position>(pos: &P) -> Signature {
        let me = pos.pieces(pos.side_to_move());
        let them = pos.pieces(pos.side_to_move().opposite());
        Signature::new(
            me.men.count_ones() as u8,
            me.kings.count_ones() as u8,
            them.men.count_ones() as u8,
            them.kings.count_ones() as u8,
        )
    }

    /// The same material with the other side to move.
    pub const fn swapped(self) -> Signature {
        Signature::new(self.their_men, self.their_kings, self.my_men, self.my_kings)
    }

    /// Pieces on the board.
    pub const fn pieces(self) -> u32 {
        (self.my_men + self.my_kings + self.their_men + self.their_kings) as u32
    }

    /// Men on the board.
    pub const fn men(self) -> u32 {
        (self.my_men + self.their_men) as u32
    }

    /// Whether each side has at least one piece (the only signatures stored: a side without
    /// pieces has lost).
    pub const fn is_stored(self) -> bool {
        self.my_men + self.my_kings > 0 && self.their_men + self.their_kings > 0
    }

    /// Every stored signature with at most `max_pieces` pieces, in build order: fewer
    /// pieces first, then fewer men (a promotion turns a man into a king, a capture removes a
    /// piece, so every signature a position converts into comes earlier).
    pub fn all_up_to(max_pieces: u32) -> Vec<Signature> {
        let mut v = Vec::new();
        for a in 0..=max_pieces as u8 {
            for b in 0..=max_pieces as u8 {
                for c in 0..=max_pieces as u8 {
                    for d in 0..=max_pieces as u8 {
                        let s = Signature::new(a, b, c, d);
                        if s.is_stored() && s.pieces() <= max_pieces {
                            v.push(s);
                        }
                    }
                }
            }
        }
        v.sort_by_key(|s| (s.pieces(), s.men(), *s));
        v
    }

    /// The file name stem: `K2M1-K1` style would need escaping on some systems, so the four
    /// counts as digits: my men, my kings, their men, their kings (`0201` is two kings against
    /// one king, the side with two kings to move).
    pub fn stem(self) -> String {
        format!(
            "{}{}{}{}",
            self.my_men, self.my_kings, self.their_men, self.their_kings
        )
    }

    /// Parses a stem written by [`Signature::stem`].
    pub fn from_stem(s: &str) -> Option<Signature> {
        let b = s.as_bytes();
        if b.len() != 4 || !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(Signature::new(
            b[0] - b'0',
            b[1] - b'0',
            b[2] - b'0',
            b[3] - b'0',
        ))
    }
}

impl fmt::Display for Signature {
    /// `KKM-K`: the side to move's kings and men, a dash, the opponent's.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |m: u8, k: u8| "K".repeat(k as usize) + &"M".repeat(m as usize);
        write!(
            f,
            "{}-{}",
            side(self.my_men, self.my_kings),
            side(self.their_men, self.their_kings)
        )
    }
}

/// What the tables need to know of a game's board, derived once from its move generator so that
/// this layer names no game: where men can stand, how a man steps, along which lines kings fly.
#[derive(Debug)]
pub struct Geometry {
    /// Squares pieces stand on.
    pub playable: u64,
    /// Squares a White man can stand on in a game (reachable from the start by man moves, never
    /// the crowning rank).
    pub white_men: u64,
    /// The same for Black (the White set turned half a turn).
    pub black_men: u64,
    /// For each square `s`, the squares from which a White man steps to `s` without capture
    /// or crowning.
    pub man_from: [u64; 64],
    /// Unit steps `(file, rank)` along which a king moves.
    pub king_dirs: Vec<(i8, i8)>,
}

fn quiet_targets<P: Position>(white: Pieces) -> Vec<(u8, u64, bool)> {
    let Ok(p) = P::from_pieces(white, Pieces::default(), Color::White) else {
        return Vec::new();
    };
    p.legal_moves()
        .iter()
        .filter(|m| !m.is_capture())
        .map(|m| (m.from().0, m.to().bit(), m.promotes()))
        .collect()
}

impl Geometry {
    /// The geometry of game `P` (computed once per game).
    pub fn of<P: Position>() -> &'static Geometry {
        static RU: OnceCell<Geometry> = OnceCell::new();
        static TU: OnceCell<Geometry> = OnceCell::new();
        let cell = match P::VARIANT {
            crate::core::Variant::Russian => &RU,
            crate::core::Variant::Turkish => &TU,
        };
        cell.get_or_init(Geometry::compute::<P>)
    }

    fn compute<P: Position>() -> Geometry {
        let playable = P::PLAYABLE;
        // Man steps from every square, then the closure from the start position.
        let mut step = [0u64; 64];
        for s in 0..64u8 {
            if playable & (1 << s) == 0 {
                continue;
            }
            let men = Pieces::men_only(1 << s);
            for (_, to, promotes) in quiet_targets::<P>(men) {
                if !promotes {
                    step[s as usize] |= to;
                }
            }
        }
        let mut white_men = P::start().pieces(Color::White).men;
        loop {
            let mut next = white_men;
            for (s, st) in step.iter().enumerate() {
                if white_men & (1 << s) != 0 {
                    next |= st;
                }
            }
            if next == white_men {
                break;
            }
            white_men = next;
        }
        let mut man_from = [0u64; 64];
        for (p, &st) in step.iter().enumerate() {
            if white_men & (1 << p) == 0 {
                continue;
            }
            let mut t = st;
            while t != 0 {
                let s = t.trailing_zeros() as usize;
                t &= t - 1;
                man_from[s] |= 1 << p;
            }
        }
        // King directions: the adjacent targets of a king in the middle of an empty board.
        let centre = (0..64u8)
            .filter(|&s| playable & (1 << s) != 0)
            .find(|&s| (2..6).contains(&(s & 7)) && (2..6).contains(&(s >> 3)))
            .expect("a board has a middle");
        let king = Pieces {
            men: 0,
            kings: 1 << centre,
        };
        let mut king_dirs = Vec::new();
        for (_, to, _) in quiet_targets::<P>(king) {
            let t = to.trailing_zeros() as i8;
            let (df, dr) = ((t & 7) - (centre as i8 & 7), (t >> 3) - (centre as i8 >> 3));
            if df.abs() <= 1 && dr.abs() <= 1 {
                king_dirs.push((df, dr));
            }
        }
        Geometry {
            playable,
            white_men,
            black_men: rotate(white_men),
            man_from,
            king_dirs,
        }
    }

    /// The men squares of a colour.
    #[inline]
    pub fn men_squares(&self, c: Color) -> u64 {
        match c {
            Color::White => self.white_men,
            Color::Black => self.black_men,
        }
    }
}

/// Colex rank of `set` (a subset of `mask`) among the subsets of `mask` of its size, counting
/// positions inside `mask`.
#[inline]
fn rank_in(set: u64, mask: u64) -> u64 {
    let mut r = 0;
    let mut s = set;
    let mut i = 1;
    while s != 0 {
        let b = s & s.wrapping_neg();
        s ^= b;
        let pos = (mask & (b - 1)).count_ones();
        r += binom(pos, i);
        i += 1;
    }
    r
}

/// The subset of `mask` with `k` elements and colex rank `r`, if `r` is in range.
fn unrank_in(mut r: u64, k: u32, mask: u64) -> Option<u64> {
    let n = mask.count_ones();
    if r >= binom(n, k) {
        return None;
    }
    // Positions inside `mask`, from the highest element down.
    let mut squares = [0u8; 64];
    let mut m = mask;
    let mut i = 0;
    while m != 0 {
        squares[i] = m.trailing_zeros() as u8;
        m &= m - 1;
        i += 1;
    }
    let mut set = 0u64;
    let mut top = n;
    for j in (1..=k).rev() {
        // Largest p < top with C(p, j) <= r.
        let mut p = top - 1;
        while binom(p, j) > r {
            p -= 1;
        }
        r -= binom(p, j);
        set |= 1 << squares[p as usize];
        top = p;
    }
    Some(set)
}

/// The numbering of one signature's positions (White to move).
#[derive(Clone, Copy, Debug)]
pub struct Indexer {
    sig: Signature,
    playable: u64,
    white_men: u64,
    black_men: u64,
    n_black_men: u64,
    n_white_kings: u64,
    n_black_kings: u64,
    size: u64,
}

impl Indexer {
    /// The indexer of `sig` in the game with geometry `g`.
    pub fn new(g: &Geometry, sig: Signature) -> Indexer {
        let k = g.playable.count_ones();
        let (a, b, c, d) = (
            sig.my_men as u32,
            sig.my_kings as u32,
            sig.their_men as u32,
            sig.their_kings as u32,
        );
        let n_white_men = binom(g.white_men.count_ones(), a);
        let n_black_men = binom(g.black_men.count_ones(), c);
        let n_white_kings = binom(k - a - c, b);
        let n_black_kings = binom(k - a - c - b, d);
        Indexer {
            sig,
            playable: g.playable,
            white_men: g.white_men,
            black_men: g.black_men,
            n_black_men,
            n_white_kings,
            n_black_kings,
            size: n_white_men * n_black_men * n_white_kings * n_black_kings,
        }
    }

    /// The signature.
    pub fn signature(&self) -> Signature {
        self.sig
    }

    /// Number of indices (some may decode to nothing).
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The index of a position given by White's and Black's pieces (White to move), which must
    /// be of this signature with men on their men squares.
    #[inline]
    pub fn index(&self, w: Pieces, b: Pieces) -> u64 {
        let men = w.men | b.men;
        let free = self.playable & !men;
        let r_wm = rank_in(w.men, self.white_men);
        let r_bm = rank_in(b.men, self.black_men & !w.men);
        let r_wk = rank_in(w.kings, free);
        let r_bk = rank_in(b.kings, free & !w.kings);
        ((r_wm * self.n_black_men + r_bm) * self.n_white_kings + r_wk) * self.n_black_kings + r_bk
    }

    /// The pieces (White, Black) at `index`, White to move; `None` for a number that is no
    /// position.
    pub fn pieces(&self, index: u64) -> Option<(Pieces, Pieces)> {
        if index >= self.size {
            return None;
        }
        let r_bk = index % self.n_black_kings;
        let rest = index / self.n_black_kings;
        let r_wk = rest % self.n_white_kings;
        let rest = rest / self.n_white_kings;
        let r_bm = rest % self.n_black_men;
        let r_wm = rest / self.n_black_men;
        let wm = unrank_in(r_wm, self.sig.my_men as u32, self.white_men)?;
        let bm = unrank_in(r_bm, self.sig.their_men as u32, self.black_men & !wm)?;
        let free = self.playable & !(wm | bm);
        let wk = unrank_in(r_wk, self.sig.my_kings as u32, free)?;
        let bk = unrank_in(r_bk, self.sig.their_kings as u32, free & !wk)?;
        Some((Pieces { men: wm, kings: wk }, Pieces { men: bm, kings: bk }))
    }
}

/// A position with its side to move turned to White: the pieces of the side to move and of
/// the opponent, the board turned half a turn when Black is to move.
#[inline]
pub fn normalized<P: Position>(pos: &P) -> (Pieces, Pieces) {
    let side = pos.side_to_move();
    let me = pos.pieces(side);
    let them = pos.pieces(side.opposite());
    match side {
        Color::White => (me, them),
        Color::Black => (turn(me), turn(them)),
    }
}

/// A side's pieces turned half a turn.
#[inline]
pub fn turn(p: Pieces) -> Pieces {
    Pieces {
        men: rotate(p.men),
        kings: rotate(p.kings),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{RussianPosition, TurkishPosition};

    fn roundtrip<P: Position>(sig: Signature) {
        let g = Geometry::of::<P>();
        let ix = Indexer::new(g, sig);
        let mut valid = 0u64;
        for i in 0..ix.size() {
            if let Some((w, b)) = ix.pieces(i) {
                valid += 1;
                assert_eq!(ix.index(w, b), i);
                assert!(P::from_pieces(w, b, Color::White).is_ok());
            }
        }
        assert!(valid > 0 && valid <= ix.size());
    }

    #[test]
    fn geometry_is_derived_from_the_rules() {
        let g = Geometry::of::<RussianPosition>();
        assert_eq!(g.white_men.count_ones(), 28);
        assert_eq!(g.king_dirs.len(), 4);
        let g = Geometry::of::<TurkishPosition>();
        assert_eq!(g.white_men.count_ones(), 48);
        assert_eq!(g.black_men, g.white_men);
        assert_eq!(g.king_dirs.len(), 4);
    }

    #[test]
    fn indices_round_trip() {
        roundtrip::<RussianPosition>(Signature::new(1, 1, 1, 0));
        roundtrip::<RussianPosition>(Signature::new(2, 0, 1, 0));
        roundtrip::<RussianPosition>(Signature::new(0, 2, 0, 1));
        roundtrip::<TurkishPosition>(Signature::new(1, 0, 1, 1));
    }

    #[test]
    fn build_order_puts_conversions_first() {
        let all = Signature::all_up_to(3);
        let pos = |s: Signature| all.iter().position(|&t| t == s).unwrap();
        assert!(pos(Signature::new(0, 1, 0, 1)) < pos(Signature::new(1, 0, 0, 1)));
        assert!(pos(Signature::new(0, 2, 0, 1)) < pos(Signature::new(1, 1, 0, 1)));
        assert_eq!(
            Signature::from_stem("1201"),
            Some(Signature::new(1, 2, 0, 1))
        );
    }
}
