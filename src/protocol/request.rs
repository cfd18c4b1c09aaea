//! The client's half of the commands: writing a typed [`Command`] as the line a GUI sends, so
//! that a client (the match tool) and the engine ([`super::command::parse_command`]) share
//! one definition of each command. What is written reads back as the same command (times to
//! the millisecond).

use super::command::{Command, Level, LevelUpdate, PosSource};
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

/// A `level` line with its limits in their order.
fn level(u: &LevelUpdate) -> Request {
    u.0.iter().fold(Request::new("level"), |r, l| match l {
        Level::Depth(d) => r.arg("depth", d),
        Level::Nodes(n) => r.arg("nodes", n),
        Level::MoveTime(t) => r.arg("move-time", seconds(*t)),
        Level::Time(t) => r.arg("time", seconds(*t)),
        Level::Inc(i) => r.arg("inc", seconds(*i)),
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
        let level = |levels: &[Level]| Command::Level(LevelUpdate(levels.to_vec()));
        let clock = [Level::Time(9.523), Level::Inc(0.1), Level::Moves(40)];
        assert_eq!(
            round_trip(level(&clock)),
            "level time=9.523 inc=0.100 moves=40"
        );
        let fixed = [
            Level::Depth(3),
            Level::Nodes(2000),
            Level::MoveTime(0.005),
            Level::Infinite(true),
        ];
        assert_eq!(
            round_trip(level(&fixed)),
            "level depth=3 nodes=2000 move-time=0.005 infinite"
        );
        let odd = [Level::Time(-0.25), Level::Inc(0.0), Level::Infinite(false)];
        round_trip(level(&odd));
        // Finer than the millisecond is rounded to it.
        assert_eq!(level(&[Level::Time(1.23456)]).to_line(), "level time=1.235");
        assert_eq!(round_trip(level(&[])), "level");
    }
}
