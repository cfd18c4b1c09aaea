//! Random and mutated input lines against a Hub session (fake engine): every line that is
//! malformed by construction gets exactly one `error message=...`, no line ever gets more than
//! one, every reply is written the strict way, and the session always answers the next `ping`.

use crate::hub_support;

use damka::core::Rng;
use damka::protocol::hub::command::{parse_command, Command};
use damka::protocol::hub::line::MAX_LINE;
use hub_support::{assert_strict, Client};

const RUSSIAN_START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
const TURKISH_START: &str = "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee";

/// The library's seeded generator, with the picks the fuzzer needs.
struct Fuzz(Rng);

impl Fuzz {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        self.0.below(n as u64) as usize
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len())]
    }
    fn letters(&mut self, min: usize, max: usize) -> String {
        let n = min + self.below(max - min + 1);
        (0..n)
            .map(|_| (b'a' + self.below(26) as u8) as char)
            .collect()
    }
}

fn valid_lines() -> Vec<String> {
    vec![
        "hub".into(),
        "init".into(),
        "new-game".into(),
        format!("pos pos={RUSSIAN_START}"),
        format!("pos pos={RUSSIAN_START} moves=\"10-14 23-18 14x23\""),
        format!("pos pos={TURKISH_START} moves=\"18-26\""),
        "pos start".into(),
        "level time=1.5 inc=0.1 moves=40".into(),
        "level depth=3".into(),
        "level nodes=2000".into(),
        "level move-time=0.005".into(),
        "level infinite".into(),
        "go think".into(),
        "go ponder".into(),
        "go analyze".into(),
        "ponder-hit".into(),
        "stop".into(),
        "set-param name=threads value=2".into(),
        "set-param name=hash value=32".into(),
        "set-param name=variant value=turkish".into(),
        "set-param name=variant value=russian".into(),
    ]
}

/// A valid line with random damage: flipped, deleted, inserted or repeated bytes.
fn mutate(rng: &mut Fuzz, line: &str) -> Vec<u8> {
    let mut b = line.as_bytes().to_vec();
    let specials = [
        b'"', b'=', b' ', b'\t', b'\r', 0xff, 0xc3, 0x00, b'x', b'-', b'9',
    ];
    for _ in 0..1 + rng.below(4) {
        match rng.below(5) {
            0 if !b.is_empty() => {
                let i = rng.below(b.len());
                b[i] = if rng.below(2) == 0 {
                    *rng.pick(&specials)
                } else {
                    rng.next() as u8
                };
            }
            1 if !b.is_empty() => {
                let i = rng.below(b.len());
                let j = (i + 1 + rng.below(8)).min(b.len());
                b.drain(i..j);
            }
            2 => {
                let i = rng.below(b.len() + 1);
                b.insert(i, *rng.pick(&specials));
            }
            3 if !b.is_empty() => {
                let i = rng.below(b.len());
                let j = (i + 1 + rng.below(12)).min(b.len());
                let piece = b[i..j].to_vec();
                let k = rng.below(b.len() + 1);
                b.splice(k..k, piece);
            }
            _ => b.truncate(rng.below(b.len() + 1)),
        }
    }
    b
}

/// A line that is wrong by construction, so it must get exactly one error.
fn malformed(rng: &mut Fuzz) -> Vec<u8> {
    let known = [
        "hub",
        "init",
        "new-game",
        "pos",
        "level",
        "go",
        "stop",
        "ponder-hit",
        "ping",
        "quit",
        "set-param",
    ];
    match rng.below(10) {
        0 => loop {
            let w = rng.letters(1, 12);
            if !known.contains(&w.as_str()) {
                return format!("{w} {}", rng.letters(0, 5)).into_bytes();
            }
        },
        1 => {
            let mut b = valid_lines()[rng.below(valid_lines().len())]
                .clone()
                .into_bytes();
            let i = rng.below(b.len() + 1);
            let bads: [&[u8]; 4] = [b"\xff", b"\xc3\x28", b"\xe2\x82", b"\x80"];
            let bad = bads[rng.below(bads.len())];
            b.splice(i..i, bad.iter().copied());
            b
        }
        2 => vec![b'a' + rng.below(26) as u8; MAX_LINE + 1 + rng.below(2 * MAX_LINE)],
        3 => {
            let key = rng.pick(&["depth", "nodes", "move-time", "time", "inc", "moves"]);
            format!("level {key}={}", rng.letters(1, 8)).into_bytes()
        }
        4 => loop {
            let v = rng.letters(1, 9);
            if v != "russian" && v != "turkish" {
                return format!("set-param name=variant value={v}").into_bytes();
            }
        },
        5 => {
            let n = rng.below(70);
            let s: String = (0..n)
                .map(|_| *rng.pick(&['w', 'b', 'e', 'W', 'B']))
                .collect();
            let s = if n == 32 || n == 64 {
                format!("{s}e")
            } else {
                s
            };
            format!("pos pos=W{s}").into_bytes()
        }
        6 => format!(
            "pos pos={RUSSIAN_START} moves=\"10-14 {}",
            rng.letters(0, 4)
        )
        .into_bytes(),
        7 => loop {
            let m = rng.letters(1, 8);
            if !["think", "ponder", "analyze", "analyse"].contains(&m.as_str()) {
                return format!("go {m}").into_bytes();
            }
        },
        8 => format!("pos pos={RUSSIAN_START} moves=\"0-{}\"", rng.below(40)).into_bytes(),
        _ => format!("set-param name={} value=1", rng.letters(1, 6) + "_").into_bytes(),
    }
}

