//! Bytes to messages and back: a reader thread that cuts the incoming byte stream at NUL
//! terminators and hands each message (stamped with its arrival time) to the session through a
//! channel, and a writer that never sends two messages back to back (see [`Outbox`]).
//!
//! Both work over any byte stream ([`Link`]): a TCP connection, or the in-memory pipes of
//! [`super::memory`] in tests.

use super::message::{Message, ParseError, MAX_LEN};
use super::Log;
use crossbeam_channel::{Receiver, Sender};
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::thread;
use std::time::{Duration, Instant};

/// What the reader thread reports.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// A well-formed message.
    Message(Message),
    /// Bytes that are not a message (the reason says why).
    Bad(ParseError),
    /// The stream ended or failed; nothing follows.
    Closed(String),
}

/// An [`Event`] with the time its last byte arrived.
#[derive(Clone, Debug)]
pub struct Incoming {
    /// When it arrived.
    pub at: Instant,
    /// What arrived.
    pub event: Event,
}

/// Cuts a byte stream into NUL-terminated messages. A message longer than [`MAX_LEN`] is
/// reported once as bad and its bytes are skipped up to the next NUL; carriage returns and
/// line feeds around a message are ignored (some programs end lines that way).
pub struct Framer {
    buf: Vec<u8>,
    overflow: bool,
}

impl Default for Framer {
    fn default() -> Self {
        Framer {
            buf: Vec::with_capacity(MAX_LEN + 1),
            overflow: false,
        }
    }
}

impl Framer {
    /// Feeds bytes; returns the events they complete.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        let mut out = Vec::new();
        for &b in bytes {
            if b == 0 {
                if !self.overflow {
                    let trimmed = trim_line_ends(&self.buf);
                    if !trimmed.is_empty() || self.buf.is_empty() {
                        out.push(match Message::parse(trimmed) {
                            Ok(m) => Event::Message(m),
                            Err(e) => Event::Bad(e),
                        });
                    }
                }
                self.buf.clear();
                self.overflow = false;
            } else if !self.overflow {
                self.buf.push(b);
                if trim_line_ends(&self.buf).len() > MAX_LEN {
                    out.push(Event::Bad(ParseError {
                        letter: None,
                        message: format!(
                            "more than {MAX_LEN} characters without a terminator (skipped to \
                             the next NUL)"
                        ),
                    }));
                    self.buf.clear();
                    self.overflow = true;
                }
            }
        }
        out
    }
}

fn trim_line_ends(b: &[u8]) -> &[u8] {
    let is_end = |c: &u8| *c == b'\r' || *c == b'\n';
    let start = b.iter().position(|c| !is_end(c)).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !is_end(c)).map_or(start, |e| e + 1);
    &b[start..end]
}

/// Events a session's inbox holds before its reader thread stops reading.
pub const INBOX: usize = 256;

/// Starts the reader thread: reads `reader` until it ends and sends every event to `tx`,
/// ending with [`Event::Closed`]. The thread ends with the stream (or when nobody listens).
pub fn spawn_reader<R: Read + Send + 'static>(mut reader: R, tx: Sender<Incoming>) {
    // `tx` may be bounded (see [`INBOX`]): a full channel stops the reading, and the peer's
    // sending, until the session catches up, so that a flood costs no memory here.
    let tx_failed = tx.clone();
    let spawned = thread::Builder::new()
        .name("dxp-reader".into())
        .spawn(move || {
            let mut framer = Framer::default();
            let mut buf = [0u8; 512];
            loop {
                let why = match reader.read(&mut buf) {
                    Ok(0) => "connection closed by the peer".to_string(),
                    Ok(n) => {
                        let at = Instant::now();
                        for event in framer.feed(&buf[..n]) {
                            if tx.send(Incoming { at, event }).is_err() {
                                return;
                            }
                        }
                        continue;
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => format!("connection failed: {e}"),
                };
                let _ = tx.send(Incoming {
                    at: Instant::now(),
                    event: Event::Closed(why),
                });
                return;
            }
        });
    if let Err(e) = spawned {
        // Without a reader the connection is unusable: say so as its end.
        let _ = tx_failed.send(Incoming {
            at: Instant::now(),
            event: Event::Closed(format!("no reader thread: {e}")),
        });
    }
}

/// Messages the writer thread may hold unsent: a peer that lets this many pile up is not
/// reading (an honest one reads every message long before the next few are written).
pub const OUT_QUEUE: usize = 64;

/// What the session knows of its writer thread.
#[derive(Default)]
struct WriterState {
    /// Since when the write in progress has been blocked (`None`: idle).
    writing_since: Option<Instant>,
    /// Why writing failed, if it did.
    failed: Option<String>,
}

/// Writes messages, each followed by its NUL, and keeps at least `gap` between two sends
/// with nothing from the peer in between: pydraughts reads each socket chunk as one message
/// and drops whatever else the chunk holds, so two messages sent back to back lose the
/// second.
///
/// The bytes are written by a thread of their own, so that a peer that stops reading blocks
/// that thread, not the session and its timers; [`Outbox::send`] reports the peer as gone
/// once a write has been blocked for `write_timeout`, and waits at most that long when
/// [`OUT_QUEUE`] messages are unsent.
pub struct Outbox {
    tx: Option<crossbeam_channel::Sender<Vec<u8>>>,
    state: std::sync::Arc<std::sync::Mutex<WriterState>>,
    done: Receiver<()>,
    gap: Duration,
    write_timeout: Duration,
    last: Option<Instant>,
    log: Log,
}

