//! The engine facade under threads: start, stop, ponder and quit during parallel searches,
//! many times, never hang; results are legal moves.

use crate::search_support;

use damka::core::Variant;
use damka::engine::{Engine, EngineError, GoMode, Limits, SearchOutcome};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const TURKISH_MIDGAME: &str = "W:Wb2,c2,d2,e2,f2,g2,a4,b4,c4,f4,g4:Bb6,c6,d6,e6,f6,a7,b7,g7,h5,c5";

fn go_collect(e: &mut Engine, limits: Limits, mode: GoMode) -> mpsc::Receiver<SearchOutcome> {
    let (tx, rx) = mpsc::channel();
    e.go(
        limits,
        mode,
        Box::new(|_| {}),
        Box::new(move |o| {
            tx.send(o).unwrap();
        }),
    )
    .unwrap();
    rx
}

/// A Turkish engine with `threads` threads, a small table, at a middle-game position.
fn midgame_engine(threads: usize) -> Engine {
    let mut e = Engine::new(Variant::Turkish);
    e.set_threads(threads);
    e.set_hash_mb(4);
    e.set_position(TURKISH_MIDGAME, &[]).unwrap();
    e
}

fn legal(e: &Engine, o: &SearchOutcome) -> bool {
    let m = o.best.as_ref().expect("a move");
    e.legal_moves().contains(m)
}

#[test]
fn start_stop_many_times_with_threads() {
    let mut e = midgame_engine(3);
    for i in 0..60 {
        let rx = go_collect(&mut e, Limits::default(), GoMode::Analyze);
        assert!(e.is_searching());
        std::thread::sleep(Duration::from_millis(i % 7));
        let t = Instant::now();
        e.stop();
        let o = rx
            .recv_timeout(Duration::from_secs(5))
            .expect("done after stop");
        // Generous bound for a loaded test machine; the design target is 50 ms.
        assert!(
            t.elapsed() < Duration::from_millis(500),
            "{:?}",
            t.elapsed()
        );
        e.wait();
        assert!(!e.is_searching());
        assert!(legal(&e, &o));
        // Exactly one `done`.
        assert!(rx.recv_timeout(Duration::from_millis(1)).is_err());
    }
}

