//! The engine's replies, typed: the one formatter of the lines the engine writes, and their
//! reader for a client. The engine's session writes them ([`EngineReply::to_line`]), built
//! from the engine's results by [`info`], [`done`], [`info_string`] and [`error`], and a
//! client reads them ([`parse_reply`]), so both sides share one definition of each message
//! (`id`, `param`, `wait`, `ready`, `pong`, `info`, `done`, `error`).
//!
//! Reading is lenient in what the protocol leaves open: unknown keys are ignored, and an
//! `info` field that cannot be read is left out rather than refused (a client must not lose a
//! game over a statistic). A `done` without a move, a `param` without a name and an unknown
//! reply word are errors.

use super::line::{parse_line, Line, LineError, Reply};
use crate::engine::{MoveText, SearchInfo, SearchOutcome};

/// `id`: who the engine is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Id {
    /// `name=`.
    pub name: Option<String>,
    /// `version=`.
    pub version: Option<String>,
    /// `author=`.
    pub author: Option<String>,
}

/// The kind of a declared parameter (`type=`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// `type=enum values="a b ..."`.
    Enum(Vec<String>),
    /// `type=int min=.. max=..` (either bound may be missing).
    Int {
        /// `min=`.
        min: Option<i64>,
        /// `max=`.
        max: Option<i64>,
    },
    /// Any other type word (`bool`, `string`, ...), kept as written.
    Other(String),
}

/// `param`: a parameter the engine declares during the handshake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamDecl {
    /// `name=`.
    pub name: String,
    /// `value=`: the current value.
    pub value: Option<String>,
    /// `type=` and its details; `None` when no type is given.
    pub kind: Option<ParamKind>,
}

/// `info`: one report of a running search. Numbers as Hub carries them: `score` in men,
/// `time` in seconds, `nps` in millions of nodes per second.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HubInfo {
    /// `depth=`.
    pub depth: Option<u32>,
    /// `mean-depth=`.
    pub mean_depth: Option<f64>,
    /// `score=`, men, side to move's view.
    pub score: Option<f64>,
    /// `nodes=`.
    pub nodes: Option<u64>,
    /// `time=`, seconds.
    pub time: Option<f64>,
    /// `nps=`, millions of nodes per second.
    pub nps: Option<f64>,
    /// `pv=`, the moves as written.
    pub pv: Vec<String>,
    /// `string=`: a message for the user (a resource the engine could not have, and what it
    /// does instead).
    pub string: Option<String>,
    /// `egtb-hits=`: endgame database probes that answered (only with databases in use).
    pub egtb_hits: Option<u64>,
    /// `multipv=`: the rank of this line, 1 for the best (damka extension, only when the
    /// client asked for several lines with the `multipv` parameter).
    pub multipv: Option<u32>,
    /// `book=`: the move comes from the opening book (damka extension, `book=yes`).
    pub book: bool,
}

/// A line the engine writes.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineReply {
    /// `id name=.. version=.. author=..`.
    Id(Id),
    /// `param name=.. value=.. type=..`.
    Param(ParamDecl),
    /// `wait`: end of the engine's part of the handshake.
    Wait,
    /// `ready`: answer to `init`.
    Ready,
    /// `pong`: answer to `ping`.
    Pong,
    /// `info ...`.
    Info(HubInfo),
    /// `done move=X [ponder=Y]`.
    Done {
        /// The move played.
        mv: String,
        /// The expected answer, if any.
        ponder: Option<String>,
    },
    /// `error message=".."`.
    Error {
        /// What went wrong.
        message: String,
    },
}

/// A real number written with `decimals` decimals; a negative or non-finite one (which only
/// a bug could produce for these fields) is written as 0.
fn real(x: f64, decimals: usize) -> String {
    let x = if x.is_finite() { x.max(0.0) } else { 0.0 };
    format!("{x:.decimals$}")
}

