//! `damka play`. PLACEHOLDER: filled in by the issue that owns this subcommand.

use clap::Args;

/// Arguments of `damka play`.
#[derive(Args, Debug, Default)]
pub struct PlayArgs {}

/// Runs `damka play`; returns the exit status.
pub fn run(_args: PlayArgs) -> i32 {
    eprintln!("damka play: not implemented yet");
    2
}
