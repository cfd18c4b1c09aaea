//! The Hub session: handshake, parameters, positions, limits and searches, generic over the
//! reader, the writer and the engine behind [`Backend`].
//!
//! Threads: a reader thread turns input into [`Input`]s on a channel; the search reports
//! through callbacks that send [`SearchEvent`]s on a channel of its own; the session thread
//! waits on both and is the only one that writes. So `stop`, `ponder-hit` and `ping` are
//! handled while a search runs, and output lines never interleave.

use super::command::{parse_command, Command, PosSource};
use super::line::{read_loop, shorten, Input, Reply, MAX_LINE};
use super::params::{
    bad_move_message, check_option_value, client_param, is_client_param, ClientParam, Numbering,
};
use super::reply::{self, EngineReply, Id, ParamDecl, ParamKind};
use super::{Backend, SearchRequest};
use crate::core::Variant;
use crate::dispatch::{dispatch, GameTask};
use crate::engine::{EngineError, GoMode, Limits, MoveText, OptionKind, SearchInfo, SearchOutcome};
use crate::eval::Evaluate;
use crate::variant::{Notation, Perft};
use crossbeam_channel::{select, unbounded, Receiver, TryRecvError};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::thread;

/// Start position string of each game (for `pos start`, an extension).
pub fn start_position(v: Variant) -> String {
    struct Start;
    impl GameTask for Start {
        type Output = String;
        fn run<P: Evaluate + Perft>(self) -> String {
            P::start().to_hub()
        }
    }
    dispatch(v, Start)
}

/// Starting values of the engine's options for a session (from the command line); the client
/// may change them with `set-param`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HubConfig {
    /// `(name, value)` pairs, applied at `init` (or the first `go`) with the client's own.
    /// The session's own parameters (`numbering`, Scan's `tt-size`, ...) may be among them:
    /// a value they do not take is reported as an `error` line after the client's `hub`.
    pub options: Vec<(String, String)>,
}

/// What a search reports to the session thread.
#[derive(Debug)]
pub enum SearchEvent {
    /// Progress.
    Info(SearchInfo),
    /// The result (the last event of a search).
    Done(SearchOutcome),
}

/// Whether the session goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Runs a whole session: reads commands from `reader` (on a thread of its own) until `quit` or
/// end of input, answers on `out`. Returns an error only when writing fails (the client is
/// gone); a running search is stopped before returning either way.
pub fn run_session<R, W, B>(reader: R, out: W, backend: B, config: HubConfig) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
    B: Backend,
{
    let (tx, rx) = crossbeam_channel::bounded(16);
    thread::Builder::new()
        .name("hub-input".into())
        .spawn(move || read_loop(reader, tx))?;
    let mut session = Session::new(backend, out, config);
    let result = session.run(&rx);
    session.shutdown();
    // The reader thread is not joined: it may be blocked on a read that never returns (stdin
    // of a client that keeps it open); it ends at its next send, now that `rx` is gone.
    result
}

/// A search in progress.
struct Running {
    events: Receiver<SearchEvent>,
}

/// The state of one session.
pub struct Session<B: Backend, W: Write> {
    backend: B,
    out: W,
    /// Options set but not yet handed to the engine, in order (done at `init` or `go`, so a
    /// handshake that changes `hash` sizes the table once). `variant` is never pending: the
    /// position text depends on it.
    pending: Vec<(String, String)>,
    limits: Limits,
    has_position: bool,
    search: Option<Running>,
    /// Lines given to [`Session::feed`] that wait for the running search to end.
    held: VecDeque<Vec<u8>>,
    /// How the client numbers squares; moves are converted at the edge.
    numbering: Numbering,
    /// `(damka's text, the client's)` of the root moves in this request's `level` lines, to
    /// quote the client's own text in an error.
    level_moves: Vec<(String, String)>,
    /// Errors in the starting values (command line), said after the client's `hub`: nothing
    /// may be written before the client speaks.
    startup_errors: Vec<String>,
}

impl<B: Backend, W: Write> Session<B, W> {
    /// A session before the handshake.
    pub fn new(backend: B, out: W, config: HubConfig) -> Self {
        let mut session = Session {
            backend,
            out,
            pending: Vec::new(),
            limits: Limits::default(),
            has_position: false,
            search: None,
            held: VecDeque::new(),
            numbering: Numbering::default(),
            level_moves: Vec::new(),
            startup_errors: Vec::new(),
        };
        for (name, value) in config.options {
            if is_client_param(&name) {
                if let Err(e) = session.set_client_param(&name, &value) {
                    session.startup_errors.push(e);
                }
            } else {
                session.set_pending(name, value);
            }
        }
        session
    }

