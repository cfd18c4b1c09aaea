//! A scripted Hub engine for the tests (`damka-match fake-engine ...`, hidden from the help):
//! it plays legal moves chosen from the library's move list, and can be told to misbehave from
//! a given ply on (illegal move, crash, hang, malformed line, slowness), so every failure path
//! of the match tool can be driven for real, through pipes and processes.

use crate::hub::parse_line;
use clap::Args;
use damka::core::Variant;
use damka::variant::{GameMove, Notation, Position, RussianPosition, TurkishPosition};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How the fake engine behaves. A misbehaviour triggers when asked to move at a ply (moves
/// already in the game, opening included) of at least the given number.
#[derive(Args, Debug, Clone, Default)]
pub struct FakeArgs {
    /// Name given in `id`.
    #[arg(long, default_value = "fake")]
    pub name: String,
    /// Answer a move that is not legal.
    #[arg(long)]
    pub illegal_at: Option<usize>,
    /// Exit without answering.
    #[arg(long)]
    pub crash_at: Option<usize>,
    /// Never answer (and ignore `stop`).
    #[arg(long)]
    pub hang_at: Option<usize>,
    /// Answer with a line that cannot be parsed.
    #[arg(long)]
    pub garbage_at: Option<usize>,
    /// Sleep this many milliseconds before each answer.
    #[arg(long, default_value_t = 0)]
    pub delay_ms: u64,
    /// The score (men) to report in `info` before each move.
    #[arg(long, default_value_t = 0.0)]
    pub score: f64,
    /// Mixed into the choice of move, so differently seeded fakes play different games.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Play the first legal move instead of a pseudo-random one.
    #[arg(long)]
    pub first: bool,
}

fn hits(at: Option<usize>, ply: usize) -> bool {
    at.is_some_and(|a| ply >= a)
}

/// What to answer to `go think` in a position given by its Hub string and moves.
enum Answer {
    Move(String),
    Error(String),
}

fn answer<P: Position>(pos: &str, moves: &str, a: &FakeArgs) -> (usize, Answer) {
    let mut p = match P::from_hub(pos) {
        Ok(p) => p,
        Err(e) => return (0, Answer::Error(e.to_string())),
    };
    let mut ply = 0;
    for m in moves.split_whitespace() {
        match p.parse_move(m) {
            Ok(mv) => p = p.play(&mv),
            Err(e) => return (ply, Answer::Error(e.to_string())),
        }
        ply += 1;
    }
    let legal = p.legal_moves();
    if legal.is_empty() {
        return (ply, Answer::Error("no legal move".into()));
    }
    if hits(a.illegal_at, ply) {
        // A move to its own start square is never legal.
        let n = P::hub_number(legal[0].from()).unwrap_or(1);
        return (ply, Answer::Move(format!("{n}-{n}")));
    }
    let i = if a.first {
        0
    } else {
        let h = (p.key() ^ a.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        ((h >> 32) % legal.len() as u64) as usize
    };
    (ply, Answer::Move(p.move_to_hub(&legal[i])))
}

/// Runs the fake engine on stdin/stdout; returns the exit status.
pub fn run(a: FakeArgs) -> i32 {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut variant = Variant::Russian;
    let mut pos = String::new();
    let mut moves = String::new();
    let mut say = |s: &str| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(l) = parse_line(&line) else { continue };
        match l.command.as_str() {
            "hub" => {
                say(&format!("id name={} version=1.0 author=tests", a.name));
                say("param name=variant value=russian type=enum values=\"russian turkish\"");
                say("wait");
            }
            "set-param" if l.get("name") == Some("variant") => {
                if let Some(v) = l.get("value").and_then(|v| v.parse().ok()) {
                    variant = v;
                }
            }
            "init" => say("ready"),
            "ping" => say("pong"),
            "pos" => {
                pos = l.get("pos").unwrap_or("").to_string();
                moves = l.get("moves").unwrap_or("").to_string();
            }
            "go" => {
                let (ply, ans) = match variant {
                    Variant::Russian => answer::<RussianPosition>(&pos, &moves, &a),
                    Variant::Turkish => answer::<TurkishPosition>(&pos, &moves, &a),
                };
                if hits(a.crash_at, ply) {
                    return 3;
                }
                if hits(a.hang_at, ply) {
                    continue;
                }
                if a.delay_ms > 0 {
                    std::thread::sleep(Duration::from_millis(a.delay_ms));
                }
                match ans {
                    Answer::Error(e) => say(&format!("error message=\"{e}\"")),
                    Answer::Move(m) => {
                        say(&format!(
                            "info depth=1 mean-depth=1.0 score={:.2} nodes=1 time=0.00 nps=0.00 pv={m}",
                            a.score
                        ));
                        if hits(a.garbage_at, ply) {
                            say(&format!("done move=\"{m}"));
                        } else {
                            say(&format!("done move={m}"));
                        }
                    }
                }
            }
            "quit" => return 0,
            _ => {}
        }
    }
    0
}
