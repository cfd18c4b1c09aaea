//! Shared by the `damka play` integration tests: run the built binary with stdin scripted.
//! It runs the program through `process_support`.

use crate::process_support;

/// Runs `damka play` with `options` (words separated by spaces) and `input` on stdin;
/// returns (exit code, stdout).
pub fn run(options: &str, input: &str) -> (i32, String) {
    let mut args = vec!["play"];
    args.extend(options.split_whitespace());
    let out = process_support::run(env!("CARGO_BIN_EXE_damka"), &args, &[input.as_bytes()]);
    (out.code, out.stdout)
}

/// Runs `damka play` as [`run`] does, checks that it ends normally and returns its output.
pub fn run_ok(options: &str, input: &str) -> String {
    let (code, out) = run(options, input);
    assert_eq!(code, 0, "{out}");
    out
}

/// Checks that `out` holds every one of `texts`.
pub fn says(out: &str, texts: &[&str]) {
    for t in texts {
        assert!(out.contains(t), "{t:?} missing in:\n{out}");
    }
}
