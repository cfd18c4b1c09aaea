//! Scripted Hub sessions in memory against a fake engine: every command, every error reply,
//! searches with `stop`, `ponder-hit` and `ping` arriving while they run.

use crate::hub_support;

use damka::protocol::hub::HubConfig;
use hub_support::{assert_strict, Client};
use std::time::{Duration, Instant};

const RUSSIAN_START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
const TURKISH_START: &str = "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee";

fn is_error(lines: &[String]) -> bool {
    lines.len() == 1 && lines[0].starts_with("error message=")
}

#[test]
fn handshake_declares_every_param_and_applies_them_once_at_init() {
    let c = Client::start();
    let lines = c.ask("hub");
    assert_eq!(
        lines,
        vec![
            format!(
                "id name=damka version=\"{} eval {}\" author=\"the damka authors\"",
                env!("CARGO_PKG_VERSION"),
                damka::engine::eval_names()
            ),
            "param name=variant value=russian type=enum values=\"russian turkish\"".to_string(),
            "param name=threads value=1 type=int min=1 max=256".to_string(),
            "param name=hash value=64 type=int min=1 max=16384".to_string(),
            // The session's own parameter, after the engine's.
            "param name=numbering value=standard type=enum values=\"standard top\"".to_string(),
            "wait".to_string(),
        ]
    );
    for l in &lines {
        assert_strict(l);
    }
    assert!(c.ask("set-param name=variant value=turkish").is_empty());
    assert!(c.ask("set-param name=threads value=2").is_empty());
    assert!(c.ask("set-param name=hash value=128").is_empty());
    assert!(c.ask("set-param name=hash value=256").is_empty());
    assert_eq!(c.calls(), vec!["set_option variant turkish"]);
    // Values not yet applied are the ones shown.
    let lines = c.ask("hub");
    assert!(lines[2].contains("value=2"), "{lines:?}");
    assert!(lines[3].contains("value=256"), "{lines:?}");
    assert_eq!(c.ask("init"), vec!["ready"]);
    assert_eq!(
        c.calls(),
        vec![
            "set_option variant turkish",
            "set_option threads 2",
            "set_option hash 256"
        ]
    );
    // `hub` again shows the values now in force.
    let lines = c.ask("hub");
    assert!(lines[1].contains("value=turkish"), "{lines:?}");
    assert!(lines[2].contains("value=2"), "{lines:?}");
    assert!(lines[3].contains("value=256"), "{lines:?}");
    c.send("quit");
    assert!(c.finish().is_empty());
}

#[test]
fn start_values_come_from_the_config() {
    let c = Client::start_with(HubConfig {
        options: vec![("threads".into(), "3".into()), ("hash".into(), "16".into())],
    });
    let lines = c.ask("hub");
    assert!(lines[2].contains("value=3"), "{lines:?}");
    assert!(lines[3].contains("value=16"), "{lines:?}");
    c.ask("set-param name=hash value=32");
    c.ask("init");
    assert_eq!(
        c.calls(),
        vec!["set_option threads 3", "set_option hash 32"]
    );
}

#[test]
fn bad_params_get_errors_and_change_nothing() {
    let c = Client::ready();
    let before = c.calls();
    for (line, want) in [
        (
            "set-param name=variant value=chess",
            "unknown variant chess",
        ),
        (
            "set-param name=threads value=0",
            "bad value 0 for threads (expected 1 to 256)",
        ),
        (
            "set-param name=threads value=-3",
            "bad value -3 for threads",
        ),
        (
            "set-param name=threads value=257",
            "bad value 257 for threads",
        ),
        ("set-param name=hash value=lots", "bad value lots for hash"),
        (
            "set-param name=colour value=red",
            "unknown parameter colour",
        ),
        ("set-param name=variant", "set-param needs value"),
        ("set-param value=russian", "set-param needs name"),
    ] {
        let lines = c.ask(line);
        assert!(is_error(&lines), "{line}: {lines:?}");
        assert!(lines[0].contains(want), "{line}: {lines:?}");
        assert_strict(&lines[0]);
    }
    c.send("go think");
    assert_eq!(
        c.sync(),
        vec!["error message=\"go without a position (send pos first)\""]
    );
    assert_eq!(c.calls(), before);
}

