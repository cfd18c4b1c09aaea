//! The client's square numbering (`numbering`: `standard` 1 = a1, `top` 1 = b8 as pydraughts
//! 0.5 and lidraughts-bot number them) and the Scan parameters lidraughts-bot sends
//! (`tt-size`, `bb-size`, `book-ply`, `initial-time`), with the real engine in memory and
//! through the `damka` binary's `--numbering`.

use crate::hub_support;

use hub_support::{assert_strict, Client};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// A ready session on the real Russian engine with the starting values `options`.
fn ready(options: &[(&str, &str)]) -> Client {
    let mut all = vec![("hash", "8")];
    all.extend_from_slice(options);
    let c = Client::start_engine(&all);
    c.handshake();
    c
}

/// The `done` line and the `info` lines before it.
fn search(c: &Client, lines: &[&str]) -> Vec<String> {
    c.send_all(lines);
    let out = c.until("done");
    for l in &out {
        assert_strict(l);
    }
    out
}

/// The squares of every move in a `done` or `info` line (`done move=22-18 ponder=9-13`).
fn moves_of(line: &str) -> Vec<String> {
    line.split(' ')
        .filter_map(|a| a.split_once('='))
        .filter(|(k, _)| ["move", "ponder", "pv"].contains(k))
        .flat_map(|(_, v)| v.trim_matches('"').split(' ').map(str::to_string))
        .collect()
}

/// A move converted from the top numbering to the standard one (the formula the issue
/// states), independent of the code under test.
fn from_top(m: &str) -> String {
    let mirror = |n: u32| 4 * (7 - (n - 1) / 4) + (n - 1) % 4 + 1;
    let squares: Vec<String> = m
        .split(['-', 'x'])
        .map(|s| mirror(s.parse().unwrap()).to_string())
        .collect();
    squares.join(if m.contains('x') { "x" } else { "-" })
}

/// Whether the answer to `hub` declares `name` with the value `value`.
fn declares(lines: &[String], name: &str, value: &str) -> bool {
    let start = format!("param name={name} value={value} ");
    lines.iter().any(|l| l.starts_with(&start))
}

#[test]
fn the_parameter_is_declared_and_checked() {
    let c = Client::start_engine(&[]);
    let lines = c.ask("hub");
    assert!(
        lines.contains(
            &"param name=numbering value=standard type=enum values=\"standard top\"".into()
        ),
        "{lines:?}"
    );
    // Scan's names are understood but not declared.
    for scan in ["tt-size", "bb-size", "book-ply", "initial-time"] {
        assert!(!lines.iter().any(|l| l.contains(scan)), "{lines:?}");
    }
    let e = c.ask("set-param name=numbering value=bottom");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].starts_with("error message=\"bad value bottom for numbering"));
    assert!(e[0].contains("standard") && e[0].contains("top"), "{e:?}");
    assert!(c.ask("set-param name=Numbering value=TOP").is_empty());
    let lines = c.ask("hub");
    assert!(declares(&lines, "numbering", "top"), "{lines:?}");
    assert_eq!(c.ask("init"), vec!["ready"]);
}

#[test]
fn top_numbering_reads_and_writes_pydraughts_0_5_moves() {
    let top = ready(&[("numbering", "top")]);
    let standard = ready(&[]);
    // pydraughts 0.5's 22-18 is c3-d4: damka's 10-14.
    let a = search(
        &top,
        &[
            &format!("pos pos={START} moves=\"22-18 11-15\""),
            "level depth=5",
            "go think",
        ],
    );
    let b = search(
        &standard,
        &[
            &format!("pos pos={START} moves=\"10-14 23-19\""),
            "level depth=5",
            "go think",
        ],
    );
    assert_eq!(a.len(), b.len(), "{a:?} {b:?}");
    for (x, y) in a.iter().zip(&b) {
        let converted: Vec<String> = moves_of(x).iter().map(|m| from_top(m)).collect();
        assert_eq!(converted, moves_of(y), "{x} / {y}");
    }
    // A capture names its captured square in the client's numbers: d4xf6 taking e5 is
    // 14x23x19 in damka's, 18x11x15 from the top.
    let done = search(
        &top,
        &[
            &format!("pos pos={START} moves=\"22-18 11-15\""),
            "level depth=1",
            "go think",
        ],
    );
    let last = done.last().unwrap();
    assert!(last.starts_with("done move=18x11x15"), "{done:?}");
    // Root moves in `level` are in the client's numbering too.
    let only = search(
        &top,
        &[
            &format!("pos pos={START}"),
            "level depth=3 moves-only=\"24-20\"",
            "go think",
        ],
    );
    assert!(
        only.last().unwrap().starts_with("done move=24-20"),
        "{only:?}"
    );
    let e = top.ask(&format!("pos pos={START}"));
    assert!(e.is_empty());
    top.send("level depth=3 moves-only=\"24-19 1-5\"");
    let e = top.ask("go think");
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("1-5"), "quoted as the client wrote it: {e:?}");
}

#[test]
fn fens_and_set_up_positions_use_the_clients_numbers() {
    let top = ready(&[("numbering", "top")]);
    // White men on 22 and 23 (c3, e3 from the top), a black king on 1 (b8).
    let done = search(
        &top,
        &[
            "pos pos=W:W22,23:BK1 moves=\"22-18\"",
            "level depth=2",
            "go think",
        ],
    );
    let d = done.last().unwrap();
    assert!(
        d.starts_with("done move=1-"),
        "the king on b8 moves: {done:?}"
    );
    // Ranges count in the client's numbers: the start position.
    let a = search(
        &top,
        &["pos pos=W:W21-32:B1-12", "level depth=3", "go think"],
    );
    let b = search(
        &top,
        &[&format!("pos pos={START}"), "level depth=3", "go think"],
    );
    assert_eq!(a.last(), b.last());
}

