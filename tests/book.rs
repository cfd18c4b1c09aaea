//! The opening book: a tiny book built twice with a seed is the same book, and a build goes on
//! from where it stopped; probing a position outside the book gives nothing; a damaged file
//! is refused with a clear error and the engine plays on; the engine plays book moves (said
//! in its `info`), with variety when asked, and searches when analysing.

use crate::hub_support;

use damka::book::build::{BuildConfig, Builder};
use damka::book::Book;
use damka::core::Variant;
use damka::engine::{Engine, GoMode, Limits, SearchInfo};
use damka::game::Game;
use damka::variant::{RussianPosition, TurkishPosition};
use hub_support::Client;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

fn tiny(seed: u64, positions: usize) -> BuildConfig {
    let mut cfg = BuildConfig::new(6, positions);
    cfg.search.depth = Some(3);
    cfg.search.lines = 3;
    cfg.expansion.margin = 30;
    cfg.expansion.seed = seed;
    cfg
}

fn build<P: damka::eval::Evaluate>(cfg: BuildConfig, mut book: Book) -> Book {
    let mut b = Builder::<P>::new(cfg, &book);
    while b.step(&mut book) {}
    book
}

#[test]
fn a_tiny_book_is_reproducible_and_resumable() {
    let a = build::<RussianPosition>(tiny(7, 12), Book::new(Variant::Russian));
    let b = build::<RussianPosition>(tiny(7, 12), Book::new(Variant::Russian));
    assert_eq!(a.positions(), 12);
    assert_eq!(a.to_bytes(), b.to_bytes(), "same seed, same book");
    // Stopped at 5 positions and read back from its file, the build goes on to 12.
    let half = build::<RussianPosition>(tiny(7, 5), Book::new(Variant::Russian));
    let again = Book::from_bytes(&half.to_bytes()).unwrap();
    assert_eq!(again, half);
    let resumed = build::<RussianPosition>(tiny(7, 12), again);
    assert_eq!(resumed.positions(), 12);
    for e in half.entries() {
        assert!(resumed.contains(e.key));
    }
    // The start position is in it, with legal moves, best first.
    let start = *Game::<RussianPosition>::from_start().position();
    let moves = a.probe(&start);
    assert_eq!(moves.len(), 3);
    assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
    let t = build::<TurkishPosition>(tiny(1, 4), Book::new(Variant::Turkish));
    assert_eq!(t.positions(), 4);
}

#[test]
fn positions_outside_the_book_give_nothing() {
    let book = build::<RussianPosition>(tiny(3, 4), Book::new(Variant::Russian));
    let mut g = Game::<RussianPosition>::from_start();
    for m in ["a3-b4", "h6-g5", "b4-a5", "g5-h4", "a5-b6"] {
        if g.play_text(m).is_err() {
            break;
        }
    }
    assert!(book.probe(g.position()).is_empty());
    // Nor does a position of the other game.
    let turkish = *Game::<TurkishPosition>::from_start().position();
    assert!(book.probe(&turkish).is_empty());
}

