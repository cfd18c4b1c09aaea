//! Endgame databases: the builder against a plain forward solver, known results, damaged files,
//! and `damka egtb` on the command line. Only small tables are built here (up to 4 pieces in
//! Russian, 3 in Turkish): the full builds are documented commands (`docs/egtb.md`).

use crate::egtb_support;

use damka::core::{Color, Variant};
use damka::egtb::build::{build_all, file_of};
use damka::egtb::rules::{under_rules, CountedDraws};
use damka::egtb::{ProbeError, Signature, Tablebase, Value};
use damka::variant::{Notation, Position, RussianPosition, TurkishPosition};
use egtb_support::{positions, solve, temp_dir};
use once_cell::sync::Lazy;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Russian tables up to 4 pieces, built once for all tests of this file.
static RUSSIAN: Lazy<PathBuf> = Lazy::new(|| {
    let dir = temp_dir("russian");
    build_all::<RussianPosition>(&dir, 4, |_, _, _| {}).unwrap();
    dir
});

/// Turkish tables up to 3 pieces.
static TURKISH: Lazy<PathBuf> = Lazy::new(|| {
    let dir = temp_dir("turkish");
    build_all::<TurkishPosition>(&dir, 3, |_, _, _| {}).unwrap();
    dir
});

fn open<P: Position>(dir: &Path) -> Tablebase {
    Tablebase::open(dir, P::VARIANT, 4).unwrap()
}

fn agree<P: Position>(tb: &Tablebase, all: &[P], only: impl Fn(&P) -> bool) -> usize {
    let solved = solve(all);
    let mut n = 0;
    for p in all.iter().filter(|p| only(p)) {
        assert_eq!(tb.probe(p).ok(), Some(solved[p]), "{}", p.to_fen());
        n += 1;
    }
    n
}

#[test]
fn russian_agrees_with_the_forward_solver_up_to_3_pieces() {
    let tb = open::<RussianPosition>(&RUSSIAN);
    let all = positions::<RussianPosition>(3, |_| true);
    assert_eq!(agree(&tb, &all, |_| true), 2 * 199_520);
}

#[test]
fn turkish_agrees_with_the_forward_solver_up_to_3_pieces() {
    let tb = open::<TurkishPosition>(&TURKISH);
    let all = positions::<TurkishPosition>(3, |_| true);
    assert!(agree(&tb, &all, |_| true) > 1_000_000);
}

#[test]
fn russian_4_piece_king_endings_agree_with_the_forward_solver() {
    // Kings only: closed under quiet moves, captures lead to 3 pieces. Every position of the
    // chosen signatures is compared, and so a random sample of them is too.
    let chosen = |c: [u32; 4]| {
        let total: u32 = c.iter().sum();
        total <= 3
            || (c[0] == 0
                && c[2] == 0
                && ((c[1], c[3]) == (3, 1) || (c[1], c[3]) == (1, 3) || (c[1], c[3]) == (2, 2)))
    };
    let all = positions::<RussianPosition>(4, chosen);
    let tb = open::<RussianPosition>(&RUSSIAN);
    let four = |p: &RussianPosition| damka::egtb::pieces_on_board(p) == 4;
    assert_eq!(agree(&tb, &all, four), 4 * 143_840 + 2 * 215_760);
}

fn russian(fen: &str) -> Value {
    let tb = open::<RussianPosition>(&RUSSIAN);
    tb.probe(&RussianPosition::from_fen(fen).unwrap()).unwrap()
}

#[test]
fn russian_known_results() {
    // One king against one: a draw unless a capture is there at once.
    assert_eq!(russian("W:WKa1:BKh2"), Value::Draw);
    assert_eq!(russian("W:WKc3:BKd4"), Value::Win(1));
    assert_eq!(russian("B:WKc3:BKd4"), Value::Win(1));
    // Two kings against one: a draw.
    assert_eq!(russian("W:WKc1,Ke1:BKd8"), Value::Draw);
    // Three kings against one: won when the strong side holds the long diagonal; drawn when
    // the lone king is on it and to move.
    assert!(matches!(russian("W:WKa1,Kc1,Ke1:BKh2"), Value::Win(_)));
    assert_eq!(russian("B:WKc1,Ke1,Kg1:BKd4"), Value::Draw);
    // A king and a man against a king: drawn with the lone king on the long diagonal, won
    // when the strong side can take the diagonal first.
    assert_eq!(russian("B:WKc1,c3:BKh8"), Value::Draw);
    assert!(matches!(russian("W:WKc1,c3:BKh8"), Value::Win(_)));
}

