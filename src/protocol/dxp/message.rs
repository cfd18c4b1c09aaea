//! DXP messages as typed values: [`Message::parse`] reads one message (the bytes between two
//! NUL terminators) strictly, field by field, and [`Message::to_wire`] writes one in the exact
//! layout (fixed widths, zero-padded numbers). Layouts: `docs/protocol/dxp.md`.

use crate::core::Color;
use std::fmt;

/// Longest message, in characters (the terminating NUL not counted).
pub const MAX_LEN: usize = 127;
/// Width of the program names in GAMEREQ and GAMEACC.
pub const NAME_WIDTH: usize = 32;
/// The protocol version this implementation speaks.
pub const VERSION: u32 = 1;

/// A GAMEREQ's starting position: colour to move and one character per square (`e`, `w`,
/// `z`, `W`, `Z`), top-left first as White sees the board. The number of squares is checked
/// against the game by the session (32 Russian, 64 Turkish).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Side to move.
    pub to_move: Color,
    /// The squares, as sent.
    pub squares: String,
}

/// GAMEREQ: the initiator asks for a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReq {
    /// Protocol version (1).
    pub version: u32,
    /// The initiator's name (trailing spaces removed).
    pub name: String,
    /// The colour the follower plays.
    pub follower_color: Color,
    /// Minutes for each player for the whole game (0: less than a minute).
    pub minutes: u32,
    /// Moves for the game (0: no limit).
    pub moves: u32,
    /// The starting position; `None` for the game's initial position (`A`).
    pub setup: Option<Setup>,
}

/// GAMEACC answer codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccCode {
    /// `0`: the game is accepted.
    Accept,
    /// `1`: wrong protocol version.
    WrongVersion,
    /// `2`: this game is refused (for example a position of another game's layout).
    RefuseGame,
    /// `3`: every game is refused.
    RefuseAll,
}

/// GAMEEND reasons (seen from the sender).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    /// `0`: no reason given (always allowed, and the reason of an acknowledgement).
    Unknown,
    /// `1`: I lose.
    ILose,
    /// `2`: draw.
    Draw,
    /// `3`: I win.
    IWin,
}

/// BACKACC answer codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackCode {
    /// `0`: taken back.
    Accept,
    /// `1`: taking back is not supported.
    NotSupported,
    /// `2`: refused, the game continues.
    Continue,
}

/// A one-digit code of the protocol (GAMEACC, GAMEEND, BACKACC), read and written through the
/// one list of its values in the order of their digits.
trait Digit: Copy + PartialEq + 'static {
    /// Every value, the one of digit `d` at index `d`.
    const ALL: &'static [Self];

    /// The value of digit `d` (in range: the parser checked it).
    fn from_digit(d: u8) -> Self {
        Self::ALL[usize::from(d)]
    }

    /// The digit of the value.
    fn digit(self) -> char {
        let d = Self::ALL.iter().position(|&v| v == self).unwrap_or(0);
        char::from(b'0' + d as u8)
    }
}

impl Digit for AccCode {
    const ALL: &'static [Self] = &[
        Self::Accept,
        Self::WrongVersion,
        Self::RefuseGame,
        Self::RefuseAll,
    ];
}

impl Digit for EndReason {
    const ALL: &'static [Self] = &[Self::Unknown, Self::ILose, Self::Draw, Self::IWin];
}

impl Digit for BackCode {
    const ALL: &'static [Self] = &[Self::Accept, Self::NotSupported, Self::Continue];
}

/// One DXP message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `R`: a game request.
    GameReq(GameReq),
    /// `A`: the answer to a game request.
    GameAcc {
        /// The follower's name (trailing spaces removed).
        name: String,
        /// Accepted, or why not.
        code: AccCode,
    },
    /// `M`: a move.
    Move {
        /// Seconds the sender used for this move.
        time: u32,
        /// Start square (DXP number).
        from: u32,
        /// End square.
        to: u32,
        /// Every captured square, in any order.
        captured: Vec<u32>,
    },
    /// `E`: end of the game (or its acknowledgement).
    GameEnd {
        /// Why.
        reason: EndReason,
        /// `false` (`0`): another game is welcome; `true` (`1`): stop.
        stop: bool,
    },
    /// `C`: free text.
    Chat(String),
    /// `B`: take back to the position where `side` is to move in move `move_number`.
    BackReq {
        /// Move number, the first move of the game being 1.
        move_number: u32,
        /// Side to move in that position.
        side: Color,
    },
    /// `K`: the answer to a take-back request.
    BackAcc(BackCode),
}

