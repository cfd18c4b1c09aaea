//! The match tool against scripted fake engines (`damka-match fake-engine`), through real
//! processes and pipes: legal games to the end, every failure an engine can commit, openings,
//! adjudication, SPRT stop, gauntlets and bad input.

use damka::game::pdn::read_all;
use damka::game::Record;
use damka::variant::{Position, RussianPosition, TurkishPosition};
use std::collections::HashMap;
use std::path::PathBuf;

const BIN: &str = env!("CARGO_BIN_EXE_damka-match");

fn fake(name: &str, extra: &str) -> String {
    format!("{name}='{BIN}' fake-engine --name {name} {extra}")
}

/// What a run of the match tool printed, and how it ended.
struct Out {
    /// Exit status (-1 when killed by a signal).
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs the match tool with no standard input.
fn run(args: &[&str]) -> Out {
    let out = std::process::Command::new(BIN)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("start damka-match");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("the match tool writes UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A file name for this test process in the temporary folder (an old file there removed).
fn temp_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("damka-match-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}

/// A match between the fakes `a` and `b` (each with its extra options): `options` are
/// words separated by spaces, `more` are added as they are (paths).
fn duel(a: &str, b: &str, options: &str, more: &[&str]) -> Out {
    let (a, b) = (fake("a", a), fake("b", b));
    let mut args = vec!["--engine", &a, "--engine", &b];
    args.extend(options.split_whitespace());
    args.extend(more);
    run(&args)
}

/// Checks that `what` stands `n` times in the output.
fn assert_count(out: &Out, what: &str, n: usize) {
    let found = out.stdout.matches(what).count();
    assert_eq!(found, n, "{what:?} in:\n{}", out.stdout);
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

/// A match with its PDN file read back.
struct PdnMatch {
    out: Out,
    fields: HashMap<String, String>,
    text: String,
}

/// A match of `games` games between the fakes `a` and `b` under `options`, its PDN read back
/// game by game with the library.
fn games_with_pdn<P: Position>(a: &str, b: &str, options: &str, games: usize) -> PdnMatch {
    let pdn = temp_path(&format!("match-{a}-{b}.pdn").replace(' ', ""));
    let options = format!("{options} --games {games} --pdn");
    let out = duel(a, b, &options, &[pdn.to_str().unwrap()]);
    let fields = last_line(&out);
    assert_eq!(fields["games"], games.to_string());
    let text = std::fs::read_to_string(&pdn).unwrap();
    let _ = std::fs::remove_file(&pdn);
    assert_eq!(check_pdn::<P>(&text).len(), games, "{text}");
    PdnMatch { out, fields, text }
}

#[test]
fn legal_games_to_the_end_with_pdn() {
    let options = "--depth 1 --concurrency 2";
    let m = games_with_pdn::<RussianPosition>("--seed 1", "--seed 2", options, 4);
    let (out, f) = (m.out, m.fields);
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
}

#[test]
fn turkish_games_to_the_end() {
    let options = "--variant turkish --movetime 1";
    let m = games_with_pdn::<TurkishPosition>("--seed 3", "--seed 4", options, 2);
    assert!(m.text.contains("[GameType \"30\"]"), "{}", m.text);
}

/// `games` games of a sound engine against one misbehaving as `bad` says, under `limit`.
fn failing_match(bad: &str, limit: &str, games: usize) -> (HashMap<String, String>, Out) {
    let out = duel("--seed 5", bad, &format!("--games {games} {limit}"), &[]);
    (last_line(&out), out)
}

/// A failing match in which every game is lost by the failure `failure` (`b timeout:`).
fn lost_by_failure(bad: &str, limit: &str, games: usize, failure: &str) -> Out {
    let (f, out) = failing_match(bad, limit, games);
    assert_eq!(f["score"], games.to_string(), "{}", out.stdout);
    assert_count(&out, failure, games);
    out
}

#[test]
fn illegal_move_loses_with_last_lines() {
    let out = lost_by_failure("--fail illegal@5", "--depth 1", 2, "b illegal move:");
    assert!(out.stdout.contains("last lines of b:"));
    assert!(out.stdout.contains("    done move="), "{}", out.stdout);
}

#[test]
fn crash_loses_and_the_engine_is_restarted() {
    let out = lost_by_failure("--fail crash@3", "--depth 1", 4, "b crash:");
    assert!(out.stdout.contains("process exited"), "{}", out.stdout);
}

#[test]
fn hung_engine_and_malformed_reply_lose() {
    lost_by_failure("--fail hang@2", "--depth 1 --timeout 2", 2, "b timeout:");
    lost_by_failure("--fail garbage@0", "--depth 1", 2, "b malformed reply:");
}

#[test]
fn slow_engine_loses_on_time() {
    let limit = "--movetime 0.2 --margin 0.1";
    lost_by_failure("--delay-ms 700", limit, 2, "b loss on time:");
    // On a clock as well.
    let (f, out) = failing_match("--delay-ms 400", "--tc 1+0.05 --margin 0.05", 2);
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert!(out.stdout.contains("b loss on time:"), "{}", out.stdout);
}

#[test]
fn resign_adjudication_needs_both_scores() {
    let options = "--depth 1 --games 2 --resign score=3,moves=2";
    let out = duel("--score 5", "--score=-5", options, &[]);
    let f = last_line(&out);
    assert_eq!(f["score"], "2", "{}", out.stdout);
    assert_count(&out, "(adjudicated:", 2);
    // Both engines claim to be winning: no agreement, no adjudication.
    let out = duel("--score 5 --seed 1", "--score 5 --seed 2", options, &[]);
    last_line(&out);
    assert!(!out.stdout.contains("adjudicated"), "{}", out.stdout);
}

#[test]
fn sprt_stops_the_match() {
    let sprt = "--depth 1 --sprt elo0=0,elo1=100,alpha=0.05,beta=0.05";
    let (f, out) = failing_match("--fail illegal@0", sprt, 200);
    let games: usize = f["games"].parse().unwrap();
    assert!(games < 200, "{}", out.stdout);
    assert!(out.stdout.contains("H1 accepted"), "{}", out.stdout);
}

#[test]
fn openings_are_played_with_both_colours() {
    let file = temp_path("match-openings.txt");
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
    let pdn = temp_path("match-openings.pdn");
    let (file_arg, pdn_arg) = (file.to_str().unwrap(), pdn.to_str().unwrap());
    let more = ["--openings", file_arg, "--pdn", pdn_arg];
    let out = duel("--first", "--first", "--depth 1 --concurrency 3", &more);
    let f = last_line(&out);
    assert_eq!(f["games"], "8", "{}", out.stdout);
    for o in 1..=4 {
        assert_count(&out, &format!(", opening {o}:"), 2);
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
    let fens = text.matches("[FEN \"W:Wa1,c1,e1,g1,b2:").count();
    assert_eq!(fens, 2, "{text}");
    // Deterministic engines: both games of an opening pair mirror colours, so the first
    // engine scores exactly 1 per pair.
    assert_eq!(f["score"], "4", "{}", out.stdout);
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&pdn);
}

#[test]
fn gauntlet_of_three() {
    let c = fake("c", "--seed 3");
    let out = duel("--seed 1", "--fail illegal@0", "--depth 1 --engine", &[&c]);
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
    let refused = |out: Out, what: &str| {
        assert_eq!(out.code, 2, "{}", out.stdout);
        assert!(out.stderr.contains(what), "{what:?} in {}", out.stderr);
    };
    refused(
        run(&["--engine", &fake("a", ""), "--engine", "b=/no/such/engine"]),
        "cannot run",
    );
    refused(run(&["--engine", &fake("a", "")]), "two engines");
    refused(duel("", "", "--param c:threads=2", &[]), "no engine named");
    let file = temp_path("match-bad-openings.txt");
    std::fs::write(&file, "c3-d4\nc3-d4 c3-d4\n").unwrap();
    let more = ["--openings", file.to_str().unwrap()];
    refused(duel("", "", "", &more), "line 2");
    let _ = std::fs::remove_file(&file);
    for bad in [
        "--tc x",
        "--sprt elo0=5,elo1=1",
        "--resign moves=2",
        "--level b:depth=x",
        "--level b:speed=2",
        "--level b:",
    ] {
        refused(duel("", "", bad, &[]), "damka-match: ");
    }
}

#[test]
fn openings_generator_keeps_balanced_positions() {
    let file = temp_path("match-gen.txt");
    let judge = |score: &str| format!("'{BIN}' fake-engine --score={score}");
    let (judge_level, file_arg) = (judge("0.1"), file.to_str().unwrap());
    let mut args = vec!["openings", "--engine", &judge_level, "--out", file_arg];
    args.extend("--plies 2 --depth 3 --max-score 0.25".split_whitespace());
    let o = run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("# Made by: damka-match openings --variant russian"));
    // Seven first moves, seven replies each: 49 distinct positions, all kept.
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 49, "{text}");
    assert!(lines.iter().all(|l| l.ends_with("# +0.10")), "{text}");
    // The file is a valid opening file for a match, and an engine may have its own limits.
    let more = ["--openings", file_arg, "--level", "b:depth=1 nodes=100"];
    let out = duel("", "", "--depth 1 --games 4", &more);
    assert_eq!(last_line(&out)["games"], "4");
    // A judge that sees a big advantage everywhere keeps nothing.
    let judge_bad = judge("-1.5");
    let mut args = vec!["openings", "--engine", &judge_bad];
    args.extend("--variant turkish --plies 1 --max-score 0.25".split_whitespace());
    let o = run(&args);
    assert_eq!(o.code, 0, "{}", o.stderr);
    assert!(o.stdout.contains("# 0 of "), "{}", o.stdout);
    assert_eq!(o.stdout.lines().filter(|l| !l.starts_with('#')).count(), 0);
    let _ = std::fs::remove_file(&file);
}