#[test]
fn three_kings_against_one_convert_within_fifteen_moves() {
    // Every win of three kings against a lone king converts within 30 plies, so the rule of
    // 15 moves (7.2.4) never turns one into a draw when the count starts with the balance.
    let tb = open::<RussianPosition>(&RUSSIAN);
    let all = positions::<RussianPosition>(4, |c| c == [0, 3, 0, 1]);
    let mut wins = 0;
    for p in all.iter().filter(|p| p.side_to_move() == Color::White) {
        if let Value::Win(d) = tb.probe(p).unwrap() {
            let left = p.plies_left(&p.rule_state_new());
            assert_eq!(
                under_rules(Value::Win(d), left),
                Some(Value::Win(d)),
                "{}",
                p.to_fen()
            );
            wins += 1;
        }
    }
    assert!(wins > 100_000);
    // With the count nearly run out, the same win is a draw.
    let p = RussianPosition::from_fen("W:WKa1,Kc1,Ke1:BKh2").unwrap();
    let Value::Win(d) = tb.probe(&p).unwrap() else {
        panic!()
    };
    let late = damka::egtb::rules::PliesLeft {
        hard: Some(d as u32 - 1),
        soft: None,
    };
    assert_eq!(under_rules(Value::Win(d), late), Some(Value::Draw));
}

#[test]
fn turkish_known_results() {
    let tb = open::<TurkishPosition>(&TURKISH);
    let v = |fen: &str| tb.probe(&TurkishPosition::from_fen(fen).unwrap()).unwrap();
    // A lone king against a lone man wins for the king, whoever is to move: the game is over.
    assert_eq!(v("W:WKd4:Ba6"), Value::Win(0));
    assert_eq!(v("B:WKd4:Ba6"), Value::Loss(0));
    // Any other one against one is a draw.
    assert_eq!(v("W:WKd4:BKa6"), Value::Draw);
    assert_eq!(v("W:Wd4:Ba6"), Value::Draw);
    // A capture into king against man wins at once.
    assert_eq!(v("W:WKd4:Bd5,h7"), Value::Win(1));
}

#[test]
fn best_moves_keep_the_value() {
    let tb = open::<RussianPosition>(&RUSSIAN);
    let p = RussianPosition::from_fen("W:WKa1,Kc1,Ke1:BKh2").unwrap();
    let Value::Win(d) = tb.probe(&p).unwrap() else {
        panic!()
    };
    let moves = tb.rank_moves(&p).unwrap();
    assert_eq!(moves[0].1, Value::Win(d));
    assert!(moves
        .iter()
        .all(|(_, v)| damka::egtb::probe::preference(*v) >= d as i32));
}

