//! The match tool against scripted fake engines (`damka-match fake-engine`), through real
//! processes and pipes: legal games to the end, every failure an engine can commit, openings,
//! adjudication, SPRT stop, gauntlets and bad input.

use damka::game::pdn::read_all;
use damka::game::Record;
use damka::variant::{Position, RussianPosition, TurkishPosition};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_damka-match");

fn fake(name: &str, extra: &str) -> String {
    format!("{name}='{BIN}' fake-engine --name {name} {extra}")
}

struct Out {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Out {
    let o = Command::new(BIN).args(args).output().expect("runs");
    Out {
        code: o.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// The fields of the last line, which must be exactly `elo=.. error=.. games=.. score=..`.
fn last_line(out: &Out) -> HashMap<String, String> {
    assert_eq!(
        out.code, 0,
        "stdout:\n{}\nstderr:\n{}",
        out.stdout, out.stderr
    );
    let last = out.stdout.lines().last().expect("output");
    let fields: Vec<(String, String)> = last
        .split(' ')
        .map(|kv| {
            let (k, v) = kv.split_once('=').expect("key=value");
            (k.to_string(), v.to_string())
        })
        .collect();
    let keys: Vec<&str> = fields.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["elo", "error", "games", "score"], "{last}");
    for (_, v) in &fields {
        v.parse::<f64>().expect("a number");
    }
    fields.into_iter().collect()
}

fn tmp(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("damka-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// Reads every game of a PDN file with the library (which checks every move against the
/// legal moves); a game the rules ended must carry the rules' result.
fn check_pdn<P: Position>(text: &str) -> Vec<Record<P>> {
    let records = read_all::<P>(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for r in &records {
        if let Some(end) = r.game.result() {
            assert_eq!(r.result, Some(end.outcome), "{}", r.to_pdn());
            assert_eq!(r.tag("Termination"), Some(end.rule.to_string().as_str()));
        }
    }
    records
}

#[test]
fn legal_games_to_the_end_with_pdn() {
    let pdn = tmp("legal.pdn");
    let out = run(&[
        "--engine",
        &fake("a", "--seed 1"),
        "--engine",
        &fake("b", "--seed 2"),
        "--depth",
        "1",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let f = last_line(&out);
    assert_eq!(f["games"], "4");
    let games: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("Game "))
        .collect();
    assert_eq!(games.len(), 4, "{}", out.stdout);
    // Points from the progress lines agree with the summary.
    let a_points: f64 = games
        .iter()
        .map(|l| {
            let white_is_a = l.contains(" a vs b");
            if l.contains(": 1-1 ") {
                0.5
            } else if l.contains(": 2-0 ") == white_is_a {
                1.0
            } else {
                0.0
            }
        })
        .sum();
    assert_eq!(f["score"].parse::<f64>().unwrap(), a_points);
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert_eq!(check_pdn::<RussianPosition>(&text).len(), 4);
    let _ = std::fs::remove_file(&pdn);
}

#[test]
fn turkish_games_to_the_end() {
    let pdn = tmp("turkish.pdn");
    let out = run(&[
        "--variant",
        "turkish",
        "--engine",
        &fake("a", "--seed 3"),
        "--engine",
        &fake("b", "--seed 4"),
        "--movetime",
        "1",
        "--games",
        "2",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let f = last_line(&out);
    assert_eq!(f["games"], "2");
    let text = std::fs::read_to_string(&pdn).unwrap();
    assert!(text.contains("[GameType \"30\"]"));
    assert_eq!(check_pdn::<TurkishPosition>(&text).len(), 2);
    let _ = std::fs::remove_file(&pdn);
}

fn failing_match(bad: &str, limit: &[&str], games: &str) -> (HashMap<String, String>, Out) {
    let mut args = vec![
        "--engine".to_string(),
        fake("a", "--seed 5"),
        "--engine".to_string(),
        fake("b", bad),
        "--games".to_string(),
        games.to_string(),
    ];
    args.extend(limit.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&refs);
    (last_line(&out), out)
}

#[test]
fn illegal_move_loses_with_last_lines() {
    let (f, out) = failing_match("--illegal-at 5", &["--depth", "1"], "2");
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("b illegal move:").count(),
        2,
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("last lines of b:"));
    assert!(out.stdout.contains("    done move="), "{}", out.stdout);
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let (f, out) = failing_match("--crash-at 3", &["--depth", "1"], "4");
    assert_eq!(f["score"], "4", "{}", out.stdout);
    assert_eq!(out.stdout.matches("b crash:").count(), 4, "{}", out.stdout);
    assert!(out.stdout.contains("process exited"), "{}", out.stdout);
}

#[test]
fn hung_engine_times_out() {
    let (f, out) = failing_match("--hang-at 2", &["--depth", "1", "--timeout", "2"], "2");
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("b timeout:").count(),
        2,
        "{}",
        out.stdout
    );
}

#[test]
fn slow_engine_loses_on_time() {
    let (f, out) = failing_match(
        "--delay-ms 700",
        &["--movetime", "0.2", "--margin", "0.1"],
        "2",
    );
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("b loss on time:").count(),
        2,
        "{}",
        out.stdout
    );
    // On a clock as well.
    let (f, out) = failing_match(
        "--delay-ms 400",
        &["--tc", "1+0.05", "--margin", "0.05"],
        "2",
    );
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert!(out.stdout.contains("b loss on time:"), "{}", out.stdout);
}

#[test]
fn malformed_reply_loses() {
    let (f, out) = failing_match("--garbage-at 0", &["--depth", "1"], "2");
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("b malformed reply:").count(),
        2,
        "{}",
        out.stdout
    );
}

#[test]
fn resign_adjudication_needs_both_scores() {
    let out = run(&[
        "--engine",
        &fake("a", "--score 5"),
        "--engine",
        &fake("b", "--score=-5"),
        "--depth",
        "1",
        "--games",
        "2",
        "--resign",
        "score=3,moves=2",
    ]);
    let f = last_line(&out);
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("(adjudicated:").count(),
        2,
        "{}",
        out.stdout
    );
    // Both engines claim to be winning: no agreement, no adjudication.
    let out = run(&[
        "--engine",
        &fake("a", "--score 5 --seed 1"),
        "--engine",
        &fake("b", "--score 5 --seed 2"),
        "--depth",
        "1",
        "--games",
        "2",
        "--resign",
        "score=3,moves=2",
    ]);
    last_line(&out);
    assert!(!out.stdout.contains("adjudicated"), "{}", out.stdout);
}

#[test]
fn sprt_stops_the_match() {
    let (f, out) = failing_match(
        "--illegal-at 0",
        &[
            "--depth",
            "1",
            "--sprt",
            "elo0=0,elo1=100,alpha=0.05,beta=0.05",
        ],
        "200",
    );
    let games: usize = f["games"].parse().unwrap();
    assert!(games < 200, "{}", out.stdout);
    assert!(out.stdout.contains("H1 accepted"), "{}", out.stdout);
}

#[test]
fn openings_are_played_with_both_colours() {
    let file = tmp("openings.txt");
    // Moves (algebraic and Hub numbers), a FEN, and a Hub string with moves.
    std::fs::write(
        &file,
        "# test openings\n\
         c3-d4 f6-g5   # a comment\n\
         1. 10-14 23-19\n\
         W:Wa1,c1,e1,g1,b2:Bb8,d8,f8,h8,a7\n\
         Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww 9-13\n",
    )
    .unwrap();
    let pdn = tmp("openings.pdn");
    let out = run(&[
        "--engine",
        &fake("a", "--first"),
        "--engine",
        &fake("b", "--first"),
        "--depth",
        "1",
        "--openings",
        file.to_str().unwrap(),
        "--pdn",
        pdn.to_str().unwrap(),
        "--concurrency",
        "3",
    ]);
    let f = last_line(&out);
    assert_eq!(f["games"], "8", "{}", out.stdout);
    for o in 1..=4 {
        assert_eq!(
            out.stdout.matches(&format!(", opening {o}:")).count(),
            2,
            "{}",
            out.stdout
        );
    }
    let text = std::fs::read_to_string(&pdn).unwrap();
    let records = check_pdn::<RussianPosition>(&text);
    assert_eq!(records.len(), 8);
    // Each opening's moves start its games.
    for r in &records {
        let opening = r.tag("Opening").unwrap();
        let first: Vec<String> = r.game.move_texts_hub().into_iter().take(2).collect();
        match opening.split_whitespace().next().unwrap() {
            "c3-d4" => assert_eq!(first, ["10-14", "23-20"], "{opening}"),
            "1." => assert_eq!(first, ["10-14", "23-19"], "{opening}"),
            _ => {}
        }
    }
    assert_eq!(
        text.matches("[FEN \"W:Wa1,c1,e1,g1,b2:").count(),
        2,
        "{text}"
    );
    // Deterministic engines: both games of an opening pair mirror colours, so the first
    // engine scores exactly 1 per pair.
    assert_eq!(f["score"], "4", "{}", out.stdout);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&pdn);
}

#[test]
fn gauntlet_of_three() {
    let out = run(&[
        "--engine",
        &fake("a", "--seed 1"),
        "--engine",
        &fake("b", "--illegal-at 0"),
        "--engine",
        &fake("c", "--seed 3"),
        "--depth",
        "1",
    ]);
    let f = last_line(&out);
    assert_eq!(f["games"], "4", "{}", out.stdout);
    let row = |name: &str| {
        out.stdout
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name}:\n{}", out.stdout))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // Against b, which never makes a legal move: 2 games, 2 wins.
    assert_eq!(&row("b")[1..3], ["2", "2"]);
    assert_eq!(row("c")[1], "2");
}

#[test]
fn bad_input_is_refused_clearly() {
    let out = run(&["--engine", &fake("a", ""), "--engine", "b=/no/such/engine"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("cannot run"), "{}", out.stderr);
    let out = run(&["--engine", &fake("a", "")]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("two engines"), "{}", out.stderr);
    let out = run(&[
        "--engine",
        &fake("a", ""),
        "--engine",
        &fake("b", ""),
        "--param",
        "c:threads=2",
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no engine named"), "{}", out.stderr);
    let file = tmp("bad-openings.txt");
    std::fs::write(&file, "c3-d4\nc3-d4 c3-d4\n").unwrap();
    let out = run(&[
        "--engine",
        &fake("a", ""),
        "--engine",
        &fake("b", ""),
        "--openings",
        file.to_str().unwrap(),
    ]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("line 2"), "{}", out.stderr);
    let _ = std::fs::remove_file(&file);
    for bad in [
        vec!["--tc", "x"],
        vec!["--sprt", "elo0=5,elo1=1"],
        vec!["--resign", "moves=2"],
        vec!["--level", "b:depth=x"],
        vec!["--level", "b:speed=2"],
        vec!["--level", "b:"],
    ] {
        let mut args = vec![
            "--engine".to_string(),
            fake("a", ""),
            "--engine".to_string(),
            fake("b", ""),
        ];
        args.extend(bad.iter().map(|s| s.to_string()));
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run(&refs);
        assert_eq!(out.code, 2, "{bad:?}");
        assert!(out.stderr.starts_with("damka-match: "), "{}", out.stderr);
    }
}

#[test]
fn openings_generator_keeps_balanced_positions() {
    let file = tmp("gen.txt");
    let judge = |score: &str| format!("'{BIN}' fake-engine --score={score}");
    let o = Command::new(BIN)
        .args([
            "openings",
            "--engine",
            &judge("0.1"),
            "--plies",
            "2",
            "--depth",
            "3",
            "--max-score",
            "0.25",
            "--out",
            file.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("# Made by: damka-match openings --variant russian"));
    // Seven first moves, seven replies each: 49 distinct positions, all kept.
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 49, "{text}");
    assert!(lines.iter().all(|l| l.ends_with("# +0.10")), "{text}");
    // The file is a valid opening file for a match.
    let out = run(&[
        "--engine",
        &fake("a", ""),
        "--engine",
        &fake("b", ""),
        "--depth",
        "1",
        "--openings",
        file.to_str().unwrap(),
        "--games",
        "4",
        "--level",
        "b:depth=1 nodes=100",
    ]);
    assert_eq!(last_line(&out)["games"], "4");
    // A judge that sees a big advantage everywhere keeps nothing.
    let o = Command::new(BIN)
        .args([
            "openings",
            "--variant",
            "turkish",
            "--engine",
            &judge("-1.5"),
            "--plies",
            "1",
            "--max-score",
            "0.25",
        ])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("# 0 of "), "{text}");
    assert_eq!(text.lines().filter(|l| !l.starts_with('#')).count(), 0);
    let _ = std::fs::remove_file(&file);
}
