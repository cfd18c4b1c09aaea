//! Time controls and the clocks the tool keeps for each engine. The tool measures every move
//! itself (from sending `go` to reading `done`), so an engine's own idea of its time does not
//! matter; overstepping the clock by more than the margin loses the game.

use damka::protocol::hub::command::{Level, LevelUpdate};
use std::time::Duration;

/// How long engines may think, for the whole match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// A clock: `base` seconds, `inc` added before each move, and, if `moves` is set, `base`
    /// added again every `moves` moves (`40/60+0.5`).
    Clock {
        /// Moves per period, if the clock is refilled.
        moves: Option<u32>,
        /// Seconds per period.
        base: f64,
        /// Seconds added before each move.
        inc: f64,
    },
    /// A fixed time per move, seconds.
    MoveTime(f64),
    /// A fixed depth, plies.
    Depth(u32),
    /// A fixed number of nodes.
    Nodes(u64),
}

impl TimeControl {
    /// Parses a clock given as `base`, `base+inc` or `moves/base+inc` (seconds).
    pub fn parse_clock(s: &str) -> Result<TimeControl, String> {
        let bad = || format!("bad time control {s:?} (expected e.g. 10+0.1 or 40/60)");
        let (moves, rest) = match s.split_once('/') {
            Some((m, r)) => (Some(m.trim().parse::<u32>().map_err(|_| bad())?), r),
            None => (None, s),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, i),
            None => (rest, "0"),
        };
        let base: f64 = base.trim().parse().map_err(|_| bad())?;
        let inc: f64 = inc.trim().parse().map_err(|_| bad())?;
        if !(base.is_finite() && inc.is_finite()) || base < 0.0 || inc < 0.0 || base + inc <= 0.0 {
            return Err(bad());
        }
        if moves == Some(0) {
            return Err(bad());
        }
        Ok(TimeControl::Clock { moves, base, inc })
    }

    /// A short description for the output.
    pub fn describe(&self) -> String {
        match self {
            TimeControl::Clock { moves, base, inc } => match moves {
                Some(m) => format!("{m}/{base}+{inc}"),
                None => format!("{base}+{inc}"),
            },
            TimeControl::MoveTime(s) => format!("{s}s per move"),
            TimeControl::Depth(d) => format!("depth {d}"),
            TimeControl::Nodes(n) => format!("{n} nodes"),
        }
    }
}

/// Seconds for a `level` line: never negative (the line is written to the millisecond).
fn secs(x: f64) -> f64 {
    x.max(0.0)
}

/// What happened to the clock after a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Spent {
    /// In time.
    Ok,
    /// Over the limit by this many seconds (beyond the margin).
    Over(f64),
}

/// One engine's clock in one game.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    tc: TimeControl,
    /// Seconds left before the increment of the next move.
    remaining: f64,
    /// Moves left in the current period, for refilled clocks.
    moves_left: Option<u32>,
    margin: f64,
}

impl Clock {
    /// A full clock. `margin` (seconds) is how far an engine may overstep before it loses.
    pub fn new(tc: TimeControl, margin: f64) -> Clock {
        let (remaining, moves_left) = match tc {
            TimeControl::Clock { moves, base, .. } => (base, moves),
            _ => (0.0, None),
        };
        Clock {
            tc,
            remaining,
            moves_left,
            margin,
        }
    }

