//! A scripted Hub engine for the tests (`damka-match fake-engine ...`, hidden from the help):
//! it plays legal moves chosen from the library's move list, and can be told to misbehave from
//! a given ply on (illegal move, crash, hang, malformed line, slowness), so every failure path
//! of the match tool can be driven for real, through pipes and processes.

use clap::{Args, ValueEnum};
use damka::core::{Rng, Variant};
use damka::dispatch::{dispatch, GameTask};
use damka::eval::Evaluate;
use damka::protocol::hub::command::{parse_command, Command, PosSource};
use damka::protocol::hub::reply::{EngineReply, HubInfo, Id, ParamDecl, ParamKind};
use damka::variant::{GameMove, Notation, Perft, Position};
use std::io::{BufRead, Write};
use std::time::Duration;

/// How the fake engine fails, from a given ply on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Failing {
    /// Answer a move that is not legal.
    Illegal,
    /// Exit without answering.
    Crash,
    /// Never answer (and ignore `stop`).
    Hang,
    /// Answer with a line that cannot be parsed.
    Garbage,
}

/// How the fake engine behaves.
#[derive(Args, Debug, Clone, Default)]
pub struct FakeArgs {
    /// Name given in `id`.
    #[arg(long, default_value = "fake")]
    pub name: String,
    /// Misbehave as `KIND@PLY` (KIND: illegal, crash, hang or garbage) when asked to move at
    /// a ply (moves already in the game, opening included) of at least PLY.
    #[arg(long, value_name = "KIND@PLY", value_parser = parse_failing)]
    pub fail: Option<(Failing, usize)>,
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

/// Reads `KIND@PLY`.
fn parse_failing(s: &str) -> Result<(Failing, usize), String> {
    let (kind, ply) = s.split_once('@').ok_or("expected KIND@PLY")?;
    let kind = Failing::from_str(kind, true)?;
    let ply = ply.parse().map_err(|_| format!("bad ply {ply:?}"))?;
    Ok((kind, ply))
}

/// Whether the fake fails as `kind` at `ply`.
fn hits(a: &FakeArgs, kind: Failing, ply: usize) -> bool {
    a.fail.is_some_and(|(k, at)| k == kind && ply >= at)
}

/// What to answer to `go think` in a position given by its Hub string and moves.
enum Answer {
    Move(String),
    Error(String),
}

fn answer<P: Position>(pos: &str, moves: &[String], a: &FakeArgs) -> (usize, Answer) {
    let mut p = match P::from_hub(pos) {
        Ok(p) => p,
        Err(e) => return (0, Answer::Error(e.to_string())),
    };
    let mut ply = 0;
    for m in moves {
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
    if hits(a, Failing::Illegal, ply) {
        // A move to its own start square is never legal.
        let n = P::hub_number(legal[0].from()).unwrap_or(1);
        return (ply, Answer::Move(format!("{n}-{n}")));
    }
    let i = if a.first {
        0
    } else {
        // Drawn from the position and the seed, so a fake plays the same move in the same
        // position every time.
        Rng::new(p.key() ^ a.seed).below(legal.len() as u64) as usize
    };
    (ply, Answer::Move(p.move_to_hub(&legal[i])))
}

/// Runs the fake engine on stdin/stdout; returns the exit status.
pub fn run(a: FakeArgs) -> i32 {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut variant = Variant::Russian;
    let mut pos = String::new();
    let mut moves: Vec<String> = Vec::new();
    let mut say = |s: String| {
        let _ = writeln!(out, "{s}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // Whatever it cannot read, it ignores.
        let Ok(Some(c)) = parse_command(&line) else {
            continue;
        };
        match c {
            Command::Hub => {
                say(EngineReply::Id(Id {
                    name: Some(a.name.clone()),
                    version: Some("1.0".into()),
                    author: Some("tests".into()),
                })
                .to_line());
                say(EngineReply::Param(ParamDecl {
                    name: "variant".into(),
                    value: Some("russian".into()),
                    kind: Some(ParamKind::Enum(vec!["russian".into(), "turkish".into()])),
                })
                .to_line());
                say(EngineReply::Wait.to_line());
            }
            Command::SetParam { name, value } if name == "variant" => {
                if let Ok(v) = value.parse() {
                    variant = v;
                }
            }
            Command::Init => say(EngineReply::Ready.to_line()),
            Command::Ping => say(EngineReply::Pong.to_line()),
            Command::Pos { source, moves: m } => {
                pos = match source {
                    PosSource::Text(t) => t,
                    PosSource::Start => String::new(),
                };
                moves = m;
            }
            Command::Go(_) => {
                struct FakeReply<'a>(&'a str, &'a [String], &'a FakeArgs);
                impl GameTask for FakeReply<'_> {
                    type Output = (usize, Answer);
                    fn run<P: Evaluate + Perft>(self) -> Self::Output {
                        answer::<P>(self.0, self.1, self.2)
                    }
                }
                let (ply, ans) = dispatch(variant, FakeReply(&pos, &moves, &a));
                if hits(&a, Failing::Crash, ply) {
                    return 3;
                }
                if hits(&a, Failing::Hang, ply) {
                    continue;
                }
                if a.delay_ms > 0 {
                    std::thread::sleep(Duration::from_millis(a.delay_ms));
                }
                match ans {
                    Answer::Error(message) => say(EngineReply::Error { message }.to_line()),
                    Answer::Move(m) => {
                        say(EngineReply::Info(HubInfo {
                            depth: Some(1),
                            mean_depth: Some(1.0),
                            score: Some(a.score),
                            nodes: Some(1),
                            time: Some(0.0),
                            nps: Some(0.0),
                            pv: vec![m.clone()],
                            string: None,
                            egtb_hits: None,
                            multipv: None,
                            book: false,
                        })
                        .to_line());
                        if hits(&a, Failing::Garbage, ply) {
                            // Malformed on purpose: an unterminated quote.
                            say(format!("done move=\"{m}"));
                        } else {
                            say(EngineReply::Done {
                                mv: m,
                                ponder: None,
                            }
                            .to_line());
                        }
                    }
                }
            }
            Command::Quit => return 0,
            _ => {}
        }
    }
    0
}
