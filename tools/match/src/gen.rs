//! `damka-match openings`: makes a balanced opening file. Every distinct position after a few
//! plies from the start is searched by a Hub engine, and the move sequences whose score is
//! close to equal are written out, one per line, with the command that made the file.

use crate::hub::{EngineSpec, HubEngine};
use clap::Args;
use damka::core::Variant;
use damka::dispatch::{dispatch, GameTask};
use damka::eval::Evaluate;
use damka::game::Game;
use damka::protocol::command_line::{quote, split_command};
use damka::protocol::hub::command::{Level, LevelUpdate};
use damka::variant::{Notation, Perft, Position};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `damka-match openings`.
#[derive(Args, Debug, Clone)]
pub struct GenArgs {
    /// The game.
    #[arg(long, default_value = "russian")]
    pub variant: Variant,
    /// The engine that judges the positions (a command line, e.g. "target/release/damka").
    #[arg(long)]
    pub engine: String,
    /// Hub parameters for the engine, `key=value` (repeatable).
    #[arg(long)]
    pub param: Vec<String>,
    /// Plies from the start position.
    #[arg(long, default_value_t = 3)]
    pub plies: usize,
    /// Search depth per position.
    #[arg(long, default_value_t = 10)]
    pub depth: u32,
    /// Keep positions whose score is within this many men of equal.
    #[arg(long, default_value_t = 0.25)]
    pub max_score: f64,
    /// Output file (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seconds to wait for one search before giving up.
    #[arg(long, default_value_t = 120.0)]
    pub timeout: f64,
}

/// Runs the generator; returns the exit status.
pub fn run(a: GenArgs) -> i32 {
    let words = match split_command(&a.engine) {
        Ok(w) if !w.is_empty() => w,
        _ => {
            eprintln!("damka-match openings: bad --engine {:?}", a.engine);
            return 2;
        }
    };
    let mut params = Vec::new();
    for p in &a.param {
        match p.split_once('=') {
            Some((k, v)) => params.push((k.to_string(), v.to_string())),
            None => {
                eprintln!("damka-match openings: --param wants key=value, not {p:?}");
                return 2;
            }
        }
    }
    let spec = EngineSpec {
        name: "judge".into(),
        program: words[0].clone(),
        args: words[1..].to_vec(),
        params,
        levels: Vec::new(),
    };
    let timeout = Duration::from_secs_f64(a.timeout.max(0.1));
    let mut engine = match HubEngine::start(&spec, a.variant.name(), timeout) {
        Ok(e) => e,
        Err(f) => {
            eprintln!("damka-match openings: {f}");
            return 2;
        }
    };
    struct Generate<'a>(&'a GenArgs, &'a mut HubEngine, Duration);
    impl GameTask for Generate<'_> {
        type Output = Result<String, String>;
        fn run<P: Evaluate + Perft>(self) -> Self::Output {
            generate::<P>(self.0, self.1, self.2)
        }
    }
    let res = dispatch(a.variant, Generate(&a, &mut engine, timeout));
    engine.quit();
    let text = match res {
        Ok(t) => t,
        Err(e) => {
            eprintln!("damka-match openings: {e}");
            return 1;
        }
    };
    match &a.out {
        None => {
            print!("{text}");
            0
        }
        Some(path) => {
            match std::fs::File::create(path).and_then(|mut f| f.write_all(text.as_bytes())) {
                Ok(()) => 0,
                Err(e) => {
                    eprintln!("damka-match openings: cannot write {}: {e}", path.display());
                    2
                }
            }
        }
    }
}

/// Every distinct position `plies` plies from the start that is not over, with the first
/// move sequence found to reach it.
pub fn enumerate<P: Position>(plies: usize) -> Vec<Vec<P::Move>> {
    let mut frontier: Vec<Game<P>> = vec![Game::new(P::start())];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for g in &frontier {
            for m in g.legal_moves() {
                let mut g2 = g.clone();
                g2.play_unchecked(m);
                if g2.is_over() || !seen.insert(g2.position().key()) {
                    continue;
                }
                next.push(g2);
            }
        }
        frontier = next;
    }
    frontier.into_iter().map(|g| g.moves().to_vec()).collect()
}

fn generate<P: Position>(
    a: &GenArgs,
    e: &mut HubEngine,
    timeout: Duration,
) -> Result<String, String> {
    let lines = enumerate::<P>(a.plies);
    let start_hub = P::start().to_hub();
    let mut out = String::new();
    out.push_str(&format!(
        "# Balanced {} openings: every distinct position {} plies from the start whose score at\n\
         # depth {} is within {} men of equal, by {}.\n\
         # Made by: damka-match openings --variant {} --engine {} --plies {} --depth {} --max-score {}{}\n",
        a.variant,
        a.plies,
        a.depth,
        a.max_score,
        e.id_name.clone().unwrap_or_else(|| a.engine.clone()),
        a.variant,
        quote(&a.engine),
        a.plies,
        a.depth,
        a.max_score,
        a.param
            .iter()
            .map(|p| format!(" --param {p}"))
            .collect::<String>()
    ));
    let mut kept = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut p = P::start();
        let mut hub = Vec::new();
        let mut alg = Vec::new();
        for m in line {
            hub.push(p.move_to_hub(m));
            alg.push(p.move_to_algebraic(m));
            p = p.play(m);
        }
        let depth = LevelUpdate(vec![Level::Depth(a.depth)]);
        let reply = e
            .think(&start_hub, &hub, &[depth], Some(timeout))
            .map_err(|f| format!("position {}: {f}", alg.join(" ")))?;
        let score = reply
            .score
            .ok_or_else(|| format!("position {}: the engine gave no score", alg.join(" ")))?;
        if score.abs() <= a.max_score {
            kept.push(format!("{}  # {:+.2}", alg.join(" "), score));
        }
        if (i + 1) % 50 == 0 {
            eprintln!("{}/{} positions, {} kept", i + 1, lines.len(), kept.len());
        }
    }
    out.push_str(&format!(
        "# {} of {} positions kept; the score is for the side to move.\n",
        kept.len(),
        lines.len()
    ));
    for k in kept {
        out.push_str(&k);
        out.push('\n');
    }
    Ok(out)
}