/// Whether a line would be read as `ping` or `quit`, which the checks below cannot use (they
/// count on one `pong` per check and on the session staying open).
fn is_ping_or_quit(b: &[u8]) -> bool {
    std::str::from_utf8(b).is_ok_and(|t| {
        t.lines().count() <= 1
            && matches!(parse_command(t), Ok(Some(Command::Ping | Command::Quit)))
    })
}

#[test]
fn random_and_mutated_lines_never_break_the_session() {
    let c = Client::ready();
    let valid = valid_lines();
    // A fixed seed keeps CI reproducible; HUB_FUZZ_SEED explores others.
    let seed = std::env::var("HUB_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x00da_4ca0_2026_1129);
    let mut rng = Fuzz(Rng::new(seed));
    let allowed = ["id", "param", "wait", "ready", "info", "done", "error"];
    let (mut errors_checked, mut random_lines) = (0, 0);
    for round in 0..3000 {
        let (mut line, must_fail) = match rng.below(4) {
            0 => (malformed(&mut rng), true),
            1 => (valid[rng.below(valid.len())].clone().into_bytes(), false),
            2 => {
                let n = rng.below(40);
                ((0..n).map(|_| rng.next() as u8).collect(), false)
            }
            _ => {
                let base = valid[rng.below(valid.len())].clone();
                (mutate(&mut rng, &base), false)
            }
        };
        // One line per check: a newline inside would make two.
        for b in line.iter_mut() {
            if *b == b'\n' {
                *b = b' ';
            }
        }
        if is_ping_or_quit(&line) {
            continue;
        }
        let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).to_string();
        line.push(b'\n');
        c.send_bytes(&line);
        let replies = c.sync();
        let errors = replies.iter().filter(|l| l.starts_with("error ")).count();
        for r in &replies {
            assert_strict(r);
            let cmd = r.split(' ').next().unwrap();
            assert!(
                allowed.contains(&cmd),
                "seed {seed} round {round}: {shown:?} -> {r}"
            );
            if cmd == "error" {
                assert!(r.starts_with("error message=\""), "{r}");
            }
        }
        if must_fail {
            assert_eq!(
                errors, 1,
                "seed {seed} round {round}: {shown:?} -> {replies:?}"
            );
            errors_checked += 1;
        } else {
            assert!(
                errors <= 1,
                "seed {seed} round {round}: {shown:?} -> {replies:?}"
            );
            random_lines += 1;
        }
    }
    assert!(errors_checked > 500 && random_lines > 1500);
    c.send("quit");
    let rest = c.finish();
    assert!(
        rest.iter()
            .all(|l| l.starts_with("info ") || l.starts_with("done ")),
        "{rest:?}"
    );
}

/// Random positions (right length, random pieces) and random move lists through the real
/// engine: every `pos` gets no reply or one error, every `go` a `done` or one error, and the
/// session goes on.
#[test]
fn real_engine_survives_random_positions_and_moves() {
    let c = Client::start_engine(&[("hash", "4")]);
    c.handshake();
    let mut rng = Fuzz(Rng::new(0x05ee_d0fd_a4ca));
    let (mut searched, mut refused) = (0, 0);
    for round in 0..300 {
        let turkish = round % 2 == 1;
        let variant = if turkish { "turkish" } else { "russian" };
        assert!(c
            .ask(&format!("set-param name=variant value={variant}"))
            .is_empty());
        let (n, max) = if turkish { (64, 64) } else { (32, 32) };
        // Sparse boards, so that some are legal positions and games go on from them.
        let mut pos = String::from(if rng.below(2) == 0 { "W" } else { "B" });
        for _ in 0..n {
            pos.push(*rng.pick(&['e', 'e', 'e', 'e', 'e', 'w', 'b', 'W', 'B']));
        }
        let moves: Vec<String> = (0..rng.below(3))
            .map(|_| {
                let sep = *rng.pick(&["-", "x"]);
                format!("{}{sep}{}", 1 + rng.below(max), 1 + rng.below(max))
            })
            .collect();
        let line = if moves.is_empty() {
            format!("pos pos={pos}")
        } else {
            format!("pos pos={pos} moves=\"{}\"", moves.join(" "))
        };
        let replies = c.ask(&line);
        assert!(replies.len() <= 1, "{line}: {replies:?}");
        if let Some(r) = replies.first() {
            assert!(r.starts_with("error message="), "{line}: {r}");
            // The position may be an earlier one, or none yet after the variant switch.
        }
        c.send("level depth=2");
        c.send("go think");
        let mut lines = c.sync();
        if lines.iter().all(|l| l.starts_with("info ")) {
            lines.extend(c.until("done"));
        }
        for l in &lines {
            assert_strict(l);
        }
        let last = lines.last().unwrap();
        assert!(
            !last.contains("without a result"),
            "{line}: the search failed: {lines:?}"
        );
        if last.starts_with("done move=") {
            searched += 1;
        } else {
            assert!(last.starts_with("error message="), "{line}: {lines:?}");
            refused += 1;
        }
    }
    assert!(searched > 10 && refused > 30, "{searched} {refused}");
    c.send("quit");
    c.finish();
}
