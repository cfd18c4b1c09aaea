//! What a user gets without options: endgame databases built into the default folder are used
//! by `analyse`, `play` and the Hub engine (an empty `--egtb-path` turns them off; `bench`
//! never takes them implicitly), and `damka` alone on a terminal says what it is, while on a
//! pipe it writes nothing before the client's first line.

use crate::process_support;

use process_support::data_home;
use std::path::Path;
use std::process::Command;

const DAMKA: &str = env!("CARGO_BIN_EXE_damka");

/// Runs `damka ARGS` with `data` as `$XDG_DATA_HOME` and `input` on a pipe; (status, stdout,
/// stderr).
fn damka_in(data: &Path, args: &[&str], input: &str) -> (i32, String, String) {
    let out = process_support::run_in(data, DAMKA, args, &[input.as_bytes()]);
    (out.code, out.stdout, out.stderr)
}

/// Two kings against one: every search from here probes the 3-piece tables.
const ENDING: &str = "W:WKc3,Ke1:BKh8";

#[test]
fn tables_built_into_the_default_folder_are_used_without_options() {
    let data = data_home("egtb");
    let analyse = [
        "analyse",
        "--variant",
        "russian",
        "--fen",
        ENDING,
        "--depth",
        "4",
    ];

    // Before any build: no tables, and no message about them either.
    let (code, out, err) = damka_in(&data, &analyse, "");
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("egtb-hits="), "{out}");
    assert!(!err.contains("endgame"), "{err}");

    // `damka egtb build` with no --dir writes into the default folder...
    let (code, out, err) = damka_in(
        &data,
        &["egtb", "build", "--variant", "russian", "--pieces", "3"],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    let folder = data.join("damka").join("egtb");
    assert!(folder.join("russian").is_dir(), "{out}");

    // ...and analyse finds them there with no option.
    let (code, out, err) = damka_in(&data, &analyse, "");
    assert_eq!(code, 0, "{out}{err}");
    let hits: u64 = out
        .lines()
        .filter_map(|l| l.split("egtb-hits=").nth(1))
        .filter_map(|h| h.trim().parse().ok())
        .max()
        .unwrap_or_else(|| panic!("no egtb-hits in the analysis: {out}"));
    assert!(hits > 0, "{out}");

    // An empty --egtb-path turns them off.
    let mut off = analyse.to_vec();
    off.extend(["--egtb-path", ""]);
    let (code, out, _) = damka_in(&data, &off, "");
    assert_eq!(code, 0);
    assert!(!out.contains("egtb-hits="), "{out}");

    // The Hub engine starts with the default folder as its egtb-path parameter.
    let (code, out, _) = damka_in(&data, &[], "hub\nquit\n");
    assert_eq!(code, 0);
    let param = out
        .lines()
        .find(|l| l.contains("name=egtb-path"))
        .unwrap_or_else(|| panic!("no egtb-path parameter: {out}"));
    assert!(param.contains(folder.to_str().unwrap()), "{param}");

    // A game in the terminal asks the tables too: the engine's reply comes with no message
    // about them, and `damka play` runs to its end.
    let (code, out, err) = damka_in(
        &data,
        &[
            "play",
            "--variant",
            "russian",
            "--fen",
            ENDING,
            "--white",
            "engine",
            "--black",
            "engine",
            "--depth",
            "2",
            "--ascii",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("not used"), "{err}");

    // The bench signature does not depend on what the user built: the same node count with
    // the tables in the default folder as with none.
    let bench = ["bench", "--variant", "russian", "--depth", "3"];
    let (_, with_default, _) = damka_in(&data, &bench, "");
    let empty = data_home("empty");
    let (_, without, _) = damka_in(&empty, &bench, "");
    let nodes = |s: &str| {
        s.lines()
            .last()
            .unwrap_or("")
            .split(' ')
            .nth(1)
            .map(str::to_string)
    };
    assert!(
        nodes(&without).unwrap_or_default().starts_with("nodes="),
        "{without}"
    );
    assert_eq!(nodes(&with_default), nodes(&without));

    let _ = std::fs::remove_dir_all(&data);
    let _ = std::fs::remove_dir_all(&empty);
}

#[test]
fn a_pipe_gets_no_hint() {
    let out = process_support::run(DAMKA, &[], &[b"ping\nquit\n"]);
    assert_eq!(out.code, 0);
    assert_eq!(out.stderr, "");
    assert_eq!(out.lines(), vec!["pong"]);
}

/// `script` (util-linux) runs damka on a pseudo-terminal, as a person typing `damka` would.
#[test]
fn a_terminal_gets_a_one_line_hint_before_the_protocol() {
    let has_script = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_script,
        "this test needs `script` from util-linux (Debian: bsdutils) to open a terminal"
    );
    let out = process_support::run(
        "script",
        &["-qec", &format!("{DAMKA} 2>&1"), "/dev/null"],
        &[b"~ping\n", b"~quit\n"],
    );
    let text = out.stdout.replace('\r', "");
    let hint = text
        .lines()
        .position(|l| l.contains("damka speaks the Hub protocol"))
        .unwrap_or_else(|| panic!("no hint on the terminal: {text:?}"));
    let pong = text
        .lines()
        .position(|l| l == "pong")
        .unwrap_or_else(|| panic!("no pong: {text:?}"));
    assert!(hint < pong, "{text:?}");
    assert_eq!(
        text.lines().filter(|l| l.contains("damka play")).count(),
        1,
        "one line of hint: {text:?}"
    );
}
