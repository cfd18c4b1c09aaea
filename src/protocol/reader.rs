//! Reading raw input lines as bytes, with a length cap, on a thread of their own.
//!
//! Bytes rather than `String`s because input that is not UTF-8 must get an error reply, not
//! end the session (`BufRead::lines` would fail on it); a cap because a client that sends a
//! line without end must not make the engine grow its buffer without limit.

use crossbeam_channel::Sender;
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
}
