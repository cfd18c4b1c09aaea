//! DXP over TCP on the loopback interface: damka against damka (initiator against follower)
//! for whole games in both games, a server that keeps serving after bad connections, and the
//! `damka dxp` program itself (with the endgame databases of its default folder, played
//! perfectly).

use crate::dxp_support;

use damka::core::Variant;
use damka::dispatch::dispatch;
use damka::game::Game;
use damka::protocol::dxp::message::{AccCode, EndReason, Message};
use damka::protocol::dxp::server::{Connect, Resources, Serve};
use damka::protocol::dxp::wire::{Event, Framer};
use damka::protocol::dxp::{GameOver, GameRecord};
use damka::variant::{Notation, Position, RussianPosition, TurkishPosition};
use dxp_support::test_config;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{ChildStderr, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

const RESOURCES: Resources = Resources {
    threads: 1,
    hash_mb: 8,
    egtb: None,
    egtb_optional: false,
};

fn serve(variant: Variant, connections: usize) -> (u16, thread::JoinHandle<Vec<GameRecord>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let (config, _) = test_config();
    let task = Serve {
        listener,
        config,
        resources: RESOURCES,
        max_connections: Some(connections),
    };
    (
        port,
        thread::spawn(move || dispatch(variant, task).unwrap()),
    )
}

/// Replays a record with the rules and returns the game.
fn replay<P: Notation>(r: &GameRecord) -> Game<P> {
    let mut g = Game::new(P::from_hub(&r.start).unwrap());
    for m in &r.moves {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

fn damka_against_damka<P: Notation + damka::eval::Evaluate>(variant: Variant, start: Option<&str>) {
    let (port, server) = serve(variant, 1);
    let (mut config, _) = test_config();
    config.movetime = Some(0.04);
    let task = Connect {
        address: format!("127.0.0.1:{port}"),
        config,
        resources: RESOURCES,
        games: 2,
        minutes: 1,
        // A guard only: a game reaching 300 moves would end by the move count and fail the
        // test below instead of running on.
        moves: 300,
        color: None,
        start: start.map(str::to_string),
    };
    let (ours, outcome) = dispatch(variant, task);
    assert_eq!(outcome, Ok(()));
    let theirs = server.join().unwrap();
    assert_eq!(ours.len(), 2);
    assert_eq!(theirs.len(), 2);
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(a.moves, b.moves, "both sides saw the same game");
        assert_eq!(a.color, b.color.opposite());
        let game = replay::<P>(a);
        let end = game.result().expect("a whole game, over by the rules");
        assert_eq!(a.end, GameOver::Rules(end));
        assert_eq!(b.end, GameOver::Rules(end));
        assert!(a.used < a.clock && b.used < b.clock);
    }
    assert_eq!(ours[0].color, damka::core::Color::White);
    assert_eq!(ours[1].color, damka::core::Color::Black);
}

#[test]
fn russian_damka_against_damka_whole_games() {
    damka_against_damka::<RussianPosition>(Variant::Russian, None);
}

/// Turkish has no draw rule but repetition and one piece against one, so two equal damkas
/// can shuffle kings for hundreds of moves from the start (seen once at 300 moves); from the
/// start position less four black men every game is decided by the rules.
#[test]
fn turkish_damka_against_damka_whole_games() {
    damka_against_damka::<TurkishPosition>(
        Variant::Turkish,
        Some("W:Wa2,b2,c2,d2,e2,f2,g2,h2,a3,b3,c3,d3,e3,f3,g3,h3:Ba6,b6,c6,d6,e6,f6,g6,h6,a7,b7,c7,d7"),
    );
}

/// A raw TCP client reading messages with a deadline.
struct Client {
    stream: TcpStream,
    framer: Framer,
    pending: Vec<Event>,
}

impl Client {
    fn connect(port: u16) -> Client {
        let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_millis(100)))
            .unwrap();
        Client {
            stream,
            framer: Framer::default(),
            pending: Vec::new(),
        }
    }

    fn text(&mut self, s: &str) {
        self.stream.write_all(s.as_bytes()).unwrap();
        self.stream.write_all(&[0]).unwrap();
    }

    fn expect_gameend(&mut self, reason: EndReason, stop: bool) {
        assert_eq!(self.expect(), Message::GameEnd { reason, stop });
    }

    fn expect_acc(&mut self, code: AccCode) {
        match self.expect() {
            Message::GameAcc { code: c, .. } if c == code => {}
            other => panic!("expected a GAMEACC {code:?}, got {other:?}"),
        }
    }

    fn expect(&mut self) -> Message {
        let deadline = Instant::now() + Duration::from_secs(20);
        while self.pending.is_empty() {
            assert!(Instant::now() < deadline, "no message from damka");
            let mut buf = [0u8; 256];
            match self.stream.read(&mut buf) {
                Ok(0) => panic!("damka closed the connection"),
                Ok(n) => self.pending = self.framer.feed(&buf[..n]),
                Err(_) => {}
            }
        }
        match self.pending.remove(0) {
            Event::Message(m) => m,
            e => panic!("expected a message, got {e:?}"),
        }
    }
}

