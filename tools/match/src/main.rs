//! `damka-match`: engine-against-engine matches between Hub draughts engines (Russian or
//! Turkish), with the damka library as referee. See `docs/match.md`.

mod fake;
mod game;
mod gen;
mod hub;
mod openings;
mod pdn;
mod stats;
mod tally;
mod tc;
mod tournament;

use clap::{Args, Parser, Subcommand};
use damka::core::Variant;
use damka::protocol::command_line::split_command;
use damka::protocol::hub::command::{parse_command, Command, LevelUpdate, LEVEL_KEYS};
use damka::protocol::hub::line::parse_line;
use game::{Adjudication, GameSettings};
use hub::EngineSpec;
use stats::Sprt;
use std::path::PathBuf;
use std::time::Duration;
use tc::TimeControl;

/// Engine-against-engine matches for Hub draughts engines.
#[derive(Parser, Debug)]
#[command(
    name = "damka-match",
    version = damka::VERSION,
    about,
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    run: MatchArgs,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Make a balanced opening file by searching every position a few plies deep.
    Openings(gen::GenArgs),
    /// A scripted Hub engine for the tests.
    #[command(hide = true)]
    FakeEngine(fake::FakeArgs),
}

/// The match itself.
#[derive(Args, Debug)]
struct MatchArgs {
    /// The game, for the whole match.
    #[arg(long, default_value = "russian")]
    variant: Variant,
    /// An engine: `NAME=COMMAND` or `COMMAND` (named after the program). Give it at least
    /// twice; the first is measured against the others.
    #[arg(long = "engine", value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// A Hub parameter for one engine: `NAME:key=value` (sent with set-param before init).
    #[arg(long = "param", value_name = "NAME:key=value")]
    params: Vec<String>,
    /// An extra `level` line for one engine: `NAME:key=value ...` (e.g. `old:depth=2`).
    #[arg(long = "level", value_name = "NAME:limits")]
    levels: Vec<String>,
    /// Opening file: a FEN or Hub position, and/or moves, per line.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Play the openings in an order shuffled with this seed (default: file order).
    #[arg(long, value_name = "SEED")]
    shuffle: Option<u64>,
    /// Number of games (default: each opening twice, colours swapped, per opponent).
    #[arg(long)]
    games: Option<usize>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Clock per engine: `base+inc` or `moves/base+inc`, seconds (default 10+0.1).
    #[arg(long, group = "limit")]
    tc: Option<String>,
    /// Fixed time per move, seconds.
    #[arg(long, group = "limit")]
    movetime: Option<f64>,
    /// Fixed depth per move.
    #[arg(long, group = "limit")]
    depth: Option<u32>,
    /// Fixed nodes per move.
    #[arg(long, group = "limit")]
    nodes: Option<u64>,
    /// Seconds an engine may overstep its clock or move time before it loses on time.
    #[arg(long, default_value_t = 0.1)]
    margin: f64,
    /// Seconds to wait for a start-up, or for a move under --depth or --nodes, before the
    /// engine is declared hung.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Append every game to this PDN file.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Stop when this test decides: `elo0=0,elo1=10,alpha=0.05,beta=0.05`.
    #[arg(long)]
    sprt: Option<String>,
    /// Resign adjudication: `score=MEN,moves=N` (both engines agree for N moves each).
    #[arg(long)]
    resign: Option<String>,
    /// Draw adjudication: `score=MEN,moves=N,after=PLY`.
    #[arg(long)]
    draw: Option<String>,
    /// Plies after which a game is adjudicated a draw (0: no limit).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Event name in the PDN.
    #[arg(long, default_value = "damka-match")]
    event: String,
}

/// Splits `NAME:rest` for per-engine options, checking the name.
fn for_engine<'a>(s: &'a str, names: &[String], what: &str) -> Result<(usize, &'a str), String> {
    let (name, rest) = s
        .split_once(':')
        .ok_or_else(|| format!("{what} wants NAME:..., not {s:?}"))?;
    let i = names.iter().position(|n| n == name).ok_or_else(|| {
        format!(
            "{what} {s:?}: no engine named {name:?} (engines: {})",
            names.join(", ")
        )
    })?;
    Ok((i, rest))
}

