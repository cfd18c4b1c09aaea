//! Shared by the Hub session tests: a scripted fake engine behind `protocol::hub::Backend`, and a
//! client that talks to a session running on its own thread through in-memory pipes.

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender};
use damka::core::Variant;
use damka::engine::{
    EngineError, EngineOption, GoMode, MoveText, OptionKind, SearchInfo, SearchOutcome,
};
use damka::protocol::hub::{run_session, Backend, HubConfig, SearchRequest};
use std::io::{self, BufRead, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a test waits for a line before it fails.
pub const TIMEOUT: Duration = Duration::from_secs(10);

fn mv(hub: &str) -> MoveText {
    MoveText {
        hub: hub.to_string(),
        algebraic: String::new(),
    }
}

/// A fake engine: checks positions and moves by shape only, "searches" one depth per
/// millisecond, and logs every call so tests can see what the session asked for.
pub struct Fake {
    /// One entry per call: `set_variant turkish`, `go Think Limits {..}`, ...
    pub calls: Arc<Mutex<Vec<String>>>,
    variant: Variant,
    threads: usize,
    hash_mb: usize,
    no_legal_move: bool,
    stop: Arc<AtomicBool>,
    hit: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
}

impl Fake {
    /// A fake at the Russian start.
    pub fn new() -> Fake {
        Fake {
            calls: Arc::new(Mutex::new(Vec::new())),
            variant: Variant::Russian,
            threads: 1,
            hash_mb: 64,
            no_legal_move: false,
            stop: Arc::new(AtomicBool::new(false)),
            hit: Arc::new(AtomicBool::new(false)),
            search: None,
        }
    }

    fn log(&self, s: String) {
        self.calls.lock().unwrap().push(s);
    }
}

impl Backend for Fake {
    fn variant(&self) -> Variant {
        self.variant
    }
    fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption {
                name: "variant",
                kind: OptionKind::Enum(vec!["russian", "turkish"]),
                value: self.variant.name().to_string(),
            },
            EngineOption {
                name: "threads",
                kind: OptionKind::Int { min: 1, max: 256 },
                value: self.threads.to_string(),
            },
            EngineOption {
                name: "hash",
                kind: OptionKind::Int { min: 1, max: 16384 },
                value: self.hash_mb.to_string(),
            },
        ]
    }
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.log(format!("set_option {name} {value}"));
        let bad = || EngineError::BadOption(format!("fake: {name} {value}"));
        match name {
            "variant" => self.variant = value.parse().map_err(|_| bad())?,
            "threads" => self.threads = value.parse().map_err(|_| bad())?,
            "hash" => self.hash_mb = value.parse().map_err(|_| bad())?,
            _ => return Err(bad()),
        }
        Ok(())
    }
    fn new_game(&mut self) {
        self.log("new_game".into());
    }
    fn set_position(&mut self, pos: &str, moves: &[&str]) -> Result<(), EngineError> {
        let n = match self.variant {
            Variant::Russian => 33,
            Variant::Turkish => 65,
        };
        let b = pos.as_bytes();
        if b.len() != n
            || !matches!(b[0], b'W' | b'B')
            || !b[1..].iter().all(|c| b"wbWBe".contains(c))
        {
            return Err(EngineError::BadPosition("not a position".into()));
        }
        let max = (n - 1) as u32;
        for (index, m) in moves.iter().enumerate() {
            let ok = m
                .split(['-', 'x'])
                .all(|p| p.parse::<u32>().is_ok_and(|k| (1..=max).contains(&k)))
                && m.split(['-', 'x']).count() >= 2;
            if !ok {
                return Err(EngineError::BadMove {
                    index,
                    message: format!("illegal move {m}"),
                });
            }
        }
        let (own_men, own_kings) = if b[0] == b'W' {
            (b'w', b'W')
        } else {
            (b'b', b'B')
        };
        self.no_legal_move = !b[1..].iter().any(|&c| c == own_men || c == own_kings);
        self.log(format!("set_position {pos} [{}]", moves.join(" ")));
        Ok(())
    }
    fn go(&mut self, search: SearchRequest) -> Result<(), EngineError> {
        let SearchRequest {
            limits,
            mode,
            mut on_info,
            on_done,
        } = search;
        if self.search.is_some() {
            return Err(EngineError::Busy);
        }
        if self.no_legal_move {
            return Err(EngineError::NoLegalMove);
        }
        self.log(format!("go {mode:?} {limits:?}"));
        self.stop.store(false, Ordering::SeqCst);
        self.hit.store(false, Ordering::SeqCst);
        let (stop, hit) = (self.stop.clone(), self.hit.clone());
        let (best, reply) = match self.variant {
            Variant::Russian => ("10x19x14", "23-14"),
            Variant::Turkish => ("18-26", "42-34"),
        };
        self.search = Some(thread::spawn(move || {
            let start = Instant::now();
            // Without depth, node or time limits a search runs until `stop`.
            let budget = limits
                .movetime
                .or(limits.time.map(|t| (t + limits.inc).max(0.0) / 20.0))
                .map(Duration::from_secs_f64);
            let mut depth = 0;
            loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let waiting = mode == GoMode::Ponder && !hit.load(Ordering::SeqCst);
                if !waiting && !limits.infinite {
                    let by_depth = limits.depth.is_some_and(|d| depth >= d);
                    let by_nodes = limits.nodes.is_some_and(|n| depth as u64 * 1000 >= n);
                    let by_time = budget.is_some_and(|b| start.elapsed() >= b);
                    if by_depth || by_nodes || by_time {
                        break;
                    }
                }
                if depth < 60 {
                    depth += 1;
                    on_info(&SearchInfo {
                        depth,
                        mean_depth: depth as f64 + 0.5,
                        score: if depth > 30 { 9990 } else { -(depth as i32) },
                        nodes: depth as u64 * 1000,
                        time: start.elapsed().as_secs_f64(),
                        nps: 1.5e6,
                        pv: vec![mv(best), mv(reply)],
                        egtb_hits: None,
                        multipv: None,
                        book: false,
                    });
                }
                thread::sleep(Duration::from_millis(1));
            }
            on_done(SearchOutcome {
                best: Some(mv(best)),
                ponder: Some(mv(reply)),
                score: 0,
                depth,
                nodes: depth as u64 * 1000,
            });
        }));
        Ok(())
    }
    fn stop(&self) {
        self.log("stop".into());
        self.stop.store(true, Ordering::SeqCst);
    }
    fn ponder_hit(&self) {
        self.log("ponder_hit".into());
        self.hit.store(true, Ordering::SeqCst);
    }
    fn wait(&mut self) {
        if let Some(h) = self.search.take() {
            h.join().unwrap();
        }
    }
}