#[test]
fn quit_during_search_never_hangs() {
    // The drops run on their own thread, watched: a hang fails the test instead of hanging
    // the test run.
    let (done_tx, done_rx) = mpsc::channel();
    std::thread::spawn(move || {
        for i in 0..20 {
            let mut e = Engine::new(Variant::Turkish);
            e.set_threads(2);
            e.set_hash_mb(2);
            let _rx = go_collect(&mut e, Limits::default(), GoMode::Think);
            std::thread::sleep(Duration::from_millis(i % 5));
            drop(e);
        }
        let _ = done_tx.send(());
    });
    // Generous for a loaded machine: 20 short searches each dropped within milliseconds.
    match done_rx.recv_timeout(Duration::from_secs(60)) {
        Ok(()) => {}
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("dropping a searching engine hung"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("the engine panicked while dropped"),
    }
}

#[test]
fn busy_and_bad_input_are_errors() {
    let mut e = Engine::new(Variant::Turkish);
    e.set_hash_mb(2);
    let fen = e.fen();
    let rx = go_collect(&mut e, Limits::default(), GoMode::Analyze);
    let r = e.go(
        Limits::default(),
        GoMode::Think,
        Box::new(|_| {}),
        Box::new(|_| {}),
    );
    assert_eq!(r, Err(EngineError::Busy));
    e.stop();
    rx.recv().unwrap();
    e.wait();
    assert!(matches!(
        e.set_position("W:Wz9", &[]),
        Err(EngineError::BadPosition(_))
    ));
    assert!(matches!(
        e.set_position(&fen, &["a3-a4", "a3-a4"]),
        Err(EngineError::BadMove { index: 1, .. })
    ));
    assert_eq!(e.fen(), fen);
    assert!(e.set_option("threads", "0").is_err());
    assert!(e.set_option("bogus", "1").is_err());
    e.set_option("Threads", "2").unwrap();
    assert_eq!(e.threads(), 2);
    e.set_option("hash", "3").unwrap();
    assert_eq!(e.hash_mb(), 3);
}

#[test]
fn ponder_waits_for_the_hit_then_obeys_the_clock() {
    let mut e = midgame_engine(2);
    let limits = Limits {
        depth: Some(3),
        movetime: Some(0.2),
        ..Limits::default()
    };
    let rx = go_collect(&mut e, limits.clone(), GoMode::Ponder);
    // Depth 3 is done in far less than this, but a ponder search must not finish by itself.
    assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
    assert!(e.is_searching());
    let t = Instant::now();
    e.ponder_hit();
    let o = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("done after the hit");
    assert!(t.elapsed() < Duration::from_millis(500));
    e.wait();
    assert!(legal(&e, &o));

    // Stop during pondering answers at once too.
    let rx = go_collect(&mut e, limits, GoMode::Ponder);
    std::thread::sleep(Duration::from_millis(20));
    e.stop();
    let o = rx
        .recv_timeout(Duration::from_secs(5))
        .expect("done after stop");
    e.wait();
    assert!(legal(&e, &o));
}

#[test]
fn clock_limits_are_respected() {
    let mut e = midgame_engine(2);
    for (time, inc) in [(1.0, 0.0), (0.3, 0.1), (0.05, 0.0), (-1.0, 0.0)] {
        let t = Instant::now();
        let o = e
            .search_blocking(
                Limits {
                    time: Some(time),
                    inc,
                    ..Limits::default()
                },
                GoMode::Think,
                Box::new(|_| {}),
            )
            .unwrap();
        let used = t.elapsed().as_secs_f64();
        assert!(used < time.max(0.0) + 0.15, "time {time}: used {used}");
        assert!(legal(&e, &o));
    }
}

#[test]
fn parallel_searches_agree_on_a_forced_line() {
    // A forced win: every thread count must find the same move and a win score.
    for threads in [1, 2, 4] {
        let mut e = Engine::new(Variant::Turkish);
        e.set_threads(threads);
        e.set_hash_mb(4);
        e.set_position("W:Wa5,c5,Ka8:BKa4,b5,g5", &[]).unwrap();
        let o = search_support::analyse_to_depth(&mut e, 8, Box::new(|_| {}));
        assert_eq!(o.best.unwrap().algebraic, "a8-a6", "{threads} threads");
        assert!(o.score > 9000, "{threads} threads: {}", o.score);
    }
}

#[test]
fn threads_that_cannot_start_leave_a_working_engine_and_a_message() {
    let mut e = Engine::new(Variant::Turkish);
    e.set_hash_mb(2);
    assert!(e.take_notices().is_empty());
    // As under a small address-space limit: the system refuses threads from the third on.
    damka::search::pool::refuse_thread_starts_from(Some(2));
    let set = e.set_option("threads", "4");
    damka::search::pool::refuse_thread_starts_from(None);
    set.expect("not an error: the engine goes on with fewer threads");
    assert_eq!(e.threads(), 2);
    let notices = e.take_notices();
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].contains("4 asked") && notices[0].contains("2 started"),
        "{notices:?}"
    );
    assert!(e.take_notices().is_empty(), "each notice once");
    e.set_position(TURKISH_MIDGAME, &[]).unwrap();
    let limits = Limits {
        depth: Some(5),
        ..Limits::default()
    };
    let o = e
        .search_blocking(limits, GoMode::Think, Box::new(|_| {}))
        .unwrap();
    assert_eq!(o.depth, 5);
    assert!(legal(&e, &o));
    // Once the system allows it, asking again gives all of them.
    e.set_option("threads", "4").unwrap();
    assert_eq!(e.threads(), 4);
    assert!(e.take_notices().is_empty());
}
