//! The transposition table is capped by the memory the engine may count on: `hash=65536`,
//! the declared maximum, once took 10 GB of a machine with less free. The cap comes from
//! `DAMKA_MEMORY_MB` here (else `/proc/meminfo`), so the test allocates little.

use crate::process_support;

use std::process::Command;

#[test]
fn a_hash_larger_than_half_the_memory_is_capped_with_a_notice() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_damka"));
    command.arg("hub").env("DAMKA_MEMORY_MB", "200");
    // Options are applied at `init`.
    let script = "hub\nset-param name=hash value=1024\ninit\nping\nquit\n";
    let out = process_support::run_command(&mut command, &[script.as_bytes()]);
    let text = out.stdout;
    let notices: Vec<&str> = text.lines().filter(|l| l.contains("MiB asked")).collect();
    assert_eq!(notices.len(), 1, "{text}");
    assert!(
        notices[0].contains("1024 MiB asked, 100 MiB granted (half of 200 MiB, DAMKA_MEMORY_MB)"),
        "{text}"
    );
}
