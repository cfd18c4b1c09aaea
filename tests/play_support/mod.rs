//! Shared by the `damka play` integration tests: run the built binary with stdin scripted.
//! The test binary declares `mod process_support` too.

use crate::process_support;

/// Runs `damka play ARGS` with `input` on stdin; returns (exit code, stdout).
pub fn run(args: &[&str], input: &str) -> (i32, String) {
    let args: Vec<&str> = std::iter::once("play")
        .chain(args.iter().copied())
        .collect();
    let out = process_support::run(env!("CARGO_BIN_EXE_damka"), &args, &[input.as_bytes()]);
    (out.code, out.stdout)
}