/// The reading end of an in-memory pipe: blocks until the test sends bytes; end of input when
/// the test drops its sender.
pub struct PipeReader {
    rx: Receiver<Vec<u8>>,
    buf: Vec<u8>,
    pos: usize,
}

impl Read for PipeReader {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for PipeReader {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        while self.pos >= self.buf.len() {
            match self.rx.recv() {
                Ok(b) => {
                    self.buf = b;
                    self.pos = 0;
                }
                Err(_) => return Ok(&[]),
            }
        }
        Ok(&self.buf[self.pos..])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

/// The writing end the session answers on: every finished line goes to the test.
struct LineWriter {
    tx: Sender<String>,
    partial: Vec<u8>,
}

impl Write for LineWriter {
    fn write(&mut self, b: &[u8]) -> io::Result<usize> {
        for &c in b {
            if c == b'\n' {
                let line = String::from_utf8(std::mem::take(&mut self.partial))
                    .expect("the session wrote bytes that are not UTF-8");
                let _ = self.tx.send(line);
            } else {
                self.partial.push(c);
            }
        }
        Ok(b.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A session on its own thread and the test's end of its pipes.
pub struct Client {
    input: Option<Sender<Vec<u8>>>,
    output: Receiver<String>,
    session: Option<JoinHandle<io::Result<()>>>,
    /// The fake's call log.
    pub calls: Arc<Mutex<Vec<String>>>,
}

impl Client {
    /// Starts a session with a fake engine and the default parameters.
    pub fn start() -> Client {
        Client::start_with(HubConfig::default())
    }

    /// Starts a session with a fake engine.
    pub fn start_with(config: HubConfig) -> Client {
        let fake = Fake::new();
        let calls = fake.calls.clone();
        Client::start_backend(fake, config, calls)
    }

    /// Starts a session with the real Russian engine, the Hub parameters `options` set before
    /// the handshake.
    pub fn start_engine(options: &[(&str, &str)]) -> Client {
        let options = options
            .iter()
            .map(|&(name, value)| (name.to_string(), value.to_string()))
            .collect();
        Client::start_backend(
            damka::engine::Engine::new(Variant::Russian),
            HubConfig { options },
            Arc::new(Mutex::new(Vec::new())),
        )
    }

    /// Starts a session with any engine (`calls` stays empty unless the engine logs there).
    pub fn start_backend<B: Backend + Send + 'static>(
        backend: B,
        config: HubConfig,
        calls: Arc<Mutex<Vec<String>>>,
    ) -> Client {
        let (in_tx, in_rx) = unbounded();
        let (out_tx, out_rx) = unbounded();
        let session = thread::spawn(move || {
            let reader = PipeReader {
                rx: in_rx,
                buf: Vec::new(),
                pos: 0,
            };
            let writer = LineWriter {
                tx: out_tx,
                partial: Vec::new(),
            };
            run_session(reader, writer, backend, config)
        });
        Client {
            input: Some(in_tx),
            output: out_rx,
            session: Some(session),
            calls,
        }
    }

    /// Sends raw bytes (a line must end with `\n` to be read as one).
    pub fn send_bytes(&self, b: &[u8]) {
        self.input.as_ref().unwrap().send(b.to_vec()).unwrap();
    }

    /// Sends one line.
    pub fn send(&self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Sends lines one after the other.
    pub fn send_all(&self, lines: &[&str]) {
        for l in lines {
            self.send(l);
        }
    }

    /// The next output line.
    pub fn recv(&self) -> String {
        match self.output.recv_timeout(TIMEOUT) {
            Ok(l) => l,
            Err(e) => panic!("no line from the session: {e:?}"),
        }
    }

    /// The next output line, if one comes within `d`.
    pub fn recv_within(&self, d: Duration) -> Option<String> {
        match self.output.recv_timeout(d) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) => None,
            Err(e) => panic!("session output closed: {e:?}"),
        }
    }

    /// Lines up to and including the first whose command is `command`.
    pub fn until(&self, command: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.recv();
            let done = l.split(' ').next() == Some(command);
            lines.push(l);
            if done {
                return lines;
            }
        }
    }