impl Outbox {
    /// An outbox over `writer`, with its writer thread started.
    pub fn new(
        writer: Box<dyn Write + Send>,
        gap: Duration,
        write_timeout: Duration,
        log: Log,
    ) -> Outbox {
        let (tx, rx) = crossbeam_channel::bounded::<Vec<u8>>(OUT_QUEUE);
        let (done_tx, done) = crossbeam_channel::bounded(1);
        let state = std::sync::Arc::new(std::sync::Mutex::new(WriterState::default()));
        let shared = state.clone();
        let mut writer = writer;
        let spawned = thread::Builder::new()
            .name("dxp-writer".into())
            .spawn(move || {
                for bytes in rx.iter() {
                    lock(&shared).writing_since = Some(Instant::now());
                    let r = writer.write_all(&bytes).and_then(|_| writer.flush());
                    let mut st = lock(&shared);
                    st.writing_since = None;
                    if let Err(e) = r {
                        st.failed = Some(e.to_string());
                        break;
                    }
                }
                let _ = done_tx.send(());
            });
        if let Err(e) = spawned {
            lock(&state).failed = Some(format!("no writer thread: {e}"));
        }
        Outbox {
            tx: Some(tx),
            state,
            done,
            gap,
            write_timeout,
            last: None,
            log,
        }
    }

    /// The peer sent something: it has read what came before, so the next message may go at
    /// once.
    pub fn heard(&mut self) {
        self.last = None;
    }

    /// Why the connection cannot be written to any more: a failed write, or a peer that has
    /// not read for `write_timeout`.
    pub fn stalled(&self) -> Option<String> {
        let st = lock(&self.state);
        if let Some(e) = &st.failed {
            return Some(e.clone());
        }
        match st.writing_since {
            Some(t) if t.elapsed() >= self.write_timeout => Some(format!(
                "the peer has not read for {:.0} s",
                self.write_timeout.as_secs_f64()
            )),
            _ => None,
        }
    }

    /// Sends one message (waiting first if the previous one left less than the gap ago and
    /// the peer has said nothing since). Blocks at most `write_timeout` on the peer: an error
    /// says the peer does not read or the connection failed.
    pub fn send(&mut self, msg: &Message) -> io::Result<()> {
        if let Some(why) = self.stalled() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, why));
        }
        if let Some(last) = self.last {
            let since = last.elapsed();
            if since < self.gap {
                thread::sleep(self.gap - since);
            }
        }
        let text = msg.to_wire();
        (self.log)(&format!("send {}: {text}", msg.kind()));
        let mut bytes = text.into_bytes();
        bytes.push(0);
        self.last = Some(Instant::now());
        let Some(tx) = &self.tx else {
            return Err(io::Error::new(io::ErrorKind::BrokenPipe, "outbox closed"));
        };
        // A full queue waits for the writer (a burst of answers), but never longer than the
        // write timeout: then the peer is not reading.
        let full = match tx.try_send(bytes) {
            Ok(()) => return Ok(()),
            Err(crossbeam_channel::TrySendError::Full(bytes)) => bytes,
            Err(crossbeam_channel::TrySendError::Disconnected(_)) => return Err(self.gone()),
        };
        tx.send_timeout(full, self.write_timeout)
            .map_err(|e| match e {
                crossbeam_channel::SendTimeoutError::Timeout(_) => io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "the peer does not read ({OUT_QUEUE} messages unsent for {:.0} s)",
                        self.write_timeout.as_secs_f64()
                    ),
                ),
                crossbeam_channel::SendTimeoutError::Disconnected(_) => self.gone(),
            })
    }

    fn gone(&self) -> io::Error {
        let why = lock(&self.state).failed.clone();
        io::Error::new(
            io::ErrorKind::BrokenPipe,
            why.unwrap_or_else(|| "writer gone".into()),
        )
    }

    /// Lets the writer thread write what it holds, waiting at most `write_timeout` (nothing
    /// more can be sent afterwards).
    pub fn finish(&mut self) {
        if self.tx.take().is_some() && self.stalled().is_none() {
            let _ = self.done.recv_timeout(self.write_timeout);
        }
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // The state stays meaningful whatever a panicking holder left half done.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A connection as the session sees it: a byte stream to read (handed to the reader thread),
/// one to write, and a way to close both.
pub struct Link {
    /// The incoming bytes.
    pub reader: Box<dyn Read + Send>,
    /// The outgoing bytes.
    pub writer: Box<dyn Write + Send>,
    /// Closes the connection (unblocking the reader); called once when the session is done.
    pub closer: Box<dyn FnOnce() + Send>,
    /// The peer, for logs.
    pub peer: String,
}

impl Link {
    /// A link over a TCP connection (Nagle's delay off: every message goes out at once).
    pub fn tcp(stream: TcpStream) -> io::Result<Link> {
        let _ = stream.set_nodelay(true);
        let peer = stream
            .peer_addr()
            .map(|a| a.to_string())
            .unwrap_or_else(|_| "unknown peer".into());
        let reader = stream.try_clone()?;
        let closer = stream.try_clone()?;
        Ok(Link {
            reader: Box::new(reader),
            writer: Box::new(stream),
            closer: Box::new(move || {
                let _ = closer.shutdown(Shutdown::Both);
            }),
            peer,
        })
    }
}

/// The receiving half of a started link.
pub type Inbox = Receiver<Incoming>;
