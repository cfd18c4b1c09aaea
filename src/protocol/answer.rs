//! The engine's results as Hub replies: a search's progress ([`info`]) and answer
//! ([`done`]), messages ([`info_string`]) and errors ([`error`]), each built as a typed
//! [`EngineReply`] and written by [`Reply`]'s strict rules.

use super::format::Reply;
use super::reply::{EngineReply, HubInfo};
use crate::engine::{MoveText, SearchInfo, SearchOutcome};

/// `info string="..."`: a message for the user that is neither progress nor an error (a
/// resource the engine could not have, and what it does instead).
pub fn info_string(message: &str) -> Reply {
    let i = HubInfo {
        string: Some(message.to_string()),
        ..HubInfo::default()
    };
    EngineReply::Info(i).to_reply()
}

/// `error message="..."`.
pub fn error(message: &str) -> Reply {
    EngineReply::Error {
        message: message.to_string(),
    }
    .to_reply()
}

/// The `info` message of a search report: the score in men (from centi-men), `nps` in
/// millions, the principal variation in Hub numbers.
pub fn info_line(i: &SearchInfo) -> HubInfo {
    HubInfo {
        depth: Some(i.depth),
        mean_depth: Some(i.mean_depth),
        score: Some(f64::from(i.score) / 100.0),
        nodes: Some(i.nodes),
        time: Some(i.time),
        nps: Some(i.nps / 1e6),
        pv: i.pv.iter().map(|m| m.hub.clone()).collect(),
        string: None,
        egtb_hits: i.egtb_hits,
        multipv: i.multipv,
        book: i.book,
    }
}

/// An `info` line, fields in Scan's order: `depth mean-depth score nodes time nps pv`.
pub fn info(i: &SearchInfo) -> Reply {
    EngineReply::Info(info_line(i)).to_reply()
}

/// `done move=X [ponder=Y]`, or `error message="no legal move"` when there is no move.
pub fn done(o: &SearchOutcome) -> Reply {
    match &o.best {
        Some(MoveText { hub, .. }) => EngineReply::Done {
            mv: hub.clone(),
            ponder: o.ponder.as_ref().map(|p| p.hub.clone()),
        }
        .to_reply(),
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
    fn strips_what_a_client_cannot_read() {
        let r = error("bad \"x=y\"\nline\ttab");
        assert_eq!(r.as_str(), "error message=\"bad 'x:y' line tab\"");
        let l = parse_line(r.as_str()).unwrap().unwrap();
        assert_eq!(l.value("message"), Some("bad 'x:y' line tab"));
    }

    #[test]
    fn scores_in_men() {
        let men = |score| {
            let i = SearchInfo {
                depth: 1,
                mean_depth: 1.0,
                score,
                nodes: 1,
                time: 0.0,
                nps: 0.0,
                pv: vec![],
                egtb_hits: None,
                multipv: None,
                book: false,
            };
            let line = info(&i).into_string();
            let l = parse_line(&line).unwrap().unwrap();
            l.value("score").unwrap().to_string()
        };
        assert_eq!(men(0), "0.00");
        assert_eq!(men(5), "0.05");
        assert_eq!(men(-5), "-0.05");
        assert_eq!(men(-125), "-1.25");
        assert_eq!(men(9995), "99.95");
        assert_eq!(men(-9990), "-99.90");
        // Every score a search can give prints as its centi-men exactly.
        for s in -10_001..=10_001 {
            let t = men(s);
            let sign = if s < 0 { "-" } else { "" };
            let a = s.unsigned_abs();
            assert_eq!(t, format!("{sign}{}.{:02}", a / 100, a % 100));
        }
    }

    #[test]
    fn info_in_scan_order() {
        let i = SearchInfo {
            depth: 7,
            mean_depth: 8.3,
            score: -31,
            nodes: 123456,
            time: 0.5,
            nps: 246912.0,
            pv: vec![mv("10-14"), mv("23x5x10x14")],
            egtb_hits: None,
            multipv: None,
            book: false,
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
        let no_pv = SearchInfo {
            pv: vec![],
            ..i.clone()
        };
        assert!(!info(&no_pv).as_str().contains("pv"));
        let hits = SearchInfo {
            egtb_hits: Some(42),
            ..i.clone()
        };
        assert!(info(&hits).as_str().ends_with(" egtb-hits=42"));
        // The extensions come last, and only when asked for.
        let ranked = SearchInfo {
            multipv: Some(2),
            book: true,
            ..i
        };
        assert!(info(&ranked)
            .as_str()
            .ends_with(" pv=\"10-14 23x5x10x14\" multipv=2 book=yes"));
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