/// A message that could not be read: its letter (when there was one) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The message letter, if the message had a known one.
    pub letter: Option<char>,
    /// What is wrong, fit for a CHAT and a log line.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ParseError {}

/// `W` or `Z`, DXP's colour letters.
pub fn color_letter(c: Color) -> char {
    match c {
        Color::White => 'W',
        Color::Black => 'Z',
    }
}

fn color_of(b: u8) -> Option<Color> {
    match b {
        b'W' => Some(Color::White),
        b'Z' => Some(Color::Black),
        _ => None,
    }
}

/// A field reader: each call takes the next `n` bytes or fails with a message naming the
/// field.
struct Fields<'a> {
    letter: char,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Fields<'a> {
    fn err(&self, message: String) -> ParseError {
        ParseError {
            letter: Some(self.letter),
            message,
        }
    }

    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], ParseError> {
        if self.pos + n > self.bytes.len() {
            return Err(self.err(format!(
                "{}: message too short for {what} ({} characters)",
                self.letter,
                self.bytes.len()
            )));
        }
        let s = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    fn number(&mut self, n: usize, what: &str) -> Result<u32, ParseError> {
        let s = self.take(n, what)?;
        if !s.iter().all(u8::is_ascii_digit) {
            return Err(self.err(format!(
                "{}: {what} must be {n} digits, not {:?}",
                self.letter,
                String::from_utf8_lossy(s)
            )));
        }
        Ok(s.iter().fold(0, |v, d| v * 10 + (d - b'0') as u32))
    }

    fn color(&mut self, what: &str) -> Result<Color, ParseError> {
        let s = self.take(1, what)?;
        color_of(s[0]).ok_or_else(|| {
            self.err(format!(
                "{}: {what} must be W or Z, not {:?}",
                self.letter, s[0] as char
            ))
        })
    }

    fn code(&mut self, max: u8, what: &str) -> Result<u8, ParseError> {
        let s = self.take(1, what)?;
        match s[0] {
            c @ b'0'..=b'9' if c - b'0' <= max => Ok(c - b'0'),
            c => Err(self.err(format!(
                "{}: {what} must be 0 to {max}, not {:?}",
                self.letter, c as char
            ))),
        }
    }

    fn text(&mut self, n: usize, what: &str) -> Result<String, ParseError> {
        let s = self.take(n, what)?;
        Ok(String::from_utf8_lossy(s).trim_end().to_string())
    }

    fn end(&self) -> Result<(), ParseError> {
        if self.pos == self.bytes.len() {
            Ok(())
        } else {
            Err(self.err(format!(
                "{}: {} characters, expected {}",
                self.letter,
                self.bytes.len(),
                self.pos
            )))
        }
    }

    fn rest(&mut self) -> &'a [u8] {
        let s = &self.bytes[self.pos..];
        self.pos = self.bytes.len();
        s
    }
}