#[test]
fn damaged_files_are_refused_with_the_reason() {
    let book = build::<RussianPosition>(tiny(5, 3), Book::new(Variant::Russian));
    let bytes = book.to_bytes();
    let err = |b: &[u8]| Book::from_bytes(b).unwrap_err().to_string();
    assert!(err(&bytes[..bytes.len() - 3]).contains("truncated"));
    let mut flipped = bytes.clone();
    flipped[20] ^= 0x40;
    assert!(err(&flipped).contains("checksum"));
    let mut magic = bytes.clone();
    magic[0] = b'X';
    assert!(err(&magic).contains("magic"));
    assert!(err(b"").contains("magic"));
    let mut game = bytes.clone();
    game[8] = 9;
    assert!(err(&game).contains("game"));

    // The engine refuses the file, keeps its book and plays on.
    let dir = std::env::temp_dir().join(format!("damka-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.book");
    std::fs::write(&path, &flipped).unwrap();
    let mut e = Engine::new(Variant::Russian);
    let msg = e
        .set_option("book-file", path.to_str().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("book-file") && msg.contains("checksum"),
        "{msg}"
    );
    let missing = e.set_option("book-file", "/no/such/file.book").unwrap_err();
    assert!(missing.to_string().contains("/no/such/file.book"));
    let out = e
        .search_blocking(depth(3), GoMode::Think, Box::new(|_| {}))
        .unwrap();
    assert!(out.best.is_some());
    std::fs::remove_dir_all(&dir).ok();
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

/// The engine's move at the start with `book-file` = a tiny book, and its `info` lines.
fn play_start(e: &mut Engine, mode: GoMode) -> (String, Vec<SearchInfo>) {
    let infos = Arc::new(Mutex::new(Vec::new()));
    let seen = infos.clone();
    e.set_position(&e.fen(), &[]).unwrap();
    let out = e
        .search_blocking(
            depth(4),
            mode,
            Box::new(move |i: &SearchInfo| seen.lock().unwrap().push(i.clone())),
        )
        .unwrap();
    let infos = infos.lock().unwrap().clone();
    (out.best.unwrap().algebraic, infos)
}

#[test]
fn the_engine_plays_book_moves_and_says_so() {
    let book = build::<RussianPosition>(tiny(9, 3), Book::new(Variant::Russian));
    let dir = std::env::temp_dir().join(format!("damka-book-use-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tiny.book");
    std::fs::write(&path, book.to_bytes()).unwrap();
    let start = *Game::<RussianPosition>::from_start().position();
    let moves = book.probe(&start);

    let mut e = Engine::new(Variant::Russian);
    assert!(
        !play_start(&mut e, GoMode::Think).1[0].book,
        "off by default"
    );
    e.set_option("book", "true").unwrap();
    e.set_option("book-file", path.to_str().unwrap()).unwrap();
    let (m, infos) = play_start(&mut e, GoMode::Think);
    assert_eq!(infos.len(), 1);
    assert!(infos[0].book && infos[0].depth == 0 && infos[0].nodes == 0);
    assert_eq!(infos[0].score, moves[0].score);
    assert_eq!(m, infos[0].pv[0].algebraic);
    // Analysis searches.
    let (_, infos) = play_start(&mut e, GoMode::Analyze);
    assert!(infos.len() >= 4 && infos.iter().all(|i| !i.book));
    // Variety: several book moves over seeds; without it, always the best.
    e.set_option("book-variety", "300").unwrap();
    let mut chosen = HashSet::new();
    for seed in 1..=20 {
        e.set_option("seed", &seed.to_string()).unwrap();
        chosen.insert(play_start(&mut e, GoMode::Think).0);
    }
    assert!(chosen.len() > 1, "{chosen:?}");
    // Without it, a best move (one of those of equal best value).
    e.set_option("book-variety", "0").unwrap();
    for seed in 1..=5 {
        e.set_option("seed", &seed.to_string()).unwrap();
        let (_, infos) = play_start(&mut e, GoMode::Think);
        assert_eq!(infos[0].score, moves[0].score);
    }
    // Off: a search.
    e.set_option("book", "false").unwrap();
    let (_, infos) = play_start(&mut e, GoMode::Think);
    assert!(infos.iter().all(|i| !i.book && i.depth > 0));

    // Through Hub: `book=yes` at the end of the info line.
    let c = Client::start_engine(&[("book", "true"), ("book-file", path.to_str().unwrap())]);
    let decl = c.ask("hub");
    assert!(decl
        .iter()
        .any(|l| l == "param name=book value=true type=bool"));
    // (true here: the value set before init is the one the client sees.)
    c.send_all(&["init", "pos start", "level depth=6", "go think"]);
    let mut lines = c.until("done");
    lines.retain(|l| l != "ready");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines[0].starts_with("info depth=0 ") && lines[0].ends_with(" book=yes"));
    c.send("set-param name=book value=maybe");
    assert!(c.sync().iter().any(|l| l.starts_with("error")));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_book_is_on_by_default_in_turkish_only() {
    // The defaults follow the 400-game matches (`docs/book.md`).
    let option = |e: &Engine| {
        e.options()
            .into_iter()
            .find(|o| o.name == "book")
            .map(|o| o.value)
            .unwrap()
    };
    let mut e = Engine::new(Variant::Turkish);
    assert_eq!(option(&e), "true");
    let (_, infos) = play_start(&mut e, GoMode::Think);
    assert!(infos.len() == 1 && infos[0].book, "{infos:?}");
    e.set_variant(Variant::Russian);
    assert_eq!(option(&e), "false");
    let (_, infos) = play_start(&mut e, GoMode::Think);
    assert!(infos.iter().all(|i| !i.book && i.depth > 0));
    // A value set by the client holds for both games.
    e.set_option("book", "false").unwrap();
    e.set_variant(Variant::Turkish);
    assert_eq!(option(&e), "false");
    let (_, infos) = play_start(&mut e, GoMode::Think);
    assert!(infos.iter().all(|i| !i.book && i.depth > 0));
}