#[test]
fn think_reports_info_in_scan_order_then_done() {
    let c = Client::ready();
    assert!(c
        .ask(&format!("pos pos={RUSSIAN_START} moves=\"10-14 23-18\""))
        .is_empty());
    assert!(c.ask("level depth=3").is_empty());
    c.send("go think");
    let lines = c.until("done");
    assert_eq!(lines.len(), 4, "{lines:?}");
    for (k, l) in lines[..3].iter().enumerate() {
        assert_strict(l);
        let want = format!(
            "info depth={d} mean-depth={d}.5 score=-0.0{d} nodes={d}000 ",
            d = k + 1
        );
        assert!(l.starts_with(&want), "{l} vs {want}");
        assert!(l.ends_with(" nps=1.50 pv=\"10x19x14 23-14\""), "{l}");
    }
    assert_eq!(lines[3], "done move=10x19x14 ponder=23-14");
    assert!(c
        .calls()
        .contains(&format!("set_position {RUSSIAN_START} [10-14 23-18]")));
    // The session is idle again: another go on the same position and limits works.
    c.send("go think");
    assert_eq!(c.until("done").len(), 4);
}

#[test]
fn level_lines_accumulate_and_pos_resets_them() {
    let c = Client::ready();
    let start = format!("pos pos={RUSSIAN_START}");
    let levels = [
        "level time=9.5 inc=1e-05",
        "level moves=40",
        "level time=-0.5",
    ];
    c.send_all(&[&start, levels[0], levels[1], levels[2], "go think"]);
    c.until("done");
    c.send_all(&[&start, "level move-time=0.01", "go think"]);
    c.until("done");
    c.send_all(&[&start, "level depth=2 nodes=5000", "go analyze"]);
    c.until("done");
    // damka's extension: root moves to search or to leave out, forgotten at the next pos.
    let only = "level moves-only=\"10-14 11-15\" exclude=9-13";
    c.send_all(&[&start, only, "level depth=3", "go think"]);
    c.until("done");
    c.send_all(&[&start, "level depth=3", "go think"]);
    c.until("done");
    let gos: Vec<String> = c
        .calls()
        .into_iter()
        .filter(|l| l.starts_with("go "))
        .collect();
    assert_eq!(
        gos,
        vec![
            "go Think Limits { depth: None, nodes: None, movetime: None, time: Some(-0.5), \
             inc: 1e-5, moves_to_go: Some(40), infinite: false, moves_only: [], exclude: [] }",
            "go Think Limits { depth: None, nodes: None, movetime: Some(0.01), time: None, \
             inc: 0.0, moves_to_go: None, infinite: false, moves_only: [], exclude: [] }",
            "go Analyze Limits { depth: Some(2), nodes: Some(5000), movetime: None, time: None, \
             inc: 0.0, moves_to_go: None, infinite: false, moves_only: [], exclude: [] }",
            "go Think Limits { depth: Some(3), nodes: None, movetime: None, time: None, \
             inc: 0.0, moves_to_go: None, infinite: false, moves_only: [\"10-14\", \"11-15\"], \
             exclude: [\"9-13\"] }",
            "go Think Limits { depth: Some(3), nodes: None, movetime: None, time: None, \
             inc: 0.0, moves_to_go: None, infinite: false, moves_only: [], exclude: [] }",
        ]
    );
}

