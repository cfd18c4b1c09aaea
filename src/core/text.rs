//! Line-based data files (perft EPD files, opening files): one item a line, blank lines and
//! `#` comment lines skipped, errors naming the line; and user text cut short for messages and
//! logs (a line or a file may be any length).

use std::borrow::Cow;

/// The first `max` characters of `s` when it is longer; `None` when it fits whole.
pub fn cut_after(s: &str, max: usize) -> Option<&str> {
    s.char_indices().nth(max).map(|(i, _)| &s[..i])
}

/// At most `max` characters of `s`, with `...` when cut.
pub fn shorten_to(s: &str, max: usize) -> Cow<'_, str> {
    match cut_after(s, max) {
        Some(head) => format!("{head}...").into(),
        None => s.into(),
    }
}

/// Parses every data line of `text` (trimmed; not blank, not starting with `#`) with
/// `parse`; an error is given as `line N: error`, N counted from 1.
pub fn parse_lines<T, E: std::fmt::Display>(
    text: &str,
    mut parse: impl FnMut(&str) -> Result<T, E>,
) -> Result<Vec<T>, String> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .map(|(n, l)| parse(l).map_err(|e| format!("line {n}: {e}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::{cut_after, parse_lines, shorten_to};

    #[test]
    fn data_lines_numbered_from_one() {
        let text = "# header\n\n 1 \n2\n  # note\nx\n";
        let r = parse_lines(text, |l| l.parse::<u32>());
        assert_eq!(r.unwrap_err(), "line 6: invalid digit found in string");
        let r = parse_lines("# only\n3\n\n4", |l| l.parse::<u32>());
        assert_eq!(r.unwrap(), [3, 4]);
    }

    #[test]
    fn text_is_cut_by_characters_not_bytes() {
        assert_eq!(cut_after("abc", 3), None);
        assert_eq!(cut_after("abcd", 3), Some("abc"));
        assert_eq!(cut_after("ééééé", 2), Some("éé"));
        assert_eq!(shorten_to("abc", 3), "abc");
        assert_eq!(shorten_to("абвгд", 4), "абвг...");
    }
}
