//! The client side of the Hub protocol: driving one engine process (handshake, positions,
//! limits, `go think`, replies) with timeouts, so a hung, crashed or confused engine costs a
//! game, never the match. The lines themselves are the library's: commands written with
//! [`Command::to_line`], replies read with [`parse_reply`], the same definitions the engine
//! uses.

use damka::engine::GoMode;
use damka::protocol::hub::command::{Command, LevelUpdate, PosSource};
use damka::protocol::hub::reply::{parse_reply, EngineReply, ReplyError};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{self, Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How many lines of an engine's conversation are kept for failure reports.
const LOG_LINES: usize = 40;

/// What went wrong with an engine. Every kind costs the engine the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// It could not be started, or its handshake failed.
    Start,
    /// It did not answer in time.
    Timeout,
    /// Its process ended (or closed its output).
    Crash,
    /// It wrote a line the tool cannot read.
    Malformed,
    /// It answered `error`.
    Error,
    /// Its move was not a legal move of the position.
    Illegal,
    /// Its clock ran out (the answer came, but too late).
    TimeLoss,
}

impl fmt::Display for FailureKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FailureKind::Start => "failed to start",
            FailureKind::Timeout => "timeout",
            FailureKind::Crash => "crash",
            FailureKind::Malformed => "malformed reply",
            FailureKind::Error => "engine error",
            FailureKind::Illegal => "illegal move",
            FailureKind::TimeLoss => "loss on time",
        })
    }
}

/// An engine failure with its details.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What kind.
    pub kind: FailureKind,
    /// Details for the report.
    pub detail: String,
}

impl Failure {
    /// A failure of a kind, with details.
    pub fn new(kind: FailureKind, detail: impl Into<String>) -> Self {
        Failure {
            kind,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind, self.detail)
    }
}

/// How to run one engine, and what to tell it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// Name used in the output and the PDN.
    pub name: String,
    /// Program to run.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Hub parameters sent with `set-param` before `init`.
    pub params: Vec<(String, String)>,
    /// Extra `level` lines sent after the match's own limits, for this engine only (for
    /// example `depth=2` to weaken it).
    pub levels: Vec<LevelUpdate>,
}

/// A line read from the engine: when it arrived (taken by the reader thread, so the tool's own
/// delays do not count against the engine) and its text, or `None` at end of output.
type Incoming = (Instant, Option<String>);

/// The answer to `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct GoAnswer {
    /// The move text from `done move=`.
    pub mv: String,
    /// The last score from `info`, in men for the side to move, if any.
    pub score: Option<f64>,
    /// The last depth from `info`, if any.
    pub depth: Option<u32>,
    /// Wall time from sending `go` to reading `done`.
    pub elapsed: Duration,
}

/// A running engine process speaking Hub.
pub struct HubEngine {
    /// The spec it was started from.
    pub spec: EngineSpec,
    /// The name it gave in `id`, if any.
    pub id_name: Option<String>,
    /// The parameters it declared in the handshake.
    pub declared: Vec<String>,
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Incoming>,
    log: Arc<Mutex<VecDeque<String>>>,
    dead: bool,
}

fn push_log(log: &Mutex<VecDeque<String>>, line: String) {
    if let Ok(mut l) = log.lock() {
        if l.len() >= LOG_LINES {
            l.pop_front();
        }
        l.push_back(line);
    }
}

fn spawn_reader<R: Read + Send + 'static>(
    src: R,
    tx: Option<mpsc::Sender<Incoming>>,
    log: Arc<Mutex<VecDeque<String>>>,
    prefix: &'static str,
) {
    thread::spawn(move || {
        let mut r = BufReader::new(src);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let now = Instant::now();
                    let s = String::from_utf8_lossy(&buf)
                        .trim_end_matches(['\n', '\r'])
                        .to_string();
                    push_log(&log, format!("{prefix}{s}"));
                    if let Some(tx) = &tx {
                        if tx.send((now, Some(s))).is_err() {
                            break;
                        }
                    }
                }
            }
        }
        if let Some(tx) = tx {
            let _ = tx.send((Instant::now(), None));
        }
    });
}

