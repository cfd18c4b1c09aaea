//! Typed Hub commands, both ways: read from a split line by the engine ([`parse_command`]),
//! written as the line a GUI sends by a client ([`Command::to_line`], the match tool), so that
//! both sides share one definition of each command. What is written reads back as the same
//! command (times to the millisecond).
//!
//! Reading: unknown keys are ignored (the protocol asks for lenient reading); a known key with
//! a missing or unreadable value is an error, and so is an unknown command.

use super::line::{parse_line, shorten, Line, LineError, Request, SyntaxError};
use crate::engine::{GoMode, Limits};
use std::fmt;

/// Where a `pos` line takes its position from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PosSource {
    /// The `start` flag: the start position of the current variant (an extension).
    Start,
    /// `pos=`: a Hub position string, or a FEN (an extension).
    Text(String),
}

/// Every key a `level` line knows, in the protocol's order (other keys are ignored); the
/// last two are damka's extensions (root move restriction).
pub const LEVEL_KEYS: [&str; 9] = [
    "depth",
    "nodes",
    "move-time",
    "time",
    "inc",
    "moves",
    "infinite",
    "moves-only",
    "exclude",
];

/// One limit a `level` line sets.
#[derive(Clone, Debug, PartialEq)]
pub enum Level {
    /// `depth=N` (at least 1: the engine always completes depth 1).
    Depth(u32),
    /// `nodes=N`.
    Nodes(u64),
    /// `move-time=S` (not negative).
    MoveTime(f64),
    /// `time=S` (negative when the player overstepped).
    Time(f64),
    /// `inc=S` (not negative).
    Inc(f64),
    /// `moves=N` (0: no moves-to-go control).
    Moves(u32),
    /// `infinite` (also `infinite=true|false`).
    Infinite(bool),
    /// `moves-only="m1 m2"` (damka extension): search only these root moves.
    MovesOnly(Vec<String>),
    /// `exclude="m1 m2"` (damka extension): never play these root moves.
    Exclude(Vec<String>),
}

impl Level {
    /// Sets this limit in `limits`.
    pub fn apply(self, limits: &mut Limits) {
        match self {
            Level::Depth(d) => limits.depth = Some(d),
            Level::Nodes(n) => limits.nodes = Some(n),
            Level::MoveTime(t) => limits.movetime = Some(t),
            Level::Time(t) => limits.time = Some(t),
            Level::Inc(i) => limits.inc = i,
            // Never hand a zero divisor down.
            Level::Moves(m) => limits.moves_to_go = (m > 0).then_some(m),
            Level::Infinite(i) => limits.infinite = i,
            Level::MovesOnly(m) => limits.moves_only = m,
            Level::Exclude(m) => limits.exclude = m,
        }
    }
}

/// The limits one `level` line sets, in the protocol's order; the others keep their earlier
/// values (lines accumulate until the next `pos`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LevelUpdate(pub Vec<Level>);

impl LevelUpdate {
    /// Merges this line into `limits`.
    pub fn apply(&self, limits: &mut Limits) {
        for l in &self.0 {
            l.clone().apply(limits);
        }
    }
}

/// A command from the client.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `hub`: start of the handshake.
    Hub,
    /// `set-param name=N value=V`.
    SetParam {
        /// Parameter name.
        name: String,
        /// The value as written.
        value: String,
    },
    /// `init`: end of the handshake.
    Init,
    /// `new-game`.
    NewGame,
    /// `pos pos=... [moves="..."]`.
    Pos {
        /// The position.
        source: PosSource,
        /// The moves to play from it, as written.
        moves: Vec<String>,
    },
    /// `level ...`.
    Level(LevelUpdate),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `stop`.
    Stop,
    /// `ponder-hit`.
    PonderHit,
    /// `ping`.
    Ping,
    /// `quit`.
    Quit,
}

