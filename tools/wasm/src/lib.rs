//! damka for a web worker: a Hub session behind a small C interface, so the worker script
//! (`damka-worker.js`) needs no generated glue. The script writes a line into the input buffer
//! ([`damka_input`]), hands it over ([`damka_feed`]), runs what the line started
//! ([`damka_run`]: the search, on this one thread) and posts every line of the output buffer
//! ([`damka_output`], [`damka_output_len`], [`damka_output_clear`]) as one message.
//!
//! A search calls the imported `damka_yield` now and then; the script suspends it there
//! (Asyncify), lets its message loop run, and may call [`damka_feed`] meanwhile with a `stop`.
//! That is safe because the search job holds no borrow of the session: [`damka_run`] runs the
//! deferred job ([`damka::search::pool::run_deferred`]) first and only then borrows it.
//!
//! [`damka_perft`] and [`damka_bench`] let the tests compare this build with the native one.

mod page;

use damka::core::Variant;
use damka::dispatch::{dispatch, GameTask};
use damka::engine::bench::bench_game;
use damka::engine::Engine;
use damka::eval::{Evaluate, Evaluators};
use damka::protocol::hub::{HubConfig, Session};
use damka::search::{pool, Searcher};
use damka::variant::{Notation, Perft};
use std::cell::RefCell;
use std::io::{self, Write};

/// Where the session writes: the output buffer the script reads.
struct Output;

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        OUTPUT.with(|o| o.borrow_mut().extend_from_slice(buf));
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

type HubSession = Session<Engine, Output>;

