//! Endgame databases built into the default folder, as the `damka` program uses them with no
//! option: through the Hub protocol every move of a game the tables cover is perfect (a win
//! converted by the fastest conversion, a loss delayed the longest, a draw never let go), in
//! both games; and bad files in the default folder (another game's tables, a file cut short,
//! a block that fails its check) are said once in the Hub's own `info string` lines, never on
//! stderr, and left out, while every move stays legal and the intact tables stay in use.
//! `damka dxp` and `damka analyse` start with such a folder and say what they left out, and
//! `damka --help` names the folder and what it holds.

use crate::egtb_support;
use crate::process_support;

use damka::core::{Rng, Variant};
use damka::egtb::build::build_all;
use damka::egtb::rules::{under_rules, CountedDraws};
use damka::egtb::{preference, Tablebase, Value};
use damka::game::Game;
use damka::variant::notation::write_hub_move;
use damka::variant::{GameMove, Notation, Position};
use damka::variant::{RussianPosition, TurkishPosition};
use egtb_support::positions;
use process_support::{data_home, run_in, Out};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const DAMKA: &str = env!("CARGO_BIN_EXE_damka");

/// The default database folder under `data`.
fn default_folder(data: &Path) -> PathBuf {
    data.join("damka").join("egtb")
}

/// A fresh data home `name` whose default folder holds the Russian tables up to `russian`
/// pieces and the Turkish ones up to `turkish` (0: none); (data home, default folder).
fn with_tables(name: &str, russian: u32, turkish: u32) -> (PathBuf, PathBuf) {
    let data = data_home(name);
    let folder = default_folder(&data);
    if russian > 0 {
        build_all::<RussianPosition>(&folder, russian, |_, _, _| {}).unwrap();
    }
    if turkish > 0 {
        build_all::<TurkishPosition>(&folder, turkish, |_, _, _| {}).unwrap();
    }
    (data, folder)
}

/// `damka` speaking Hub on pipes, with `data` as `$XDG_DATA_HOME` and no option.
struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The answer to `hub`, up to `wait`.
    params: Vec<String>,
}

