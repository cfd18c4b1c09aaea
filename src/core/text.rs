//! Line-based data files (perft EPD files, opening files): one item a line, blank lines and
//! `#` comment lines skipped, errors naming the line.

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
    use super::parse_lines;

    #[test]
    fn data_lines_numbered_from_one() {
        let text = "# header\n\n 1 \n2\n  # note\nx\n";
        let r = parse_lines(text, |l| l.parse::<u32>());
        assert_eq!(r.unwrap_err(), "line 6: invalid digit found in string");
        let r = parse_lines("# only\n3\n\n4", |l| l.parse::<u32>());
        assert_eq!(r.unwrap(), [3, 4]);
    }
}
