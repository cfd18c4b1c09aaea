//! `damka perft`. PLACEHOLDER: filled in by the issue that owns this subcommand.

use clap::Args;

/// Arguments of `damka perft`.
#[derive(Args, Debug, Default)]
pub struct PerftArgs {}

/// Runs `damka perft`; returns the exit status.
pub fn run(_args: PerftArgs) -> i32 {
    eprintln!("damka perft: not implemented yet");
    2
}
