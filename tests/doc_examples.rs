//! The examples README.md and docs/cli.md print are run, so that a shown output, a node count
//! or the `Bench:` signature cannot go stale, and the exit statuses the docs promise are the
//! ones the program gives.
//!
//! An example is a `$ COMMAND` line in an indented block, and the lines under it up to the
//! next `$` line are its output. `...` alone stands for any number of lines, and `...` inside
//! a line for any text (times and speeds). `$ damka ARGS` runs the binary in a folder of the
//! block's own (with a copy of tests/data); `$ cat FILE` shows a file an earlier example of
//! the block wrote, or else gives the example's input, which is written there. An example
//! with no output lines is not run. Commands that take minutes or serve until stopped are
//! listed in [`NOT_RUN`] with the reason.

use damka::protocol::command_line::split_command;
use std::path::{Path, PathBuf};
use std::process::Command;

const DAMKA: &str = env!("CARGO_BIN_EXE_damka");

/// Commands (by their first words) whose shown output is not checked here, and why.
const NOT_RUN: &[(&str, &str)] = &[
    // About 75 s on a quiet machine; tests/egtb.rs and tests/egtb_engine.rs check the tables.
    ("egtb build", "builds databases for minutes"),
    // Needs the tables of the example above.
    ("egtb probe", "needs the 5-piece tables"),
    ("dxp", "a server that runs until stopped"),
];

/// The documents whose examples are checked.
const DOCS: &[&str] = &["README.md", "docs/cli.md"];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// One `$` line and the lines shown under it.
struct Example {
    line: usize,
    command: String,
    shown: Vec<String>,
}

/// The examples of a document, grouped by the indented block they stand in.
fn blocks(text: &str) -> Vec<Vec<Example>> {
    let mut out: Vec<Vec<Example>> = Vec::new();
    let mut current: Vec<Example> = Vec::new();
    let mut in_block = false;
    for (i, line) in text.lines().enumerate() {
        let indented = line.starts_with("    ");
        if !indented && !line.trim().is_empty() {
            if in_block && !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            in_block = false;
            continue;
        }
        if !indented {
            // A blank line inside a block belongs to the output being shown.
            if let Some(e) = current.last_mut() {
                e.shown.push(String::new());
            }
            continue;
        }
        in_block = true;
        let body = &line[4..];
        if let Some(cmd) = body.strip_prefix("$ ") {
            current.push(Example {
                line: i + 1,
                command: strip_comment(cmd).trim().to_string(),
                shown: Vec::new(),
            });
        } else if let Some(e) = current.last_mut() {
            e.shown.push(body.to_string());
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    for block in &mut out {
        for e in block.iter_mut() {
            while e.shown.last().is_some_and(|l| l.is_empty()) {
                e.shown.pop();
            }
        }
    }
    out
}

/// The command without a trailing `# comment` (a `#` outside quotes after a space).
fn strip_comment(cmd: &str) -> &str {
    let mut quoted = false;
    let bytes = cmd.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'"' => quoted = !quoted,
            b'#' if !quoted && i > 0 && bytes[i - 1] == b' ' => return &cmd[..i],
            _ => {}
        }
    }
    cmd
}

/// Whether `line` matches the shown `pattern`, where each `...` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return pattern == line;
    }
    let mut rest = match line.strip_prefix(parts[0]) {
        Some(r) => r,
        None => return false,
    };
    let last = parts[parts.len() - 1];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Whether the lines match the shown ones, a line `...` standing for any number of lines.
fn lines_match(shown: &[String], actual: &[String]) -> bool {
    match shown.first() {
        None => actual.is_empty(),
        Some(p) if p.trim() == "..." => {
            (0..=actual.len()).any(|skip| lines_match(&shown[1..], &actual[skip..]))
        }
        Some(p) => {
            !actual.is_empty()
                && line_matches(p, &actual[0])
                && lines_match(&shown[1..], &actual[1..])
        }
    }
}