impl EngineReply {
    /// The line under construction, for a writer that adds to it.
    pub fn to_reply(&self) -> Reply {
        match self {
            EngineReply::Id(id) => {
                let mut r = Reply::new("id");
                for (k, v) in [
                    ("name", &id.name),
                    ("version", &id.version),
                    ("author", &id.author),
                ] {
                    if let Some(v) = v {
                        r = r.arg(k, v);
                    }
                }
                r
            }
            EngineReply::Param(p) => {
                let mut r = Reply::new("param").arg("name", &p.name);
                if let Some(v) = &p.value {
                    r = r.arg("value", v);
                }
                match &p.kind {
                    None => r,
                    Some(ParamKind::Enum(values)) => {
                        r.arg("type", "enum").arg("values", values.join(" "))
                    }
                    Some(ParamKind::Int { min, max }) => {
                        r = r.arg("type", "int");
                        if let Some(m) = min {
                            r = r.arg("min", m);
                        }
                        if let Some(m) = max {
                            r = r.arg("max", m);
                        }
                        r
                    }
                    Some(ParamKind::Other(t)) => r.arg("type", t),
                }
            }
            EngineReply::Wait => Reply::new("wait"),
            EngineReply::Ready => Reply::new("ready"),
            EngineReply::Pong => Reply::new("pong"),
            EngineReply::Info(i) => info_reply(i),
            EngineReply::Done { mv, ponder } => {
                let r = Reply::new("done").arg("move", mv);
                match ponder {
                    Some(p) => r.arg("ponder", p),
                    None => r,
                }
            }
            EngineReply::Error { message } => Reply::new("error").arg("message", message),
        }
    }

    /// The line as the engine writes it, without its newline.
    pub fn to_line(&self) -> String {
        self.to_reply().into_string()
    }
}

/// Fields in Scan's order: `depth mean-depth score nodes time nps pv`; an empty principal
/// variation is left out rather than written as `pv=""`.
fn info_reply(i: &HubInfo) -> Reply {
    let mut r = Reply::new("info");
    if let Some(d) = i.depth {
        r = r.arg("depth", d);
    }
    if let Some(x) = i.mean_depth {
        r = r.arg("mean-depth", real(x, 1));
    }
    if let Some(s) = i.score {
        // Two decimals: a score in centi-men divided by 100 prints back exactly.
        let s = if s.is_finite() { s } else { 0.0 };
        r = r.arg("score", format!("{s:.2}"));
    }
    if let Some(n) = i.nodes {
        r = r.arg("nodes", n);
    }
    if let Some(t) = i.time {
        r = r.arg("time", real(t, 3));
    }
    if let Some(n) = i.nps {
        r = r.arg("nps", real(n, 2));
    }
    if !i.pv.is_empty() {
        r = r.arg("pv", i.pv.join(" "));
    }
    if let Some(m) = &i.string {
        r = r.arg("string", m);
    }
    if let Some(h) = i.egtb_hits {
        // Only with endgame databases in use, after Scan's fields.
        r = r.arg("egtb-hits", h);
    }
    if let Some(k) = i.multipv {
        r = r.arg("multipv", k);
    }
    if i.book {
        r = r.arg("book", "yes");
    }
    r
}

/// Why an engine's line is not a reply a client can use.
pub type ReplyError = LineError;

/// Reads one line the engine wrote; `Ok(None)` for a blank line.
pub fn parse_reply(text: &str) -> Result<Option<EngineReply>, ReplyError> {
    let Some(line) = parse_line(text)? else {
        return Ok(None);
    };
    let owned = |k: &str| line.value(k).map(str::to_string);
    Ok(Some(match line.command {
        "id" => EngineReply::Id(Id {
            name: owned("name"),
            version: owned("version"),
            author: owned("author"),
        }),
        "param" => EngineReply::Param(ParamDecl {
            name: line.required("param", "name")?.to_string(),
            value: owned("value"),
            kind: param_kind(&line),
        }),
        "wait" => EngineReply::Wait,
        "ready" => EngineReply::Ready,
        "pong" => EngineReply::Pong,
        "info" => EngineReply::Info(parse_info(&line)),
        "done" => EngineReply::Done {
            mv: line.required("done", "move")?.to_string(),
            ponder: owned("ponder"),
        },
        "error" => EngineReply::Error {
            // An engine's `error` without a message is still an error.
            message: owned("message").unwrap_or_default(),
        },
        other => {
            return Err(LineError::Unknown {
                kind: "reply",
                word: other.to_string(),
            })
        }
    }))
}

