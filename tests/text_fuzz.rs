//! Mutated position, move and PDN texts against the readers every front end uses (the command
//! line, the Hub and DXP sessions, the web server and the page): each text gets an answer (a
//! value or an error, never a panic and never a reader stuck in place), a PDN error names a
//! line of the text, and whatever a reader accepts writes back to a text that reads again to
//! the same thing.

use damka::core::Rng;
use damka::game::pdn::read_all;
use damka::game::{Game, Record};
use damka::variant::notation::{parse_move, write_algebraic, write_hub_move};
use damka::variant::{Notation, RussianPosition, TurkishPosition};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Mutants of each seed text.
const ROUNDS: usize = 10_000;
/// Characters the mutations insert: every delimiter of the three notations, and some letters.
const ALPHABET: &[u8] = b"WBwbKk:,.-x0123456789[]\"/*{}()?!$;%\n\r\t abcdefgh\\";
/// How long one text may keep a reader before the test calls it stuck.
const STUCK: Duration = Duration::from_secs(20);

/// One to four edits: a character taken out, put in, replaced, a piece of the text copied
/// elsewhere, the rest cut off, or a raw byte.
fn mutate(rng: &mut Rng, seed: &str) -> String {
    let mut b = seed.as_bytes().to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(b.len() as u64 + 1) as usize;
        let any = ALPHABET[rng.below(ALPHABET.len() as u64) as usize];
        match rng.below(6) {
            0 if at < b.len() => {
                b.remove(at);
            }
            1 if at < b.len() => b[at] = any,
            2 => {
                let from = rng.below(b.len() as u64 + 1) as usize;
                let to = (from + rng.below(20) as usize).min(b.len());
                let piece = b[from..to].to_vec();
                b.splice(at..at, piece);
            }
            3 if at < b.len() => b.truncate(at),
            4 => b.insert(at, rng.below(256) as u8),
            _ => b.insert(at, any),
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

/// Runs `check` on every mutant of every seed in a worker thread; fails with the text that
/// kept a reader for longer than [`STUCK`].
fn fuzz(seeds: Vec<String>, seed: u64, check: impl Fn(&str) + Send + 'static) {
    let current = Arc::new(Mutex::new(String::new()));
    let done = Arc::new(AtomicU64::new(0));
    let (c, d) = (current.clone(), done.clone());
    let worker = std::thread::spawn(move || {
        let mut rng = Rng::new(seed);
        for i in 0..ROUNDS * seeds.len() {
            let text = mutate(&mut rng, &seeds[i % seeds.len()]);
            *c.lock().unwrap() = text.clone();
            check(&text);
            d.fetch_add(1, Ordering::SeqCst);
        }
    });
    let (mut seen, mut since) = (0, Instant::now());
    while !worker.is_finished() {
        std::thread::sleep(Duration::from_millis(50));
        let now = done.load(Ordering::SeqCst);
        if now != seen {
            (seen, since) = (now, Instant::now());
        }
        if since.elapsed() >= STUCK {
            panic!("a reader is stuck on {:?}", current.lock().unwrap());
        }
    }
    if let Err(e) = worker.join() {
        let text = current.lock().unwrap().clone();
        std::panic::resume_unwind(Box::new(format!("{text:?}: {e:?}")));
    }
}

/// A position read from `text` (FEN or Hub string) writes back to the same position, and the
/// legal moves' own texts read back to them.
fn position_text<P: Notation>(text: &str, moves: &[String]) {
    let Ok(pos) = P::parse_any(text) else { return };
    let fen = pos.to_fen();
    assert_eq!(P::from_fen(&fen).ok(), Some(pos), "{text:?} -> {fen}");
    assert_eq!(P::from_hub(&pos.to_hub()).ok(), Some(pos), "{text:?}");
    for mv in pos.legal_moves() {
        for written in [write_algebraic(&pos, &mv), write_hub_move::<P>(&mv)] {
            assert_eq!(
                parse_move(&pos, &written).ok(),
                Some(mv),
                "{fen}: {written}"
            );
        }
    }
    let mut game = Game::new(pos);
    for m in moves {
        let _ = game.play_text(m);
    }
    let pdn = Record::new(game.clone()).to_pdn();
    let back = Record::<P>::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
    assert_eq!(back.game, game, "{pdn}");
}

/// A PDN text reads to games that write and read back to the same games, or to an error on
/// one of its lines.
fn pdn_text<P: Notation>(text: &str) {
    match read_all::<P>(text) {
        Ok(records) => {
            for r in records {
                let pdn = r.to_pdn();
                let back = Record::<P>::from_pdn(&pdn).unwrap_or_else(|e| panic!("{e}\n{pdn}"));
                assert_eq!(back.game, r.game, "{text:?}\n{pdn}");
            }
        }
        Err(e) => {
            let lines = text.lines().count().max(1);
            assert!((1..=lines + 1).contains(&e.line), "{text:?}: {e}");
        }
    }
}

/// The seed texts of list `name` in `tests/data/fuzz_seeds.txt`.
fn seeds(name: &str) -> Vec<String> {
    let text = include_str!("data/fuzz_seeds.txt");
    let start = format!("== {name}\n");
    let at = text
        .find(&start)
        .unwrap_or_else(|| panic!("no list {name:?}"))
        + start.len();
    let list = text[at..].split("\n== ").next().unwrap_or("");
    list.split("\n--\n")
        .map(|s| s.trim_end().to_string())
        .collect()
}

/// Fuzzes the position lists of `game` (`russian`, `turkish`), with its moves tried in each.
fn positions<P: Notation>(game: &str, seed: u64) {
    let moves = seeds(&format!("{game} moves"))[0]
        .split(' ')
        .map(String::from)
        .collect::<Vec<_>>();
    fuzz(seeds(&format!("{game} positions")), seed, move |t| {
        position_text::<P>(t, &moves)
    });
}

#[test]
fn positions_and_moves() {
    positions::<RussianPosition>("russian", 1);
    positions::<TurkishPosition>("turkish", 2);
}

#[test]
fn pdn() {
    fuzz(seeds("russian pdn"), 3, pdn_text::<RussianPosition>);
    fuzz(seeds("turkish pdn"), 4, pdn_text::<TurkishPosition>);
}
