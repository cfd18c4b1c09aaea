//! `damka dxp`: DamExchange over TCP. Without `--connect`, a server that waits for
//! connections and plays as the follower; with it, the initiator of a match. Nothing is
//! written to stdout: the log goes to stderr.
//!
//! ```text
//! damka dxp [--variant russian|turkish] [--port 27531] [--bind 127.0.0.1] [--threads N] [--hash MiB]
//!            [--eval classic|learned | --eval-file FILE] [--egtb-path DIR] [--movetime S]
//! damka dxp --connect HOST:PORT [--games N] [--time MINUTES] [--color white|black] [--moves N]
//! ```

use crate::core::{Color, Variant};
use crate::dispatch::dispatch;
use crate::protocol::dxp::server::{Connect, Resources, Serve};
use crate::protocol::dxp::{self, Config, GameRecord};
use clap::{Args, ValueEnum};
use std::net::TcpListener;
use std::time::Duration;

/// A colour on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ColorArg {
    /// White.
    White,
    /// Black.
    Black,
}

/// Arguments of `damka dxp`.
#[derive(Args, Debug)]
pub struct DxpArgs {
    /// The game: russian or turkish (a GAMEREQ with the other game's layout is refused).
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// Port to listen on (server); 0 takes any free port, named in the first log line.
    #[arg(long, default_value_t = dxp::DEFAULT_PORT)]
    pub port: u16,
    /// Address to listen on (server).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: String,
    /// Play as the initiator: connect to the follower at HOST:PORT.
    #[arg(long, value_name = "HOST:PORT")]
    pub connect: Option<String>,
    /// Initiator: number of games.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub games: u32,
    /// Initiator: minutes per player per game (0: less than a minute).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub time: u32,
    /// Initiator: moves per game, after which the game ends (0: no limit).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=999))]
    pub moves: u32,
    /// Initiator: damka's colour in every game (alternating, White first, when omitted).
    #[arg(long)]
    pub color: Option<ColorArg>,
    /// Initiator: start position of the games (FEN or Hub position string).
    #[arg(long)]
    pub fen: Option<String>,
    /// Thinking time and time-outs.
    #[command(flatten)]
    pub timing: TimingArgs,
    /// Server: stop after this many connections.
    #[arg(long)]
    pub connections: Option<usize>,
    /// Threads, table, endgame databases, evaluation.
    #[command(flatten)]
    pub search: super::search_opts::SearchArgs,
}

/// The session's times: thinking time and how long a silent peer is waited for.
#[derive(Args, Debug)]
pub struct TimingArgs {
    /// The clock assumed when a game is given 0 minutes, seconds.
    #[arg(long, default_value_t = 20.0)]
    pub zero_minute_clock: f64,
    /// Think a fixed time per move, seconds (the clock still caps it).
    #[arg(long)]
    pub movetime: Option<f64>,
    /// Seconds past the peer's clock before a silent peer is given up.
    #[arg(long, default_value_t = 60.0)]
    pub grace: f64,
    /// Seconds a connection may stay without a game.
    #[arg(long, default_value_t = 300.0)]
    pub idle_timeout: f64,
    /// Seconds a write may stay blocked before a peer that does not read is dropped.
    #[arg(long, default_value_t = 10.0)]
    pub write_timeout: f64,
    /// Server: the longest game a GAMEREQ may ask for, minutes (longer ones are refused).
    #[arg(long, default_value_t = dxp::DEFAULT_MAX_MINUTES,
          value_parser = clap::value_parser!(u32).range(0..=999))]
    pub max_minutes: u32,
    /// Server: seconds one connection may keep the server once another waits; past them it
    /// is closed, a game in progress abandoned.
    #[arg(long, default_value_t = 900.0)]
    pub max_hold: f64,
    /// Server: seconds a connection may stay without a game and silent while another waits.
    #[arg(long, default_value_t = dxp::DEFAULT_BUSY_IDLE_SECONDS as f64)]
    pub busy_idle_timeout: f64,
}

