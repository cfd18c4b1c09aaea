//! A scripted DXP peer for the tests: it sends raw bytes or typed messages, reads damka's
//! messages with their arrival times, keeps its own copy of the game to check damka's moves
//! with the library's rules, and starts a follower or an initiator on an in-memory link.

use crossbeam_channel::Receiver;
use damka::core::{Color, Rng};
use damka::engine::GameSession;
use damka::eval::Evaluate;
use damka::game::Game;
use damka::protocol::dxp::board::{find_move, move_message, setup_of};
use damka::protocol::dxp::memory::{duplex, End, PipeWriter};
use damka::protocol::dxp::message::{AccCode, EndReason, GameReq, Message, VERSION};
use damka::protocol::dxp::wire::{spawn_reader, Event, Incoming};
use damka::protocol::dxp::{play_games, serve_connection, Config, GameRecord, Log, Match};
use damka::variant::Notation;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

/// How long a test waits for any one message from damka.
pub const WAIT: Duration = Duration::from_secs(20);

/// The log lines a session wrote.
pub type Lines = Arc<Mutex<Vec<String>>>;

/// A quick configuration for tests: short thinking, short timeouts, the log collected.
pub fn test_config() -> (Config, Lines) {
    let lines: Lines = Arc::new(Mutex::new(Vec::new()));
    let sink = lines.clone();
    let log: Log = Arc::new(move |l: &str| sink.lock().unwrap().push(l.to_string()));
    let cfg = Config {
        movetime: Some(0.05),
        reply_timeout: Duration::from_secs(5),
        grace: Duration::from_secs(10),
        idle_timeout: Duration::from_secs(20),
        log,
        ..Config::default()
    };
    (cfg, lines)
}

/// Whether some log line contains `text`.
pub fn logged(lines: &Lines, text: &str) -> bool {
    lines.lock().unwrap().iter().any(|l| l.contains(text))
}

/// The test's end of a connection.
pub struct Peer {
    writer: Option<PipeWriter>,
    inbox: Receiver<Incoming>,
    /// Arrival times of everything received, in order.
    pub arrivals: Vec<Instant>,
}

impl Peer {
    fn new(end: End) -> Peer {
        let (tx, inbox) = crossbeam_channel::unbounded();
        spawn_reader(end.reader, tx);
        Peer {
            writer: Some(end.writer),
            inbox,
            arrivals: Vec::new(),
        }
    }

    /// Writes raw bytes.
    pub fn raw(&mut self, bytes: &[u8]) {
        let w = self.writer.as_mut().expect("peer closed");
        w.write_all(bytes).unwrap();
    }

    /// Writes a message's text and its NUL.
    pub fn text(&mut self, s: &str) {
        let mut b = s.as_bytes().to_vec();
        b.push(0);
        self.raw(&b);
    }

    /// Writes a typed message.
    pub fn send(&mut self, m: &Message) {
        self.text(&m.to_wire());
    }

    /// Closes the peer's writing side (damka's reader sees the end of the stream).
    pub fn close(&mut self) {
        self.writer = None;
    }

    /// The next event within `within`, if any.
    pub fn next(&mut self, within: Duration) -> Option<Event> {
        let ev = self.inbox.recv_timeout(within).ok()?;
        self.arrivals.push(ev.at);
        Some(ev.event)
    }

    /// The next message; fails the test on a timeout or anything else.
    pub fn expect(&mut self) -> Message {
        match self.next(WAIT) {
            Some(Event::Message(m)) => m,
            other => panic!("expected a message from damka, got {other:?}"),
        }
    }

    /// The next message, which must be a CHAT containing `text`.
    /// The next message must be a GAMEACC with `code`.
    pub fn expect_acc(&mut self, code: AccCode) {
        match self.expect() {
            Message::GameAcc { code: c, .. } if c == code => {}
            other => panic!("expected a GAMEACC {code:?}, got {other:?}"),
        }
    }

    /// The next message must be this GAMEEND.
    pub fn expect_gameend(&mut self, reason: EndReason, stop: bool) {
        assert_eq!(self.expect(), Message::GameEnd { reason, stop });
    }

    /// Asks for a game from `start` with damka (the follower) playing `color`; it must be
    /// accepted.
    pub fn start_game<P: Notation>(&mut self, start: &P, color: Color, minutes: u32) {
        self.send(&gamereq(start, color, minutes));
        assert!(matches!(self.expect(), Message::GameAcc { .. }));
    }

    pub fn expect_chat(&mut self, text: &str) -> String {
        match self.expect() {
            Message::Chat(t) if t.contains(text) => t,
            other => panic!("expected a CHAT with {text:?}, got {other:?}"),
        }
    }

    /// Nothing arrives within `within`.
    pub fn expect_silence(&mut self, within: Duration) {
        if let Some(ev) = self.next(within) {
            panic!("expected nothing from damka, got {ev:?}");
        }
    }
}

/// A follower of the test configuration changed by `change`, on one in-memory connection,
/// with the lines it logs.
pub fn follower<P: Evaluate>(
    change: impl FnOnce(&mut Config),
) -> (Peer, JoinHandle<Vec<GameRecord>>, Lines) {
    let (mut cfg, lines) = test_config();
    change(&mut cfg);
    let (peer, handle) = spawn_follower::<P>(cfg);
    (peer, handle, lines)
}

/// A follower on one in-memory connection, serving until the peer closes.
pub fn spawn_follower<P: Evaluate>(cfg: Config) -> (Peer, JoinHandle<Vec<GameRecord>>) {
    let (ours, theirs) = duplex();
    let handle = thread::spawn(move || {
        let mut session = GameSession::<P>::new(1, 4);
        serve_connection(&mut session, theirs.into_link("scripted peer"), &cfg)
    });
    (Peer::new(ours), handle)
}

/// What the initiator returns.
pub type MatchResult = (Vec<GameRecord>, Result<(), String>);

/// An initiator playing `m` on one in-memory connection.
pub fn spawn_initiator<P: Evaluate>(cfg: Config, m: Match<P>) -> (Peer, JoinHandle<MatchResult>) {
    let (ours, theirs) = duplex();
    let handle = thread::spawn(move || {
        let mut session = GameSession::<P>::new(1, 4);
        play_games(
            &mut session,
            theirs.into_link("scripted follower"),
            &cfg,
            &m,
        )
    });
    (Peer::new(ours), handle)
}

/// A GAMEREQ for `start`, damka (the follower) playing `color`.
pub fn gamereq<P: Notation>(start: &P, color: Color, minutes: u32) -> Message {
    Message::GameReq(GameReq {
        version: VERSION,
        name: "scripted peer".into(),
        follower_color: color,
        minutes,
        moves: 0,
        setup: Some(setup_of(start)),
    })
}

/// The move damka sent, checked legal in `game` and played there.
pub fn take_move<P: Evaluate>(game: &mut Game<P>, m: &Message) {
    let Message::Move {
        from, to, captured, ..
    } = m
    else {
        panic!("expected a MOVE, got {m:?}");
    };
    let mv = find_move(game.position(), *from, *to, captured).unwrap_or_else(|e| {
        panic!(
            "damka's {} in {}: {e}",
            m.to_wire(),
            game.position().to_hub()
        )
    });
    game.play(mv).unwrap();
}

/// A random legal move of `game` as a MOVE, played in `game`.
pub fn random_move<P: Evaluate>(game: &mut Game<P>, rng: &mut Rng) -> Message {
    let moves = game.legal_moves();
    let mv = moves[rng.below(moves.len() as u64) as usize];
    game.play(mv).unwrap();
    move_message::<P>(&mv, 0)
}
