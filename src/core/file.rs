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
        let _ = std::fs::remove_file(&path);
    }
}