fn seconds(name: &str, s: f64) -> Result<Duration, String> {
    if s.is_finite() && (0.0..=1e6).contains(&s) {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(format!(
            "--{name} must be from 0 to 1000000 seconds, not {s}"
        ))
    }
}

impl TimingArgs {
    /// The session configuration of these times, or the error (a one-line message).
    fn config(&self) -> Result<Config, String> {
        let mut cfg = Config {
            grace: seconds("grace", self.grace)?,
            idle_timeout: seconds("idle-timeout", self.idle_timeout)?,
            write_timeout: seconds("write-timeout", self.write_timeout)?,
            max_hold: seconds("max-hold", self.max_hold)?,
            busy_idle_timeout: seconds("busy-idle-timeout", self.busy_idle_timeout)?,
            max_minutes: self.max_minutes,
            zero_minute_clock: seconds("zero-minute-clock", self.zero_minute_clock)?.as_secs_f64(),
            ..Config::default()
        };
        if let Some(t) = self.movetime {
            if !(t.is_finite() && t > 0.0 && t <= 1e6) {
                return Err(format!("--movetime must be above 0 seconds, not {t}"));
            }
            cfg.movetime = Some(t);
        }
        Ok(cfg)
    }
}

/// One line about a finished game.
pub fn summary(i: usize, r: &GameRecord) -> String {
    format!(
        "game {}: damka {}, {} plies, {}, used {:.1} s of {:.0} s",
        i + 1,
        r.color.name(),
        r.moves.len(),
        r.end,
        r.used,
        r.clock
    )
}

/// Runs `damka dxp`; returns the exit status (0 done, 1 a match could not be completed,
/// 2 bad arguments or no connection).
pub fn run(args: DxpArgs) -> i32 {
    let evals = match args.search.eval.evaluators() {
        Ok(e) => e,
        Err(e) => return fail(&e),
    };
    let cfg = match args.timing.config() {
        Ok(c) => Config { evals, ..c },
        Err(e) => return fail(&e),
    };
    let resources = Resources {
        threads: args.search.threads_or(1),
        hash_mb: args.search.hash_or(crate::engine::DEFAULT_HASH_MB),
        egtb: args.search.egtb.tables(),
        // Tables named on the command line must open (a wrong folder is a bad argument);
        // those of the default folder are used when they open, and else the games are played
        // without them.
        egtb_optional: args.search.egtb.path.is_none(),
    };
    let log = cfg.log.clone();
    if let Some(address) = args.connect.clone() {
        let task = Connect {
            address,
            config: cfg,
            resources,
            games: args.games,
            minutes: args.time,
            moves: args.moves,
            color: args.color.map(|c| match c {
                ColorArg::White => Color::White,
                ColorArg::Black => Color::Black,
            }),
            start: args.fen.clone(),
        };
        let (records, outcome) = dispatch(args.variant, task);
        for (i, r) in records.iter().enumerate() {
            log(&summary(i, r));
        }
        return match outcome {
            Ok(()) => 0,
            Err(e) if records.is_empty() => fail(&e),
            Err(e) => {
                log(&e);
                1
            }
        };
    }
    let listener = match TcpListener::bind((args.bind.as_str(), args.port)) {
        Ok(l) => l,
        Err(e) => {
            return fail(&format!(
                "cannot listen on {}:{}: {e}",
                args.bind, args.port
            ))
        }
    };
    let task = Serve {
        listener,
        config: cfg,
        resources,
        max_connections: args.connections,
    };
    let records = match dispatch(args.variant, task) {
        Ok(r) => r,
        Err(e) => return fail(&e),
    };
    for (i, r) in records.iter().enumerate() {
        log(&summary(i, r));
    }
    0
}

fn fail(msg: &str) -> i32 {
    eprintln!("damka dxp: {msg}");
    2
}