    /// Sets one of the session's own parameters; the error message for a value it does not
    /// take.
    fn set_client_param(&mut self, name: &str, value: &str) -> Result<(), String> {
        match client_param(name, value)? {
            ClientParam::Numbering(n) => self.numbering = n,
            ClientParam::Engine(name, value) => self.set_pending(name.to_string(), value),
            ClientParam::Ignored => {}
        }
        Ok(())
    }

    /// Says the errors in the starting values, once.
    fn send_startup_errors(&mut self) -> io::Result<()> {
        for e in std::mem::take(&mut self.startup_errors) {
            self.send_error(&e)?;
        }
        Ok(())
    }

    /// Queues an option value, replacing an earlier one for the same option.
    fn set_pending(&mut self, name: String, value: String) {
        self.pending.retain(|(n, _)| *n != name);
        self.pending.push((name, value));
    }

    /// Writes one line and flushes it.
    fn send(&mut self, r: Reply) -> io::Result<()> {
        let mut s = r.into_string();
        s.push('\n');
        self.out.write_all(s.as_bytes())?;
        self.out.flush()
    }

    fn send_error(&mut self, message: &str) -> io::Result<()> {
        self.send(reply::error(message))
    }

    fn run(&mut self, input: &Receiver<Input>) -> io::Result<()> {
        loop {
            let next = match &self.search {
                None => input.recv().unwrap_or(Input::Eof),
                Some(s) => {
                    let events = s.events.clone();
                    select! {
                        recv(input) -> m => m.unwrap_or(Input::Eof),
                        recv(events) -> e => {
                            self.on_search_event(e.ok())?;
                            continue;
                        }
                    }
                }
            };
            let flow = match next {
                Input::Line(bytes) => self.on_line(&bytes)?,
                Input::TooLong(n) => {
                    self.send_error(&format!("line too long ({n} bytes)"))?;
                    Flow::Continue
                }
                Input::Eof => {
                    self.finish_search()?;
                    Flow::Quit
                }
            };
            if flow == Flow::Quit {
                return Ok(());
            }
        }
    }