thread_local! {
    static SESSION: RefCell<Option<HubSession>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` on the session, made at first use (Russian, the native default). `None` when the
/// session is in use further up this thread's stack, which the script never does.
fn with_session<T>(f: impl FnOnce(&mut HubSession) -> T) -> Option<T> {
    SESSION.with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        let session = s.get_or_insert_with(|| {
            Session::new(Engine::new(Variant::Russian), Output, HubConfig::default())
        });
        Some(f(session))
    })
}

/// `len` bytes of memory the script keeps for good (Asyncify's record of a paused search).
#[no_mangle]
pub extern "C" fn damka_alloc(len: usize) -> *mut u8 {
    Box::leak(vec![0u8; len].into_boxed_slice()).as_mut_ptr()
}

/// A panic (a bug: nothing panics on input) is said as an `error` line before the module
/// stops; the script then starts a fresh session.
fn report_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        std::panic::set_hook(Box::new(|info| {
            let line = format!(
                "error message=\"engine failure: {}\"\n",
                info.to_string().replace('"', "'").replace('\n', " ")
            );
            OUTPUT.with(|o| {
                if let Ok(mut o) = o.try_borrow_mut() {
                    o.extend_from_slice(line.as_bytes());
                }
            });
        }));
    });
}

/// Makes the input buffer `len` bytes long and returns where the script writes them.
#[no_mangle]
pub extern "C" fn damka_input(len: usize) -> *mut u8 {
    report_panics();
    INPUT.with(|i| {
        let mut i = i.borrow_mut();
        i.clear();
        i.resize(len, 0);
        i.as_mut_ptr()
    })
}

/// Hands the input buffer to the session as one line. Returns 1, or 0 after `quit`; lines
/// that need the search to end wait for [`damka_run`].
#[no_mangle]
pub extern "C" fn damka_feed() -> i32 {
    let line = INPUT.with(|i| std::mem::take(&mut *i.borrow_mut()));
    // A failed write cannot happen: the output is memory.
    let going = with_session(|s| s.feed(&line).unwrap_or(true));
    i32::from(going.unwrap_or(true))
}

/// Answers a message that was not a line of text with an `error` line.
#[no_mangle]
pub extern "C" fn damka_reject() {
    with_session(|s| s.reject_input("message is not a string (one Hub line expected)"));
}

/// Runs the search a `go` started, if any, then writes what it reported and carries out the
/// lines that waited for it; repeats while those start another. Returns 1, or 0 after `quit`.
/// The script calls it after every [`damka_feed`], through Asyncify (the search pauses).
#[no_mangle]
pub extern "C" fn damka_run() -> i32 {
    loop {
        // Outside any borrow of the session: see the crate's documentation.
        pool::run_deferred();
        let going = with_session(|s| s.pump().unwrap_or(true)).unwrap_or(true);
        if !going {
            return 0;
        }
        if !pool::has_deferred() {
            return 1;
        }
    }
}

/// Writes what the running search has reported so far (while it is paused); never waits.
#[no_mangle]
pub extern "C" fn damka_poll() {
    with_session(|s| s.pump());
}

/// Whether a search runs (1) or not (0).
#[no_mangle]
pub extern "C" fn damka_searching() -> i32 {
    i32::from(with_session(|s| s.is_searching()).unwrap_or(true))
}

/// Where the output buffer starts.
#[no_mangle]
pub extern "C" fn damka_output() -> *const u8 {
    OUTPUT.with(|o| o.borrow().as_ptr())
}

/// Bytes in the output buffer.
#[no_mangle]
pub extern "C" fn damka_output_len() -> usize {
    OUTPUT.with(|o| o.borrow().len())
}

/// Empties the output buffer (the script has read it).
#[no_mangle]
pub extern "C" fn damka_output_clear() {
    OUTPUT.with(|o| o.borrow_mut().clear());
}

/// 0 for Russian, 1 for Turkish.
fn variant_of(code: i32) -> Variant {
    if code == 1 {
        Variant::Turkish
    } else {
        Variant::Russian
    }
}

/// Perft of the position in the input buffer (FEN or Hub text) in game `variant` (0 Russian,
/// 1 Turkish) to `depth`; -1 when the position does not parse.
#[no_mangle]
pub extern "C" fn damka_perft(variant: i32, depth: u32) -> f64 {
    struct Count(String, u32);
    impl GameTask for Count {
        type Output = Option<u64>;
        fn run<P: Evaluate + Perft>(self) -> Option<u64> {
            let pos = P::parse_any(&self.0).ok()?;
            Some(damka::perft::perft(&pos, self.1))
        }
    }
    let text = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    dispatch(variant_of(variant), Count(text, depth)).map_or(-1.0, |n| n as f64)
}

/// The bench of game `variant` (0 Russian, 1 Turkish) as `damka bench` runs it (one thread,
/// 16 MiB table, default depth and evaluation): the nodes searched; -1 on an error.
#[no_mangle]
pub extern "C" fn damka_bench(variant: i32) -> f64 {
    struct Bench;
    impl GameTask for Bench {
        type Output = Result<Vec<damka::engine::bench::BenchLine>, String>;
        fn run<P: Evaluate + Perft>(self) -> Self::Output {
            let mut searcher = Searcher::<P>::new(1, 16);
            searcher.set_evaluator(Evaluators::default().get(P::VARIANT).clone())?;
            bench_game::<P>(None, searcher, &mut |_| {})
        }
    }
    match dispatch(variant_of(variant), Bench) {
        Ok(lines) => lines.iter().map(|l| l.nodes).sum::<u64>() as f64,
        Err(_) => -1.0,
    }
}

/// Checks a game for the tests: the input buffer holds moves (Hub or algebraic text, separated
/// by spaces) from the start of game `variant` (0 Russian, 1 Turkish). Returns -1 if one of
/// them is illegal where it is played, 0 if the game is over after them, else the number of
/// legal moves.
#[no_mangle]
pub extern "C" fn damka_legal(variant: i32) -> i32 {
    struct Replay(String);
    impl GameTask for Replay {
        type Output = i32;
        fn run<P: Evaluate + Perft>(self) -> i32 {
            let mut game = damka::game::Game::<P>::from_start();
            for m in self.0.split_ascii_whitespace() {
                if game.is_over() || game.play_text(m).is_err() {
                    return -1;
                }
            }
            if game.is_over() {
                0
            } else {
                game.legal_moves().len() as i32
            }
        }
    }
    let text = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    dispatch(variant_of(variant), Replay(text))
}

/// The page's view of a local game (see [`page::view`] for the request in the input buffer),
/// as JSON in the output buffer.
#[no_mangle]
pub extern "C" fn damka_view(variant: i32) {
    answer(|text| page::view(variant_of(variant), text));
}

/// The review of a game from its searched verdicts (see [`page::review`] for the JSON request
/// in the input buffer), as JSON in the output buffer: the library's rule, as the command line
/// and the server apply it.
#[no_mangle]
pub extern "C" fn damka_review(variant: i32) {
    answer(|text| page::review(variant_of(variant), text));
}

/// The board editor's check of the position (FEN) in the input buffer, as JSON in the output
/// buffer (see [`page::setup`]).
#[no_mangle]
pub extern "C" fn damka_setup(variant: i32) {
    answer(|text| page::setup(variant_of(variant), text));
}

/// Replaces the output buffer with `f` of the input buffer's text.
fn answer(f: impl FnOnce(&str) -> serde_json::Value) {
    let text = INPUT.with(|i| String::from_utf8_lossy(&i.borrow()).into_owned());
    let json = f(&text).to_string();
    OUTPUT.with(|o| {
        let mut o = o.borrow_mut();
        o.clear();
        o.extend_from_slice(json.as_bytes());
    });
}
