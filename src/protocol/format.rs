//! Writing Hub lines. An engine's replies ([`Reply`]) are written strictly: pydraughts splits
//! every argument at `=` and expects exactly a key and a value, so every argument is
//! `key=value`, a value never holds `=` or `"`, and only values with spaces (or empty ones) are
//! quoted. A client's commands ([`Request`]) follow the protocol's own rule, with bare flags
//! (`go think`) and `=` allowed in a quoted value.

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

    #[test]
    fn quotes_only_when_needed() {
        let r = Reply::new("id")
            .arg("name", "damka")
            .arg("author", "two words")
            .arg("empty", "");
        assert_eq!(r.as_str(), "id name=damka author=\"two words\" empty=\"\"");
    }
}
