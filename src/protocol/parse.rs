//! Reading Hub lines: `command key=value key="quoted value" flag ...`.
//!
//! Reading is lenient (the protocol asks for it): any run of ASCII whitespace separates
//! arguments, a value is quoted only when it must be, and the meaning of arguments is left to
//! [`super::command`]. Only what cannot be split at all is an error here: an unterminated
//! quote, text glued to a closing quote, an argument with an empty key, a line that starts
//! with an argument instead of a command.

use std::fmt;

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
    shorten_to(s, 40)
}

/// At most `max` characters of `s`, with `...` when cut.
pub fn shorten_to(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str("...");
        t
    }
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
