//! The board conventions of the two GUI interfaces, in plain data with no engine in sight: a
//! [`Diagram`] (who stands where, who moves), CheckerBoard's 8x8 array, square numbers and
//! FEN, and the Kallisto position string. Everything here is checked: a bad board becomes an
//! error text, never a panic.

use std::fmt;

/// CheckerBoard's piece bits (`cb_interface.h`).
pub const CB_WHITE: i32 = 1;
/// Black.
pub const CB_BLACK: i32 = 2;
/// A man.
pub const CB_MAN: i32 = 4;
/// A king.
pub const CB_KING: i32 = 8;

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Starts on ranks 1-3 and moves first.
    White,
    /// Starts on ranks 6-8.
    Black,
}

impl Side {
    /// The other side.
    pub fn opposite(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// CheckerBoard's colour code.
    pub fn cb_code(self) -> i32 {
        match self {
            Side::White => CB_WHITE,
            Side::Black => CB_BLACK,
        }
    }

    /// The side of a CheckerBoard colour code.
    pub fn from_cb(code: i32) -> Option<Side> {
        match code {
            CB_WHITE => Some(Side::White),
            CB_BLACK => Some(Side::Black),
            _ => None,
        }
    }
}

/// A piece: its side and whether it is a king.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Owner.
    pub side: Side,
    /// Crowned.
    pub king: bool,
}

impl Piece {
    /// CheckerBoard's code (`CB_WHITE | CB_MAN`, ...).
    pub fn cb_code(self) -> i32 {
        self.side.cb_code() | if self.king { CB_KING } else { CB_MAN }
    }

    /// The piece of a CheckerBoard code; 0 (empty) is `Ok(None)`, anything else not a piece
    /// is an error.
    pub fn from_cb(code: i32) -> Result<Option<Piece>, String> {
        let piece = |side, king| Ok(Some(Piece { side, king }));
        match code {
            0 => Ok(None),
            c if c == CB_WHITE | CB_MAN => piece(Side::White, false),
            c if c == CB_WHITE | CB_KING => piece(Side::White, true),
            c if c == CB_BLACK | CB_MAN => piece(Side::Black, false),
            c if c == CB_BLACK | CB_KING => piece(Side::Black, true),
            c => Err(format!("{c} is no piece code (5, 6, 9, 10 or 0)")),
        }
    }
}

/// A square by file (0 = a) and rank (0 = rank 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Sq {
    /// File, 0 = a.
    pub file: u8,
    /// Rank, 0 = rank 1.
    pub rank: u8,
}

impl Sq {
    /// The square, if both coordinates are on the board.
    pub fn new(file: i32, rank: i32) -> Option<Sq> {
        ((0..8).contains(&file) && (0..8).contains(&rank)).then_some(Sq {
            file: file as u8,
            rank: rank as u8,
        })
    }

    /// Whether pieces may stand here (a1 is dark).
    pub fn is_dark(self) -> bool {
        (self.file + self.rank).is_multiple_of(2)
    }

    fn index(self) -> usize {
        usize::from(self.rank) * 8 + usize::from(self.file)
    }