    /// Sends `ping` and returns the lines written before `pong`.
    pub fn sync(&self) -> Vec<String> {
        self.send("ping");
        let mut lines = self.until("pong");
        lines.pop();
        lines
    }

    /// Sends a line and returns what the session wrote in answer (up to a `ping` after it).
    pub fn ask(&self, line: &str) -> Vec<String> {
        self.send(line);
        self.sync()
    }

    /// Ends the input and returns every line written after it; checks the session ended
    /// without an error.
    pub fn close(mut self) -> Vec<String> {
        self.input = None;
        self.finish()
    }

    /// Waits for the session to end by itself (after `quit`) and returns the remaining lines.
    pub fn finish(mut self) -> Vec<String> {
        let h = self.session.take().unwrap();
        let deadline = Instant::now() + TIMEOUT;
        while !h.is_finished() {
            assert!(Instant::now() < deadline, "the session did not end");
            thread::sleep(Duration::from_millis(1));
        }
        h.join().unwrap().expect("session failed");
        self.output.try_iter().collect()
    }

    /// The fake's calls so far.
    pub fn calls(&self) -> Vec<String> {
        self.calls.lock().unwrap().clone()
    }

    /// A session on the fake engine, past its handshake.
    pub fn ready() -> Client {
        let c = Client::start();
        c.handshake();
        c
    }

    /// Runs `hub`, `init` and returns nothing; checks the replies.
    pub fn handshake(&self) {
        let lines = self.ask("hub");
        assert_eq!(lines.last().map(String::as_str), Some("wait"), "{lines:?}");
        assert_eq!(self.ask("init"), vec!["ready"]);
    }
}

/// Checks that a line is written the strict way: a command word, then only `key=value`
/// arguments, values quoted exactly when they hold a space or are empty, no `=` inside.
pub fn assert_strict(line: &str) {
    let mut rest = line;
    let cmd_end = rest.find(' ').unwrap_or(rest.len());
    let cmd = &rest[..cmd_end];
    assert!(
        !cmd.is_empty() && cmd.bytes().all(|c| c.is_ascii_lowercase() || c == b'-'),
        "bad command word in {line:?}"
    );
    rest = &rest[cmd_end..];
    while !rest.is_empty() {
        rest = rest.strip_prefix(' ').unwrap_or_else(|| panic!("{line:?}"));
        let eq = rest
            .find('=')
            .unwrap_or_else(|| panic!("bare flag in {line:?}"));
        let key = &rest[..eq];
        assert!(
            !key.is_empty() && !key.contains([' ', '"']),
            "bad key in {line:?}"
        );
        rest = &rest[eq + 1..];
        let value;
        if let Some(q) = rest.strip_prefix('"') {
            let end = q
                .find('"')
                .unwrap_or_else(|| panic!("open quote in {line:?}"));
            value = &q[..end];
            assert!(
                value.is_empty() || value.contains(' '),
                "needless quotes in {line:?}"
            );
            rest = &q[end + 1..];
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            value = &rest[..end];
            assert!(!value.is_empty(), "empty unquoted value in {line:?}");
            rest = &rest[end..];
        }
        assert!(
            !value.contains(['=', '"']) && !value.chars().any(char::is_control),
            "bad value in {line:?}"
        );
    }
}
