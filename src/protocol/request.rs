//! The client's half of the commands: writing a typed [`Command`] as the line a GUI sends, so
//! that a client (the match tool) and the engine ([`super::command::parse_command`]) share
//! one definition of each command. What is written reads back as the same command (times to
//! the millisecond).

use super::command::{Command, LevelUpdate, PosSource};
use super::format::Request;
use crate::engine::GoMode;

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
            Command::Level(u) => level(u),
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
fn seconds(x: f64) -> String {
    format!("{x:.3}")
}

/// A `level` line with the fields set, in the protocol's order.
fn level(u: &LevelUpdate) -> Request {
    let mut r = Request::new("level");
    if let Some(d) = u.depth {
        r = r.arg("depth", d);
    }
    if let Some(n) = u.nodes {
        r = r.arg("nodes", n);
    }
    if let Some(t) = u.movetime {
        r = r.arg("move-time", seconds(t));
    }
    if let Some(t) = u.time {
        r = r.arg("time", seconds(t));
    }
    if let Some(i) = u.inc {
        r = r.arg("inc", seconds(i));
    }
    if let Some(m) = u.moves {
        r = r.arg("moves", m);
    }
    match u.infinite {
        Some(true) => r.flag("infinite"),
        Some(false) => r.arg("infinite", "false"),
        None => r,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::parse_command;

    fn round_trip(c: Command) -> String {
        let line = c.to_line();
        assert_eq!(parse_command(&line), Ok(Some(c)), "{line}");
        line
    }

    #[test]
    fn every_command_reads_back_as_written() {
        assert_eq!(round_trip(Command::Hub), "hub");
        assert_eq!(round_trip(Command::Init), "init");
        assert_eq!(round_trip(Command::NewGame), "new-game");
        assert_eq!(round_trip(Command::Stop), "stop");
        assert_eq!(round_trip(Command::PonderHit), "ponder-hit");
        assert_eq!(round_trip(Command::Ping), "ping");
        assert_eq!(round_trip(Command::Quit), "quit");
        assert_eq!(
            round_trip(Command::SetParam {
                name: "variant".into(),
                value: "turkish".into()
            }),
            "set-param name=variant value=turkish"
        );
        assert_eq!(
            round_trip(Command::SetParam {
                name: "opts".into(),
                value: "a=b c".into()
            }),
            "set-param name=opts value=\"a=b c\""
        );
        assert_eq!(
            round_trip(Command::Pos {
                source: PosSource::Text("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww".into()),
                moves: vec!["10-14".into(), "23-18".into()],
            }),
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"10-14 23-18\""
        );
        assert_eq!(
            round_trip(Command::Pos {
                source: PosSource::Text("W:W21:B1".into()),
                moves: vec!["21-17".into()],
            }),
            "pos pos=W:W21:B1 moves=21-17"
        );
        assert_eq!(
            round_trip(Command::Pos {
                source: PosSource::Start,
                moves: vec![]
            }),
            "pos start"
        );
        for (mode, word) in [
            (GoMode::Think, "think"),
            (GoMode::Ponder, "ponder"),
            (GoMode::Analyze, "analyze"),
        ] {
            assert_eq!(round_trip(Command::Go(mode)), format!("go {word}"));
        }
    }

    #[test]
    fn level_lines_read_back_exactly() {
        assert_eq!(
            round_trip(Command::Level(LevelUpdate {
                time: Some(9.523),
                inc: Some(0.1),
                moves: Some(40),
                ..Default::default()
            })),
            "level time=9.523 inc=0.100 moves=40"
        );
        assert_eq!(
            round_trip(Command::Level(LevelUpdate {
                depth: Some(3),
                nodes: Some(2000),
                movetime: Some(0.005),
                infinite: Some(true),
                ..Default::default()
            })),
            "level depth=3 nodes=2000 move-time=0.005 infinite"
        );
        round_trip(Command::Level(LevelUpdate {
            time: Some(-0.25),
            inc: Some(0.0),
            infinite: Some(false),
            ..Default::default()
        }));
        // Finer than the millisecond is rounded to it.
        let l = Command::Level(LevelUpdate {
            time: Some(1.23456),
            ..Default::default()
        });
        assert_eq!(l.to_line(), "level time=1.235");
        assert_eq!(round_trip(Command::Level(LevelUpdate::default())), "level");
    }
}