/// Why a line is not a command the engine can carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// Not a Hub command line at all, or one without a required key.
    Line(LineError),
    /// An argument's value cannot be read.
    BadValue {
        /// The key.
        key: String,
        /// The value as written (shortened).
        value: String,
        /// What was expected.
        expected: &'static str,
    },
    /// `go` with a mode that is not `think`, `ponder` or `analyze`.
    BadGoMode(String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Line(e) => e.fmt(f),
            CommandError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "bad value {value} for {key} (expected {expected})"),
            CommandError::BadGoMode(m) => write!(
                f,
                "unknown go mode {} (expected think, ponder or analyze)",
                shorten(m)
            ),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<LineError> for CommandError {
    fn from(e: LineError) -> Self {
        CommandError::Line(e)
    }
}

impl From<SyntaxError> for CommandError {
    fn from(e: SyntaxError) -> Self {
        CommandError::Line(LineError::Syntax(e))
    }
}

/// Reads one line into a command; `Ok(None)` for a blank line.
pub fn parse_command(text: &str) -> Result<Option<Command>, CommandError> {
    match parse_line(text)? {
        None => Ok(None),
        Some(line) => command_of(&line).map(Some),
    }
}

/// The typed command of a split line.
pub fn command_of(line: &Line<'_>) -> Result<Command, CommandError> {
    Ok(match line.command {
        "hub" => Command::Hub,
        "init" => Command::Init,
        "new-game" => Command::NewGame,
        "stop" => Command::Stop,
        "ponder-hit" => Command::PonderHit,
        "ping" => Command::Ping,
        "quit" => Command::Quit,
        "set-param" => Command::SetParam {
            name: line.required("set-param", "name")?.to_string(),
            value: line.required("set-param", "value")?.to_string(),
        },
        "pos" => parse_pos(line)?,
        "level" => Command::Level(parse_level(line)?),
        "go" => Command::Go(parse_go(line)?),
        other => {
            return Err(LineError::Unknown {
                kind: "command",
                word: other.to_string(),
            }
            .into())
        }
    })
}

fn parse_pos(line: &Line<'_>) -> Result<Command, CommandError> {
    let source = match line.value("pos") {
        Some(p) => PosSource::Text(p.to_string()),
        None if line.has_flag("start") => PosSource::Start,
        None => {
            return Err(LineError::Missing {
                word: "pos",
                key: "pos",
            }
            .into())
        }
    };
    let moves = line
        .value("moves")
        .map(|m| m.split_ascii_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    Ok(Command::Pos { source, moves })
}

fn bad(key: &str, value: &str, expected: &'static str) -> CommandError {
    CommandError::BadValue {
        key: key.to_string(),
        value: shorten(value),
        expected,
    }
}

/// A known key given as a bare flag has no value.
fn check_not_flag(line: &Line<'_>, key: &'static str) -> Result<(), CommandError> {
    if line.has_flag(key) {
        Err(LineError::Missing { word: "level", key }.into())
    } else {
        Ok(())
    }
}

fn int<T: std::str::FromStr>(
    line: &Line<'_>,
    key: &'static str,
) -> Result<Option<T>, CommandError> {
    check_not_flag(line, key)?;
    match line.value(key) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse::<T>()
            .map(Some)
            .map_err(|_| bad(key, v, "a whole number")),
    }
}

fn seconds(line: &Line<'_>, key: &'static str) -> Result<Option<f64>, CommandError> {
    check_not_flag(line, key)?;
    match line.value(key) {
        None => Ok(None),
        Some(v) => match v.trim().parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Some(x)),
            _ => Err(bad(key, v, "seconds as a real number")),
        },
    }
}

fn parse_level(line: &Line<'_>) -> Result<LevelUpdate, CommandError> {
    let infinite = match line.value("infinite") {
        Some(v) => match v.to_ascii_lowercase().as_str() {
            "true" | "yes" | "1" | "on" => Some(true),
            "false" | "no" | "0" | "off" => Some(false),
            _ => return Err(bad("infinite", v, "true or false")),
        },
        None if line.has_flag("infinite") => Some(true),
        None => None,
    };
    // Depth 0 would ask for no search at all; the engine always completes depth 1.
    let depth = int::<u32>(line, "depth")?.map(|d| Level::Depth(d.max(1)));
    let nodes = int::<u64>(line, "nodes")?.map(Level::Nodes);
    // A negative move time can only mean "no time": move at once.
    let movetime = seconds(line, "move-time")?.map(|t| Level::MoveTime(t.max(0.0)));
    // A negative clock is legal input (pydraughts sends it when a player overstepped).
    let time = seconds(line, "time")?.map(Level::Time);
    let inc = seconds(line, "inc")?.map(|t| Level::Inc(t.max(0.0)));
    let moves = int::<u32>(line, "moves")?.map(Level::Moves);
    let words = |key: &str| {
        line.value(key)
            .map(|v| v.split_ascii_whitespace().map(str::to_string).collect())
    };
    let only = words("moves-only").map(Level::MovesOnly);
    let exclude = words("exclude").map(Level::Exclude);
    let all = [
        depth,
        nodes,
        movetime,
        time,
        inc,
        moves,
        infinite.map(Level::Infinite),
        only,
        exclude,
    ];
    Ok(LevelUpdate(all.into_iter().flatten().collect()))
}

