//! The Hub session driven line by line (`Session::feed` and `Session::pump`), as a host
//! without threads drives it (the WebAssembly worker): the same answers as `run_session`, a
//! `stop` and a `ping` handled during a search, other lines held until its `done`.

use damka::core::Variant;
use damka::engine::Engine;
use damka::protocol::hub::{HubConfig, Session};
use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::{Duration, Instant};

#[derive(Clone, Default)]
struct Out(Rc<RefCell<Vec<u8>>>);

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Out {
    /// The lines written since the last call.
    fn take(&self) -> Vec<String> {
        let bytes = std::mem::take(&mut *self.0.borrow_mut());
        String::from_utf8(bytes)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }
}

/// Pumps until a line starting with `prefix` is out; every line written meanwhile.
fn pump_until(s: &mut Session<Engine, Out>, out: &Out, prefix: &str) -> Vec<String> {
    let start = Instant::now();
    let mut lines = Vec::new();
    while start.elapsed() < Duration::from_secs(60) {
        assert!(s.pump().unwrap());
        lines.extend(out.take());
        if lines.iter().any(|l| l.starts_with(prefix)) {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    panic!("no {prefix} line in {lines:?}");
}

#[test]
fn a_session_fed_line_by_line_searches_stops_and_holds_lines_for_the_end_of_a_search() {
    let out = Out::default();
    let mut s = Session::new(
        Engine::new(Variant::Russian),
        out.clone(),
        HubConfig::default(),
    );
    for line in ["hub", "init", "pos start", "level depth=4", "go think"] {
        assert!(s.feed(line.as_bytes()).unwrap());
    }
    let lines = pump_until(&mut s, &out, "done");
    assert!(lines.iter().any(|l| l == "ready"));
    assert!(lines.last().unwrap().starts_with("done move="));
    assert!(!s.is_searching());

    // During a search: a malformed line and `ping` are answered at once, `pos` waits for the
    // search to end (it stops it), `stop` ends it.
    s.feed(b"pos start").unwrap();
    s.feed(b"go analyze").unwrap();
    assert!(s.is_searching());
    s.feed(b"foo").unwrap();
    s.feed(b"ping").unwrap();
    // The search's `info` lines may come out meanwhile (a fast machine reaches depth 6 before
    // `foo` is fed); the answers to the two lines are what must be there, in order.
    let now: Vec<String> = out
        .take()
        .into_iter()
        .filter(|l| !l.starts_with("info "))
        .collect();
    assert_eq!(now, vec!["error message=\"unknown command foo\"", "pong"]);
    s.feed(b"pos pos=W:Wz9:B").unwrap();
    let lines = pump_until(&mut s, &out, "error");
    let done = lines.iter().position(|l| l.starts_with("done")).unwrap();
    let error = lines.iter().position(|l| l.starts_with("error")).unwrap();
    assert!(
        done < error,
        "the held line is answered after done: {lines:?}"
    );
    assert!(!s.is_searching());

    // `quit` ends the session; a line too long is refused.
    let long = vec![b'a'; damka::protocol::hub::line::MAX_LINE + 1];
    assert!(s.feed(&long).unwrap());
    assert!(out.take()[0].starts_with("error message=\"line too long"));
    assert!(!s.feed(b"quit").unwrap());
}
