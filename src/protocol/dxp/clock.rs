//! Clocks kept from message arrival times. DXP gives each player whole minutes for the game
//! and its moves carry only the seconds their sender says it used, so damka times both sides
//! itself: its own thinking from the arrival of the peer's move (or the start of the game) to
//! the sending of its reply, the peer's from that sending to the arrival of the next move.

use crate::engine::Limits;
use std::time::Instant;

/// Time always kept in reserve, seconds (process and network latency, and the moves still to
/// come, each of which costs a few milliseconds however little damka thinks) ...
pub const RESERVE_SECONDS: f64 = 0.5;
/// ... plus this share of the whole game's time.
pub const RESERVE_SHARE: f64 = 0.05;
/// With a fixed time per move (`movetime`), at most this share of the usable clock is spent
/// on one move.
pub const MOVETIME_CLOCK_SHARE: f64 = 0.25;

/// One player's clock.
#[derive(Clone, Debug)]
pub struct Clock {
    total: f64,
    used: f64,
    running_since: Option<Instant>,
}

impl Clock {
    /// A clock with `total` seconds for the game, not running.
    pub fn new(total: f64) -> Clock {
        Clock {
            total: total.max(0.0),
            used: 0.0,
            running_since: None,
        }
    }

    /// The seconds for the whole game.
    pub fn total(&self) -> f64 {
        self.total
    }

    /// Starts the clock at `at` (restarts it if it was running, without charging the time).
    pub fn start(&mut self, at: Instant) {
        self.running_since = Some(at);
    }

    /// Stops the clock at `at` and returns the seconds charged for this move (0 if it was not
    /// running).
    pub fn stop(&mut self, at: Instant) -> f64 {
        match self.running_since.take() {
            Some(since) => {
                let t = at.saturating_duration_since(since).as_secs_f64();
                self.used += t;
                t
            }
            None => 0.0,
        }
    }

    /// Seconds used so far (the running move included, up to `now`).
    pub fn used(&self, now: Instant) -> f64 {
        self.used
            + self
                .running_since
                .map_or(0.0, |s| now.saturating_duration_since(s).as_secs_f64())
    }

    /// Seconds used before the move now running (all of them when the clock is stopped).
    pub fn used_before_move(&self) -> f64 {
        self.used
    }

    /// Seconds left at `now` (negative when overstepped).
    pub fn remaining(&self, now: Instant) -> f64 {
        self.total - self.used(now)
    }

    /// The search limits for a move thought about at `now`: the clock less the reserve, with
    /// `moves_to_go` moves to play in it if the game has a move count, or a fixed `movetime`
    /// capped by the clock.
    pub fn limits<M>(
        &self,
        now: Instant,
        moves_to_go: Option<u32>,
        movetime: Option<f64>,
    ) -> Limits<M> {
        let reserve = RESERVE_SECONDS + RESERVE_SHARE * self.total;
        let usable = (self.remaining(now) - reserve).max(0.0);
        match movetime {
            Some(t) => Limits {
                movetime: Some(t.min(usable * MOVETIME_CLOCK_SHARE).max(0.001)),
                ..Limits::default()
            },
            None => Limits {
                time: Some(usable),
                inc: 0.0,
                moves_to_go,
                ..Limits::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn charges_only_running_time() {
        let t0 = Instant::now();
        let mut c = Clock::new(60.0);
        assert_eq!(c.stop(t0), 0.0);
        c.start(t0);
        let used = c.stop(t0 + Duration::from_millis(1500));
        assert!((used - 1.5).abs() < 1e-9);
        assert!((c.remaining(t0 + Duration::from_secs(100)) - 58.5).abs() < 1e-9);
        c.start(t0 + Duration::from_secs(2));
        assert!((c.remaining(t0 + Duration::from_secs(3)) - 57.5).abs() < 1e-9);
    }

    #[test]
    fn limits_keep_a_reserve() {
        let t0 = Instant::now();
        let mut c = Clock::new(60.0);
        c.start(t0);
        let l: Limits = c.limits(t0, Some(10), None);
        let usable = l.time.unwrap();
        assert!(
            usable < 60.0 - RESERVE_SECONDS - 1.0 && usable > 55.0,
            "{usable}"
        );
        assert_eq!(l.moves_to_go, Some(10));
        // An overstepped clock asks for an immediate move, never a negative time.
        let late: Limits = c.limits(t0 + Duration::from_secs(61), None, None);
        assert_eq!(late.time, Some(0.0));
        // A fixed move time is capped by the clock.
        let l: Limits = c.limits(t0 + Duration::from_secs(58), None, Some(5.0));
        assert!(l.movetime.unwrap() < 0.5);
        assert_eq!(l.time, None);
    }
}
