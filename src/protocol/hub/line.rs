//! The text of Hub lines, both ways: reading capped byte lines from the input, splitting a
//! line into its command and arguments, and writing one. Everything above this file handles
//! typed commands and replies; the text is read and written only here.
//!
//! Input is read as bytes rather than `String`s because input that is not UTF-8 must get an
//! error reply, not end the session (`BufRead::lines` would fail on it), and with a cap
//! because a client that sends a line without end must not make the engine grow its buffer
//! without limit.
//!
//! Splitting is lenient (the protocol asks for it): any run of ASCII whitespace separates
//! arguments, a value is quoted only when it must be, and the meaning of arguments is left to
//! [`super::command`]. Only what cannot be split at all is an error here: an unterminated
//! quote, text glued to a closing quote, an argument with an empty key, a line that starts
//! with an argument instead of a command.
//!
//! Writing: an engine's replies ([`Reply`]) are written strictly: pydraughts splits every
//! argument at `=` and expects exactly a key and a value, so every argument is `key=value`, a
//! value never holds `=` or `"`, and only values with spaces (or empty ones) are quoted. A
//! client's commands ([`Request`]) follow the protocol's own rule, with bare flags
//! (`go think`) and `=` allowed in a quoted value.

use crossbeam_channel::Sender;
use std::fmt;
use std::io::{self, BufRead};

/// The longest line kept, in bytes. A `pos` line of a 300-move game is under 5 KB; anything
/// longer than this is an error.
pub const MAX_LINE: usize = 256 * 1024;

/// One unit of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A line without its end-of-line bytes.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`]; its length in bytes. Its text is dropped.
    TooLong(usize),
    /// End of input (or a read error: either way the client is gone).
    Eof,
}

/// Reads one line of at most `max` bytes. Returns `None` at end of input. A final line
/// without a newline still counts as a line.
pub fn read_line_capped<R: BufRead + ?Sized>(r: &mut R, max: usize) -> io::Result<Option<Input>> {
    let mut buf = Vec::new();
    let mut len = 0usize;
    let mut saw_any = false;
    loop {
        let chunk = match r.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if !saw_any {
                return Ok(None);
            }
            break;
        }
        saw_any = true;
        let (part, found_eol) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], true),
            None => (chunk, false),
        };
        len += part.len();
        if len <= max {
            buf.extend_from_slice(part);
        }
        let used = part.len() + usize::from(found_eol);
        r.consume(used);
        if found_eol {
            break;
        }
    }
    if len > max {
        return Ok(Some(Input::TooLong(len)));
    }
    if buf.last() == Some(&b'\r') {
        buf.pop();
    }
    Ok(Some(Input::Line(buf)))
}

/// Reads lines until end of input or until nobody listens, sending each to `tx`; ends with
/// [`Input::Eof`].
pub fn read_loop<R: BufRead>(mut reader: R, tx: Sender<Input>) {
    loop {
        let input = match read_line_capped(&mut reader, MAX_LINE) {
            Ok(Some(i)) => i,
            Ok(None) | Err(_) => Input::Eof,
        };
        let eof = input == Input::Eof;
        if tx.send(input).is_err() || eof {
            return;
        }
    }
}

/// One argument of a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arg<'a> {
    /// A bare word (`think`, `infinite`).
    Flag(&'a str),
    /// `key=value`; the value has its quotes removed.
    Pair(&'a str, &'a str),
}

impl<'a> Arg<'a> {
    /// The flag, or the key of a pair.
    pub fn key(&self) -> &'a str {
        match *self {
            Arg::Flag(k) | Arg::Pair(k, _) => k,
        }
    }
}

/// A line split into its command and arguments, borrowing from the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// The command word.
    pub command: &'a str,
    /// The arguments in the order given.
    pub args: Vec<Arg<'a>>,
}