const GAMEREQ_RUSSIAN_WHITE: &str =
    "R01DXP Client                      W001000BWzzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";

#[test]
fn the_server_keeps_serving_after_bad_connections() {
    let (port, server) = serve(Variant::Russian, 3);
    // Garbage, then gone.
    let mut c = Client::connect(port);
    c.stream.write_all(&[0xff; 400]).unwrap();
    c.text("X");
    drop(c);
    // Gone in mid-game, while damka thinks.
    let mut c = Client::connect(port);
    c.text(GAMEREQ_RUSSIAN_WHITE);
    c.expect_acc(AccCode::Accept);
    drop(c);
    // A good connection is still served.
    let mut c = Client::connect(port);
    c.text(GAMEREQ_RUSSIAN_WHITE);
    c.expect_acc(AccCode::Accept);
    let mut game = Game::<RussianPosition>::from_start();
    dxp_support::take_move(&mut game, &c.expect());
    c.text("E01");
    c.expect_gameend(EndReason::Unknown, false);
    drop(c);
    let records = server.join().unwrap();
    assert_eq!(records.len(), 2);
    assert!(matches!(records[0].end, GameOver::Disconnected(_)));
    assert_eq!(records[1].end, GameOver::PeerEnded(EndReason::Unknown));
}

fn damka(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Starts `damka dxp` on a port the system chooses (`--port 0`) and returns it with the port
/// it listens on, read from its first log line, and the rest of its log. Choosing the port in
/// the test and passing it on would race with every other test binding a port meanwhile.
fn damka_listening(args: &[&str]) -> (std::process::Child, u16, BufReader<ChildStderr>) {
    let mut all = args.to_vec();
    all.extend(["--port", "0"]);
    let mut child = damka(&all);
    let mut log = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    log.read_line(&mut line).unwrap();
    let port = line
        .trim_end()
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no port in the first log line {line:?}"));
    assert!(line.contains("listening on"), "{line}");
    (child, port, log)
}

#[test]
fn the_program_serves_on_its_port_and_writes_nothing_to_stdout() {
    let (child, port, mut log) = damka_listening(&[
        "dxp",
        "--variant",
        "turkish",
        "--connections",
        "1",
        "--movetime",
        "0.05",
    ]);
    let mut c = None;
    for _ in 0..100 {
        if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
            s.set_read_timeout(Some(Duration::from_millis(100)))
                .unwrap();
            c = Some(Client {
                stream: s,
                framer: Framer::default(),
                pending: Vec::new(),
            });
            break;
        }
        thread::sleep(Duration::from_millis(50));
    }
    let mut c = c.expect("damka dxp listens");
    // A Russian position to the Turkish server: refused, with the reason in a CHAT.
    c.text(GAMEREQ_RUSSIAN_WHITE);
    c.expect_acc(AccCode::RefuseGame);
    assert!(matches!(c.expect(), Message::Chat(t) if t.contains("layout")));
    let start = damka::protocol::dxp::board::setup_of(&TurkishPosition::start());
    c.text(&format!(
        "R01DXP Client                      Z000000BW{}",
        start.squares
    ));
    c.expect_acc(AccCode::Accept);
    c.text("M0000172500");
    assert!(matches!(c.expect(), Message::Move { .. }));
    drop(c);
    let mut err = String::new();
    log.read_to_string(&mut err).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "stdout: {:?}", out.stdout);
    assert!(err.contains("game refused: wrong variant layout"), "{err}");
    assert!(!err.contains("panick"), "{err}");
}