    /// Parses `c3` (case-insensitive).
    pub fn parse(s: &str) -> Option<Sq> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let f = i32::from(b[0].to_ascii_lowercase()) - i32::from(b'a');
        let r = i32::from(b[1]) - i32::from(b'1');
        Sq::new(f, r)
    }

    /// CheckerBoard's array coordinates of this square for Russian. CheckerBoard keeps the
    /// English layout for every game type (its square 1 at x=6, y=0; the side that does not
    /// move first on y=0..2), so for Russian, where White moves first from ranks 1-3, the
    /// board is the English one turned half round: x = 7 - file, y = 7 - rank.
    pub fn to_cb(self) -> (i32, i32) {
        (7 - i32::from(self.file), 7 - i32::from(self.rank))
    }

    /// The square at CheckerBoard array coordinates.
    pub fn from_cb(x: i32, y: i32) -> Option<Sq> {
        Sq::new(7 - x, 7 - y)
    }

    /// CheckerBoard's square number (1..=32) for Russian: its default numbering, which is the
    /// usual 8x8 numbering from Black's side (1 = b8, 4 = h8, 5 = a7, 29 = a1, 32 = g1).
    pub fn cb_number(self) -> Option<u32> {
        if !self.is_dark() {
            return None;
        }
        let (x, y) = self.to_cb();
        Some((4 * (y + 1) - x / 2) as u32)
    }

    /// The square of a CheckerBoard square number.
    pub fn from_cb_number(n: i32) -> Option<Sq> {
        if !(1..=32).contains(&n) {
            return None;
        }
        let k = n - 1;
        let y = k / 4;
        let x = 2 * (3 - k % 4) + (y % 2);
        Sq::from_cb(x, y)
    }

    /// Parses a square as a CheckerBoard number or an algebraic name.
    pub fn parse_cb(s: &str) -> Option<Sq> {
        match s.parse::<i32>() {
            Ok(n) => Sq::from_cb_number(n),
            Err(_) => Sq::parse(s).filter(|q| q.is_dark()),
        }
    }
}

impl fmt::Display for Sq {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank + 1)
    }
}

/// A position as the GUIs describe it: pieces and the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    cells: [Option<Piece>; 64],
    /// The side to move.
    pub side: Side,
}

impl Diagram {
    /// An empty board with `side` to move.
    pub fn empty(side: Side) -> Diagram {
        Diagram {
            cells: [None; 64],
            side,
        }
    }

    /// The piece on `sq`.
    pub fn get(&self, sq: Sq) -> Option<Piece> {
        self.cells[sq.index()]
    }

    /// Puts a piece (or nothing) on a dark square; light squares are refused.
    pub fn set(&mut self, sq: Sq, piece: Option<Piece>) -> Result<(), String> {
        if piece.is_some() && !sq.is_dark() {
            return Err(format!("a piece on the light square {sq}"));
        }
        self.cells[sq.index()] = piece;
        Ok(())
    }

    /// Reads CheckerBoard's `int board[8][8]` (indexed `[x][y]`, so `x * 8 + y` in memory).
    pub fn from_cb_array(cells: &[i32; 64], side: Side) -> Result<Diagram, String> {
        let mut d = Diagram::empty(side);
        for x in 0..8 {
            for y in 0..8 {
                let code = cells[(x * 8 + y) as usize];
                let piece = Piece::from_cb(code).map_err(|e| format!("board[{x}][{y}]: {e}"))?;
                let sq = Sq::from_cb(x, y).ok_or("bad coordinates")?;
                d.set(sq, piece)
                    .map_err(|e| format!("board[{x}][{y}]: {e}"))?;
            }
        }
        Ok(d)
    }

    /// Writes CheckerBoard's array.
    pub fn to_cb_array(&self) -> [i32; 64] {
        let mut out = [0; 64];
        for (i, cell) in self.cells.iter().enumerate() {
            let sq = Sq {
                file: (i % 8) as u8,
                rank: (i / 8) as u8,
            };
            let (x, y) = sq.to_cb();
            out[(x * 8 + y) as usize] = cell.map_or(0, Piece::cb_code);
        }
        out
    }

    /// The FEN with algebraic squares (`W:Wa1,c3,Kd4:Bb6`), which damka reads.
    pub fn to_fen(&self) -> String {
        let list = |side: Side| {
            let mut v = Vec::new();
            for (i, cell) in self.cells.iter().enumerate() {
                if let Some(p) = cell.filter(|p| p.side == side) {
                    let sq = Sq {
                        file: (i % 8) as u8,
                        rank: (i / 8) as u8,
                    };
                    v.push(format!("{}{sq}", if p.king { "K" } else { "" }));
                }
            }
            v.join(",")
        };
        let stm = if self.side == Side::White { 'W' } else { 'B' };
        format!("{stm}:W{}:B{}", list(Side::White), list(Side::Black))
    }

