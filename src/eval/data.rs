//! Training records written by `damka datagen` and read by the trainer (`tools/train`) and
//! the tests: one fixed-size little-endian record of [`RECORD_BYTES`] bytes per position, no
//! file header (so files can be appended to and concatenated).
//!
//! | bytes  | field                                                                    |
//! |--------|--------------------------------------------------------------------------|
//! | 0..8   | occupied squares, u64 (common 64-bit layout, a1 = bit 0)                  |
//! | 8..12  | u32: bit i set = the i-th occupied square (ascending) holds a white piece |
//! | 12..16 | u32: bit i set = the i-th occupied square holds a king                    |
//! | 16     | game: 0 Russian, 1 Turkish                                                |
//! | 17     | flags: bit 0 Black to move, bit 1 a capture is pending (trainer skips it), bit 2 result adjudicated |
//! | 18     | final result for White: 0 loss, 1 draw, 2 win                              |
//! | 19     | plies since the last irreversible move (capture, man move), saturating    |
//! | 20..22 | search score for the side to move, i16 centi-men (wins clipped to ±30000) |
//! | 22..24 | ply of the position in the game, u16                                      |
//! | 24..29 | the game's rule counters (Russian 7.2.4-7.2.8: three kings, king moves, balance, long diagonal, small ending; 0 = off, else 1 + plies); zero for Turkish |
//! | 29..32 | zero (reserved; a reader refuses a record where they are not)             |

use crate::core::{Color, Variant};
use crate::variant::{Pieces, Position, RussianPosition, TurkishPosition};
use std::io::{self, Read, Write};

/// Size of one record.
pub const RECORD_BYTES: usize = 32;

/// The bits of a record's flags byte (byte 17).
#[derive(Clone, Copy)]
#[repr(u8)]
enum Flag {
    /// Black is to move.
    Black = 1,
    /// The side to move has a capture (the position is not quiet).
    Capture = 2,
    /// The game's result was adjudicated (score threshold or ply cap), not played out.
    Adjudicated = 4,
}

impl Flag {
    /// Every flag's bit.
    const ALL: u8 = Flag::Black as u8 | Flag::Capture as u8 | Flag::Adjudicated as u8;

    /// Whether the flags byte `b` has this flag.
    fn of(self, b: u8) -> bool {
        b & self as u8 != 0
    }

    /// This flag's bit if `on`, else 0.
    fn bit(self, on: bool) -> u8 {
        on as u8 * self as u8
    }
}

/// One position of a self-play game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoredPosition {
    /// Which game.
    pub variant: Variant,
    /// White's pieces.
    pub white: Pieces,
    /// Black's pieces.
    pub black: Pieces,
    /// The side to move.
    pub side: Color,
    /// Whether the side to move must capture.
    pub capture: bool,
    /// Whether the result was adjudicated.
    pub adjudicated: bool,
    /// The game's final result for White: -1 loss, 0 draw, 1 win.
    pub result: i8,
    /// Plies since the last irreversible move.
    pub reversible_plies: u8,
    /// Search score for the side to move, centi-men.
    pub score: i16,
    /// Ply of the position in its game.
    pub ply: u16,
    /// The rule counters (see the module table).
    pub rules: [u8; 5],
}

impl ScoredPosition {
    /// The result for the side to move: -1, 0 or 1.
    pub fn result_for_side(&self) -> i8 {
        match self.side {
            Color::White => self.result,
            Color::Black => -self.result,
        }
    }

    /// The record's position, of game `P` (an error if the record is of the other game or its
    /// pieces are not a legal placement).
    pub fn position<P: Position>(&self) -> Result<P, String> {
        if self.variant != P::VARIANT {
            return Err(format!(
                "record of {} read as {}",
                self.variant.name(),
                P::VARIANT.name()
            ));
        }
        P::from_pieces(self.white, self.black, self.side).map_err(|e| e.0)
    }

    /// The 32 bytes of the record.
    pub fn encode(&self) -> [u8; RECORD_BYTES] {
        let occ = self.white.all() | self.black.all();
        let (mut white, mut king) = (0u32, 0u32);
        for (i, sq) in crate::core::Bits(occ).enumerate() {
            let b = sq.bit();
            if self.white.all() & b != 0 {
                white |= 1 << i;
            }
            if (self.white.kings | self.black.kings) & b != 0 {
                king |= 1 << i;
            }
        }
        let mut out = [0u8; RECORD_BYTES];
        out[0..8].copy_from_slice(&occ.to_le_bytes());
        out[8..12].copy_from_slice(&white.to_le_bytes());
        out[12..16].copy_from_slice(&king.to_le_bytes());
        out[16] = self.variant.code();
        out[17] = Flag::Black.bit(self.side == Color::Black)
            | Flag::Capture.bit(self.capture)
            | Flag::Adjudicated.bit(self.adjudicated);
        out[18] = (self.result + 1) as u8;
        out[19] = self.reversible_plies;
        out[20..22].copy_from_slice(&self.score.to_le_bytes());
        out[22..24].copy_from_slice(&self.ply.to_le_bytes());
        out[24..29].copy_from_slice(&self.rules);
        out
    }