fn parse_go(line: &Line<'_>) -> Result<GoMode, CommandError> {
    let mut mode = None;
    for f in line.flags() {
        let m = match f {
            "think" => GoMode::Think,
            "ponder" => GoMode::Ponder,
            "analyze" | "analyse" => GoMode::Analyze,
            other => return Err(CommandError::BadGoMode(other.to_string())),
        };
        if mode.is_some_and(|old| old != m) {
            return Err(CommandError::BadGoMode(f.to_string()));
        }
        mode = Some(m);
    }
    // `go` alone is read as `go think`, the only mode every client uses.
    Ok(mode.unwrap_or(GoMode::Think))
}

impl Command {
    /// The line as a client writes it, without its newline.
    pub fn to_line(&self) -> String {
        let r = match self {
            Command::Hub => Request::new("hub"),
            Command::SetParam { name, value } => Request::new("set-param")
                .arg("name", name)
                .arg("value", value),
            Command::Init => Request::new("init"),
            Command::NewGame => Request::new("new-game"),
            Command::Pos { source, moves } => {
                let r = match source {
                    PosSource::Start => Request::new("pos").flag("start"),
                    PosSource::Text(t) => Request::new("pos").arg("pos", t),
                };
                if moves.is_empty() {
                    r
                } else {
                    r.arg("moves", moves.join(" "))
                }
            }
            Command::Level(u) => level_request(u),
            Command::Go(mode) => Request::new("go").flag(match mode {
                GoMode::Think => "think",
                GoMode::Ponder => "ponder",
                GoMode::Analyze => "analyze",
            }),
            Command::Stop => Request::new("stop"),
            Command::PonderHit => Request::new("ponder-hit"),
            Command::Ping => Request::new("ping"),
            Command::Quit => Request::new("quit"),
        };
        r.into_string()
    }
}

/// Seconds with three decimals: the millisecond is the resolution clients use (a finer value
/// is rounded to it).
fn seconds_text(x: f64) -> String {
    format!("{x:.3}")
}

