//! Files a Hub client names (`eval-file`, `book-file`) against hostile paths: a
//! device that never ends, a FIFO that nobody writes, a file longer than its format allows.
//! Each is refused with an error line at once, and the session keeps answering.

use crate::hub_support;

use hub_support::Client;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// A fresh folder of this test process.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-hub-files-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Sets `name` to `path` and returns the error line the session answers with, within a
/// bound: the session must answer `ping` afterwards.
fn refused(c: &Client, name: &str, path: &str) -> String {
    let t0 = Instant::now();
    c.send(&format!("set-param name={name} value=\"{path}\""));
    // Set options are handed to the engine at `init` (or `go`).
    c.send("init");
    c.send("ping");
    let within = Duration::from_secs(20);
    let line = c
        .recv_within(within)
        .unwrap_or_else(|| panic!("no answer to {name}={path} within 20 s"));
    assert!(line.starts_with("error"), "{name}={path}: {line}");
    assert_eq!(c.recv_within(within).as_deref(), Some("ready"));
    assert_eq!(c.recv_within(within).as_deref(), Some("pong"));
    assert!(t0.elapsed() < Duration::from_secs(20));
    line
}

#[test]
fn devices_fifos_and_oversized_files_are_refused_and_the_session_answers() {
    let c = Client::start_engine(&[]);
    c.handshake();
    for name in ["eval-file", "book-file"] {
        let line = refused(&c, name, "/dev/zero");
        assert!(line.contains("not a regular file"), "{line}");
    }
    let dir = folder("fifo");
    let fifo = dir.join("no-writer");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.map(|s| s.success()).unwrap_or(false) {
        for name in ["eval-file", "book-file"] {
            let line = refused(&c, name, fifo.to_str().unwrap());
            assert!(line.contains("not a regular file"), "{line}");
        }
    }
    // Sparse files one byte longer than the longest weights file and book.
    let big = dir.join("big");
    let file = std::fs::File::create(&big).unwrap();
    let longest = damka::eval::netfile::max_file_bytes().max(damka::book::MAX_FILE_BYTES);
    file.set_len(longest as u64 + 1).unwrap();
    for name in ["eval-file", "book-file"] {
        let line = refused(&c, name, big.to_str().unwrap());
        assert!(line.contains("at most"), "{line}");
    }
    // The end of input still ends the session.
    assert!(c.close().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}