/// Reads the limits of `--level NAME:limits` as the engine will: a `level` line's arguments,
/// every one a limit the protocol knows.
fn parse_level(limits: &str) -> Result<LevelUpdate, String> {
    let text = format!("level {limits}");
    let line = parse_line(&text).map_err(|e| e.to_string())?;
    let Some(line) = line.filter(|l| !l.args.is_empty()) else {
        return Err("no limits".into());
    };
    for a in &line.args {
        let key = a.key();
        if !LEVEL_KEYS.contains(&key) {
            return Err(format!(
                "unknown limit {key:?} (expected {})",
                LEVEL_KEYS.join(", ")
            ));
        }
    }
    match parse_command(&text) {
        Ok(Some(Command::Level(u))) => Ok(u),
        Ok(_) => Err("not a level line".into()),
        Err(e) => Err(e.to_string()),
    }
}

fn build(a: MatchArgs) -> Result<tournament::MatchConfig, String> {
    let mut specs: Vec<EngineSpec> = Vec::new();
    for e in &a.engines {
        // NAME=COMMAND when the text before the first `=` is a plain word.
        let (name, cmd) = match e.split_once('=') {
            Some((n, c)) if !n.is_empty() && !n.contains(['/', '\\', ' ', '"', '\'']) => {
                (Some(n.to_string()), c)
            }
            _ => (None, e.as_str()),
        };
        let words = split_command(cmd)?;
        if words.is_empty() {
            return Err(format!("--engine {e:?} has no command"));
        }
        let base = std::path::Path::new(&words[0])
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| words[0].clone());
        let mut name = name.unwrap_or(base);
        if specs.iter().any(|s| s.name == name) {
            let mut k = 2;
            while specs.iter().any(|s| s.name == format!("{name}-{k}")) {
                k += 1;
            }
            name = format!("{name}-{k}");
        }
        specs.push(EngineSpec {
            name,
            program: words[0].clone(),
            args: words[1..].to_vec(),
            params: Vec::new(),
            levels: Vec::new(),
        });
    }
    if specs.len() < 2 {
        return Err("need at least two engines (--engine NAME=COMMAND, twice)".into());
    }
    let names: Vec<String> = specs.iter().map(|s| s.name.clone()).collect();
    for p in &a.params {
        let (i, kv) = for_engine(p, &names, "--param")?;
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("--param {p:?} wants NAME:key=value"))?;
        specs[i].params.push((k.to_string(), v.to_string()));
    }
    for l in &a.levels {
        let (i, rest) = for_engine(l, &names, "--level")?;
        specs[i]
            .levels
            .push(parse_level(rest).map_err(|e| format!("--level {l:?}: {e}"))?);
    }
    let tc = if let Some(s) = &a.movetime {
        if !(s.is_finite() && *s > 0.0) {
            return Err("--movetime must be positive".into());
        }
        TimeControl::MoveTime(*s)
    } else if let Some(d) = a.depth {
        TimeControl::Depth(d)
    } else if let Some(n) = a.nodes {
        TimeControl::Nodes(n)
    } else {
        TimeControl::parse_clock(a.tc.as_deref().unwrap_or("10+0.1"))?
    };
    if !(a.margin.is_finite() && a.margin >= 0.0) {
        return Err("--margin must be 0 or more".into());
    }
    if !(a.timeout.is_finite() && a.timeout > 0.0) {
        return Err("--timeout must be positive".into());
    }
    let adjudication = Adjudication {
        resign: a
            .resign
            .as_deref()
            .map(Adjudication::parse_resign)
            .transpose()?,
        draw: a
            .draw
            .as_deref()
            .map(Adjudication::parse_draw)
            .transpose()?,
    };
    let openings = match &a.openings {
        None => None,
        Some(p) => Some(
            damka::core::file::read_text(p, "an openings file")
                .map_err(|e| format!("cannot read {e}"))?,
        ),
    };
    if a.games == Some(0) {
        return Err("--games must be at least 1".into());
    }
    Ok(tournament::MatchConfig {
        variant: a.variant,
        engines: specs,
        settings: GameSettings {
            tc,
            margin: a.margin,
            timeout: Duration::from_secs_f64(a.timeout),
            adjudication,
            max_plies: a.max_plies,
        },
        games: a.games,
        concurrency: a.concurrency.max(1),
        openings,
        shuffle: a.shuffle,
        pdn: a.pdn,
        sprt: a.sprt.as_deref().map(Sprt::parse).transpose()?,
        event: a.event,
    })
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    let code = match cli.command {
        Some(Cmd::FakeEngine(a)) => fake::run(a),
        Some(Cmd::Openings(a)) => gen::run(a),
        None => match build(cli.run) {
            Ok(cfg) => tournament::run(&cfg),
            Err(e) => {
                eprintln!("damka-match: {e}");
                2
            }
        },
    };
    std::process::exit(code);
}