fn param_kind(line: &Line<'_>) -> Option<ParamKind> {
    let bound = |k: &str| line.value(k).and_then(|v| v.trim().parse::<i64>().ok());
    Some(match line.value("type")? {
        "enum" => ParamKind::Enum(
            line.value("values")
                .unwrap_or("")
                .split_ascii_whitespace()
                .map(str::to_string)
                .collect(),
        ),
        "int" => ParamKind::Int {
            min: bound("min"),
            max: bound("max"),
        },
        other => ParamKind::Other(other.to_string()),
    })
}

fn parse_info(line: &Line<'_>) -> HubInfo {
    fn num<T: std::str::FromStr>(line: &Line<'_>, key: &str) -> Option<T> {
        line.value(key).and_then(|v| v.trim().parse::<T>().ok())
    }
    let real = |key: &str| num::<f64>(line, key).filter(|x| x.is_finite());
    HubInfo {
        depth: num(line, "depth"),
        mean_depth: real("mean-depth"),
        score: real("score"),
        nodes: num(line, "nodes"),
        time: real("time"),
        nps: real("nps"),
        pv: line
            .value("pv")
            .unwrap_or("")
            .split_ascii_whitespace()
            .map(str::to_string)
            .collect(),
        string: line.value("string").map(str::to_string),
        egtb_hits: num(line, "egtb-hits"),
        multipv: num(line, "multipv"),
        book: line
            .value("book")
            .is_some_and(|v| v.eq_ignore_ascii_case("yes")),
    }
}

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
    use crate::protocol::hub::line::Arg;

    fn reply(s: &str) -> EngineReply {
        parse_reply(s).unwrap().unwrap()
    }

    #[test]
    fn lines_as_the_engine_writes_them() {
        let i = EngineReply::Info(HubInfo {
            depth: Some(1),
            score: Some(99.95),
            pv: vec![],
            ..Default::default()
        });
        assert_eq!(i.to_line(), "info depth=1 score=99.95");
        let p = EngineReply::Param(ParamDecl {
            name: "variant".into(),
            value: Some("russian".into()),
            kind: Some(ParamKind::Enum(vec!["russian".into(), "turkish".into()])),
        });
        assert_eq!(
            p.to_line(),
            "param name=variant value=russian type=enum values=\"russian turkish\""
        );
    }

    #[test]
    fn lenient_where_the_protocol_allows() {
        // Unknown keys are ignored; an unreadable statistic is left out.
        let EngineReply::Info(i) = reply("info depth=x score=-0.25 nodes=12 seldepth=3 nps=inf")
        else {
            panic!()
        };
        assert_eq!(i.depth, None);
        assert_eq!(i.score, Some(-0.25));
        assert_eq!(i.nodes, Some(12));
        assert_eq!(i.nps, None);
        assert_eq!(reply("done move=12-16 extra"), reply("done move=12-16"));
        assert_eq!(
            reply("error"),
            EngineReply::Error {
                message: String::new()
            }
        );
        assert_eq!(parse_reply("  "), Ok(None));
    }

    #[test]
    fn errors() {
        assert_eq!(
            parse_reply("done ponder=1-5"),
            Err(ReplyError::Missing {
                word: "done",
                key: "move"
            })
        );
        assert!(matches!(
            parse_reply("param value=3"),
            Err(ReplyError::Missing { key: "name", .. })
        ));
        assert!(matches!(
            parse_reply("readyok"),
            Err(ReplyError::Unknown { .. })
        ));
        assert!(matches!(
            parse_reply("done move=\"12-16"),
            Err(ReplyError::Syntax(_))
        ));
        assert_eq!(
            parse_reply("done ponder=1").unwrap_err().to_string(),
            "done needs move"
        );
    }

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
