//! The command line (clap). With no subcommand, `damka` speaks the Hub protocol on
//! stdin/stdout. Each subcommand has its own file with its arguments and its `run`.

pub mod analyse;
pub mod annotate;
pub mod bench;
pub mod book;
pub mod datagen;
pub mod dxp;
pub mod egtb;
pub mod egtb_positions;
pub mod hub;
pub mod perft;
pub mod play;
pub mod progress;
pub mod review;
pub mod search_opts;

use clap::{Parser, Subcommand};
use once_cell::sync::Lazy;

/// The version with the commit and the compiled-in evaluation of each game: `0.1.0 (commit
/// 5f0f132abcde) eval russian:<net> turkish:<net>`.
static VERSION: Lazy<String> =
    Lazy::new(|| format!("{} eval {}", crate::VERSION, crate::engine::eval_names()));

/// damka: a Russian and Turkish draughts engine.
#[derive(Parser, Debug)]
#[command(name = "damka", version = VERSION.as_str(), about, long_about = None)]
pub struct Cli {
    /// What to do; the Hub protocol when omitted.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Speak the Hub protocol on stdin/stdout (the default).
    Hub(hub::HubArgs),
    /// Count the leaves of the move tree (move generator check and speed).
    Perft(perft::PerftArgs),
    /// Search a fixed set of positions to a fixed depth (regression and speed check).
    Bench(bench::BenchArgs),
    /// Analyse one position and print each iteration.
    #[command(alias = "analyze")]
    Analyse(analyse::AnalyseArgs),
    /// Play a game in the terminal.
    Play(play::PlayArgs),
    /// Build, probe and verify the endgame databases.
    Egtb(egtb::EgtbArgs),
    /// DamExchange over TCP: serve as the follower, or `--connect` as the initiator.
    Dxp(dxp::DxpArgs),
    /// Play self-play games and write training records for the learned evaluation.
    Datagen(datagen::DatagenArgs),
    /// Build an opening book, or list the book moves of a position.
    Book(book::BookArgs),
    /// Review the games of a PDN file: mark inaccuracies, mistakes and blunders, write the
    /// games with `[%eval]` comments.
    Review(review::ReviewArgs),
}

/// Shown when `damka` starts with no arguments on a terminal: a person who typed `damka`
/// expecting a menu learns what the silence is. On a pipe (a GUI, pydraughts) nothing is
/// written, since such clients read stderr as protocol lines.
pub const TERMINAL_HINT: &str = "damka speaks the Hub protocol here (type hub, then quit); \
     for a game in the terminal run `damka play`, for everything else `damka --help`";

fn hint_on_a_terminal() {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        eprintln!("{TERMINAL_HINT}");
    }
}

/// The end of `damka --help`: where the endgame databases used without options are, and
/// what was found there.
fn tables_help() -> String {
    use crate::core::Variant;
    let dir = crate::egtb::default_dir();
    let found: Vec<String> = match crate::egtb::default_dir_if_present() {
        None => Vec::new(),
        Some(d) => Variant::ALL
            .iter()
            .filter_map(|&v| crate::egtb::Tablebase::open(&d, v, 1).ok())
            .map(|t| format!("{} up to {} pieces", t.variant(), t.max_pieces()))
            .collect(),
    };
    let what = if found.is_empty() {
        "none found there (build them with `damka egtb build`)".to_string()
    } else {
        format!("found there: {}", found.join(", "))
    };
    format!(
        "Endgame databases: used without options from {}; {what}. \
         `--egtb-path DIR` names another folder, `--egtb-path \"\"` none.",
        dir.display()
    )
}

/// Parses the command line, runs it, and returns the process exit status (0 ok, 1 a check
/// failed, 2 bad usage or input).
pub fn main() -> i32 {
    use clap::{CommandFactory, FromArgMatches};
    // The folder is looked at only when help is asked for, not at every start.
    let wants_help = std::env::args_os()
        .skip(1)
        .any(|a| a == "--help" || a == "-h" || a == "help");
    let mut command = Cli::command();
    if wants_help {
        command = command.after_help(tables_help());
    }
    let cli = match command
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return code;
        }
    };
    match cli.command {
        None => {
            hint_on_a_terminal();
            hub::run(hub::HubArgs::default())
        }
        Some(Command::Hub(a)) => hub::run(a),
        Some(Command::Perft(a)) => perft::run(a),
        Some(Command::Bench(a)) => bench::run(a),
        Some(Command::Analyse(a)) => match a.pdn.clone() {
            Some(path) => annotate::run(&a, &path),
            None => analyse::run(a),
        },
        Some(Command::Play(a)) => play::run(a),
        Some(Command::Egtb(a)) => egtb::run(a),
        Some(Command::Dxp(a)) => dxp::run(a),
        Some(Command::Datagen(a)) => datagen::run(a),
        Some(Command::Book(a)) => book::run(a),
        Some(Command::Review(a)) => review::run(a),
    }
}
