//! Clocks kept by the server, for online rooms ([`crate::online::room`]) and local games
//! ([`crate::local::store`]) alike: the time control, the ways a game ends outside the rules of the
//! board (a flag, a resignation ...), and the two clocks of a local game. Pure state: the
//! caller passes the time (`Instant`), so every rule is tested without waiting.

use crate::game::{PageGame, Status};
use damka::core::Color;
use damka::game::pdn::result_text;
use damka::variant::Outcome;
use std::time::Instant;

/// A time control: every player starts with `base_ms` and gains `inc_ms` after each move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time for the game, milliseconds.
    pub base_ms: i64,
    /// Added after each move (Fischer increment), milliseconds.
    pub inc_ms: i64,
}

impl TimeControl {
    /// Seconds for the game and added per move, as the views show them.
    pub fn seconds(self) -> [f64; 2] {
        [self.base_ms as f64 / 1000.0, self.inc_ms as f64 / 1000.0]
    }
}

/// How a game ended outside the rules of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// This side's time ran out.
    Time(Color),
    /// This side resigned.
    Resigned(Color),
    /// Both players agreed to a draw.
    Agreed,
    /// This side, to move first, made no move in time after both seats were taken: no result.
    Aborted(Color),
    /// This player aborted the game before its first move: no result.
    AbortedBy(Color),
}

impl Ending {
    /// The result it gives (`None`: an aborted game has none).
    pub fn outcome(self) -> Option<Outcome> {
        match self {
            Ending::Time(c) | Ending::Resigned(c) => Some(Outcome::Win(c.opposite())),
            Ending::Agreed => Some(Outcome::Draw),
            Ending::Aborted(_) | Ending::AbortedBy(_) => None,
        }
    }

    /// Its words in the status line, after the result (`White wins (Black's time ran out)`).
    pub fn reason(self) -> String {
        match self {
            Ending::Time(c) => format!("{}'s time ran out", c.name()),
            Ending::Resigned(c) => format!("{} resigned", c.name()),
            Ending::Agreed => "draw agreed".into(),
            Ending::Aborted(c) => format!("{} made no first move", c.name()),
            Ending::AbortedBy(c) => format!("{} aborted the game", c.name()),
        }
    }

    /// The name saved in the database.
    pub fn code(self) -> &'static str {
        match self {
            Ending::Time(Color::White) => "time-white",
            Ending::Time(Color::Black) => "time-black",
            Ending::Resigned(Color::White) => "resign-white",
            Ending::Resigned(Color::Black) => "resign-black",
            Ending::Agreed => "agreed",
            Ending::Aborted(Color::White) => "aborted-white",
            Ending::Aborted(Color::Black) => "aborted-black",
            Ending::AbortedBy(Color::White) => "abort-white",
            Ending::AbortedBy(Color::Black) => "abort-black",
        }
    }

    /// The ending saved as `code`, if it is one.
    pub fn from_code(code: &str) -> Option<Ending> {
        [
            Ending::Time(Color::White),
            Ending::Time(Color::Black),
            Ending::Resigned(Color::White),
            Ending::Resigned(Color::Black),
            Ending::Agreed,
            Ending::Aborted(Color::White),
            Ending::Aborted(Color::Black),
            Ending::AbortedBy(Color::White),
            Ending::AbortedBy(Color::Black),
        ]
        .into_iter()
        .find(|e| e.code() == code)
    }
}

/// The result of `game`, by the rules or by `ending` when one was decided outside them.
pub fn status_with(game: &PageGame, ending: Option<Ending>) -> Status {
    match ending {
        Some(e) => Status {
            over: true,
            result: result_text(e.outcome()).to_string(),
            text: match e.outcome() {
                Some(outcome) => format!("{outcome} ({})", e.reason()),
                None => match e {
                    Ending::AbortedBy(c) => format!("game aborted by {}", c.name()),
                    _ => format!("game aborted ({})", e.reason()),
                },
            },
        },
        None => game.status(),
    }
}

/// Time left now, milliseconds (White, Black), from the time left at the start of the turn
/// in progress and the clock that runs since `start`, if one does.
pub fn time_left(remaining: [i64; 2], running: Option<(Color, Instant)>, now: Instant) -> [i64; 2] {
    let mut c = remaining;
    if let Some((side, start)) = running {
        let used = now.saturating_duration_since(start).as_millis() as i64;
        c[side.index()] = (c[side.index()] - used).max(0);
    }
    c
}

/// The two clocks of a local game (against the engine, hot seat): the side to move's runs
/// from the start of its turn; the first turn starts with the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// The time control.
    pub control: TimeControl,
    /// Time left at the start of the turn in progress, milliseconds (White, Black).
    pub remaining: [i64; 2],
    /// When the turn in progress started; `None`: stopped (the game is over).
    pub turn_start: Option<Instant>,
}

impl Clocks {
    /// Full clocks under `control`, the first turn starting at `now`.
    pub fn start(control: TimeControl, now: Instant) -> Clocks {
        Clocks {
            control,
            remaining: [control.base_ms; 2],
            turn_start: Some(now),
        }
    }

    /// Time left now, milliseconds (White, Black), `side` being the side to move.
    pub fn left(&self, side: Color, now: Instant) -> [i64; 2] {
        time_left(self.remaining, self.turn_start.map(|t| (side, t)), now)
    }

    /// Milliseconds until the running clock (`side`'s) reaches zero, if one runs.
    pub fn time_to_flag(&self, side: Color, now: Instant) -> Option<i64> {
        self.turn_start?;
        Some(self.left(side, now)[side.index()])
    }

    /// `mover` has moved at `now`: its clock stops and gains the increment; the opponent's
    /// starts, unless the game is `over`.
    pub fn moved(&mut self, mover: Color, over: bool, now: Instant) {
        self.remaining = self.left(mover, now);
        self.remaining[mover.index()] += self.control.inc_ms;
        self.turn_start = (!over).then_some(now);
    }

    /// Stops the clocks where they are at `now` (`side` to move); with `run_on` the turn in
    /// progress goes on from there (after a take-back, the new side to move's).
    pub fn settle(&mut self, side: Color, now: Instant, run_on: bool) {
        self.remaining = self.left(side, now);
        self.turn_start = (run_on && self.turn_start.is_some()).then_some(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_side_to_move_uses_its_time_and_gains_the_increment() {
        let t0 = Instant::now();
        let control = TimeControl {
            base_ms: 10_000,
            inc_ms: 2_000,
        };
        let mut c = Clocks::start(control, t0);
        let t1 = t0 + Duration::from_millis(3_000);
        assert_eq!(c.left(Color::White, t1), [7_000, 10_000]);
        c.moved(Color::White, false, t1);
        assert_eq!(c.remaining, [9_000, 10_000]);
        let t2 = t1 + Duration::from_millis(11_000);
        assert_eq!(c.left(Color::Black, t2), [9_000, 0]);
        assert_eq!(c.time_to_flag(Color::Black, t2), Some(0));
        c.moved(Color::Black, true, t1);
        assert_eq!(c.time_to_flag(Color::White, t2), None, "over: stopped");
        let mut d = Clocks::start(control, t0);
        d.settle(Color::White, t1, false);
        assert_eq!((d.remaining, d.turn_start), ([7_000, 10_000], None));
        assert_eq!(
            Ending::from_code("time-black"),
            Some(Ending::Time(Color::Black))
        );
    }
}
