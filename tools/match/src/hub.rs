//! The client side of the Hub protocol: reading and writing Hub lines, and driving one engine
//! process (handshake, positions, limits, `go think`, replies) with timeouts, so a hung,
//! crashed or confused engine costs a game, never the match.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// How many lines of an engine's conversation are kept for failure reports.
const LOG_LINES: usize = 40;

/// One parsed Hub line: a command word and its arguments (`key=value`, `key="quoted value"`,
/// or a bare word with no value).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubLine {
    /// The first word.
    pub command: String,
    /// The arguments in order; a bare word has no value.
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// The value of the first argument called `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
    }

    /// Whether a bare word (or key) `key` is present.
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn has(&self, key: &str) -> bool {
        self.args.iter().any(|(k, _)| k == key)
    }
}

/// Splits a Hub line into its command and arguments. Errors on an empty line, an unterminated
/// quote, or an argument with an empty key.
pub fn parse_line(line: &str) -> Result<HubLine, String> {
    let b = line.trim().as_bytes();
    let mut i = 0;
    let mut words: Vec<(String, Option<String>)> = Vec::new();
    while i < b.len() {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' {
            i += 1;
        }
        let key = String::from_utf8_lossy(&b[start..i]).into_owned();
        if i < b.len() && b[i] == b'=' {
            if key.is_empty() {
                return Err(format!("argument without a name in {line:?}"));
            }
            i += 1;
            let value = if i < b.len() && b[i] == b'"' {
                i += 1;
                let vs = i;
                while i < b.len() && b[i] != b'"' {
                    i += 1;
                }
                if i >= b.len() {
                    return Err(format!("unterminated quote in {line:?}"));
                }
                let v = String::from_utf8_lossy(&b[vs..i]).into_owned();
                i += 1;
                if i < b.len() && !b[i].is_ascii_whitespace() {
                    return Err(format!("text after a closing quote in {line:?}"));
                }
                v
            } else {
                let vs = i;
                while i < b.len() && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                String::from_utf8_lossy(&b[vs..i]).into_owned()
            };
            words.push((key, Some(value)));
        } else {
            words.push((key, None));
        }
    }
    let mut it = words.into_iter();
    match it.next() {
        Some((cmd, None)) => Ok(HubLine {
            command: cmd,
            args: it.collect(),
        }),
        Some((cmd, Some(_))) => Err(format!("line starts with an argument {cmd:?}")),
        None => Err("empty line".into()),
    }
}

/// A value as Hub wants it written: quoted only when empty or holding a space or `=`.
pub fn quote(value: &str) -> String {
    if value.is_empty() || value.contains([' ', '=', '\t']) {
        format!("\"{value}\"")
    } else {
        value.to_string()
    }
}

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
    /// Extra `level` arguments sent after the match's own limits, for this engine only (for
    /// example `depth=2` to weaken it).
    pub levels: Vec<String>,
}

/// A line read from the engine: when it arrived (taken by the reader thread, so the tool's own
/// delays do not count against the engine) and its text, or `None` at end of output.
type Incoming = (Instant, Option<String>);

/// The answer to `go think`.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
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
pub struct Engine {
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

impl Engine {
    /// Starts the process and runs the handshake: `hub` ... `wait`, the variant and the spec's
    /// parameters with `set-param`, `init` ... `ready`.
    pub fn start(spec: &EngineSpec, variant: &str, timeout: Duration) -> Result<Engine, Failure> {
        let mut child = Command::new(&spec.program)
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
        let mut e = Engine {
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
        self.send("hub")?;
        loop {
            let (_, line) = self.recv(Some(deadline))?;
            let Ok(l) = parse_line(&line) else { continue };
            match l.command.as_str() {
                "id" => self.id_name = l.get("name").map(str::to_string),
                "param" => {
                    if let Some(n) = l.get("name") {
                        self.declared.push(n.to_string());
                    }
                }
                "wait" => break,
                _ => {}
            }
        }
        if self.declared.iter().any(|d| d == "variant") {
            self.send(&format!("set-param name=variant value={}", quote(variant)))?;
        }
        for (k, v) in self.spec.params.clone() {
            self.send(&format!("set-param name={} value={}", quote(&k), quote(&v)))?;
        }
        self.send("init")?;
        loop {
            let (_, line) = self.recv(Some(deadline))?;
            match parse_line(&line) {
                Ok(l) if l.command == "ready" => return Ok(()),
                Ok(l) if l.command == "error" => {
                    return Err(Failure::new(
                        FailureKind::Error,
                        format!("during init: {}", l.get("message").unwrap_or(&line)),
                    ))
                }
                _ => {}
            }
        }
    }

    /// Writes one line to the engine.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
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
        self.send("new-game")?;
        self.send("ping")?;
        let deadline = Instant::now() + timeout;
        loop {
            let (_, line) = self.recv(Some(deadline))?;
            if let Ok(l) = parse_line(&line) {
                if l.command == "pong" {
                    return Ok(());
                }
            }
        }
    }