/// Flips bits of the byte `at` from the start (or from the end when negative).
fn corrupt(path: &std::path::Path, at: isize) {
    let mut bytes = std::fs::read(path).unwrap();
    let i = if at < 0 {
        bytes.len() - at.unsigned_abs()
    } else {
        at as usize
    };
    bytes[i] ^= 0x55;
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn a_damaged_block_is_detected_and_never_used() {
    let dir = temp_dir("damaged");
    build_all::<RussianPosition>(&dir, 3, |_, _, _| {}).unwrap();
    let sig = Signature::new(0, 2, 0, 1);
    corrupt(&file_of(&dir, Variant::Russian, sig), -10);
    let tb = open::<RussianPosition>(&dir);
    let mut damaged = 0;
    for p in positions::<RussianPosition>(3, |c| c == [0, 2, 0, 1]) {
        match tb.probe(&p) {
            Err(ProbeError::Damaged(s, _)) => {
                assert_eq!(s, sig);
                damaged += 1;
            }
            Ok(_) => {}
            Err(e) => panic!("{e}"),
        }
    }
    assert!(damaged > 0);
    // Reported once.
    assert_eq!(tb.take_messages().len(), 1);
    assert!(tb.take_messages().is_empty());
    // A damaged header is caught when the file is opened.
    corrupt(
        &file_of(&dir, Variant::Russian, Signature::new(0, 1, 0, 1)),
        20,
    );
    let p = RussianPosition::from_fen("W:WKa1:BKh2").unwrap();
    assert!(matches!(tb.probe(&p), Err(ProbeError::Damaged(..))));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Headers that declare more than their file holds (a huge number of positions, a file cut
/// short, one grown longer) are refused by a look at their first bytes and their length,
/// before anything they declare is allocated; `Tablebase::open` leaves such files out with
/// one message naming them, and a folder with none left is an error that says why.
#[test]
fn headers_are_bounded_by_the_file_and_bad_files_left_out_at_open() {
    use damka::egtb::store::{check_file, read_header};
    let dir = temp_dir("headers");
    build_all::<RussianPosition>(&dir, 2, |_, _, _| {}).unwrap();
    let path = |stem: &str| dir.join("russian").join(format!("{stem}.egtb"));
    let good = check_file(&path("0101")).unwrap();
    assert_eq!(good, (Variant::Russian, Signature::new(0, 1, 0, 1)));
    // Positions (bytes 22..30) and blocks (30..34) raised together past any file: 2^40
    // positions in 2^28 blocks of 4096.
    let mut bytes = std::fs::read(path("0110")).unwrap();
    bytes[22..30].copy_from_slice(&(1u64 << 40).to_le_bytes());
    bytes[30..34].copy_from_slice(&(1u32 << 28).to_le_bytes());
    std::fs::write(path("0110"), &bytes).unwrap();
    let err = check_file(&path("0110")).unwrap_err().to_string();
    assert!(err.contains("cut short"), "{err}");
    let mut f = std::fs::File::open(path("0110")).unwrap();
    assert!(read_header(&mut f).is_err());
    // Grown by a byte: its length is not the one its header gives.
    let mut bytes = std::fs::read(path("1001")).unwrap();
    bytes.push(0);
    std::fs::write(path("1001"), &bytes).unwrap();
    assert!(check_file(&path("1001")).is_err());
    let tb = Tablebase::open(&dir, Variant::Russian, 1).unwrap();
    let messages = tb.take_messages();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("2 file(s) left out") && messages[0].contains("0110.egtb"),
        "{messages:?}"
    );
    let p = RussianPosition::from_fen("W:WKa1:Bh6").unwrap();
    assert!(matches!(tb.probe(&p), Err(ProbeError::Damaged(..))));
    assert!(tb.take_messages().is_empty(), "said once");
    // The same files as Turkish tables: none usable, and the error says why.
    std::fs::rename(dir.join("russian"), dir.join("turkish")).unwrap();
    let err = Tablebase::open(&dir, Variant::Turkish, 1).err().unwrap();
    assert!(err.contains("is a russian table"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Runs `damka` with the words of `line` as its arguments (no quoting: paths without spaces).
fn damka_line(line: &str) -> (i32, String) {
    damka(&line.split_whitespace().collect::<Vec<_>>())
}

fn damka(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn command_line_build_probe_and_verify() {
    let dir = temp_dir("cli");
    let d = dir.to_str().unwrap();
    let (code, out) = damka_line(&format!(
        "egtb build --variant russian --pieces 3 --dir {d}"
    ));
    assert_eq!(code, 0);
    assert!(out.contains("16 tables, 199520 positions"), "{out}");
    // Again: every table is kept, nothing rebuilt.
    let (code, out) = damka_line(&format!(
        "egtb build --variant russian --pieces 3 --dir {d}"
    ));
    assert_eq!(code, 0);
    assert!(out.contains("16 tables, 199520 positions"), "{out}");
    let (code, out) = damka_line(&format!(
        "egtb verify --variant russian --pieces 3 --dir {d}"
    ));
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verify: all 16 tables ok"));
    let (code, out) = damka_line(&format!(
        "egtb probe --variant russian --dir {d} --fen W:WKc3:BKd4"
    ));
    assert_eq!(code, 0);
    assert!(out.starts_with("value win, conversion in 1 plies"), "{out}");
    assert!(out.contains("c3:e5"));
    assert_eq!(
        damka_line(&format!(
            "egtb probe --variant russian --dir {d} --fen W:Wz9"
        ))
        .0,
        2
    );
    assert_eq!(
        damka_line(&format!("egtb build --variant chess --dir {d}")).0,
        2
    );
    // A damaged file fails verify.
    corrupt(
        &file_of(&dir, Variant::Russian, Signature::new(1, 0, 1, 0)),
        -6,
    );
    let (code, out) = damka_line(&format!(
        "egtb verify --variant russian --pieces 3 --dir {d}"
    ));
    assert_eq!(code, 1);
    assert!(out.contains("1010 M-M"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn endgame_positions_for_matches() {
    let (code, out) =
        damka_line("egtb positions --variant turkish --count 3 --min 6 --max 7 --depth 3");
    assert_eq!(code, 0);
    let fens: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(fens.len(), 3);
    for f in fens {
        let p = TurkishPosition::from_fen(f).unwrap();
        assert!((6..=7).contains(&damka::egtb::pieces_on_board(&p)), "{f}");
        assert!(!p.has_capture());
    }
    let (code, again) =
        damka_line("egtb positions --variant turkish --count 3 --min 6 --max 7 --depth 3");
    assert_eq!((code, again), (0, out));
}
