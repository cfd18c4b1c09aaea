//! Time management: turns a clock into a planned time (when to stop starting iterations) and a
//! hard limit (when to abort the running one), and adapts the plan to the search (stable best
//! move: less; changing best move or falling score: more).

use super::params::*;

/// How long this move may take, seconds from the start of the search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimePlan {
    /// Planned time: no new iteration after a fraction of it (scaled by the search's
    /// instability); `None` for no time limit.
    pub optimum: Option<f64>,
    /// Hard limit: the search is aborted at this time; `None` for no time limit.
    pub maximum: Option<f64>,
}

impl TimePlan {
    /// No time limit.
    pub const NONE: TimePlan = TimePlan {
        optimum: None,
        maximum: None,
    };

    /// A fixed time per move: all of it is used (less the overhead).
    pub fn movetime(t: f64) -> TimePlan {
        let m = (t - MOVE_OVERHEAD).max(0.001);
        TimePlan {
            optimum: Some(m),
            maximum: Some(m),
        }
    }

    /// A clock: `time` remaining seconds (the increment already included), `inc` the
    /// increment, `moves_to_go` moves until the next control. A clock at or below zero means
    /// "move at once" (only the first iteration is searched).
    pub fn clock(time: f64, inc: f64, moves_to_go: Option<u32>) -> TimePlan {
        if !time.is_finite() || time <= MOVE_OVERHEAD {
            return TimePlan {
                optimum: Some(0.0),
                maximum: Some(0.001),
            };
        }
        let inc = inc.max(0.0).min(time);
        let mtg = moves_to_go
            .map(|m| (m.max(1) as f64).min(MAX_MOVES_TO_GO))
            .unwrap_or(DEFAULT_MOVES_TO_GO);
        let usable = time - MOVE_OVERHEAD;
        let reserve = (inc * RESERVE_INCREMENTS).min(RESERVE_MAX);
        let spare = time - inc - reserve;
        let optimum = if spare >= 0.0 {
            spare / mtg + inc * INC_USE
        } else {
            let share = ((time - inc).max(0.0) / reserve).max(LOW_CLOCK_MIN_SHARE);
            inc * INC_USE * share
        };
        let clock_share = if mtg <= 1.0 { 0.9 } else { HARD_CLOCK_FRACTION };
        let maximum = (optimum * HARD_FACTOR).min(usable * clock_share).max(0.001);
        TimePlan {
            optimum: Some(optimum.min(maximum)),
            maximum: Some(maximum),
        }
    }
}

/// Keeps track of the best move's stability across iterations.
#[derive(Clone, Debug, Default)]
pub struct Stability {
    changes: f64,
    stable_iterations: u32,
    last_score: Option<i32>,
    score_drop: bool,
}

impl Stability {
    /// Records one completed iteration.
    pub fn update(&mut self, best_changed: bool, score: i32) {
        self.changes *= 0.5;
        if best_changed {
            self.changes += 1.0;
            self.stable_iterations = 0;
        } else {
            self.stable_iterations += 1;
        }
        self.score_drop = matches!(self.last_score, Some(s) if score < s - 30);
        self.last_score = Some(score);
    }

    /// Multiplier of the planned time.
    pub fn factor(&self) -> f64 {
        let mut f = 1.0 + INSTABILITY_BONUS * self.changes;
        if self.stable_iterations >= 4 && self.changes < 0.1 {
            f *= STABLE_FACTOR;
        }
        if self.score_drop {
            f *= 1.3;
        }
        f
    }

    /// Whether another iteration should be started at `elapsed` seconds.
    pub fn start_next(&self, plan: &TimePlan, elapsed: f64) -> bool {
        match plan.optimum {
            None => true,
            Some(opt) => elapsed < opt * self.factor() * SOFT_ITERATION_FRACTION,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_plans_stay_inside_the_clock() {
        for &(t, inc, mtg) in &[
            (60.0, 0.0, None),
            (1.0, 0.1, None),
            (0.2, 0.1, Some(1)),
            (300.0, 2.0, Some(40)),
            (5.0, 0.0, Some(1)),
        ] {
            let p = TimePlan::clock(t, inc, mtg);
            let max = p.maximum.unwrap();
            assert!(max < t, "{t} {inc} {mtg:?} -> {p:?}");
            assert!(p.optimum.unwrap() <= max);
        }
        let p = TimePlan::clock(-3.0, 0.0, None);
        assert_eq!(p.optimum, Some(0.0));
    }

    /// Plays a game's worth of moves against a clock: each move takes its planned time plus
    /// `latency` (process, pipe, scheduling), and every `stall_every` moves the machine
    /// stalls the engine for `stall` seconds more. Returns the lowest clock seen before a
    /// move (the `time=` the engine is given).
    fn lowest_clock(base: f64, inc: f64, latency: f64, stall: f64, stall_every: usize) -> f64 {
        let mut clock = base;
        let mut lowest = f64::MAX;
        for ply in 0..400 {
            lowest = lowest.min(clock);
            let plan = TimePlan::clock(clock, inc, None);
            let mut used = plan.optimum.unwrap() + latency;
            if ply % stall_every == stall_every - 1 {
                used += stall;
            }
            clock = clock + inc - used;
        }
        lowest
    }

    #[test]
    fn a_fast_increment_keeps_a_reserve_through_stalls() {
        // 0.5 s + 0.01 s, 2 ms latency a move, a 60 ms stall every 25 moves: the clock must
        // never come near zero (it settled near zero before the reserve).
        let low = lowest_clock(0.5, 0.01, 0.002, 0.06, 25);
        assert!(low > 0.1, "lowest clock {low}");
        // 5 s + 0.05 s: the reserve is capped, and still kept.
        let low = lowest_clock(5.0, 0.05, 0.002, 0.2, 25);
        assert!(low > 0.5, "lowest clock {low}");
        // Below the reserve a move takes less than the increment.
        let p = TimePlan::clock(0.05, 0.01, None);
        assert!(p.optimum.unwrap() < 0.01, "{p:?}");
    }

    #[test]
    fn instability_gives_more_time() {
        let mut a = Stability::default();
        let mut b = Stability::default();
        for i in 0..6 {
            a.update(false, 10);
            b.update(i % 2 == 0, 10);
        }
        assert!(b.factor() > a.factor());
    }
}