impl<'a> Line<'a> {
    /// The value of `key`, which message `word` must have as `key=value`.
    pub fn required(&self, word: &'static str, key: &'static str) -> Result<&'a str, LineError> {
        self.value(key).ok_or(LineError::Missing { word, key })
    }

    /// The value of the last `key=...` for `key` (a later repetition overrides an earlier one).
    pub fn value(&self, key: &str) -> Option<&'a str> {
        self.args.iter().rev().find_map(|a| match *a {
            Arg::Pair(k, v) if k == key => Some(v),
            _ => None,
        })
    }

    /// Whether `key` appears as a bare flag.
    pub fn has_flag(&self, key: &str) -> bool {
        self.args
            .iter()
            .any(|a| matches!(*a, Arg::Flag(k) if k == key))
    }

    /// The bare flags, in order.
    pub fn flags(&self) -> impl Iterator<Item = &'a str> + '_ {
        self.args.iter().filter_map(|a| match *a {
            Arg::Flag(k) => Some(k),
            Arg::Pair(..) => None,
        })
    }
}

/// Why a line could not be split into a command and arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// A `"` opened a value that never closes.
    UnterminatedQuote {
        /// The key whose value is unterminated.
        key: String,
    },
    /// Text follows a closing quote without a space (`key="a"b`).
    TextAfterQuote {
        /// The key of the quoted value.
        key: String,
    },
    /// An argument starts with `=`.
    EmptyKey,
    /// The line starts with `key=value` instead of a command word.
    MissingCommand,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnterminatedQuote { key } => {
                write!(f, "unterminated quote in the value of {key}")
            }
            SyntaxError::TextAfterQuote { key } => {
                write!(f, "text after the closing quote of {key}")
            }
            SyntaxError::EmptyKey => f.write_str("argument with an empty name"),
            SyntaxError::MissingCommand => {
                f.write_str("line starts with an argument, not a command")
            }
        }
    }
}

impl std::error::Error for SyntaxError {}

/// Why a line is not a message of its kind, found before any value is read: what Hub commands
/// ([`super::command::CommandError`]) and engine replies ([`super::reply::ReplyError`]) share.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    /// The line could not be split.
    Syntax(SyntaxError),
    /// The first word is not a message of this kind.
    Unknown {
        /// What was expected: `command` or `reply`.
        kind: &'static str,
        /// The word as written.
        word: String,
    },
    /// A required key is missing.
    Missing {
        /// The message's word.
        word: &'static str,
        /// The missing key.
        key: &'static str,
    },
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::Syntax(e) => write!(f, "syntax error: {e}"),
            LineError::Unknown { kind, word } => write!(f, "unknown {kind} {}", shorten(word)),
            LineError::Missing { word, key } => write!(f, "{word} needs {key}"),
        }
    }
}

impl std::error::Error for LineError {}

impl From<SyntaxError> for LineError {
    fn from(e: SyntaxError) -> Self {
        LineError::Syntax(e)
    }
}

/// At most 40 characters of user text, for error messages.
pub fn shorten(s: &str) -> String {
    crate::core::text::shorten_to(s, 40).into_owned()
}

/// Splits a line. `Ok(None)` for a blank line (which the protocol ignores).
pub fn parse_line(text: &str) -> Result<Option<Line<'_>>, SyntaxError> {
    let mut tokens = Tokens { s: text, pos: 0 };
    let command = match tokens.next_arg()? {
        None => return Ok(None),
        Some(Arg::Flag(c)) => c,
        Some(Arg::Pair(..)) => return Err(SyntaxError::MissingCommand),
    };
    let mut args = Vec::new();
    while let Some(a) = tokens.next_arg()? {
        args.push(a);
    }
    Ok(Some(Line { command, args }))
}

/// A cursor over the text of one line.
struct Tokens<'a> {
    s: &'a str,
    pos: usize,
}

impl<'a> Tokens<'a> {
    fn skip_space(&mut self) {
        let b = self.s.as_bytes();
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    /// Reads up to whitespace, `=` (when `stop_at_eq`) or the end; returns the text read.
    fn word(&mut self, stop_at_eq: bool) -> &'a str {
        let b = self.s.as_bytes();
        let start = self.pos;
        while self.pos < b.len()
            && !b[self.pos].is_ascii_whitespace()
            && !(stop_at_eq && b[self.pos] == b'=')
        {
            self.pos += 1;
        }
        // Only ASCII bytes stop the scan, so both ends are on character boundaries.
        &self.s[start..self.pos]
    }

