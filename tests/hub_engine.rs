//! Hub sessions with the real engine: in memory through `run_session`, and through the `damka`
//! binary (stdin/stdout, nothing on stderr, exit status 0).

use crate::hub_support;
use crate::process_support;

use damka::core::Variant;
use damka::engine::{Engine, EngineError, EngineOption};
use damka::protocol::hub::{Backend, HubConfig, SearchRequest};
use hub_support::{assert_strict, Client};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const RUSSIAN_START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
const TURKISH_START: &str = "Weeeeeeeebbbbbbbbbbbbbbbbeeeeeeeeeeeeeeeewwwwwwwwwwwwwwwweeeeeeee";

fn engine_client() -> Client {
    Client::start_engine(&[("hash", "8")])
}

/// The engine as it behaves when the system refuses to start more than `max` search threads
/// (the refusal is injected by the pool's test hook, on the session's thread).
struct ThreadLimited {
    engine: Engine,
    max: usize,
}

impl Backend for ThreadLimited {
    fn variant(&self) -> Variant {
        self.engine.variant()
    }
    fn options(&self) -> Vec<EngineOption> {
        self.engine.options()
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        damka::search::pool::refuse_thread_starts_from(Some(self.max));
        let r = self.engine.set_option(name, value);
        damka::search::pool::refuse_thread_starts_from(None);
        r
    }
    fn new_game(&mut self) {
        self.engine.new_game()
    }
    fn set_position(&mut self, pos: &str, moves: &[&str]) -> Result<(), EngineError> {
        self.engine.set_position(pos, moves)
    }
    fn go(&mut self, search: SearchRequest) -> Result<(), EngineError> {
        Backend::go(&mut self.engine, search)
    }
    fn stop(&self) {
        self.engine.stop()
    }
    fn ponder_hit(&self) {
        self.engine.ponder_hit()
    }
    fn wait(&mut self) {
        self.engine.wait()
    }
    fn take_notices(&mut self) -> Vec<String> {
        self.engine.take_notices()
    }
}

#[test]
fn threads_that_cannot_start_are_reported_and_the_session_goes_on() {
    let backend = ThreadLimited {
        engine: Engine::new(Variant::Russian),
        max: 3,
    };
    let c = Client::start_backend(
        backend,
        HubConfig::default(),
        Arc::new(Mutex::new(Vec::new())),
    );
    let lines = c.ask("hub");
    assert_eq!(lines.last().map(String::as_str), Some("wait"), "{lines:?}");
    assert!(c.ask("set-param name=threads value=256").is_empty());
    let lines = c.ask("init");
    assert_eq!(
        lines,
        vec![
            "info string=\"threads: 256 asked, 3 started (the system refused the others)\"",
            "ready"
        ]
    );
    for l in &lines {
        assert_strict(l);
    }
    search_then_threads(&c, 4, 3);
}

/// Searches the start position to `depth`, then checks that `hub` declares `threads` threads
/// (the number really running).
fn search_then_threads(c: &Client, depth: u32, threads: usize) {
    assert!(c.ask(&format!("pos pos={RUSSIAN_START}")).is_empty());
    c.send(&format!("level depth={depth}"));
    assert!(search(c, "go think").starts_with("done move="));
    let lines = c.ask("hub");
    let declared = format!("param name=threads value={threads} ");
    assert!(lines.iter().any(|l| l.starts_with(&declared)), "{lines:?}");
}

/// The `done` line of a search, checking the `info` lines before it.
fn search(c: &Client, go: &str) -> String {
    c.send(go);
    let lines = c.until("done");
    for l in &lines {
        assert_strict(l);
    }
    for l in &lines[..lines.len() - 1] {
        assert!(l.starts_with("info depth="), "{lines:?}");
        let keys: Vec<&str> = l
            .split(' ')
            .skip(1)
            .filter_map(|a| a.split_once('=').map(|(k, _)| k))
            .filter(|k| !k.is_empty() && !k.contains('"'))
            .collect();
        assert_eq!(
            &keys[..6],
            ["depth", "mean-depth", "score", "nodes", "time", "nps"],
            "{l}"
        );
    }
    lines.last().unwrap().clone()
}