impl Hub {
    fn start(data: &Path) -> Hub {
        let mut child = Command::new(DAMKA)
            .env("XDG_DATA_HOME", data)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut hub = Hub {
            child,
            stdin,
            lines,
            params: Vec::new(),
        };
        hub.send("hub");
        hub.params = hub.until("wait");
        hub
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Every line up to and including the first that starts with `first_word`.
    fn until(&mut self, first_word: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no {first_word:?} line after {out:?}"));
            let done = line.split(' ').next() == Some(first_word);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// The engine's move and the lines before it, after `moves` from `start`.
    fn go(&mut self, start: &str, moves: &[String]) -> (String, Vec<String>) {
        self.send(&format!("pos pos={start} moves=\"{}\"", moves.join(" ")));
        self.send("level depth=4");
        self.send("go think");
        let lines = self.until("done");
        let done = lines.last().unwrap();
        let mv = done
            .split(' ')
            .find_map(|w| w.strip_prefix("move="))
            .unwrap_or_else(|| panic!("{done}"))
            .to_string();
        (mv, lines)
    }

    /// Quits; what the program wrote on stderr.
    fn quit(mut self) -> String {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        let mut err = String::new();
        self.child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut err)
            .unwrap();
        err
    }
}

/// The stored value a move keeps for the side that plays it.
fn kept<P: Position>(tb: &Tablebase, pos: &P, m: &P::Move) -> Value {
    let child = pos.play(m);
    tb.probe(&child)
        .unwrap()
        .back(m.is_capture() || m.promotes())
}

/// Plays games from `starts` through the Hub, the engine moving for both sides, and checks
/// every move the tables judge under the rules: it must keep the best value the position
/// has, that is convert a win the fastest, delay a loss the longest, and keep a draw.
/// Returns (moves checked, games won as the tables said).
fn perfect_games<P: CountedDraws + Notation>(
    hub: &mut Hub,
    tb: &Tablebase,
    starts: &[P],
) -> (usize, usize) {
    let (mut checked, mut won) = (0, 0);
    for start in starts {
        let mut game = Game::new(*start);
        let first = tb.probe(start).unwrap();
        while !game.is_over() && game.ply() < 80 {
            let pos = *game.position();
            let (text, lines) = hub.go(&start.to_fen(), &game.move_texts_hub());
            let legal = pos.legal_moves();
            let Some(m) = legal.iter().find(|m| write_hub_move::<P>(m) == text) else {
                panic!("{text} is not legal in {} ({lines:?})", pos.to_fen());
            };
            let stored = tb.probe(&pos).unwrap();
            let fits = under_rules(stored, pos.plies_left(game.rule_state())) == Some(stored);
            if fits && pieces(&pos) <= tb.max_pieces() {
                let ranked = tb.rank_moves(&pos).unwrap();
                let best = preference(ranked[0].1);
                assert_eq!(
                    preference(kept(tb, &pos, m)),
                    best,
                    "{} in {} (stored {stored:?}): best {:?}",
                    text,
                    pos.to_fen(),
                    ranked[0]
                );
                checked += 1;
            }
            game.play(*m).unwrap();
        }
        if let Value::Win(_) = first {
            let end = game.result().map(|e| e.outcome);
            if end == Some(damka::variant::Outcome::Win(start.side_to_move())) {
                won += 1;
            }
        }
    }
    (checked, won)
}

/// [`perfect_games`] from `starts`, of which `wins` are won: at least `min_checked` moves
/// judged, every win converted.
fn assert_perfect<P: CountedDraws + Notation>(
    hub: &mut Hub,
    tb: &Tablebase,
    starts: &[P],
    wins: usize,
    min_checked: usize,
) {
    let (checked, won) = perfect_games(hub, tb, starts);
    assert!(
        checked >= min_checked && won == wins,
        "{checked} moves checked, {won} of {wins} won"
    );
}

/// Whether `text` is a legal move of `pos` in Hub numbers.
fn legal<P: Notation>(pos: &P, text: &str) -> bool {
    pos.legal_moves()
        .iter()
        .any(|m| write_hub_move::<P>(m) == text)
}

fn pieces<P: Position>(pos: &P) -> u32 {
    damka::egtb::pieces_on_board(pos)
}

/// `wins` positions won under fresh counters and `draws` drawn ones in which some move loses
/// (so holding the draw is a choice), both sides with pieces, White to move, seeded.
fn starts<P: CountedDraws>(tb: &Tablebase, wins: usize, draws: usize, seed: u64) -> Vec<P> {
    let mut all: Vec<P> = positions::<P>(3, |c| c[0] + c[1] > 0 && c[2] + c[3] > 0)
        .into_iter()
        .filter(|p| p.side_to_move() == damka::core::Color::White && !p.legal_moves().is_empty())
        .collect();
    Rng::new(seed).shuffle(&mut all);
    let (mut w, mut d) = (Vec::new(), Vec::new());
    for p in all {
        let fresh = p.rule_state_new();
        let stored = tb.probe(&p).unwrap();
        if w.len() == wins && d.len() == draws {
            break;
        }
        match under_rules(stored, p.plies_left(&fresh)) {
            Some(Value::Win(n)) if n >= 3 && w.len() < wins => w.push(p),
            Some(Value::Draw)
                if d.len() < draws
                    && p.legal_moves()
                        .iter()
                        .any(|m| matches!(kept(tb, &p, m), Value::Loss(_))) =>
            {
                d.push(p)
            }
            _ => {}
        }
    }
    assert_eq!((w.len(), d.len()), (wins, draws));
    w.extend(d);
    w
}

#[test]
fn positions_the_default_tables_cover_are_played_perfectly_in_both_games() {
    let (data, folder) = with_tables("perfect", 3, 3);
    let russian = Tablebase::open(&folder, Variant::Russian, 8).unwrap();
    let turkish = Tablebase::open(&folder, Variant::Turkish, 8).unwrap();

    let mut hub = Hub::start(&data);
    hub.send("init");
    let ready = hub.until("ready");
    assert_eq!(ready, vec!["ready"], "no message about good tables");
    let russian_starts = starts::<RussianPosition>(&russian, 8, 4, 1);
    assert_perfect(&mut hub, &russian, &russian_starts, 8, 40);

    hub.send("set-param name=variant value=turkish");
    let turkish_starts = starts::<TurkishPosition>(&turkish, 6, 3, 2);
    assert_perfect(&mut hub, &turkish, &turkish_starts, 6, 20);
    let err = hub.quit();
    assert_eq!(err, "");
    let _ = std::fs::remove_dir_all(&data);
}

/// The `info string` lines among `lines`.
fn said(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect()
}

/// Cuts the last `bytes` bytes off a file.
fn cut(path: &Path, bytes: u64) {
    let f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    let len = f.metadata().unwrap().len();
    f.set_len(len - bytes).unwrap();
}

/// Flips one byte in every block of a table (past its header): the file keeps its length,
/// and a block fails its check only when a probe reads it.
fn damage_blocks(path: &Path) {
    let header = damka::egtb::store::read_header(&mut std::fs::File::open(path).unwrap()).unwrap();
    let mut bytes = std::fs::read(path).unwrap();
    for w in header.offsets.windows(2) {
        let at = header.data_start + (w[0] + w[1]) / 2;
        bytes[at as usize] ^= 0x5a;
    }
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn bad_files_in_the_default_folder_are_said_once_and_left_out() {
    let (data, folder) = with_tables("bad", 3, 0);
    // Russian files where the Turkish tables belong, one Russian table cut short, and one
    // whose blocks are damaged.
    let (ru, tu) = (folder.join("russian"), folder.join("turkish"));
    std::fs::create_dir_all(&tu).unwrap();
    for f in ["0101.egtb", "0201.egtb", "0210.egtb"] {
        std::fs::copy(ru.join(f), tu.join(f)).unwrap();
    }
    cut(&ru.join("0201.egtb"), 7);
    damage_blocks(&ru.join("0102.egtb"));
    let good = Tablebase::open(&folder, Variant::Russian, 8).unwrap();

    let mut hub = Hub::start(&data);
    let found = hub
        .params
        .iter()
        .find(|l| l.contains("name=egtb-found"))
        .unwrap();
    assert!(found.contains("russian tables up to 3 pieces"), "{found}");
    hub.send("init");
    let ready = hub.until("ready");
    let notes = said(&ready);
    assert_eq!(notes.len(), 1, "{ready:?}");
    assert!(
        notes[0].contains("0201.egtb") && notes[0].contains("cut short"),
        "{notes:?}"
    );

    // A position of the table cut short: searched without it, a legal move, and no message
    // about it again (its search meets the damaged table, which is said below).
    let (mv, lines) = hub.go("W:WKc3,Ke1:BKh8", &[]);
    let mut damaged_notes: Vec<String> = said(&lines).into_iter().cloned().collect();
    assert!(!lines.iter().any(|l| l.contains("0201")), "{lines:?}");
    let pos = RussianPosition::parse_any("W:WKc3,Ke1:BKh8").unwrap();
    assert!(legal(&pos, &mv), "{mv}");

    // Positions of the damaged table (K-KK): said once when met, never used; the intact
    // tables still give perfect moves.
    let all = positions::<RussianPosition>(3, |c| c == [0, 1, 0, 2]);
    for p in all.iter().step_by(all.len() / 12) {
        if p.legal_moves().is_empty() {
            continue;
        }
        let (mv, lines) = hub.go(&p.to_fen(), &[]);
        damaged_notes.extend(said(&lines).into_iter().cloned());
        assert!(legal(p, &mv), "{mv}");
    }
    assert_eq!(damaged_notes.len(), 1, "{damaged_notes:?}");
    assert!(damaged_notes[0].contains("0102"), "{damaged_notes:?}");
    let kk_m = positions::<RussianPosition>(3, |c| c == [0, 2, 1, 0]);
    let wins: Vec<RussianPosition> = kk_m
        .into_iter()
        .filter(|p| p.side_to_move() == damka::core::Color::White)
        .filter(|p| matches!(good.probe(p), Ok(Value::Win(d)) if d >= 3))
        .take(3)
        .collect();
    assert_perfect(&mut hub, &good, &wins, 3, 1);

    // Turkish: the folder holds only Russian tables, said once; going back and forth between
    // the games does not say it again.
    hub.send("set-param name=variant value=turkish");
    hub.send("ping");
    let lines = hub.until("pong");
    let notes = said(&lines);
    assert_eq!(notes.len(), 1, "{lines:?}");
    assert!(notes[0].contains("russian table"), "{notes:?}");
    for v in ["russian", "turkish"] {
        hub.send(&format!("set-param name=variant value={v}"));
    }
    hub.send("ping");
    let lines = hub.until("pong");
    assert!(said(&lines).is_empty(), "{lines:?}");
    let start = TurkishPosition::parse_any("W:WKa1,Kc1:BKh8").unwrap();
    let (mv, lines) = hub.go(&start.to_fen(), &[]);
    assert!(said(&lines).is_empty(), "{lines:?}");
    assert!(legal(&start, &mv), "{mv}");
    let err = hub.quit();
    assert_eq!(err, "", "nothing on stderr during a Hub session");

    // A client that turns the tables off before `init` hears nothing of the default folder.
    let mut hub = Hub::start(&data);
    hub.send("set-param name=egtb-path value=\"\"");
    hub.send("init");
    assert_eq!(hub.until("ready"), vec!["ready"]);
    assert_eq!(hub.quit(), "");
    let _ = std::fs::remove_dir_all(&data);
}

/// The other programs with the same folder: `damka analyse` and `damka play` say once what
/// they left out and still analyse and play; `damka dxp`, whose default-folder tables are of the other game only,
/// says so and serves without them (a folder it is given must open, as before).
#[test]
fn analyse_and_dxp_say_what_they_left_out_and_play_on() {
    let (data, folder) = with_tables("cli", 3, 2);
    cut(&folder.join("russian").join("0201.egtb"), 100);
    let analyse = ["analyse", "--fen", "W:WKc3,Ke1:BKh8", "--depth", "3"];
    let Out {
        code,
        stdout,
        stderr,
    } = run_in(&data, DAMKA, &analyse, &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(stderr.matches("0201.egtb").count(), 1, "{stderr}");
    assert!(stdout.contains("bestmove "), "{stdout}");

    // `damka play`, engine against engine, with K-KK damaged too: each said once, the game
    // played to its end.
    damage_blocks(&folder.join("russian").join("0102.egtb"));
    let play = [
        "play",
        "--fen",
        "W:WKc3,Ke1:BKh8",
        "--depth",
        "2",
        "--ascii",
    ];
    let both_engines = ["--white", "engine", "--black", "engine"];
    let Out {
        code,
        stdout,
        stderr,
    } = run_in(&data, DAMKA, &[&play[..], &both_engines].concat(), &[]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("Game over"), "{stdout}");
    assert_eq!(stderr.matches("0201.egtb").count(), 1, "{stderr}");
    assert_eq!(stderr.matches("(0102) is damaged").count(), 1, "{stderr}");

    // The default folder now holds only Turkish tables, and DXP plays Russian.
    std::fs::remove_dir_all(folder.join("russian")).unwrap();
    let mut dxp = Command::new(DAMKA)
        .args(["dxp", "--variant", "russian", "--port", "0"])
        .env("XDG_DATA_HOME", &data)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The port in the first line (what a caller of `--port 0` reads), then the tables.
    let mut lines = BufReader::new(dxp.stderr.take().unwrap()).lines();
    let mut next = || lines.next().and_then(Result::ok).unwrap_or_default();
    let (first, second) = (next(), next());
    let _ = dxp.kill();
    let _ = dxp.wait();
    assert!(first.contains("listening on"), "{first}");
    assert!(second.contains("endgame databases not used"), "{second}");
    let _ = std::fs::remove_dir_all(&data);
}

/// `damka --help` ends with the default folder and what it holds.
#[test]
fn help_names_the_default_folder_and_what_it_holds() {
    let (data, folder) = with_tables("help", 0, 0);
    let help = || {
        let out = run_in(&data, DAMKA, &["--help"], &[]);
        assert_eq!(out.code, 0);
        out.stdout
    };
    let text = help();
    assert!(
        text.contains(&format!("from {}; none found there", folder.display())),
        "{text}"
    );
    build_all::<TurkishPosition>(&folder, 2, |_, _, _| {}).unwrap();
    let text = help();
    assert!(
        text.contains(&format!(
            "from {}; found there: turkish up to 2 pieces.",
            folder.display()
        )),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&data);
}