    /// Takes one input line (without its line end) for a host that drives the session itself
    /// instead of [`run_session`]: a web worker without threads. Never waits for a search:
    /// `stop`, `ponder-hit`, `ping` and malformed lines are handled at once as in a threaded
    /// session; any other line during a search stops it and waits its turn, handled by
    /// [`Session::pump`] once `done` is out. Returns `false` after `quit`.
    pub fn feed(&mut self, line: &[u8]) -> io::Result<bool> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.len() > MAX_LINE {
            self.send_error(&format!("line too long ({} bytes)", line.len()))?;
            return Ok(true);
        }
        self.held.push_back(line.to_vec());
        self.pump()
    }

    /// Says that an input message was not a line of text, as an `error` line.
    pub fn reject_input(&mut self, why: &str) -> io::Result<()> {
        self.send_error(why)
    }

    /// Writes what the running search has reported so far and carries out the lines that
    /// waited for it to end; never waits. Returns `false` after `quit`. Call it again after
    /// the search has run ([`crate::search::pool::run_deferred`] on a host without threads).
    pub fn pump(&mut self) -> io::Result<bool> {
        self.drain_events()?;
        while let Some(line) = self.held.front() {
            if self.search.is_some() && waits_for_idle(line) {
                self.backend.stop();
                break;
            }
            let line = self.held.pop_front().unwrap_or_default();
            if self.on_line(&line)? == Flow::Quit {
                self.held.clear();
                self.shutdown();
                return Ok(false);
            }
            self.drain_events()?;
        }
        Ok(true)
    }

    /// Whether a search runs (started and its `done` not yet written).
    pub fn is_searching(&self) -> bool {
        self.search.is_some()
    }

    /// Reports the search events that are there without waiting for more.
    fn drain_events(&mut self) -> io::Result<()> {
        while let Some(s) = &self.search {
            match s.events.try_recv() {
                Ok(e) => self.on_search_event(Some(e))?,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => self.on_search_event(None)?,
            }
        }
        Ok(())
    }

    /// Stops a search still running without reporting it (the client is gone).
    fn shutdown(&mut self) {
        if self.search.take().is_some() {
            self.backend.stop();
            self.backend.wait();
        }
    }

    /// Handles one input line.
    fn on_line(&mut self, bytes: &[u8]) -> io::Result<Flow> {
        let Ok(text) = std::str::from_utf8(bytes) else {
            self.send_error("line is not valid UTF-8")?;
            return Ok(Flow::Continue);
        };
        let cmd = match parse_command(text) {
            Ok(None) => return Ok(Flow::Continue),
            Ok(Some(c)) => c,
            Err(e) => {
                // A malformed line does not disturb a running search.
                self.send_error(&e.to_string())?;
                return Ok(Flow::Continue);
            }
        };
        if self.search.is_some() {
            match cmd {
                Command::Stop => {
                    self.backend.stop();
                    return Ok(Flow::Continue);
                }
                Command::PonderHit => {
                    self.backend.ponder_hit();
                    return Ok(Flow::Continue);
                }
                Command::Ping => {
                    self.send(EngineReply::Pong.to_reply())?;
                    return Ok(Flow::Continue);
                }
                // Anything else: stop, answer `done`, then carry it out.
                _ => self.finish_search()?,
            }
        }
        self.execute(cmd)
    }

    /// A move of the engine's in the client's numbering.
    fn to_client(&self, m: &MoveText) -> MoveText {
        MoveText {
            hub: self.numbering.convert_move(self.backend.variant(), &m.hub),
            algebraic: m.algebraic.clone(),
        }
    }

    /// Reports one search event (or the end of the search's channel).
    fn on_search_event(&mut self, e: Option<SearchEvent>) -> io::Result<()> {
        match e {
            Some(SearchEvent::Info(mut i)) => {
                i.pv = i.pv.iter().map(|m| self.to_client(m)).collect();
                self.send(reply::info(&i))
            }
            Some(SearchEvent::Done(mut o)) => {
                self.search = None;
                self.backend.wait();
                self.send_notices()?;
                o.best = o.best.as_ref().map(|m| self.to_client(m));
                o.ponder = o.ponder.as_ref().map(|m| self.to_client(m));
                self.send(reply::done(&o))
            }
            None => {
                self.search = None;
                self.backend.wait();
                self.send_error("search ended without a result")
            }
        }
    }

    /// Stops the running search, if any, and reports it to the end (`info` lines still queued,
    /// then `done`).
    fn finish_search(&mut self) -> io::Result<()> {
        let Some(s) = &self.search else {
            return Ok(());
        };
        let events = s.events.clone();
        self.backend.stop();
        while self.search.is_some() {
            let e = events.recv().ok();
            self.on_search_event(e)?;
        }
        Ok(())
    }

    /// Hands set options to the engine; what it could not grant (threads, memory) is said
    /// in `info string=...` lines and the session goes on.
    fn apply_pending(&mut self) -> io::Result<()> {
        for (name, value) in std::mem::take(&mut self.pending) {
            if let Err(e) = self.backend.set_option(&name, &value) {
                self.send_error(&engine_error_message(&e))?;
            }
        }
        self.send_notices()
    }

    /// Sends the engine's notices (resources asked for but not granted) as `info string=...`.
    fn send_notices(&mut self) -> io::Result<()> {
        for notice in self.backend.take_notices() {
            self.send(reply::info_string(&notice))?;
        }
        Ok(())
    }

    /// Carries out a command with no search running.
    fn execute(&mut self, cmd: Command) -> io::Result<Flow> {
        match cmd {
            Command::Hub => self.hub()?,
            Command::SetParam { name, value } => self.set_param(&name, &value)?,
            Command::Init => {
                self.send_startup_errors()?;
                self.apply_pending()?;
                self.send(EngineReply::Ready.to_reply())?;
            }
            Command::NewGame => self.backend.new_game(),
            Command::Pos { source, moves } => self.pos(&source, &moves)?,
            Command::Level(u) => {
                let variant = self.backend.variant();
                let u = self
                    .numbering
                    .convert_level(variant, u, &mut self.level_moves);
                u.apply(&mut self.limits);
            }
            Command::Go(mode) => self.go(mode)?,
            // Outside a search these have nothing to act on; a late `stop` after `done` is
            // normal in real clients, so it is not an error.
            Command::Stop | Command::PonderHit => {}
            Command::Ping => self.send(EngineReply::Pong.to_reply())?,
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    fn hub(&mut self) -> io::Result<()> {
        let id = Id {
            name: Some(env!("CARGO_PKG_NAME").into()),
            // With the evaluation of each game (the learned net's name, or `classic`).
            version: Some(format!(
                "{} eval {}",
                env!("CARGO_PKG_VERSION"),
                self.backend.eval_names()
            )),
            author: Some("the damka authors".into()),
        };
        self.send(EngineReply::Id(id).to_reply())?;
        for opt in self.backend.options() {
            // A value set but not yet applied is the one in force for the client.
            let value = self
                .pending
                .iter()
                .rev()
                .find(|(n, _)| *n == opt.name)
                .map_or(opt.value.clone(), |(_, v)| v.clone());
            let kind = match &opt.kind {
                OptionKind::Enum(values) => {
                    ParamKind::Enum(values.iter().map(|v| v.to_string()).collect())
                }
                OptionKind::Int { min, max } => ParamKind::Int {
                    min: Some(*min),
                    max: Some(*max),
                },
                OptionKind::Text => ParamKind::Other("string".into()),
                OptionKind::Bool => ParamKind::Other("bool".into()),
            };
            let decl = ParamDecl {
                name: opt.name.to_string(),
                value: Some(value),
                kind: Some(kind),
            };
            self.send(EngineReply::Param(decl).to_reply())?;
        }
        let numbering = ParamDecl {
            name: Numbering::PARAM.into(),
            value: Some(self.numbering.name().into()),
            kind: Some(ParamKind::Enum(
                Numbering::ALL.iter().map(|n| n.name().into()).collect(),
            )),
        };
        self.send(EngineReply::Param(numbering).to_reply())?;
        self.send_startup_errors()?;
        self.send(EngineReply::Wait.to_reply())
    }

    /// `pos`: the position and moves in the client's numbering, converted to damka's. An
    /// illegal move is reported in the client's own text, and when the moves are all legal
    /// in the other numbering the message says which setting the client needs.
    fn pos(&mut self, source: &PosSource, moves: &[String]) -> io::Result<()> {
        // `pos` starts a new search request: earlier `level` lines are forgotten.
        self.limits = Limits::default();
        self.level_moves.clear();
        let variant = self.backend.variant();
        let text = match source {
            PosSource::Start => start_position(variant),
            PosSource::Text(t) => t.clone(),
        };
        let engine_text = self.numbering.convert_position(variant, &text);
        let converted = self.numbering.convert_moves(variant, moves);
        let refs: Vec<&str> = converted.iter().map(String::as_str).collect();
        let e = match self.backend.set_position(&engine_text, &refs) {
            Ok(()) => {
                self.has_position = true;
                return Ok(());
            }
            Err(e) => e,
        };
        let EngineError::BadMove { index, message } = &e else {
            return self.send_error(&engine_error_message(&e));
        };
        let m = bad_move_message(
            self.numbering,
            variant,
            (&text, moves),
            &converted,
            (*index, message),
        );
        self.send_error(&m)
    }

    fn set_param(&mut self, name: &str, value: &str) -> io::Result<()> {
        if is_client_param(name) {
            return match self.set_client_param(name, value) {
                Ok(()) => Ok(()),
                Err(e) => self.send_error(&e),
            };
        }
        let options = self.backend.options();
        let Some(opt) = options
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name.trim()))
        else {
            return self.send_error(&format!("unknown parameter {}", shorten(name)));
        };
        if let Err(m) = check_option_value(opt, value) {
            return self.send_error(&m);
        }
        if opt.name == "variant" {
            // At once: the next position string is read in the new game.
            if let Err(e) = self.backend.set_option(opt.name, value) {
                return self.send_error(&engine_error_message(&e));
            }
            // The engine is at the new game's start now; the client must say where.
            self.has_position = false;
            // The new game's searcher was built with the current threads and hash.
            self.send_notices()?;
        } else {
            self.set_pending(opt.name.to_string(), value.trim().to_string());
        }
        Ok(())
    }

    fn go(&mut self, mode: GoMode) -> io::Result<()> {
        if !self.has_position {
            return self.send_error("go without a position (send pos first)");
        }
        self.apply_pending()?;
        let (tx, rx) = unbounded();
        let tx_done = tx.clone();
        let on_info = Box::new(move |i: &SearchInfo| {
            let _ = tx.send(SearchEvent::Info(i.clone()));
        });
        let on_done = Box::new(move |o: SearchOutcome| {
            let _ = tx_done.send(SearchEvent::Done(o));
        });
        let search = SearchRequest {
            limits: self.limits.clone(),
            mode,
            on_info,
            on_done,
        };
        match self.backend.go(search) {
            Ok(()) => {
                self.search = Some(Running { events: rx });
                Ok(())
            }
            Err(e) => {
                // Root moves named in `level` are quoted as the client wrote them.
                let mut m = engine_error_message(&e);
                if let Some((engine, client)) = self
                    .level_moves
                    .iter()
                    .find(|(engine, client)| engine != client && m.contains(engine.as_str()))
                {
                    m = m.replacen(engine.as_str(), client, 1);
                }
                self.send_error(&m)
            }
        }
    }
}

/// Whether a line must wait until no search runs: a well-formed command other than `stop`,
/// `ponder-hit` and `ping` (which act on the search or answer beside it).
fn waits_for_idle(line: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(line) else {
        return false;
    };
    matches!(parse_command(text), Ok(Some(c)) if !matches!(c, Command::Stop | Command::PonderHit | Command::Ping))
}

/// The message of an engine error as the protocol words it (`illegal move ...`,
/// `bad position: ...`, `no legal move`). Engine messages may quote user text of any
/// length: at most 200 characters keep replies readable.
fn engine_error_message(e: &EngineError) -> String {
    crate::core::text::shorten_to(&e.to_string(), 200).into_owned()
}
