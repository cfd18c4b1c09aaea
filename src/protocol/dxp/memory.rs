//! In-memory byte pipes, so that tests drive a session without sockets: [`pipe`] gives a
//! writer and a reader (end of stream once every writer is dropped), [`duplex`] two ends of a
//! connection.

use super::wire::Link;
use crossbeam_channel::{Receiver, Sender};
use std::io::{self, Read, Write};

/// The writing end of a pipe.
#[derive(Clone)]
pub struct PipeWriter(Sender<Vec<u8>>);

/// The reading end of a pipe.
pub struct PipeReader {
    rx: Receiver<Vec<u8>>,
    pending: Vec<u8>,
    pos: usize,
}

/// A new pipe.
pub fn pipe() -> (PipeWriter, PipeReader) {
    let (tx, rx) = crossbeam_channel::unbounded();
    (
        PipeWriter(tx),
        PipeReader {
            rx,
            pending: Vec::new(),
            pos: 0,
        },
    )
}

impl Write for PipeWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::new(io::ErrorKind::BrokenPipe, "pipe reader dropped"))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for PipeReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.pos == self.pending.len() {
            match self.rx.recv() {
                Ok(chunk) => {
                    self.pending = chunk;
                    self.pos = 0;
                }
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.pending.len() - self.pos);
        buf[..n].copy_from_slice(&self.pending[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// One end of an in-memory connection.
pub struct End {
    /// What the other end writes.
    pub reader: PipeReader,
    /// What the other end reads.
    pub writer: PipeWriter,
}

impl End {
    /// This end as a session's [`Link`] (closing it does nothing: the other end's writer
    /// ends the stream).
    pub fn into_link(self, peer: &str) -> Link {
        Link {
            reader: Box::new(self.reader),
            writer: Box::new(self.writer),
            closer: Box::new(|| {}),
            peer: peer.to_string(),
        }
    }
}

/// Two connected ends.
pub fn duplex() -> (End, End) {
    let (w1, r1) = pipe();
    let (w2, r2) = pipe();
    (
        End {
            reader: r1,
            writer: w2,
        },
        End {
            reader: r2,
            writer: w1,
        },
    )
}