#[test]
fn a_closed_log_does_not_end_the_server() {
    let (mut child, port, log) = damka_listening(&["dxp", "--connections", "2"]);
    drop(log); // every log line now fails to be written
    let mut served = 0;
    for _ in 0..100 {
        if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
            s.set_read_timeout(Some(Duration::from_millis(100)))
                .unwrap();
            let mut c = Client {
                stream: s,
                framer: Framer::default(),
                pending: Vec::new(),
            };
            c.text(GAMEREQ_RUSSIAN_WHITE);
            c.expect_acc(AccCode::Accept);
            served += 1;
            if served == 2 {
                break;
            }
        } else {
            thread::sleep(Duration::from_millis(50));
        }
    }
    assert_eq!(served, 2);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}

#[test]
fn bad_arguments_and_busy_ports_are_one_line_errors() {
    let busy = TcpListener::bind("127.0.0.1:0").unwrap();
    let p = busy.local_addr().unwrap().port().to_string();
    for args in [
        vec!["dxp", "--port", p.as_str()],
        vec!["dxp", "--movetime", "-1"],
        vec!["dxp", "--variant", "chess"],
        vec!["dxp", "--connect", "127.0.0.1:1"],
        vec!["dxp", "--connect", "no port"],
        vec!["dxp", "--egtb-path", "/nonexistent/damka-egtb"],
    ] {
        let out = damka(&args).wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            !err.trim().is_empty() && !err.contains("panick"),
            "{args:?}: {err}"
        );
    }
}

/// `damka dxp` with tables built into its default folder and no option about them: every
/// move it plays in won endings is the fastest conversion the tables know, and each game is
/// won (the peer defends with the tables' slowest loss).
#[test]
fn the_program_plays_the_default_folders_tables_perfectly() {
    use damka::core::Color;
    use damka::egtb::{preference, Tablebase};
    use damka::protocol::dxp::board::move_message;
    use damka::variant::GameMove;
    let data = std::env::temp_dir().join(format!("damka-dxp-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    let folder = data.join("damka").join("egtb");
    damka::egtb::build::build_all::<RussianPosition>(&folder, 3, |_, _, _| {}).unwrap();
    let tb = Tablebase::open(&folder, Variant::Russian, 4).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args([
            "dxp",
            "--port",
            "0",
            "--connections",
            "1",
            "--movetime",
            "0.05",
        ])
        .env("XDG_DATA_HOME", &data)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut log = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    log.read_line(&mut line).unwrap();
    let port: u16 = line.trim_end().rsplit(':').next().unwrap().parse().unwrap();
    let mut c = Client::connect(port);
    let mut checked = 0;
    for fen in ["W:WKc3,Ke1:Bh6", "W:WKa1,Kg1:Bd4", "W:WKb2,Kh2:Bf6"] {
        let start = RussianPosition::from_fen(fen).unwrap();
        c.text(&dxp_support::gamereq(&start, Color::White, 10).to_wire());
        c.expect_acc(AccCode::Accept);
        let mut game = Game::new(start);
        loop {
            let pos = *game.position();
            if pos.side_to_move() == Color::White {
                match c.expect() {
                    Message::GameEnd { reason, .. } => {
                        assert_eq!(reason, EndReason::IWin, "{fen}");
                        c.text(
                            &Message::GameEnd {
                                reason,
                                stop: false,
                            }
                            .to_wire(),
                        );
                        break;
                    }
                    m => dxp_support::take_move(&mut game, &m),
                }
                let m = *game.moves().last().unwrap();
                let child = pos.play(&m);
                let kept = tb
                    .probe(&child)
                    .unwrap()
                    .back(m.is_capture() || m.promotes());
                let best = tb.rank_moves(&pos).unwrap()[0].1;
                assert_eq!(preference(kept), preference(best), "{}", pos.to_fen());
                checked += 1;
            } else if let Some(end) = game.result() {
                assert_eq!(
                    end.outcome,
                    damka::variant::Outcome::Win(Color::White),
                    "{fen}"
                );
                c.text(
                    &Message::GameEnd {
                        reason: EndReason::Unknown,
                        stop: false,
                    }
                    .to_wire(),
                );
                c.expect_gameend(EndReason::Unknown, false);
                break;
            } else {
                let m = tb.rank_moves(&pos).unwrap()[0].0;
                game.play(m).unwrap();
                c.text(&move_message::<RussianPosition>(&m, 0).to_wire());
            }
        }
    }
    assert!(checked >= 6, "{checked} moves checked");
    drop(c);
    let mut rest = String::new();
    log.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "{rest}");
    assert!(rest.contains("russian tables up to 3 pieces"), "{rest}");
    let _ = std::fs::remove_dir_all(&data);
}
