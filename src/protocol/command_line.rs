//! Command lines written as one string (the match tool's `--engine "new=target/release/damka
//! hub"`, the commands the docs show): split into a program and its arguments as a shell
//! would (quotes, no escapes), and words written back so that they split the same way.

/// Splits a command line into words, honouring single and double quotes (no escapes), so
/// `--engine "new=target/release/damka hub"` works.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote_char: Option<char> = None;
    for c in s.chars() {
        match quote_char {
            Some(q) if c == q => quote_char = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote_char = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote_char.is_some() {
        return Err(format!("unterminated quote in {s:?}"));
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// A word as [`split_command`] reads it back: quoted only when empty or holding a space or
/// `=` (so the `NAME=COMMAND` form is not split wrongly), for commands the tool prints.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '\t']) {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        for (word, quoted) in [
            ("russian", "russian"),
            ("", "\"\""),
            ("9-13 22-18", "\"9-13 22-18\""),
            ("a=b", "\"a=b\""),
        ] {
            assert_eq!(quote(word), quoted);
            // What is written splits back into the word.
            assert_eq!(split_command(&quote(word)).unwrap(), [word]);
        }
    }

    #[test]
    fn splits_command_lines() {
        assert_eq!(
            split_command("target/release/damka hub").unwrap(),
            vec!["target/release/damka", "hub"]
        );
        assert_eq!(
            split_command("'/path with space/eng' --x \"a b\" ''").unwrap(),
            vec!["/path with space/eng", "--x", "a b", ""]
        );
        assert!(split_command("a \"b").is_err());
        assert!(split_command("   ").unwrap().is_empty());
    }
}
