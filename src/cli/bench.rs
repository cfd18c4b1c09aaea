//! `damka bench`. PLACEHOLDER: filled in by the issue that owns this subcommand.

use clap::Args;

/// Arguments of `damka bench`.
#[derive(Args, Debug, Default)]
pub struct BenchArgs {}

/// Runs `damka bench`; returns the exit status.
pub fn run(_args: BenchArgs) -> i32 {
    eprintln!("damka bench: not implemented yet");
    2
}