    /// CheckerBoard's FEN: `W:W21,22,K30:B1,2`, squares in CheckerBoard's numbering (ranges
    /// such as `1-12` and algebraic squares are read too).
    pub fn from_cb_fen(text: &str) -> Result<Diagram, String> {
        let t = text.trim().trim_matches('"').trim_end_matches('.');
        let mut fields = t.split(':');
        let side = match fields.next().map(str::trim) {
            Some("W") | Some("w") => Side::White,
            Some("B") | Some("b") => Side::Black,
            _ => return Err(format!("a FEN starts with W: or B:, not {t:?}")),
        };
        let mut d = Diagram::empty(side);
        for field in fields {
            let field = field.trim();
            let owner = match field.chars().next() {
                Some('W') | Some('w') => Side::White,
                Some('B') | Some('b') => Side::Black,
                // Extra fields (move counters) are not ours to judge.
                _ => continue,
            };
            for token in field[1..]
                .split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
            {
                let (king, body) = match token.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, token),
                };
                let squares: Vec<Sq> = match body.split_once('-') {
                    Some((a, b)) => {
                        let (a, b) = (a.parse::<i32>(), b.parse::<i32>());
                        match (a, b) {
                            (Ok(a), Ok(b)) if 1 <= a && a <= b && b <= 32 => {
                                (a..=b).filter_map(Sq::from_cb_number).collect()
                            }
                            _ => return Err(format!("bad square range {token:?}")),
                        }
                    }
                    None => vec![Sq::parse_cb(body).ok_or(format!("bad square {token:?}"))?],
                };
                for sq in squares {
                    if d.get(sq).is_some() {
                        return Err(format!("two pieces on {sq}"));
                    }
                    d.set(sq, Some(Piece { side: owner, king }))?;
                }
            }
        }
        Ok(d)
    }

    /// CheckerBoard's FEN of this diagram (numbers in its numbering, ascending).
    pub fn to_cb_fen(&self) -> String {
        let list = |side: Side| {
            let mut v: Vec<(u32, bool)> = Vec::new();
            for (i, cell) in self.cells.iter().enumerate() {
                if let Some(p) = cell.filter(|p| p.side == side) {
                    let sq = Sq {
                        file: (i % 8) as u8,
                        rank: (i / 8) as u8,
                    };
                    v.extend(sq.cb_number().map(|n| (n, p.king)));
                }
            }
            v.sort_unstable();
            v.iter()
                .map(|(n, k)| format!("{}{n}", if *k { "K" } else { "" }))
                .collect::<Vec<_>>()
                .join(",")
        };
        let stm = if self.side == Side::White { 'W' } else { 'B' };
        format!("{stm}:W{}:B{}", list(Side::White), list(Side::Black))
    }

    /// The Kallisto position string: one character per dark square in the order b8, d8, f8,
    /// h8, a7, ..., a1, c1, e1, g1 (`w b W B`, `.` empty), then `w` or `b` for the side to
    /// move. Surrounding blanks are ignored; any other character is an error.
    pub fn from_kallisto(text: &str) -> Result<Diagram, String> {
        let b: Vec<char> = text.trim().chars().collect();
        if b.len() != 33 {
            return Err(format!(
                "a position string has 33 characters (32 squares and the side to move), not {}",
                b.len()
            ));
        }
        let side = match b[32] {
            'w' | 'W' => Side::White,
            'b' | 'B' => Side::Black,
            c => return Err(format!("side to move must be w or b, not {c:?}")),
        };
        let mut d = Diagram::empty(side);
        for (sq, &c) in kallisto_order().zip(&b[..32]) {
            let piece = match c {
                'w' => Some(Piece {
                    side: Side::White,
                    king: false,
                }),
                'W' => Some(Piece {
                    side: Side::White,
                    king: true,
                }),
                'b' => Some(Piece {
                    side: Side::Black,
                    king: false,
                }),
                'B' => Some(Piece {
                    side: Side::Black,
                    king: true,
                }),
                '.' | '-' | 'e' | ' ' => None,
                c => return Err(format!("unknown character {c:?} in position string")),
            };
            d.set(sq, piece)?;
        }
        Ok(d)
    }

    /// The Kallisto position string of this diagram.
    pub fn to_kallisto(&self) -> String {
        let mut s: String = kallisto_order()
            .map(|sq| match self.get(sq) {
                None => '.',
                Some(Piece {
                    side: Side::White,
                    king: false,
                }) => 'w',
                Some(Piece {
                    side: Side::White,
                    king: true,
                }) => 'W',
                Some(Piece {
                    side: Side::Black,
                    king: false,
                }) => 'b',
                Some(Piece {
                    side: Side::Black,
                    king: true,
                }) => 'B',
            })
            .collect();
        s.push(if self.side == Side::White { 'w' } else { 'b' });
        s
    }
}

