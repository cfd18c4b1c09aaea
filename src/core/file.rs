//! Reading a file a user names (a weights file, a book) within a size its format allows, and
//! only if it is a regular file: `/dev/zero` would be read for ever and a FIFO without a writer
//! would block the reading thread (in a Hub session, the one that answers `ping` and `quit`).

use std::io::Read;
use std::path::Path;

/// The bytes of the regular file at `path`, or why they cannot be read: not a regular file
/// (checked on its metadata before it is opened, since opening a FIFO blocks), or more than
/// `max_bytes` long. `what` names the file in the error ("a weights file").
pub fn read_bounded(path: &Path, max_bytes: u64, what: &str) -> Result<Vec<u8>, String> {
    let shown = path.display();
    let meta = std::fs::metadata(path).map_err(|e| format!("{shown}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{shown}: not a regular file"));
    }
    let too_big =
        |len: u64| format!("{shown}: {len} bytes or more, and {what} has at most {max_bytes}");
    if meta.len() > max_bytes {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| format!("{shown}: {e}"))?;
    // The file may have grown, or been replaced, since its metadata was read.
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{shown}: {e}"))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Most bytes of a text file a command reads whole (a PDN file to review or analyse, a game to
/// load, an EPD file): 64 MiB is some 200,000 games, more than any of these commands can get
/// through, and reading it costs a few times its size in memory.
pub const MAX_TEXT_FILE_BYTES: u64 = 64 << 20;

/// The text of the regular file at `path` ([`read_bounded`] with [`MAX_TEXT_FILE_BYTES`]), or
/// why it cannot be read, including text that is not UTF-8. `what` names the file ("a PDN
/// file").
pub fn read_text(path: &Path, what: &str) -> Result<String, String> {
    let bytes = read_bounded(path, MAX_TEXT_FILE_BYTES, what)?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_directories_and_long_files() {
        let e = read_bounded(Path::new("/dev/zero"), 100, "a test file").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let dir = std::env::temp_dir();
        let e = read_bounded(&dir, 100, "a test file").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let path = dir.join(format!("damka-bounded-{}", std::process::id()));
        std::fs::write(&path, [7u8; 101]).unwrap();
        let e = read_bounded(&path, 100, "a test file").unwrap_err();
        assert!(e.contains("at most 100"), "{e}");
        assert_eq!(read_bounded(&path, 101, "a test file").unwrap().len(), 101);
        std::fs::write(&path, b"1. \xff").unwrap();
        let e = read_text(&path, "a test file").unwrap_err();
        assert!(e.contains("not UTF-8 text (byte 3)"), "{e}");
        std::fs::write(&path, "1. c3-d4 *").unwrap();
        assert_eq!(read_text(&path, "a test file").unwrap(), "1. c3-d4 *");
        let e = read_text(Path::new("/dev/zero"), "a test file").unwrap_err();
        assert!(e.contains("not a regular file"), "{e}");
        let _ = std::fs::remove_file(&path);
    }
}