impl HubEngine {
    /// Starts the process and runs the handshake: `hub` ... `wait`, the variant and the spec's
    /// parameters with `set-param`, `init` ... `ready`.
    pub fn start(
        spec: &EngineSpec,
        variant: &str,
        timeout: Duration,
    ) -> Result<HubEngine, Failure> {
        let mut child = process::Command::new(&spec.program)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| {
                Failure::new(
                    FailureKind::Start,
                    format!("cannot run {:?}: {e}", spec.program),
                )
            })?;
        let log = Arc::new(Mutex::new(VecDeque::new()));
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        spawn_reader(stdout, Some(tx), log.clone(), "");
        spawn_reader(stderr, None, log.clone(), "stderr: ");
        let stdin = child.stdin.take();
        let mut e = HubEngine {
            spec: spec.clone(),
            id_name: None,
            declared: Vec::new(),
            child,
            stdin,
            rx,
            log,
            dead: false,
        };
        e.handshake(variant, timeout).map_err(|f| {
            e.kill();
            Failure::new(FailureKind::Start, format!("{f}{}", e.last_lines_suffix()))
        })?;
        Ok(e)
    }

    fn handshake(&mut self, variant: &str, timeout: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + timeout;
        self.send(&Command::Hub)?;
        loop {
            let (_, line) = self.recv(Some(deadline))?;
            // Anything else before `wait` (an unknown line included) is not the tool's concern.
            match parse_reply(&line) {
                Ok(Some(EngineReply::Id(id))) => self.id_name = id.name,
                Ok(Some(EngineReply::Param(p))) => self.declared.push(p.name),
                Ok(Some(EngineReply::Wait)) => break,
                _ => {}
            }
        }
        let mut settings = Vec::new();
        if self.declared.iter().any(|d| d == "variant") {
            settings.push(("variant".to_string(), variant.to_string()));
        }
        settings.extend(self.spec.params.iter().cloned());
        for (name, value) in settings {
            self.send(&Command::SetParam { name, value })?;
        }
        self.send(&Command::Init)?;
        loop {
            let (_, line) = self.recv(Some(deadline))?;
            match parse_reply(&line) {
                Ok(Some(EngineReply::Ready)) => return Ok(()),
                Ok(Some(EngineReply::Error { message })) => {
                    return Err(Failure::new(
                        FailureKind::Error,
                        format!("during init: {}", message_or(&message, &line)),
                    ))
                }
                _ => {}
            }
        }
    }

    /// Writes one command to the engine.
    pub fn send(&mut self, command: &Command) -> Result<(), Failure> {
        let line = command.to_line();
        push_log(&self.log, format!(">> {line}"));
        let ok = match self.stdin.as_mut() {
            Some(w) => writeln!(w, "{line}").and_then(|_| w.flush()).is_ok(),
            None => false,
        };
        if ok {
            Ok(())
        } else {
            Err(self.crash_failure("cannot write to the engine"))
        }
    }

    fn crash_failure(&mut self, what: &str) -> Failure {
        self.dead = true;
        // The process may need a moment to be reaped after closing its output.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                // Let the stderr reader take the last words for the report.
                thread::sleep(Duration::from_millis(30));
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        let how = match status {
            Some(s) => format!("{what}: process exited ({s})"),
            None => format!("{what}: output closed"),
        };
        Failure::new(FailureKind::Crash, how)
    }

    /// Reads the next non-blank line, waiting at most until `deadline` (forever if `None`).
    pub fn recv(&mut self, deadline: Option<Instant>) -> Result<(Instant, String), Failure> {
        loop {
            let got = match deadline {
                None => self.rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
                Some(d) => {
                    let now = Instant::now();
                    if d <= now {
                        // A line may already be waiting even when the time is up.
                        self.rx.try_recv().map_err(|e| match e {
                            mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                            mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                        })
                    } else {
                        self.rx.recv_timeout(d - now)
                    }
                }
            };
            match got {
                Ok((t, Some(line))) => {
                    if line.trim().is_empty() {
                        continue;
                    }
                    return Ok((t, line));
                }
                Ok((_, None)) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.crash_failure("engine output ended"))
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Failure::new(FailureKind::Timeout, "no answer in time"))
                }
            }
        }
    }

    /// `new-game`, then `ping` ... `pong` so that any `error` an engine without `new-game`
    /// writes is read here and not taken as the answer to a later command.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Failure> {
        self.send(&Command::NewGame)?;
        self.send(&Command::Ping)?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.recv(Some(deadline))?;
            if let Ok(Some(EngineReply::Pong)) = parse_reply(&line) {
                return Ok(());
            }
        }
    }

    /// Sends the position (`start` and the moves played from it, in Hub numbers), the limits
    /// and `go think`, and reads `info` lines until `done`. `deadline` is measured from the
    /// moment `go` is sent; on a timeout the engine is left thinking (call [`Engine::recover`]
    /// or [`Engine::kill`]).
    pub fn think(
        &mut self,
        start: &str,
        moves: &[String],
        levels: &[LevelUpdate],
        deadline: Option<Duration>,
    ) -> Result<GoAnswer, Failure> {
        self.send(&Command::Pos {
            source: PosSource::Text(start.to_string()),
            moves: moves.to_vec(),
        })?;
        for l in levels {
            self.send(&Command::Level(l.clone()))?;
        }
        self.send(&Command::Go(GoMode::Think))?;
        let start = Instant::now();
        let abs = deadline.map(|d| start + d);
        let mut score = None;
        let mut depth = None;
        loop {
            let (t, line) = self.recv(abs)?;
            let malformed =
                |why: String| Failure::new(FailureKind::Malformed, format!("{line:?}: {why}"));
            match parse_reply(&line) {
                Ok(Some(EngineReply::Info(i))) => {
                    score = i.score.or(score);
                    depth = i.depth.or(depth);
                }
                Ok(Some(EngineReply::Done { mv, .. })) => {
                    return Ok(GoAnswer {
                        mv,
                        score,
                        depth,
                        elapsed: t.saturating_duration_since(start),
                    });
                }
                Ok(Some(EngineReply::Error { message })) => {
                    return Err(Failure::new(
                        FailureKind::Error,
                        message_or(&message, &line),
                    ))
                }
                Ok(Some(EngineReply::Pong) | None) => {}
                Err(e @ (ReplyError::Syntax(_) | ReplyError::Missing { .. })) => {
                    return Err(malformed(e.to_string()))
                }
                Ok(Some(_)) | Err(ReplyError::Unknown { .. }) => {
                    return Err(malformed("unexpected during a search".into()))
                }
            }
        }
    }

    /// After a timeout: `stop`, and wait a little for `done`. Returns whether the engine is
    /// usable again; if not, it has been killed.
    pub fn recover(&mut self, wait: Duration) -> bool {
        if self.dead || self.send(&Command::Stop).is_err() {
            self.kill();
            return false;
        }
        let deadline = Instant::now() + wait;
        loop {
            match self.recv(Some(deadline)) {
                Ok((_, line)) => {
                    if let Ok(Some(EngineReply::Done { .. })) = parse_reply(&line) {
                        return true;
                    }
                }
                Err(_) => {
                    self.kill();
                    return false;
                }
            }
        }
    }

    /// Whether the process is known to be gone or killed.
    pub fn is_dead(&mut self) -> bool {
        if !self.dead {
            if let Ok(Some(_)) = self.child.try_wait() {
                self.dead = true;
            }
        }
        self.dead
    }

    /// The last lines of the conversation (engine output as is, tool input after `>> `,
    /// engine stderr after `stderr: `).
    pub fn last_lines(&self, n: usize) -> Vec<String> {
        match self.log.lock() {
            Ok(l) => l.iter().skip(l.len().saturating_sub(n)).cloned().collect(),
            Err(_) => Vec::new(),
        }
    }

    fn last_lines_suffix(&self) -> String {
        let lines = self.last_lines(8);
        if lines.is_empty() {
            String::new()
        } else {
            format!("\n  last lines:\n    {}", lines.join("\n    "))
        }
    }

    /// Ends the process at once.
    pub fn kill(&mut self) {
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.dead = true;
    }

    /// Asks the engine to quit, and kills it if it has not within a moment.
    pub fn quit(mut self) {
        if !self.dead && self.send(&Command::Quit).is_ok() {
            self.stdin = None;
            for _ in 0..50 {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.dead = true;
                    return;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
        self.kill();
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        if !self.dead {
            self.kill();
        }
    }
}

/// An `error` reply's message, or the whole line when it gave none.
fn message_or(message: &str, line: &str) -> String {
    if message.is_empty() { line } else { message }.to_string()
}