/// The move of a `done` line.
fn done_move(done: &str) -> &str {
    let m = done
        .strip_prefix("done move=")
        .unwrap_or_else(|| panic!("{done}"));
    m.split(' ').next().unwrap()
}

#[test]
fn russian_moves_in_both_notations_and_captures_with_every_square() {
    let c = engine_client();
    c.handshake();
    // a3-b4 d6-c5: b4xd6 is forced, written with the captured c5.
    assert!(c
        .ask(&format!("pos pos={RUSSIAN_START} moves=\"9-13 22-18\""))
        .is_empty());
    c.send("level depth=4");
    assert_eq!(done_move(&search(&c, "go think")), "13x22x18");
    // The same in algebraic notation, and the capture given by its ends only.
    assert!(c
        .ask(&format!(
            "pos pos={RUSSIAN_START} moves=\"a3-b4 d6-c5 b4:d6\""
        ))
        .is_empty());
    assert!(c
        .ask(&format!(
            "pos pos={RUSSIAN_START} moves=\"9-13 22-18 13x22x18\""
        ))
        .is_empty());
    // A capture named without its captured square is still one legal move here.
    assert!(c
        .ask(&format!(
            "pos pos={RUSSIAN_START} moves=\"9-13 22-18 13x22\""
        ))
        .is_empty());
    let lines = c.ask(&format!(
        "pos pos={RUSSIAN_START} moves=\"9-13 22-18 13-17\""
    ));
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("error message=\"illegal move 13-17"),
        "{lines:?}"
    );
    // The position is the one before the bad line: after 9-13 22-18 13x22x18.
    c.send("level depth=3");
    let done = search(&c, "go think");
    assert!(done.starts_with("done move="), "{done}");
}

#[test]
fn declares_the_engines_options_and_searches_with_two_threads() {
    let c = engine_client();
    let lines = c.ask("hub");
    let engine = Engine::new(Variant::Russian);
    // One `param` line per engine option, then the session's own `numbering`.
    assert_eq!(lines.len(), engine.options().len() + 3, "{lines:?}");
    assert!(lines[lines.len() - 2].starts_with("param name=numbering value=standard "));
    for (l, o) in lines[1..].iter().zip(engine.options()) {
        assert!(
            l.starts_with(&format!("param name={} value=", o.name)),
            "{l}"
        );
    }
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("param name=hash value=8 type=int min=1 max=")),
        "{lines:?}"
    );
    assert!(c.ask("set-param name=threads value=2").is_empty());
    assert_eq!(c.ask("init"), vec!["ready"]);
    search_then_threads(&c, 6, 2);
}

#[test]
fn bad_positions_are_errors() {
    let c = engine_client();
    c.handshake();
    for pos in [
        "Wbbb",
        "Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwwq",
        // A white man on White's crowning row (b8).
        "Wwbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
    ] {
        let lines = c.ask(&format!("pos pos={pos}"));
        assert_eq!(lines.len(), 1, "{pos}: {lines:?}");
        assert!(
            lines[0].starts_with("error message=\"bad position"),
            "{pos}: {lines:?}"
        );
    }
    c.send("go think");
    assert!(c.sync()[0].contains("go without a position"));
}