    /// Seconds left on a clock (0 for other time controls).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn remaining(&self) -> f64 {
        self.remaining
    }

    /// The `level` line for the next move.
    pub fn level(&self) -> LevelUpdate {
        LevelUpdate(match self.tc {
            TimeControl::Clock { inc, .. } => {
                let mut l = vec![Level::Time(secs(self.remaining)), Level::Inc(secs(inc))];
                l.extend(self.moves_left.map(Level::Moves));
                l
            }
            TimeControl::MoveTime(s) => vec![Level::MoveTime(secs(s))],
            TimeControl::Depth(d) => vec![Level::Depth(d)],
            TimeControl::Nodes(n) => vec![Level::Nodes(n)],
        })
    }

    /// How long to wait for the next move before giving up: the time available plus the
    /// margin, or `hang` for limits that are not times.
    pub fn deadline(&self, hang: Duration) -> Duration {
        let secs = match self.tc {
            TimeControl::Clock { inc, .. } => self.remaining + inc + self.margin,
            TimeControl::MoveTime(s) => s + self.margin,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => return hang,
        };
        Duration::from_secs_f64(secs.max(0.0))
    }

    /// Whether running past [`Clock::deadline`] is a loss on time (rather than a hang).
    pub fn is_timed(&self) -> bool {
        matches!(
            self.tc,
            TimeControl::Clock { .. } | TimeControl::MoveTime(_)
        )
    }

    /// Charges a move that took `elapsed`.
    pub fn spend(&mut self, elapsed: Duration) -> Spent {
        let e = elapsed.as_secs_f64();
        match self.tc {
            TimeControl::Clock { base, inc, moves } => {
                self.remaining += inc - e;
                let over = -self.remaining;
                if let Some(m) = self.moves_left.as_mut() {
                    *m -= 1;
                    if *m == 0 {
                        *m = moves.unwrap_or(1);
                        self.remaining += base;
                    }
                }
                if over > self.margin {
                    Spent::Over(over)
                } else {
                    Spent::Ok
                }
            }
            TimeControl::MoveTime(s) => {
                if e - s > self.margin {
                    Spent::Over(e - s)
                } else {
                    Spent::Ok
                }
            }
            TimeControl::Depth(_) | TimeControl::Nodes(_) => Spent::Ok,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::protocol::hub::command::Command;

    fn line(c: &Clock) -> String {
        Command::Level(c.level()).to_line()
    }

    #[test]
    fn parses_clocks() {
        assert_eq!(
            TimeControl::parse_clock("10+0.1").unwrap(),
            TimeControl::Clock {
                moves: None,
                base: 10.0,
                inc: 0.1
            }
        );
        assert_eq!(
            TimeControl::parse_clock("40/60").unwrap(),
            TimeControl::Clock {
                moves: Some(40),
                base: 60.0,
                inc: 0.0
            }
        );
        for bad in ["", "x", "10+", "-1+0", "0/5", "0+0", "1+nan"] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn clock_runs_down_and_flags() {
        let tc = TimeControl::parse_clock("1+0.5").unwrap();
        let mut c = Clock::new(tc, 0.05);
        assert_eq!(line(&c), "level time=1.000 inc=0.500");
        assert_eq!(c.deadline(Duration::from_secs(99)).as_secs_f64(), 1.55);
        assert_eq!(c.spend(Duration::from_millis(700)), Spent::Ok);
        assert!((c.remaining() - 0.8).abs() < 1e-9);
        // The engine is told its time to the millisecond.
        assert_eq!(line(&c), "level time=0.800 inc=0.500");
        // 0.8 + 0.5 available; 1.34 s is within the 0.05 margin.
        assert_eq!(c.spend(Duration::from_millis(1340)), Spent::Ok);
        match c.spend(Duration::from_secs(2)) {
            Spent::Over(x) => assert!((x - 1.54).abs() < 1e-6, "{x}"),
            Spent::Ok => panic!("should flag"),
        }
    }

    #[test]
    fn refilled_clock() {
        let tc = TimeControl::parse_clock("2/10").unwrap();
        let mut c = Clock::new(tc, 0.0);
        assert_eq!(line(&c), "level time=10.000 inc=0.000 moves=2");
        c.spend(Duration::from_secs(3));
        assert_eq!(line(&c), "level time=7.000 inc=0.000 moves=1");
        c.spend(Duration::from_secs(3));
        assert_eq!(line(&c), "level time=14.000 inc=0.000 moves=2");
    }

    #[test]
    fn fixed_limits() {
        let mut c = Clock::new(TimeControl::MoveTime(0.2), 0.1);
        assert_eq!(line(&c), "level move-time=0.200");
        assert_eq!(c.spend(Duration::from_millis(290)), Spent::Ok);
        assert!(matches!(
            c.spend(Duration::from_millis(400)),
            Spent::Over(_)
        ));
        let mut c = Clock::new(TimeControl::Depth(3), 0.0);
        assert_eq!(line(&c), "level depth=3");
        assert!(!c.is_timed());
        assert_eq!(c.deadline(Duration::from_secs(7)), Duration::from_secs(7));
        assert_eq!(c.spend(Duration::from_secs(100)), Spent::Ok);
        assert_eq!(
            line(&Clock::new(TimeControl::Nodes(5000), 0.0)),
            "level nodes=5000"
        );
    }
}