#[test]
fn moves_in_the_other_numbering_get_a_hint() {
    let standard = ready(&[]);
    let e = standard.ask(&format!("pos pos={START} moves=\"22-18\""));
    assert_eq!(e.len(), 1, "{e:?}");
    assert_strict(&e[0]);
    assert!(
        e[0].starts_with("error message=\"illegal move 22-18;"),
        "{e:?}"
    );
    assert!(e[0].contains("numbering to top"), "{e:?}");
    let top = ready(&[("numbering", "top")]);
    let e = top.ask(&format!("pos pos={START} moves=\"10-14 22-18\""));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("error message=\"illegal move 10-14;"),
        "{e:?}"
    );
    assert!(e[0].contains("numbering to standard"), "{e:?}");
    // Illegal in both: no hint, and the client's own text.
    let e = top.ask(&format!("pos pos={START} moves=\"22-18 1-5\""));
    assert_eq!(e, vec!["error message=\"illegal move 1-5\""]);
    let e = top.ask(&format!("pos pos={START} moves=\"5-40\""));
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(e[0].contains("5-40") && !e[0].contains(';'), "{e:?}");
    // The position stays as it was: `go` still needs one.
    let e = top.ask("go think");
    assert_eq!(
        e,
        vec!["error message=\"go without a position (send pos first)\""]
    );
}

#[test]
fn lidraughts_bot_defaults_are_understood() {
    let c = Client::start_engine(&[]);
    let lines = c.ask("hub");
    assert_eq!(lines.last().map(String::as_str), Some("wait"));
    // What lidraughts-bot's default config sends, in its order (`bb-size: auto` arrives as a
    // number), then the variant and the clock.
    for l in [
        "set-param name=book-ply value=20",
        "set-param name=tt-size value=23",
        "set-param name=bb-size value=0",
        "set-param name=variant value=russian",
        "set-param name=initial-time value=180.0",
    ] {
        assert!(c.ask(l).is_empty(), "{l}");
    }
    let lines = c.ask("hub");
    assert!(
        declares(&lines, "hash", "128"),
        "tt-size 23 is 2^23 entries of 16 bytes: {lines:?}"
    );
    assert_eq!(c.ask("init"), vec!["ready"]);
    for (l, why) in [
        (
            "set-param name=tt-size value=40",
            "bad value 40 for tt-size",
        ),
        (
            "set-param name=bb-size value=auto",
            "bad value auto for bb-size",
        ),
        (
            "set-param name=book-ply value=-1",
            "bad value -1 for book-ply",
        ),
        (
            "set-param name=initial-time value=soon",
            "bad value soon for initial-time",
        ),
    ] {
        let e = c.ask(l);
        assert_eq!(e.len(), 1, "{l}: {e:?}");
        assert!(e[0].starts_with(&format!("error message=\"{why}")), "{e:?}");
    }
}

#[test]
fn a_bad_starting_value_is_said_after_hub() {
    let c = Client::start_engine(&[("numbering", "upside-down")]);
    let lines = c.ask("hub");
    let n = lines.len();
    assert_eq!(lines[n - 1], "wait");
    assert!(lines[n - 2].starts_with("error message=\"bad value upside-down for numbering"));
    assert!(declares(&lines, "numbering", "standard"), "{lines:?}");
    // Said once.
    assert_eq!(c.ask("init"), vec!["ready"]);
}

/// `damka hub --numbering=top` as lidraughts-bot starts it (`engine_options`), and a value the
/// session does not take: an `error` line on stdout, nothing on stderr.
#[test]
fn the_binary_takes_numbering_on_its_command_line() {
    for (arg, expect_error) in [("--numbering=top", false), ("--numbering=sideways", true)] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
            .args(["hub", arg, "--hash", "8"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut input = child.stdin.take().unwrap();
        // `quit` during the search still gets its `done` first.
        writeln!(
            input,
            "hub\ninit\npos pos={START} moves=\"22-18\"\nlevel depth=2\ngo think\nquit"
        )
        .unwrap();
        drop(input);
        let lines: Vec<String> = BufReader::new(child.stdout.take().unwrap())
            .lines()
            .map(Result::unwrap)
            .collect();
        let status = child.wait().unwrap();
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(status.success());
        assert_eq!(err, "", "nothing on stderr");
        let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("error")).collect();
        if expect_error {
            // The bad value, then the standard numbering's refusal of 22-18 with its hint, and
            // `go` without a position.
            assert_eq!(errors.len(), 3, "{lines:?}");
            assert!(errors[0].contains("sideways"), "{lines:?}");
            assert!(errors[1].contains("numbering to top"), "{lines:?}");
        } else {
            assert!(errors.is_empty(), "{lines:?}");
            let done = lines.iter().find(|l| l.starts_with("done")).unwrap();
            // Black answers 22-18 with a move of a black man: squares 9-12 from the top.
            let from: u32 = done["done move=".len()..]
                .split(['-', 'x'])
                .next()
                .unwrap()
                .parse()
                .unwrap();
            assert!((9..=12).contains(&from), "{done}");
        }
    }
}