#[test]
fn stop_ends_a_search_at_once_and_ping_does_not() {
    let c = Client::ready();
    c.send(&format!("pos pos={RUSSIAN_START}"));
    c.send("go think"); // no limits: runs until stop
    assert!(c.recv().starts_with("info depth=1 "));
    let lines = c.sync();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    std::thread::sleep(Duration::from_millis(20));
    let t = Instant::now();
    c.send("stop");
    let lines = c.until("done");
    let first = t.elapsed();
    assert_eq!(lines.last().unwrap(), "done move=10x19x14 ponder=23-14");
    let fastest = first.min(fastest_stop(&c, "go think"));
    assert!(fastest < Duration::from_millis(50), "{fastest:?}");
    // A late stop is harmless and silent.
    assert!(c.ask("stop").is_empty());
}

/// The shortest time from `stop` to `done` after `go` (the first `info` read) over a few
/// tries: the machine may be busy, so a bound must hold in one of them, not in all.
fn fastest_stop(c: &Client, go: &str) -> Duration {
    let mut fastest = Duration::MAX;
    for _ in 0..3 {
        c.send(go);
        c.recv();
        let t = Instant::now();
        c.send("stop");
        c.until("done");
        fastest = fastest.min(t.elapsed());
    }
    fastest
}

#[test]
fn ponder_waits_for_ponder_hit_or_stop() {
    let c = Client::ready();
    let pos = format!("pos pos={RUSSIAN_START} moves=\"10-14 23-18\"");
    c.send_all(&[&pos, "level depth=2", "go ponder"]);
    // Depth 2 is reached quickly, but a ponder search goes on until ponder-hit: a third
    // iteration is reported (waited for, not timed, so a busy machine does not matter).
    let lines: Vec<String> = (0..3).map(|_| c.recv()).collect();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    c.send("ponder-hit");
    let lines = c.until("done");
    assert!(lines.iter().rev().skip(1).all(|l| l.starts_with("info ")));
    assert!(c.calls().contains(&"ponder_hit".to_string()));
    // go ponder then stop: done at once.
    let fastest = fastest_stop(&c, "go ponder");
    assert!(fastest < Duration::from_millis(50), "{fastest:?}");
}

#[test]
fn another_command_during_a_search_stops_it_first() {
    let c = Client::ready();
    c.send(&format!("pos pos={RUSSIAN_START}"));
    c.send("level infinite");
    c.send("go analyze");
    c.recv();
    // A malformed line is answered without disturbing the search.
    let lines = c.ask("frobnicate");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("error message=\"unknown command")));
    assert!(!lines.iter().any(|l| l.starts_with("done")));
    // `pos` stops it: done first, then the new position is taken.
    c.send(&format!("pos pos={RUSSIAN_START} moves=\"9-13\""));
    let lines = c.until("done");
    assert!(lines
        .iter()
        .all(|l| l.starts_with("info ") || l.starts_with("done ")));
    assert!(c.sync().is_empty());
    let calls = c.calls();
    let stop = calls.iter().position(|l| l == "stop").unwrap();
    let pos = calls.iter().position(|l| l.ends_with("[9-13]")).unwrap();
    assert!(stop < pos, "{calls:?}");
}

#[test]
fn quit_and_end_of_input_during_a_search_still_answer_done() {
    let c = Client::ready();
    c.send(&format!("pos pos={RUSSIAN_START}"));
    c.send("go think");
    c.recv();
    c.send("quit");
    let rest = c.finish();
    assert!(rest.last().unwrap().starts_with("done move="), "{rest:?}");

    let c = Client::start();
    c.send(&format!("pos pos={RUSSIAN_START}"));
    c.send("go think");
    c.recv();
    let rest = c.close();
    assert!(rest.last().unwrap().starts_with("done move="), "{rest:?}");
}

#[test]
fn end_of_input_ends_an_idle_session() {
    let c = Client::ready();
    assert!(c.close().is_empty());
    // Even without a newline on the last line.
    let c = Client::start();
    c.send_bytes(b"ping");
    assert_eq!(c.close(), vec!["pong"]);
}