    /// Reads a record back; an error names what is malformed.
    pub fn decode(b: &[u8; RECORD_BYTES]) -> Result<ScoredPosition, String> {
        let occ = u64::from_le_bytes(b[0..8].try_into().expect("8 bytes"));
        let white_bits = u32::from_le_bytes(b[8..12].try_into().expect("4 bytes"));
        let king_bits = u32::from_le_bytes(b[12..16].try_into().expect("4 bytes"));
        let n = occ.count_ones();
        if n > 32 || (n < 32 && (white_bits | king_bits) >> n != 0) {
            return Err("piece bits beyond the occupied squares".into());
        }
        let variant =
            Variant::from_code(b[16]).ok_or_else(|| format!("unknown game code {}", b[16]))?;
        if b[17] & !Flag::ALL != 0 || b[18] > 2 {
            return Err("bad flags or result".into());
        }
        if b[29..32] != [0, 0, 0] {
            return Err("reserved bytes not zero".into());
        }
        let (mut white, mut black) = (Pieces::default(), Pieces::default());
        for (i, sq) in crate::core::Bits(occ).enumerate() {
            let side = if white_bits >> i & 1 != 0 {
                &mut white
            } else {
                &mut black
            };
            if king_bits >> i & 1 != 0 {
                side.kings |= sq.bit();
            } else {
                side.men |= sq.bit();
            }
        }
        let mut rules = [0u8; 5];
        rules.copy_from_slice(&b[24..29]);
        Ok(ScoredPosition {
            variant,
            white,
            black,
            side: if Flag::Black.of(b[17]) {
                Color::Black
            } else {
                Color::White
            },
            capture: Flag::Capture.of(b[17]),
            adjudicated: Flag::Adjudicated.of(b[17]),
            result: b[18] as i8 - 1,
            reversible_plies: b[19],
            score: i16::from_le_bytes([b[20], b[21]]),
            ply: u16::from_le_bytes([b[22], b[23]]),
            rules,
        })
    }

    /// Writes the record.
    pub fn write_to(&self, w: &mut dyn Write) -> io::Result<()> {
        w.write_all(&self.encode())
    }
}

/// Reads records one by one from a byte stream (use a `BufReader` around a file).
pub struct Reader<R: Read> {
    inner: R,
    index: u64,
}

impl<R: Read> Reader<R> {
    /// A reader over `inner`.
    pub fn new(inner: R) -> Reader<R> {
        Reader { inner, index: 0 }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<ScoredPosition, String>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut buf = [0u8; RECORD_BYTES];
        let mut got = 0;
        while got < RECORD_BYTES {
            match self.inner.read(&mut buf[got..]) {
                Ok(0) if got == 0 => return None,
                Ok(0) => {
                    return Some(Err(format!(
                        "record {}: file ends inside a record ({got} of {RECORD_BYTES} bytes)",
                        self.index
                    )))
                }
                Ok(k) => got += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Some(Err(format!("record {}: {e}", self.index))),
            }
        }
        let i = self.index;
        self.index += 1;
        Some(ScoredPosition::decode(&buf).map_err(|e| format!("record {i}: {e}")))
    }
}

/// Reads every record of a file.
pub fn read_file(path: &std::path::Path) -> Result<Vec<ScoredPosition>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Reader::new(io::BufReader::new(f))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The rule counters of a position as the record's five bytes (how each game's counters are
/// stored: see the module table).
pub trait RecordRules: Position {
    /// The five counter bytes.
    fn rule_bytes(state: &Self::RuleState) -> [u8; 5];
}

impl RecordRules for RussianPosition {
    fn rule_bytes(s: &Self::RuleState) -> [u8; 5] {
        let on = |v: Option<u32>| v.map_or(0, |p| (p + 1).min(255) as u8);
        [
            on(s.three_kings()),
            s.king_moves().min(255) as u8,
            on(s.balance()),
            on(s.long_diagonal()),
            on(s.small()),
        ]
    }
}

impl RecordRules for TurkishPosition {
    fn rule_bytes(_: &Self::RuleState) -> [u8; 5] {
        [0; 5]
    }
}