#[test]
fn turkish_session_with_ponder_and_stop() {
    let c = engine_client();
    c.handshake();
    assert!(c.ask("set-param name=variant value=turkish").is_empty());
    // b3-b4 b6-b5: b4xb6xb8 takes two (majority capture), the only legal move.
    assert!(c
        .ask(&format!("pos pos={TURKISH_START} moves=\"18-26 42-34\""))
        .is_empty());
    c.send("level depth=5");
    assert_eq!(done_move(&search(&c, "go think")), "26x58x34x50");
    assert!(c.ask("pos start moves=\"b3-b4 b6-b5 b4xb6xb8\"").is_empty());
    let lines = c.ask("pos start moves=\"18-26 42-34 26-34\"");
    assert!(
        lines[0].starts_with("error message=\"illegal move"),
        "{lines:?}"
    );

    // Ponder: nothing ends the search before ponder-hit or stop.
    assert!(c.ask("pos start moves=\"18-26 47-39\"").is_empty());
    c.send("level depth=3");
    c.send("go ponder");
    std::thread::sleep(Duration::from_millis(300));
    let lines = c.sync();
    assert!(lines.iter().all(|l| l.starts_with("info ")), "{lines:?}");
    c.send("ponder-hit");
    let done = c.until("done");
    assert!(done.last().unwrap().starts_with("done move="), "{done:?}");
    // An infinite analysis answers stop within 50 ms (in one of a few tries: the machine may
    // be busy with other tests).
    let mut fastest = Duration::MAX;
    for _ in 0..3 {
        c.send("pos start");
        c.send("level infinite");
        c.send("go analyze");
        std::thread::sleep(Duration::from_millis(150));
        let t = Instant::now();
        c.send("stop");
        let lines = c.until("done");
        fastest = fastest.min(t.elapsed());
        assert!(lines.last().unwrap().starts_with("done move="));
    }
    assert!(fastest < Duration::from_millis(50), "{fastest:?}");
}

#[test]
fn clock_limits_are_kept() {
    let c = engine_client();
    c.handshake();
    for (level, budget) in [
        ("level time=0.5 inc=0.1", 0.6),
        ("level time=1 moves=10", 1.0),
        ("level move-time=0.2", 0.2),
        ("level time=-1", 0.0),
    ] {
        c.send(&format!("pos pos={RUSSIAN_START}"));
        c.send(level);
        let t = Instant::now();
        let done = search(&c, "go think");
        let used = t.elapsed().as_secs_f64();
        assert!(done.starts_with("done move="), "{done}");
        assert!(used <= budget + 0.1, "{level}: {used:.3}s");
    }
}

#[test]
fn binary_session_survives_bad_input_and_writes_nothing_to_stderr() {
    let million = format!("{}\n", "z".repeat(1_000_000));
    let pos = format!("pos pos={RUSSIAN_START} moves=\"10-14 22-18\"\n");
    let script: Vec<&[u8]> = vec![
        b"hub\n",
        b"set-param name=hash value=8\n",
        b"set-param name=variant value=chess\n",
        b"init\n",
        b"go think\n",
        b"\xff\xfe\xfd\n",
        million.as_bytes(),
        b"pos pos=W\n",
        pos.as_bytes(),
        b"level depth=3\n",
        b"~go think\n",
        b"ping\n",
        b"wibble\n",
        b"level infinite\n",
        b"~go analyze\n",
        b"ping\n",
        b"~stop\n",
        b"ping\n",
        b"quit\n",
        b"ping\n",
    ];
    // The script runs on the binary with a pause after the lines marked by a leading `~`.
    let out = process_support::run(env!("CARGO_BIN_EXE_damka"), &[], &script);
    assert_eq!(out.stderr, "");
    assert_eq!(out.code, 0);
    let lines = out.lines();
    for l in &lines {
        assert_strict(l);
    }
    let kinds: Vec<&str> = lines
        .iter()
        .map(|l| l.split(' ').next().unwrap())
        .filter(|k| *k != "info")
        .collect();
    // One `param` line per engine option, and the session's `numbering`.
    assert_eq!(kinds[0], "id");
    let params = Engine::new(Variant::Russian).options().len() + 1;
    assert_eq!(&kinds[1..=params], vec!["param"; params]);
    assert_eq!(
        kinds[params + 1..],
        [
            "wait",  // hub
            "error", // unknown variant
            "ready", "error", // go without a position
            "error", // not UTF-8
            "error", // a million characters
            "error", // bad position
            "done", "pong", "error", // unknown command
            "pong", "done", "pong",
        ],
        "{lines:?}"
    );
}

#[test]
fn binary_quits_at_end_of_input_during_a_search() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["hub", "--variant", "turkish", "--hash", "8"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start damka");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "pos start\ngo think").unwrap();
    stdin.flush().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    out.read_line(&mut first).unwrap();
    assert!(first.starts_with("info "), "{first}");
    let t = Instant::now();
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(status.success());
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    let rest: Vec<String> = out.lines().map(Result::unwrap).collect();
    assert!(rest.last().unwrap().starts_with("done move="), "{rest:?}");
}
