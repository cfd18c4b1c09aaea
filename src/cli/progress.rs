//! A progress bar on stderr for long command-line jobs (`analyse --pdn`, `book build`):
//! one line redrawn in place, at most five times a second, with the work done, the time
//! elapsed and an estimate of the time left. Never used by the Hub session, which must not
//! write to stderr.

use std::io::Write;
use std::time::Instant;

/// Width of the bar, characters.
const BAR: usize = 30;

/// A progress bar for `total` steps.
pub struct ProgressBar {
    label: String,
    total: u64,
    start: Instant,
    last_draw: Option<Instant>,
}

impl ProgressBar {
    /// A bar named `label` for `total` steps (drawn on the first [`ProgressBar::set`]).
    pub fn new(label: &str, total: u64) -> ProgressBar {
        ProgressBar {
            label: label.to_string(),
            total: total.max(1),
            start: Instant::now(),
            last_draw: None,
        }
    }

    /// `done` steps are done; `note` is shown after the figures. Redraws the line unless it
    /// was drawn less than 0.2 s ago (the last step is always drawn).
    pub fn set(&mut self, done: u64, note: &str) {
        let now = Instant::now();
        let recent = self
            .last_draw
            .is_some_and(|t| now.duration_since(t).as_secs_f64() < 0.2);
        if recent && done < self.total {
            return;
        }
        self.last_draw = Some(now);
        eprint!("\r{}", self.line(done, note));
        let _ = std::io::stderr().flush();
    }

    /// Ends the bar's line.
    pub fn finish(&mut self) {
        eprintln!();
    }

    /// The text of the bar after `done` steps.
    pub fn line(&self, done: u64, note: &str) -> String {
        let done = done.min(self.total);
        let filled = (done as usize * BAR) / self.total as usize;
        let t = self.start.elapsed().as_secs_f64();
        let left = if done > 0 {
            t * (self.total - done) as f64 / done as f64
        } else {
            0.0
        };
        format!(
            "{} [{}{}] {}/{} {:.0} s, ~{:.0} s left {}   ",
            self.label,
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            done,
            self.total,
            t,
            left,
            note
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_with_the_work_done() {
        let p = ProgressBar::new("x", 4);
        assert!(p
            .line(0, "")
            .starts_with(&format!("x [{}] 0/4", ".".repeat(BAR))));
        let half = format!("x [{}{}] 2/4", "#".repeat(BAR / 2), ".".repeat(BAR / 2));
        assert!(p.line(2, "").starts_with(&half));
        assert!(p
            .line(9, "n")
            .contains(&format!("[{}] 4/4", "#".repeat(BAR))));
    }
}