impl Message {
    /// Reads one message (without its NUL). Every field is checked: lengths exact, digits where
    /// numbers go, letters from their sets; the bytes must be ASCII 1-127.
    pub fn parse(bytes: &[u8]) -> Result<Message, ParseError> {
        let plain = |message: String| ParseError {
            letter: None,
            message,
        };
        if bytes.is_empty() {
            return Err(plain("empty message".into()));
        }
        if bytes.len() > MAX_LEN {
            return Err(plain(format!(
                "message of {} characters (at most {MAX_LEN})",
                bytes.len()
            )));
        }
        if let Some(&b) = bytes.iter().find(|&&b| b == 0 || b > 127) {
            return Err(plain(format!(
                "byte {b:#04x} is not DXP text (ASCII 1-127)"
            )));
        }
        let letter = bytes[0] as char;
        if !"RAMECBK".contains(letter) {
            return Err(plain(format!("unknown message type {letter:?}")));
        }
        let mut f = Fields {
            letter,
            bytes,
            pos: 1,
        };
        let msg = match letter {
            'R' => Message::GameReq(parse_gamereq(&mut f)?),
            'A' => {
                let name = f.text(NAME_WIDTH, "the follower's name")?;
                let code = AccCode::from_digit(f.code(3, "the acceptance code")?);
                Message::GameAcc { name, code }
            }
            'M' => {
                let time = f.number(4, "the time")?;
                let from = f.number(2, "the start square")?;
                let to = f.number(2, "the end square")?;
                let n = f.number(2, "the number of captured pieces")?;
                let mut captured = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    captured.push(f.number(2, "a captured square")?);
                }
                Message::Move {
                    time,
                    from,
                    to,
                    captured,
                }
            }
            'E' => {
                let reason = EndReason::from_digit(f.code(3, "the reason")?);
                let stop = f.code(1, "the stop code")? == 1;
                Message::GameEnd { reason, stop }
            }
            'C' => Message::Chat(String::from_utf8_lossy(f.rest()).into_owned()),
            'B' => {
                let move_number = f.number(3, "the move number")?;
                let side = f.color("the colour to move")?;
                Message::BackReq { move_number, side }
            }
            _ => Message::BackAcc(BackCode::from_digit(f.code(2, "the answer code")?)),
        };
        f.end()?;
        Ok(msg)
    }

    /// The message in its exact wire layout (without the NUL). Names are space-padded or cut
    /// to 32 characters, numbers zero-padded (and kept within their width), texts made ASCII.
    pub fn to_wire(&self) -> String {
        match self {
            Message::GameReq(r) => {
                let mut s = format!(
                    "R{:02}{}{}{:03}{:03}",
                    r.version % 100,
                    name_field(&r.name),
                    color_letter(r.follower_color),
                    r.minutes % 1000,
                    r.moves % 1000
                );
                match &r.setup {
                    None => s.push('A'),
                    Some(p) => {
                        s.push('B');
                        s.push(color_letter(p.to_move));
                        s.push_str(&p.squares);
                    }
                }
                s
            }
            Message::GameAcc { name, code } => format!("A{}{}", name_field(name), code.digit()),
            Message::Move {
                time,
                from,
                to,
                captured,
            } => {
                let mut s = format!(
                    "M{:04}{:02}{:02}{:02}",
                    time.min(&9999),
                    from % 100,
                    to % 100,
                    captured.len() % 100
                );
                for c in captured {
                    s.push_str(&format!("{:02}", c % 100));
                }
                s
            }
            Message::GameEnd { reason, stop } => {
                format!("E{}{}", reason.digit(), if *stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let mut s = String::from("C");
                s.push_str(&ascii(text, MAX_LEN - 1));
                s
            }
            Message::BackReq { move_number, side } => {
                format!("B{:03}{}", move_number % 1000, color_letter(*side))
            }
            Message::BackAcc(code) => format!("K{}", code.digit()),
        }
    }

    /// The message's name in the standard (`GAMEREQ`, `MOVE`, ...), for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Message::GameReq(_) => "GAMEREQ",
            Message::GameAcc { .. } => "GAMEACC",
            Message::Move { .. } => "MOVE",
            Message::GameEnd { .. } => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackReq { .. } => "BACKREQ",
            Message::BackAcc(_) => "BACKACC",
        }
    }
}

fn parse_gamereq(f: &mut Fields<'_>) -> Result<GameReq, ParseError> {
    let version = f.number(2, "the version")?;
    let name = f.text(NAME_WIDTH, "the initiator's name")?;
    let follower_color = f.color("the follower's colour")?;
    let minutes = f.number(3, "the minutes")?;
    let moves = f.number(3, "the number of moves")?;
    let setup = match f.take(1, "the position indicator")?[0] {
        b'A' => None,
        b'B' => {
            let to_move = f.color("the colour to move")?;
            let rest = f.rest();
            if let Some(&c) = rest.iter().find(|c| !b"ewzWZ".contains(c)) {
                return Err(f.err(format!("R: square {:?} is not one of e w z W Z", c as char)));
            }
            Some(Setup {
                to_move,
                squares: String::from_utf8_lossy(rest).into_owned(),
            })
        }
        c => {
            return Err(f.err(format!(
                "R: position indicator must be A or B, not {:?}",
                c as char
            )))
        }
    };
    Ok(GameReq {
        version,
        name,
        follower_color,
        minutes,
        moves,
        setup,
    })
}

/// `s` as exactly 32 printable ASCII characters.
fn name_field(s: &str) -> String {
    let mut n = ascii(s, NAME_WIDTH);
    while n.len() < NAME_WIDTH {
        n.push(' ');
    }
    n
}

/// `s` with every character outside printable ASCII replaced by `?`, cut to `max`.
fn ascii(s: &str, max: usize) -> String {
    s.chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .take(max)
        .collect()
}
