//! `damka hub` (and `damka` with no arguments): the Hub protocol on stdin/stdout.

use crate::core::Variant;
use crate::engine::Engine;
use crate::protocol::hub::{run_session, HubConfig};
use clap::Args;
use std::io::{self, BufReader};

/// Arguments of `damka hub`. Each sets a parameter's starting value; the client may still
/// change it with `set-param`.
#[derive(Args, Debug, Default)]
pub struct HubArgs {
    /// The game at start (russian or turkish).
    #[arg(long)]
    pub variant: Option<Variant>,
    /// Strength level at start, 1 (beginner) to 10 (full strength).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub skill: Option<u8>,
    /// How the client numbers squares in moves: standard (1 = a1, pydraughts 0.6 and later)
    /// or top (1 = b8, pydraughts 0.5 and lidraughts-bot). Checked by the session: a value it
    /// does not know is an `error` line after `hub` (nothing may reach stderr).
    #[arg(long, value_name = "standard|top")]
    pub numbering: Option<String>,
    /// Threads, table, endgame databases, evaluation at start.
    #[command(flatten)]
    pub search: super::search_opts::SearchArgs,
}

/// Runs `damka hub`; returns the exit status (0: the client quit or went away).
pub fn run(args: HubArgs) -> i32 {
    let evals = match args.search.evaluators("hub") {
        Ok(e) => e,
        Err(status) => return status,
    };
    // pydraughts merges stderr into stdout and fails on any line it cannot read, so nothing
    // may reach stderr during a session, not even a panic message.
    std::panic::set_hook(Box::new(|_| {}));
    let mut config = HubConfig::default();
    if let Some(t) = args.search.threads {
        config.options.push(("threads".into(), t.to_string()));
    }
    if let Some(h) = args.search.hash {
        config.options.push(("hash".into(), h.to_string()));
    }
    if let Some(n) = args.numbering {
        config.options.push(("numbering".into(), n));
    }
    if let Some(s) = args.skill {
        config.options.push(("skill".into(), s.to_string()));
    }
    let mut engine = Engine::new(args.variant.unwrap_or(Variant::Russian));
    engine.set_evaluators(evals);
    // Opened now, so that `hub` declares `egtb-found` as it is; what went wrong waits in the
    // engine's notices and reaches the client as `info string` after `init` (never stderr).
    if let Some((path, cache)) = args.search.egtb.tables() {
        engine.set_endgames(&path.to_string_lossy(), cache);
    }
    let input = BufReader::with_capacity(1 << 16, io::stdin());
    // A write error means the client closed our stdout: it is gone, which ends the session
    // normally.
    let _ = run_session(input, io::stdout().lock(), engine, config);
    0
}
