//! `damka analyse`. PLACEHOLDER: filled in by the issue that owns this subcommand.

use clap::Args;

/// Arguments of `damka analyse`.
#[derive(Args, Debug, Default)]
pub struct AnalyseArgs {}

/// Runs `damka analyse`; returns the exit status.
pub fn run(_args: AnalyseArgs) -> i32 {
    eprintln!("damka analyse: not implemented yet");
    2
}