#[test]
fn positions_moves_and_variants() {
    let c = Client::ready();
    // A bad position and an illegal move are errors; the next go still has a position only
    // if one was set before.
    let lines = c.ask("pos pos=Wbbb");
    assert!(
        is_error(&lines) && lines[0].contains("bad position"),
        "{lines:?}"
    );
    c.send("go think");
    assert!(c.sync()[0].contains("go without a position"));
    let lines = c.ask(&format!("pos pos={RUSSIAN_START} moves=\"10-14 99-1\""));
    assert_eq!(lines, vec!["error message=\"illegal move 99-1\""]);
    assert!(c.ask(&format!("pos pos={RUSSIAN_START}")).is_empty());
    assert!(c.ask("pos pos=B moves=\"1-5\"")[0].contains("bad position"));
    c.send("level depth=1");
    c.send("go think");
    assert_eq!(c.until("done").len(), 2);

    // A Russian string is a bad position in Turkish; the variant switch forgets the position.
    assert!(c.ask("set-param name=variant value=turkish").is_empty());
    c.send("go think");
    assert!(c.sync()[0].contains("go without a position"));
    assert!(c.ask(&format!("pos pos={RUSSIAN_START}"))[0].contains("bad position"));
    assert!(c
        .ask(&format!("pos pos={TURKISH_START} moves=\"18-26\""))
        .is_empty());
    c.send("level depth=1");
    c.send("go think");
    assert_eq!(
        c.until("done").last().unwrap(),
        "done move=18-26 ponder=42-34"
    );

    // `pos start` (an extension) uses the current variant's start.
    assert!(c.ask("pos start moves=\"18-26\"").is_empty());
    assert!(c
        .calls()
        .contains(&format!("set_position {TURKISH_START} [18-26]")));
    assert!(c.ask("new-game").is_empty());
    assert!(c.calls().contains(&"new_game".to_string()));
}

#[test]
fn no_legal_move_is_an_error() {
    let c = Client::ready();
    assert!(c
        .ask("pos pos=Wbbbbbbbbbbbbeeeeeeeeeeeeeeeeeeee")
        .is_empty());
    c.send("go think");
    assert_eq!(c.sync(), vec!["error message=\"no legal move\""]);
}

#[test]
fn every_kind_of_malformed_line_gets_one_error() {
    let c = Client::ready();
    let million = "x".repeat(1_000_000);
    let cases: Vec<Vec<u8>> = vec![
        b"launch missiles".to_vec(),
        b"PING".to_vec(),
        b"pos=abc".to_vec(),
        b"pos".to_vec(),
        b"pos moves=\"10-14".to_vec(),
        b"pos pos=\"Wbb\"x".to_vec(),
        b"level depth=deep".to_vec(),
        b"level depth".to_vec(),
        b"level nodes=-5".to_vec(),
        b"level time=NaN".to_vec(),
        b"level inc=1s".to_vec(),
        b"level moves=x".to_vec(),
        b"level infinite=perhaps".to_vec(),
        b"go sideways".to_vec(),
        b"go =".to_vec(),
        b"set-param".to_vec(),
        b"set-param name=variant value=international".to_vec(),
        b"pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwx".to_vec(),
        b"ping \xff\xfe".to_vec(),
        b"\xc3\x28".to_vec(),
        million.into_bytes(),
        format!(
            "pos pos={RUSSIAN_START} moves=\"{}\"",
            "1-5 ".repeat(100_000)
        )
        .into_bytes(),
    ];
    for bytes in cases {
        let mut line = bytes.clone();
        line.push(b'\n');
        c.send_bytes(&line);
        let lines = c.sync();
        let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(60)]).to_string();
        assert!(is_error(&lines), "{shown}: {lines:?}");
        assert_strict(&lines[0]);
        assert!(lines[0].len() < 300, "{shown}: {lines:?}");
    }
    // Blank lines are ignored.
    assert!(c.ask("").is_empty());
    assert!(c.ask(" \t\r").is_empty());
}