    fn next_arg(&mut self) -> Result<Option<Arg<'a>>, SyntaxError> {
        self.skip_space();
        let b = self.s.as_bytes();
        if self.pos >= b.len() {
            return Ok(None);
        }
        let key = self.word(true);
        if self.pos >= b.len() || b[self.pos] != b'=' {
            return Ok(Some(Arg::Flag(key)));
        }
        if key.is_empty() {
            return Err(SyntaxError::EmptyKey);
        }
        self.pos += 1; // '='
        if self.pos < b.len() && b[self.pos] == b'"' {
            let start = self.pos + 1;
            let Some(len) = self.s[start..].find('"') else {
                return Err(SyntaxError::UnterminatedQuote {
                    key: key.to_string(),
                });
            };
            self.pos = start + len + 1;
            if self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
                return Err(SyntaxError::TextAfterQuote {
                    key: key.to_string(),
                });
            }
            return Ok(Some(Arg::Pair(key, &self.s[start..start + len])));
        }
        let value = self.word(false);
        Ok(Some(Arg::Pair(key, value)))
    }
}

/// A reply line under construction (engine to client).
#[derive(Clone, Debug)]
pub struct Reply {
    text: String,
}

impl Reply {
    /// Starts a line with its command word.
    pub fn new(command: &str) -> Reply {
        Reply {
            text: word(command),
        }
    }

    /// Appends `key=value`, quoting the value when it is empty or holds whitespace. Characters
    /// a client could not read back (`=`, `"`, control characters) are replaced.
    pub fn arg(mut self, key: &str, value: impl std::fmt::Display) -> Reply {
        push_arg(&mut self.text, key, &value.to_string(), false);
        self
    }

    /// The finished line, without its newline.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The finished line, without its newline.
    pub fn into_string(self) -> String {
        self.text
    }
}

/// A command line under construction (client to engine), written by the protocol's rule for
/// every line: a value is quoted when it is empty or holds a space or `=`. There are no
/// escapes, so `"` and control characters are replaced as in [`Reply`]; `=` is kept.
#[derive(Clone, Debug)]
pub struct Request {
    text: String,
}

impl Request {
    /// Starts a line with its command word.
    pub fn new(command: &str) -> Request {
        Request {
            text: word(command),
        }
    }

    /// Appends `key=value`.
    pub fn arg(mut self, key: &str, value: impl std::fmt::Display) -> Request {
        push_arg(&mut self.text, key, &value.to_string(), true);
        self
    }

    /// Appends a bare word (`go think`, `pos start`, `level infinite`).
    pub fn flag(mut self, flag: &str) -> Request {
        self.text.push(' ');
        self.text.push_str(&word(flag));
        self
    }

    /// The finished line, without its newline.
    pub fn into_string(self) -> String {
        self.text
    }
}

/// A command word or key: cleaned, with no space inside.
fn word(s: &str) -> String {
    clean(s, false).replace(' ', "-")
}

/// Appends ` key=value` to `text`, the value cleaned and quoted when it must be: when empty or
/// holding a space, and (`keep_eq`, a client's line) when holding `=`.
fn push_arg(text: &mut String, key: &str, value: &str, keep_eq: bool) {
    let value = clean(value, keep_eq);
    text.push(' ');
    text.push_str(&word(key));
    text.push('=');
    if value.is_empty() || value.contains(' ') || value.contains('=') {
        text.push('"');
        text.push_str(&value);
        text.push('"');
    } else {
        text.push_str(&value);
    }
}

