//! Writing Hub lines, strictly: pydraughts splits every argument at `=` and expects exactly a
//! key and a value, so every argument is `key=value`, a value never holds `=` or `"`, and only
//! values with spaces (or empty ones) are quoted.

use crate::core::Score;
use crate::engine::{Info, MoveText, SearchOutcome};
use std::fmt::Write as _;

/// A reply line under construction.
#[derive(Clone, Debug)]
pub struct Reply {
    text: String,
}

impl Reply {
    /// Starts a line with its command word.
    pub fn new(command: &str) -> Reply {
        Reply {
            text: clean(command).replace(' ', "-"),
        }
    }

    /// Appends `key=value`, quoting the value when it is empty or holds whitespace. Characters
    /// a client could not read back (`=`, `"`, control characters) are replaced.
    pub fn arg(mut self, key: &str, value: impl std::fmt::Display) -> Reply {
        let value = clean(&value.to_string());
        self.text.push(' ');
        self.text.push_str(&clean(key).replace(' ', "-"));
        self.text.push('=');
        if value.is_empty() || value.contains(' ') {
            self.text.push('"');
            self.text.push_str(&value);
            self.text.push('"');
        } else {
            self.text.push_str(&value);
        }
        self
    }

    /// The finished line, without its newline.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The finished line, without its newline.
    pub fn into_string(self) -> String {
        self.text
    }
}

/// Makes a value writable: `=` becomes `:`, `"` becomes `'`, any whitespace or control
/// character becomes one space, and spaces at the ends are dropped.
fn clean(s: &str) -> String {
    let mapped: String = s
        .chars()
        .map(|c| match c {
            '=' => ':',
            '"' => '\'',
            c if c.is_whitespace() || c.is_control() => ' ',
            c => c,
        })
        .collect();
    mapped.trim().to_string()
}

/// `error message="..."`.
pub fn error(message: &str) -> Reply {
    Reply::new("error").arg("message", message)
}

/// A score in men with two decimals, from centi-men, without going through floating point
/// (so a win in 5 plies, 9995 centi-men, prints as exactly `99.95`, as Scan prints it).
pub fn score_in_men(score: Score) -> String {
    let sign = if score < 0 { "-" } else { "" };
    let a = score.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// A finite real number with `decimals` decimals (a non-finite one prints as 0).
fn real(x: f64, decimals: usize) -> String {
    let x = if x.is_finite() { x.max(0.0) } else { 0.0 };
    format!("{x:.decimals$}")
}

/// An `info` line, fields in Scan's order: `depth mean-depth score nodes time nps pv`
/// (`nps` in millions). An empty principal variation is left out rather than written as
/// `pv=""`.
pub fn info(i: &Info) -> Reply {
    let mut r = Reply::new("info")
        .arg("depth", i.depth)
        .arg("mean-depth", real(i.mean_depth, 1))
        .arg("score", score_in_men(i.score))
        .arg("nodes", i.nodes)
        .arg("time", real(i.time, 3))
        .arg("nps", real(i.nps / 1e6, 2));
    if !i.pv.is_empty() {
        let mut pv = String::new();
        for (k, m) in i.pv.iter().enumerate() {
            if k > 0 {
                pv.push(' ');
            }
            let _ = write!(pv, "{}", m.hub);
        }
        r = r.arg("pv", pv);
    }
    if let Some(h) = i.egtb_hits {
        // Only with endgame databases in use, after Scan's fields.
        r = r.arg("egtb-hits", h);
    }
    r
}

/// `done move=X [ponder=Y]`, or `error message="no legal move"` when there is no move.
pub fn done(o: &SearchOutcome) -> Reply {
    match &o.best {
        Some(MoveText { hub, .. }) => {
            let mut r = Reply::new("done").arg("move", hub);
            if let Some(p) = &o.ponder {
                r = r.arg("ponder", &p.hub);
            }
            r
        }
        None => error("no legal move"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::parse::{parse_line, Arg};

    fn mv(h: &str) -> MoveText {
        MoveText {
            hub: h.into(),
            algebraic: String::new(),
        }
    }

    #[test]
    fn quotes_only_when_needed() {
        let r = Reply::new("id")
            .arg("name", "damka")
            .arg("author", "two words")
            .arg("empty", "");
        assert_eq!(r.as_str(), "id name=damka author=\"two words\" empty=\"\"");
    }

    #[test]
    fn strips_what_a_client_cannot_read() {
        let r = error("bad \"x=y\"\nline\ttab");
        assert_eq!(r.as_str(), "error message=\"bad 'x:y' line tab\"");
        let l = parse_line(r.as_str()).unwrap().unwrap();
        assert_eq!(l.value("message"), Some("bad 'x:y' line tab"));
    }

    #[test]
    fn scores_in_men() {
        assert_eq!(score_in_men(0), "0.00");
        assert_eq!(score_in_men(5), "0.05");
        assert_eq!(score_in_men(-5), "-0.05");
        assert_eq!(score_in_men(-125), "-1.25");
        assert_eq!(score_in_men(9995), "99.95");
        assert_eq!(score_in_men(-9990), "-99.90");
    }

    #[test]
    fn info_in_scan_order() {
        let i = Info {
            depth: 7,
            mean_depth: 8.3,
            score: -31,
            nodes: 123456,
            time: 0.5,
            nps: 246912.0,
            pv: vec![mv("10-14"), mv("23x5x10x14")],
            egtb_hits: None,
        };
        let s = info(&i).into_string();
        assert_eq!(
            s,
            "info depth=7 mean-depth=8.3 score=-0.31 nodes=123456 time=0.500 nps=0.25 pv=\"10-14 23x5x10x14\""
        );
        let l = parse_line(&s).unwrap().unwrap();
        let keys: Vec<&str> = l
            .args
            .iter()
            .map(|a| match a {
                Arg::Pair(k, _) => *k,
                Arg::Flag(f) => panic!("bare flag {f}"),
            })
            .collect();
        assert_eq!(
            keys,
            ["depth", "mean-depth", "score", "nodes", "time", "nps", "pv"]
        );
        let no_pv = Info {
            pv: vec![],
            ..i.clone()
        };
        assert!(!info(&no_pv).as_str().contains("pv"));
        let hits = Info {
            egtb_hits: Some(42),
            ..i
        };
        assert!(info(&hits).as_str().ends_with(" egtb-hits=42"));
    }

    #[test]
    fn done_lines() {
        let mut o = SearchOutcome {
            best: Some(mv("14x5x10")),
            ponder: None,
            score: 0,
            depth: 1,
            nodes: 1,
        };
        assert_eq!(done(&o).as_str(), "done move=14x5x10");
        o.ponder = Some(mv("1-6"));
        assert_eq!(done(&o).as_str(), "done move=14x5x10 ponder=1-6");
        o.best = None;
        assert_eq!(done(&o).as_str(), "error message=\"no legal move\"");
    }
}