    /// Sends the position, the limits and `go think`, and reads `info` lines until `done`.
    /// `deadline` is measured from the moment `go` is sent; on a timeout the engine is left
    /// thinking (call [`Engine::recover`] or [`Engine::kill`]).
    pub fn think(
        &mut self,
        pos_line: &str,
        levels: &[String],
        deadline: Option<Duration>,
    ) -> Result<Reply, Failure> {
        self.send(pos_line)?;
        for l in levels {
            self.send(&format!("level {l}"))?;
        }
        self.send("go think")?;
        let start = Instant::now();
        let abs = deadline.map(|d| start + d);
        let mut score = None;
        let mut depth = None;
        loop {
            let (t, line) = self.recv(abs)?;
            let l = parse_line(&line)
                .map_err(|e| Failure::new(FailureKind::Malformed, format!("{line:?}: {e}")))?;
            match l.command.as_str() {
                "info" => {
                    if let Some(s) = l.get("score").and_then(|s| s.parse::<f64>().ok()) {
                        if s.is_finite() {
                            score = Some(s);
                        }
                    }
                    if let Some(d) = l.get("depth").and_then(|s| s.parse::<u32>().ok()) {
                        depth = Some(d);
                    }
                }
                "done" => {
                    let Some(mv) = l.get("move") else {
                        return Err(Failure::new(
                            FailureKind::Malformed,
                            format!("{line:?}: done without move="),
                        ));
                    };
                    return Ok(Reply {
                        mv: mv.to_string(),
                        score,
                        depth,
                        elapsed: t.saturating_duration_since(start),
                    });
                }
                "error" => {
                    return Err(Failure::new(
                        FailureKind::Error,
                        l.get("message").unwrap_or(&line).to_string(),
                    ))
                }
                "pong" => {}
                _ => {
                    return Err(Failure::new(
                        FailureKind::Malformed,
                        format!("{line:?}: unexpected during a search"),
                    ))
                }
            }
        }
    }

    /// After a timeout: `stop`, and wait a little for `done`. Returns whether the engine is
    /// usable again; if not, it has been killed.
    pub fn recover(&mut self, wait: Duration) -> bool {
        if self.dead || self.send("stop").is_err() {
            self.kill();
            return false;
        }
        let deadline = Instant::now() + wait;
        loop {
            match self.recv(Some(deadline)) {
                Ok((_, line)) => {
                    if matches!(parse_line(&line), Ok(l) if l.command == "done") {
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
        if !self.dead && self.send("quit").is_ok() {
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

impl Drop for Engine {
    fn drop(&mut self) {
        if !self.dead {
            self.kill();
        }
    }
}

/// Splits a command line into words, honouring single and double quotes (no escapes), so
/// `--engine "new=target/release/damka hub"` works.
pub fn split_command(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote_char: Option<char> = None;
    for c in s.chars() {
        match quote_char {
            Some(q) if c == q => quote_char = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote_char = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote_char.is_some() {
        return Err(format!("unterminated quote in {s:?}"));
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_hub_lines() {
        let l = parse_line("info depth=5 score=-0.25 pv=\"10-14 23-18\" nodes=100").unwrap();
        assert_eq!(l.command, "info");
        assert_eq!(l.get("depth"), Some("5"));
        assert_eq!(l.get("score"), Some("-0.25"));
        assert_eq!(l.get("pv"), Some("10-14 23-18"));
        assert_eq!(l.get("nodes"), Some("100"));
        let l = parse_line("  done move=14x5x10 ponder=21-17 ").unwrap();
        assert_eq!(l.get("move"), Some("14x5x10"));
        let l = parse_line("level infinite").unwrap();
        assert!(l.has("infinite"));
        assert_eq!(l.get("infinite"), None);
        let l = parse_line("id name=x author=\"\"").unwrap();
        assert_eq!(l.get("author"), Some(""));
        assert!(parse_line("done move=\"12-16").is_err());
        assert!(parse_line("move=12-16").is_err());
        assert!(parse_line("   ").is_err());
        assert!(parse_line("done =3").is_err());
        assert!(parse_line("info pv=\"a b\"c").is_err());
    }

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(quote("russian"), "russian");
        assert_eq!(quote(""), "\"\"");
        assert_eq!(quote("9-13 22-18"), "\"9-13 22-18\"");
        assert_eq!(quote("a=b"), "\"a=b\"");
    }

    #[test]
    fn splits_command_lines() {
        assert_eq!(
            split_command("target/release/damka hub").unwrap(),
            vec!["target/release/damka", "hub"]
        );
        assert_eq!(
            split_command("'/path with space/eng' --x \"a b\" ''").unwrap(),
            vec!["/path with space/eng", "--x", "a b", ""]
        );
        assert!(split_command("a \"b").is_err());
        assert!(split_command("   ").unwrap().is_empty());
    }
}