/// Makes a value writable: `=` becomes `:` (unless `keep_eq`), `"` becomes `'`, any
/// whitespace or control character becomes one space, and spaces at the ends are dropped.
fn clean(s: &str, keep_eq: bool) -> String {
    let mapped: String = s
        .chars()
        .map(|c| match c {
            '=' if !keep_eq => ':',
            '"' => '\'',
            c if c.is_whitespace() || c.is_control() => ' ',
            c => c,
        })
        .collect();
    mapped.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(data: &[u8], max: usize) -> Vec<Input> {
        // A tiny buffer makes lines span several `fill_buf` calls.
        let mut r = io::BufReader::with_capacity(3, data);
        let mut out = Vec::new();
        while let Some(i) = read_line_capped(&mut r, max).unwrap() {
            out.push(i);
        }
        out
    }

    #[test]
    fn splits_lines_and_keeps_bytes() {
        assert_eq!(
            all(b"ping\r\n\nab\xffc\nlast", 100),
            vec![
                Input::Line(b"ping".to_vec()),
                Input::Line(vec![]),
                Input::Line(b"ab\xffc".to_vec()),
                Input::Line(b"last".to_vec()),
            ]
        );
    }

    #[test]
    fn caps_long_lines_and_goes_on() {
        let mut data = vec![b'x'; 50];
        data.extend_from_slice(b"\nping\n");
        assert_eq!(
            all(&data, 10),
            vec![Input::TooLong(50), Input::Line(b"ping".to_vec())]
        );
        assert_eq!(all(&data[..50], 50), vec![Input::Line(vec![b'x'; 50])]);
    }

    #[test]
    fn splits_commands_pairs_quotes_and_flags() {
        let l = parse_line("  pos pos=Wbbb  moves=\"10-14 22-18\"\tstart extra=  ")
            .unwrap()
            .unwrap();
        assert_eq!(l.command, "pos");
        assert_eq!(
            l.args,
            vec![
                Arg::Pair("pos", "Wbbb"),
                Arg::Pair("moves", "10-14 22-18"),
                Arg::Flag("start"),
                Arg::Pair("extra", ""),
            ]
        );
        assert_eq!(l.value("moves"), Some("10-14 22-18"));
        assert!(l.has_flag("start"));
        assert_eq!(l.value("nope"), None);
    }

    #[test]
    fn blank_lines_are_none() {
        assert_eq!(parse_line(""), Ok(None));
        assert_eq!(parse_line(" \t \r"), Ok(None));
    }

    #[test]
    fn later_keys_override_earlier_ones() {
        let l = parse_line("level depth=3 depth=5").unwrap().unwrap();
        assert_eq!(l.value("depth"), Some("5"));
    }

    #[test]
    fn empty_quoted_value_and_value_with_equals() {
        let l = parse_line("x a=\"\" b=\"k=v\" c=d=e").unwrap().unwrap();
        assert_eq!(l.value("a"), Some(""));
        assert_eq!(l.value("b"), Some("k=v"));
        assert_eq!(l.value("c"), Some("d=e"));
    }

    #[test]
    fn syntax_errors() {
        assert_eq!(
            parse_line("pos moves=\"10-14"),
            Err(SyntaxError::UnterminatedQuote {
                key: "moves".into()
            })
        );
        assert_eq!(
            parse_line("pos moves=\"a\"b"),
            Err(SyntaxError::TextAfterQuote {
                key: "moves".into()
            })
        );
        assert_eq!(parse_line("go =x"), Err(SyntaxError::EmptyKey));
        assert_eq!(parse_line("a=b go"), Err(SyntaxError::MissingCommand));
    }

    #[test]
    fn unicode_is_kept_whole() {
        let l = parse_line("привет ключ=значение \"ä").unwrap().unwrap();
        assert_eq!(l.command, "привет");
        assert_eq!(l.value("ключ"), Some("значение"));
        assert_eq!(l.args[1], Arg::Flag("\"ä"));
    }

    #[test]
    fn quotes_only_when_needed() {
        let r = Reply::new("id")
            .arg("name", "damka")
            .arg("author", "two words")
            .arg("empty", "");
        assert_eq!(r.as_str(), "id name=damka author=\"two words\" empty=\"\"");
    }
}
