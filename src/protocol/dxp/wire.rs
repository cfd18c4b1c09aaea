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

/// Starts the reader thread: reads `reader` until it ends and sends every event to `tx`,
/// ending with [`Event::Closed`]. The thread ends with the stream (or when nobody listens).
pub fn spawn_reader<R: Read + Send + 'static>(mut reader: R, tx: Sender<Incoming>) {
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

/// Writes messages, each followed by its NUL, and keeps at least `gap` between two sends
/// with nothing from the peer in between: pydraughts reads each socket chunk as one message
/// and drops whatever else the chunk holds, so two messages sent back to back lose the
/// second.
pub struct Outbox<W: Write> {
    writer: W,
    gap: Duration,
    last: Option<Instant>,
    log: Log,
}

impl<W: Write> Outbox<W> {
    /// An outbox over `writer`.
    pub fn new(writer: W, gap: Duration, log: Log) -> Outbox<W> {
        Outbox {
            writer,
            gap,
            last: None,
            log,
        }
    }

    /// The peer sent something: it has read what came before, so the next message may go at
    /// once.
    pub fn heard(&mut self) {
        self.last = None;
    }

    /// Sends one message (waiting first if the previous one left less than the gap ago and
    /// the peer has said nothing since).
    pub fn send(&mut self, msg: &Message) -> io::Result<()> {
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
        let r = self
            .writer
            .write_all(&bytes)
            .and_then(|_| self.writer.flush());
        self.last = Some(Instant::now());
        r
    }
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