/// What a terminal shows of a stream: lines, each as its last carriage-return segment (a
/// progress bar redraws its line).
fn screen_lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| l.rsplit('\r').next().unwrap_or("").to_string())
        .collect()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        if entry.file_type().unwrap().is_file() {
            std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
        }
    }
}

/// Runs one block's examples in a fresh folder; returns what failed.
fn run_block(doc: &str, block: &[Example], dir: &Path) -> Vec<String> {
    let _ = std::fs::remove_dir_all(dir);
    copy_dir(&repo().join("tests/data"), &dir.join("tests/data"));
    let mut failures = Vec::new();
    for e in block {
        let at = format!("{doc}:{}: `$ {}`", e.line, e.command);
        let w = match split_command(&e.command) {
            Ok(w) => w,
            Err(why) => {
                failures.push(format!("{at}: {why}"));
                continue;
            }
        };
        match w.first().map(String::as_str) {
            Some("cat") if w.len() == 2 => {
                let file = dir.join(&w[1]);
                if file.exists() {
                    let text = std::fs::read_to_string(&file).unwrap();
                    let mut actual: Vec<String> = text.lines().map(str::to_string).collect();
                    while actual.last().is_some_and(|l| l.is_empty()) {
                        actual.pop();
                    }
                    if !lines_match(&e.shown, &actual) {
                        failures.push(format!(
                            "{at} shows\n{}\nbut the file is\n{text}",
                            e.shown.join("\n")
                        ));
                    }
                } else {
                    std::fs::write(&file, e.shown.join("\n") + "\n").unwrap();
                }
            }
            Some("damka") if e.shown.is_empty() => {}
            Some("damka") => {
                let args = &w[1..];
                let joined = args.join(" ");
                if let Some((_, why)) = NOT_RUN.iter().find(|(c, _)| joined.starts_with(c)) {
                    eprintln!("not run: {at}: {why}");
                    continue;
                }
                let out = Command::new(DAMKA)
                    .args(args)
                    .current_dir(dir)
                    .env("XDG_DATA_HOME", dir.join("data"))
                    .output()
                    .unwrap();
                let mut actual = screen_lines(&out.stdout);
                actual.extend(screen_lines(&out.stderr));
                if !out.status.success() {
                    failures.push(format!("{at} exited with {}: {actual:?}", out.status));
                } else if !lines_match(&e.shown, &actual) {
                    failures.push(format!(
                        "{at} shows\n{}\nbut prints\n{}",
                        e.shown.join("\n"),
                        actual.join("\n")
                    ));
                }
            }
            _ => failures.push(format!("{at}: the test cannot run this command")),
        }
    }
    failures
}

