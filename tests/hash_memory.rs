//! The transposition table is capped by the memory the engine may count on: `hash=65536`,
//! the declared maximum, once took 10 GB of a machine with less free. The cap comes from
//! `DAMKA_MEMORY_MB` here (else `/proc/meminfo`), so the test allocates little.

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn a_hash_larger_than_half_the_memory_is_capped_with_a_notice() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
        .arg("hub")
        .env("DAMKA_MEMORY_MB", "200")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Options are applied at `init`.
    let script = "hub\nset-param name=hash value=1024\ninit\nping\nquit\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let notices: Vec<&str> = text.lines().filter(|l| l.contains("MiB asked")).collect();
    assert_eq!(notices.len(), 1, "{text}");
    assert!(
        notices[0].contains("1024 MiB asked, 100 MiB granted (half of 200 MiB, DAMKA_MEMORY_MB)"),
        "{text}"
    );
}