/// The dark squares in Kallisto's order: rank 8 first, each rank from the a-file.
fn kallisto_order() -> impl Iterator<Item = Sq> {
    (0..8u8)
        .rev()
        .flat_map(|rank| (0..8u8).map(move |file| Sq { file, rank }))
        .filter(|sq| sq.is_dark())
}

/// CheckerBoard's move record (`struct CBmove`), laid out as in C.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CbMove {
    /// Number of pieces captured.
    pub jumps: i32,
    /// Piece code that lands on the end square.
    pub newpiece: i32,
    /// Piece code that leaves the start square.
    pub oldpiece: i32,
    /// Start square, array coordinates.
    pub from: Coor,
    /// End square.
    pub to: Coor,
    /// Intermediate landing squares of a capture, from `path[1]` (`path[0]` is unused).
    pub path: [Coor; 12],
    /// Squares of the captured pieces.
    pub del: [Coor; 12],
    /// Piece codes of the captured pieces.
    pub delpiece: [i32; 12],
}

/// CheckerBoard's `struct coor`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coor {
    /// Column of the array.
    pub x: i32,
    /// Row of the array.
    pub y: i32,
}

impl From<Sq> for Coor {
    fn from(sq: Sq) -> Coor {
        let (x, y) = sq.to_cb();
        Coor { x, y }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cb_numbers_follow_checkerboard() {
        // cb_interface.h's default numbertocoors: 1 -> (6, 0), 5 -> (7, 1), 32 -> (1, 7).
        for (n, x, y) in [(1, 6, 0), (4, 0, 0), (5, 7, 1), (29, 7, 7), (32, 1, 7)] {
            let sq = Sq::from_cb_number(n).unwrap();
            assert_eq!(sq.to_cb(), (x, y), "square {n}");
            assert_eq!(sq.cb_number(), Some(n as u32));
        }
        assert_eq!(Sq::from_cb_number(1).unwrap().to_string(), "b8");
        assert_eq!(Sq::from_cb_number(29).unwrap().to_string(), "a1");
        assert_eq!(Sq::from_cb_number(32).unwrap().to_string(), "g1");
        assert!(Sq::from_cb_number(0).is_none() && Sq::from_cb_number(33).is_none());
    }

    #[test]
    fn start_position_round_trips() {
        let d = Diagram::from_cb_fen("W:W21-32:B1-12").unwrap();
        assert_eq!(
            d.to_fen(),
            "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
        );
        let k = d.to_kallisto();
        assert_eq!(k, "bbbbbbbbbbbb........wwwwwwwwwwwww");
        assert_eq!(Diagram::from_kallisto(&k).unwrap(), d);
        let arr = d.to_cb_array();
        assert_eq!(Diagram::from_cb_array(&arr, Side::White).unwrap(), d);
        assert_eq!(
            d.to_cb_fen(),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
    }

    #[test]
    fn bad_boards_are_errors() {
        let mut arr = [0; 64];
        arr[1] = CB_WHITE | CB_MAN; // x = 0, y = 1: a light square
        assert!(Diagram::from_cb_array(&arr, Side::White).is_err());
        let mut arr = [0; 64];
        arr[0] = 7;
        assert!(Diagram::from_cb_array(&arr, Side::White).is_err());
        assert!(Diagram::from_kallisto("xyz").is_err());
        assert!(Diagram::from_cb_fen("W:W33").is_err());
        assert!(Diagram::from_cb_fen("W:W1:B1").is_err());
    }
}
