//! The PDN lexer: tags and words, with comments, variations, NAGs and escape lines skipped
//! and lines counted for error messages.

use super::PdnError;

/// A token of PDN text.
pub(super) enum Token {
    /// `[Name "value"]`.
    Tag(String, String),
    /// A move, a move number or a result.
    Word(String),
}

/// Splits PDN text into tags and words, skipping comments, variations and annotations, and
/// counting lines for error messages.
pub(super) struct Lexer<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    pub(super) line: usize,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str) -> Lexer<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lexer {
            s: text.as_bytes(),
            text,
            i: 0,
            line: 1,
        }
    }

    fn error(&self, message: impl Into<String>) -> PdnError {
        PdnError {
            line: self.line,
            message: message.into(),
        }
    }

    fn bump(&mut self) -> u8 {
        let c = self.s[self.i];
        if c == b'\n' {
            self.line += 1;
        }
        self.i += 1;
        c
    }

    fn at_line_start(&self) -> bool {
        self.i == 0 || self.s[self.i - 1] == b'\n'
    }

    /// Skips white space, comments, variations, NAGs and escape lines; a closing delimiter
    /// with nothing to close is an error. Every delimiter that ends a word is taken here or
    /// by [`Lexer::tag`], so a word is never empty and the reader always moves on.
    pub(super) fn skip(&mut self) -> Result<(), PdnError> {
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c.is_ascii_whitespace() {
                self.bump();
            } else if (c == b'%' && self.at_line_start()) || c == b';' {
                while self.i < self.s.len() && self.s[self.i] != b'\n' {
                    self.bump();
                }
            } else if c == b'{' {
                let start = self.line;
                self.bump();
                loop {
                    if self.i >= self.s.len() {
                        return Err(PdnError {
                            line: start,
                            message: "comment { is never closed".into(),
                        });
                    }
                    if self.bump() == b'}' {
                        break;
                    }
                }
            } else if c == b'(' {
                let start = self.line;
                let mut depth = 0usize;
                loop {
                    if self.i >= self.s.len() {
                        return Err(PdnError {
                            line: start,
                            message: "variation ( is never closed".into(),
                        });
                    }
                    match self.bump() {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'{' => while self.i < self.s.len() && self.bump() != b'}' {},
                        _ => {}
                    }
                }
            } else if c == b')' {
                return Err(self.error("')' without a variation to close"));
            } else if c == b'}' {
                return Err(self.error("'}' without a comment to close"));
            } else if c == b']' {
                return Err(self.error("']' without a tag to close"));
            } else if c == b'$' {
                self.bump();
                while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                    self.bump();
                }
            } else {
                break;
            }
        }
        Ok(())
    }

    /// Whether the next token is a tag (skipping what the lexer skips).
    pub(super) fn at_tag(&mut self) -> bool {
        let (i, line) = (self.i, self.line);
        let tag = self.skip().is_ok() && self.i < self.s.len() && self.s[self.i] == b'[';
        self.i = i;
        self.line = line;
        tag
    }

    pub(super) fn next_token(&mut self) -> Result<Option<Token>, PdnError> {
        self.skip()?;
        if self.i >= self.s.len() {
            return Ok(None);
        }
        if self.s[self.i] == b'[' {
            return self.tag().map(Some);
        }
        let start = self.i;
        while self.i < self.s.len() {
            let c = self.s[self.i];
            if c.is_ascii_whitespace() || b"{}()[];$".contains(&c) {
                break;
            }
            self.bump();
        }
        Ok(Some(Token::Word(self.text[start..self.i].to_string())))
    }

    fn tag(&mut self) -> Result<Token, PdnError> {
        self.bump(); // '['
        while self.i < self.s.len() && self.s[self.i] == b' ' {
            self.bump();
        }
        let start = self.i;
        while self.i < self.s.len()
            && (self.s[self.i].is_ascii_alphanumeric() || self.s[self.i] == b'_')
        {
            self.bump();
        }
        let name = self.text[start..self.i].to_string();
        if name.is_empty() {
            return Err(self.error("a tag has no name"));
        }
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t') {
            self.bump();
        }
        if self.i >= self.s.len() || self.s[self.i] != b'"' {
            return Err(self.error(format!("tag {name}: the value must be in quotes")));
        }
        self.bump();
        let mut value = Vec::new();
        loop {
            if self.i >= self.s.len() || self.s[self.i] == b'\n' {
                return Err(self.error(format!("tag {name}: the value's quote is never closed")));
            }
            match self.bump() {
                b'"' => break,
                b'\\' if self.i < self.s.len() && self.s[self.i] != b'\n' => {
                    value.push(self.bump())
                }
                c => value.push(c),
            }
        }
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t') {
            self.bump();
        }
        if self.i >= self.s.len() || self.s[self.i] != b']' {
            return Err(self.error(format!("tag {name}: missing ']'")));
        }
        self.bump();
        // The value was valid UTF-8 text and only ASCII escapes were dropped.
        Ok(Token::Tag(
            name,
            String::from_utf8_lossy(&value).into_owned(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexer_skips_comments_variations_and_nags() {
        let text = "[Event \"a \\\"b\\\"\"]\n% escape\n1. c3-d4 {note (x)} (1. a3-b4 (1. e3-f4) {c}) $2 f6-g5! ; rest\n*";
        let mut lex = Lexer::new(text);
        let mut words = Vec::new();
        while let Some(t) = lex.next_token().unwrap() {
            match t {
                Token::Tag(n, v) => {
                    assert_eq!((n.as_str(), v.as_str()), ("Event", "a \"b\""));
                }
                Token::Word(w) => words.push(w),
            }
        }
        assert_eq!(words, ["1.", "c3-d4", "f6-g5!", "*"]);
    }

    #[test]
    fn lexer_reports_unclosed_things_with_their_line() {
        for (text, line) in [
            ("1. c3-d4\n{ never closed", 2),
            ("\n\n1. c3-d4 (1. a3-b4", 3),
            ("[Event \"x]\n", 1),
            ("[Event x]", 1),
            ("1. c3-d4 )", 1),
            ("1. c3-d4\n f6-g5 ] *", 2),
        ] {
            let mut lex = Lexer::new(text);
            let e = loop {
                match lex.next_token() {
                    Ok(Some(_)) => continue,
                    Ok(None) => panic!("{text:?} should fail"),
                    Err(e) => break e,
                }
            };
            assert_eq!(e.line, line, "{text:?}: {e}");
        }
    }
}