/// A `level` line with its limits in their order.
fn level_request(u: &LevelUpdate) -> Request {
    u.0.iter().fold(Request::new("level"), |r, l| match l {
        Level::Depth(d) => r.arg("depth", d),
        Level::Nodes(n) => r.arg("nodes", n),
        Level::MoveTime(t) => r.arg("move-time", seconds_text(*t)),
        Level::Time(t) => r.arg("time", seconds_text(*t)),
        Level::Inc(i) => r.arg("inc", seconds_text(*i)),
        Level::Moves(m) => r.arg("moves", m),
        Level::Infinite(true) => r.flag("infinite"),
        Level::Infinite(false) => r.arg("infinite", "false"),
        Level::MovesOnly(m) => r.arg("moves-only", m.join(" ")),
        Level::Exclude(m) => r.arg("exclude", m.join(" ")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(s: &str) -> Command {
        parse_command(s).unwrap().unwrap()
    }

    fn err(s: &str) -> CommandError {
        parse_command(s).unwrap_err()
    }

    /// The key a line is missing.
    fn missing(s: &str) -> &'static str {
        match err(s) {
            CommandError::Line(LineError::Missing { key, .. }) => key,
            e => panic!("{s}: {e:?}"),
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(cmd("hub"), Command::Hub);
        assert_eq!(cmd("init extra=1"), Command::Init);
        assert_eq!(cmd("new-game"), Command::NewGame);
        assert_eq!(cmd("stop"), Command::Stop);
        assert_eq!(cmd("ponder-hit"), Command::PonderHit);
        assert_eq!(cmd("ping"), Command::Ping);
        assert_eq!(cmd("quit"), Command::Quit);
        assert_eq!(parse_command("   ").unwrap(), None);
    }

    #[test]
    fn set_param_needs_name_and_value() {
        assert_eq!(
            cmd("set-param name=variant value=turkish"),
            Command::SetParam {
                name: "variant".into(),
                value: "turkish".into()
            }
        );
        assert_eq!(missing("set-param name=variant"), "value");
        assert_eq!(missing("set-param value=1"), "name");
    }

    #[test]
    fn pos_with_and_without_moves() {
        assert_eq!(
            cmd("pos pos=Wxyz moves=\"10-14  22-18 \""),
            Command::Pos {
                source: PosSource::Text("Wxyz".into()),
                moves: vec!["10-14".into(), "22-18".into()]
            }
        );
        assert_eq!(
            cmd("pos start"),
            Command::Pos {
                source: PosSource::Start,
                moves: vec![]
            }
        );
        assert_eq!(missing("pos moves=\"10-14\""), "pos");
    }

    #[test]
    fn level_lines() {
        let level = |levels: &[Level]| Command::Level(LevelUpdate(levels.to_vec()));
        assert_eq!(
            cmd("level time=9.5 inc=1e-05 moves=40 unknown=3"),
            level(&[Level::Time(9.5), Level::Inc(1e-05), Level::Moves(40)])
        );
        assert_eq!(cmd("level time=-0.25"), level(&[Level::Time(-0.25)]));
        assert_eq!(
            cmd("level infinite move-time=2 nodes=1000 depth=0"),
            level(&[
                Level::Depth(1),
                Level::Nodes(1000),
                Level::MoveTime(2.0),
                Level::Infinite(true)
            ])
        );
        for bad in [
            "level depth=x",
            "level depth=-1",
            "level depth",
            "level nodes=1.5",
            "level time=NaN",
            "level time=inf",
            "level move-time=",
            "level infinite=maybe",
        ] {
            assert!(
                matches!(
                    err(bad),
                    CommandError::BadValue { .. } | CommandError::Line(LineError::Missing { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn every_level_key_sets_a_field() {
        for key in LEVEL_KEYS {
            let Command::Level(u) = cmd(&format!("level {key}=1")) else {
                panic!("{key}")
            };
            assert_ne!(u, LevelUpdate::default(), "{key}");
        }
        assert_eq!(cmd("level other=1"), Command::Level(LevelUpdate::default()));
    }

    #[test]
    fn level_accumulates() {
        let mut l = Limits::default();
        for s in [
            "level time=10",
            "level inc=2",
            "level moves=0",
            "level depth=4",
        ] {
            let Command::Level(u) = cmd(s) else {
                panic!("{s}")
            };
            u.apply(&mut l);
        }
        assert_eq!(
            l,
            Limits {
                depth: Some(4),
                time: Some(10.0),
                inc: 2.0,
                ..Default::default()
            }
        );
    }

    #[test]
    fn go_modes() {
        assert_eq!(cmd("go think"), Command::Go(GoMode::Think));
        assert_eq!(cmd("go"), Command::Go(GoMode::Think));
        assert_eq!(cmd("go ponder"), Command::Go(GoMode::Ponder));
        assert_eq!(cmd("go analyze"), Command::Go(GoMode::Analyze));
        assert_eq!(cmd("go analyse"), Command::Go(GoMode::Analyze));
        assert!(matches!(err("go fast"), CommandError::BadGoMode(_)));
        assert!(matches!(err("go think ponder"), CommandError::BadGoMode(_)));
    }

    #[test]
    fn unknown_and_malformed() {
        assert!(matches!(
            err("launch"),
            CommandError::Line(LineError::Unknown { .. })
        ));
        assert!(matches!(
            err("HUB"),
            CommandError::Line(LineError::Unknown { .. })
        ));
        assert!(matches!(
            err("pos=1"),
            CommandError::Line(LineError::Syntax(_))
        ));
        let long = "x".repeat(1000);
        assert!(err(&long).to_string().len() < 80);
    }
}
