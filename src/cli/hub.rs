//! `damka hub`. PLACEHOLDER: filled in by the issue that owns this subcommand.

use clap::Args;

/// Arguments of `damka hub`.
#[derive(Args, Debug, Default)]
pub struct HubArgs {}

/// Runs `damka hub`; returns the exit status.
pub fn run(_args: HubArgs) -> i32 {
    eprintln!("damka hub: not implemented yet");
    2
}