#[test]
fn shown_outputs_are_what_damka_prints() {
    let mut failures = Vec::new();
    let mut run = 0;
    for doc in DOCS {
        let text = std::fs::read_to_string(repo().join(doc)).unwrap();
        for (i, block) in blocks(&text).iter().enumerate() {
            let dir = std::env::temp_dir().join(format!(
                "damka-doc-examples-{}-{}-{i}",
                std::process::id(),
                doc.replace('/', "-")
            ));
            failures.extend(run_block(doc, block, &dir));
            run += block.iter().filter(|e| !e.shown.is_empty()).count();
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(run >= 10, "only {run} examples with output were found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The node count of `damka bench`, the `Bench:` signature.
fn bench_nodes() -> String {
    let out = Command::new(DAMKA).arg("bench").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().unwrap().to_string();
    last.strip_prefix("bench nodes=")
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("bench's last line is {last:?}"))
        .to_string()
}

#[test]
fn the_readme_states_the_bench_signature_damka_gives() {
    let nodes = bench_nodes();
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let row = readme
        .lines()
        .find(|l| l.contains("`Bench:` signature"))
        .expect("README.md has a row for the Bench: signature");
    assert!(
        row.contains(&format!("{nodes} nodes")),
        "README.md says {row:?}, damka bench gives nodes={nodes}"
    );
}

/// Bad input of each kind: a one-line message on stderr and exit status 2, as the docs say.
#[test]
fn bad_input_is_exit_status_two() {
    let dir = std::env::temp_dir().join(format!("damka-doc-exit-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let not_pdn = dir.join("not.pdn");
    std::fs::write(&not_pdn, "this is no game\n").unwrap();
    let missing = dir.join("missing.pdn");
    let no_folder = dir.join("no-such-folder").join("my.book");
    let file_as_folder = not_pdn.join("egtb");
    let cases: Vec<Vec<&str>> = vec![
        vec!["--no-such-option"],
        vec!["analyse", "--variant", "chess"],
        vec!["analyse", "--fen", "W:Wz9:Bc5"],
        vec!["analyse", "--fen", "W:W:B", "--depth", "2"],
        vec!["analyse", "--depth", "2", "--moves", "c3-d5"],
        vec!["analyse", "--pdn", missing.to_str().unwrap()],
        vec![
            "analyse",
            "--pdn",
            not_pdn.to_str().unwrap(),
            "--depth",
            "2",
        ],
        vec!["perft", "--depth", "many"],
        vec!["perft", "--epd", not_pdn.to_str().unwrap()],
        vec!["play", "--fen", "nonsense"],
        vec!["egtb", "probe", "--fen", "nonsense"],
        vec![
            "egtb",
            "build",
            "--pieces",
            "2",
            "--dir",
            file_as_folder.to_str().unwrap(),
        ],
        vec!["egtb", "verify", "--dir", missing.to_str().unwrap()],
        vec![
            "book",
            "build",
            "--variant",
            "russian",
            "--out",
            no_folder.to_str().unwrap(),
        ],
        vec!["dxp", "--connect", "127.0.0.1:1", "--games", "1"],
    ];
    let mut wrong = Vec::new();
    for args in &cases {
        let out = Command::new(DAMKA)
            .args(args)
            .env("XDG_DATA_HOME", &dir)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        // On stderr; `play` writes everything, its refusals too, on the game's stdout.
        let said = match args[0] {
            "play" => String::from_utf8_lossy(&out.stdout),
            _ => String::from_utf8_lossy(&out.stderr),
        };
        if out.status.code() != Some(2) || said.trim().is_empty() {
            wrong.push(format!("damka {}: {} {said:?}", args.join(" "), out.status));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A check that fails (a perft count that differs) is exit status 1, as docs/cli.md says.
#[test]
fn a_failed_check_is_exit_status_one() {
    let dir = std::env::temp_dir().join(format!("damka-doc-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let epd = dir.join("wrong.epd");
    std::fs::write(
        &epd,
        "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8 ;D1 8\n",
    )
    .unwrap();
    let out = Command::new(DAMKA)
        .args([
            "perft",
            "--variant",
            "russian",
            "--epd",
            epd.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let cli = std::fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    assert!(cli.contains("- **2**: bad input") && cli.contains("- **1**: a check that failed"));
}

#[test]
fn the_matcher_is_strict_where_no_dots_stand() {
    let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(
        &l(&["a", "...", "z"]),
        &l(&["a", "b", "c", "z"])
    ));
    assert!(lines_match(&l(&["...", "z"]), &l(&["z"])));
    assert!(!lines_match(&l(&["a", "z"]), &l(&["a", "b", "z"])));
    assert!(line_matches(
        "nodes=5 time=... nps=...",
        "nodes=5 time=0.1 nps=9"
    ));
    assert!(!line_matches("nodes=5 time=...", "nodes=6 time=0.1"));
    assert!(!line_matches("a...a", "a"));
    assert_eq!(
        split_command(r#"analyse --fen "W:W a" x"#).unwrap(),
        ["analyse", "--fen", "W:W a", "x"]
    );
    assert_eq!(strip_comment("bench   # both games"), "bench   ");
}
