//! `damka datagen`: one thread and one seed give the same file; the records read back are
//! the games' positions with consistent fields; with endgame databases, results come from the
//! first position they decide.

use damka::core::{Color, Variant};
use damka::eval::data::{self, Reader, ScoredPosition, RECORD_BYTES};
use damka::variant::{Pieces, Position, RussianPosition, TurkishPosition};
use std::process::Command;

/// Runs `cmd`, which must succeed; its output.
fn succeeds(cmd: &mut Command) -> std::process::Output {
    let st = cmd.output().unwrap();
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
    st
}

/// An empty folder of this test run under the system's temporary one.
fn fresh_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn datagen(variant: &str, out: &std::path::Path, seed: u64) {
    let st = succeeds(
        Command::new(env!("CARGO_BIN_EXE_damka"))
            .args([
                "datagen",
                "--variant",
                variant,
                "--games",
                "4",
                "--nodes",
                "400",
            ])
            .args([
                "--seed",
                &seed.to_string(),
                "--threads",
                "1",
                "--eval",
                "classic",
            ])
            .arg("--out")
            .arg(out),
    );
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(
        err.lines().last().unwrap().starts_with("datagen done: "),
        "{err}"
    );
}

/// Checks the records of `want_games` games; `one_result`: every position of a game has the
/// game's result (without tables).
fn check_records<P: Position>(recs: &[ScoredPosition], want_games: usize, one_result: bool) {
    let mut games = 0;
    let mut prev: Option<&ScoredPosition> = None;
    for r in recs {
        let pos: P = r.position().unwrap();
        assert_eq!(pos.has_capture(), r.capture);
        assert!(pos.count_moves() > 0);
        match prev {
            Some(p) if r.ply == p.ply + 1 => assert!(!one_result || r.result == p.result),
            _ => games += 1,
        }
        prev = Some(r);
    }
    assert_eq!(games, want_games);
}

#[test]
fn datagen_is_reproducible_and_reads_back() {
    let dir = fresh_dir("datagen-test");
    for (variant, seed) in [("russian", 3), ("turkish", 4)] {
        let (a, b, c) = (dir.join("a.bin"), dir.join("b.bin"), dir.join("c.bin"));
        for f in [&a, &b, &c] {
            let _ = std::fs::remove_file(f);
        }
        datagen(variant, &a, seed);
        datagen(variant, &b, seed);
        datagen(variant, &c, seed + 1);
        let (ba, bb, bc) = (
            std::fs::read(&a).unwrap(),
            std::fs::read(&b).unwrap(),
            std::fs::read(&c).unwrap(),
        );
        assert!(!ba.is_empty() && ba.len() % RECORD_BYTES == 0);
        assert_eq!(ba, bb, "same seed, same file");
        assert_ne!(ba, bc, "another seed, other games");
        let recs = data::read_file(&a).unwrap();
        match variant {
            "russian" => check_records::<RussianPosition>(&recs, 4, true),
            _ => check_records::<TurkishPosition>(&recs, 4, true),
        }
        // Appending adds the same games again.
        datagen(variant, &a, seed);
        assert_eq!(std::fs::read(&a).unwrap().len(), 2 * ba.len());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn records_round_trip_and_malformed_ones_are_refused() {
    let mut rng = damka::core::Rng::new(11);
    let mut all = Vec::new();
    for i in 0..2000u32 {
        let variant = if i % 2 == 0 {
            Variant::Russian
        } else {
            Variant::Turkish
        };
        let occ = rng.next_u64() & rng.next_u64();
        let white_sq = occ & rng.next_u64();
        let kings = rng.next_u64() & rng.next_u64();
        let mut occ_n = 0;
        let (mut w, mut b) = (Pieces::default(), Pieces::default());
        for s in 0..64 {
            let bit = 1u64 << s;
            if occ & bit == 0 || occ_n == 32 {
                continue;
            }
            occ_n += 1;
            let side = if white_sq & bit != 0 { &mut w } else { &mut b };
            if kings & bit != 0 {
                side.kings |= bit;
            } else {
                side.men |= bit;
            }
        }
        let r = ScoredPosition {
            variant,
            white: w,
            black: b,
            side: if i % 3 == 0 {
                Color::Black
            } else {
                Color::White
            },
            capture: i % 5 == 0,
            adjudicated: i % 7 == 0,
            result: (i % 3) as i8 - 1,
            reversible_plies: (i % 256) as u8,
            score: (rng.next_u64() as i16),
            ply: i as u16,
            rules: [i as u8, 1, 2, 3, (i >> 3) as u8],
        };
        assert_eq!(ScoredPosition::decode(&r.encode()).unwrap(), r);
        all.extend_from_slice(&r.encode());
    }
    let back: Vec<ScoredPosition> = Reader::new(&all[..]).collect::<Result<_, _>>().unwrap();
    assert_eq!(back.len(), 2000);
    // A cut record, a bad game code, reserved bytes set: each an error naming the record.
    let cut: Vec<_> = Reader::new(&all[..all.len() - 5]).collect();
    assert!(cut
        .last()
        .unwrap()
        .as_ref()
        .unwrap_err()
        .contains("record 1999"));
    let mut bad = all[..RECORD_BYTES].to_vec();
    bad[16] = 7;
    assert!(Reader::new(&bad[..]).next().unwrap().is_err());
    let mut bad = all[..RECORD_BYTES].to_vec();
    bad[30] = 1;
    assert!(Reader::new(&bad[..]).next().unwrap().is_err());
}

/// `datagen --rescore` on a file: the same records, in the same order, with scores of a
/// deeper search, with one thread or two; the records with a capture pending are left as
/// they were.
#[test]
fn rescore_keeps_the_records_and_changes_the_scores() {
    let dir = fresh_dir("rescore-test");
    for (variant, seed) in [("russian", 5), ("turkish", 6)] {
        let input = dir.join("in.bin");
        let _ = std::fs::remove_file(&input);
        datagen(variant, &input, seed);
        let rescore = |out: &std::path::Path, threads: &str| {
            let _ = std::fs::remove_file(out);
            succeeds(
                Command::new(env!("CARGO_BIN_EXE_damka"))
                    .args(["datagen", "--variant", variant, "--nodes", "3000"])
                    .args(["--threads", threads, "--eval", "classic", "--rescore"])
                    .arg(&input)
                    .arg("--out")
                    .arg(out),
            );
            data::read_file(out).unwrap()
        };
        let before = data::read_file(&input).unwrap();
        let one = rescore(&dir.join("one.bin"), "1");
        assert_eq!(one.len(), before.len());
        let mut changed = 0;
        for (a, b) in before.iter().zip(&one) {
            let mut b2 = *b;
            b2.score = a.score;
            assert_eq!(*a, b2, "everything but the score is kept");
            if a.capture {
                assert_eq!(a.score, b.score);
            }
            changed += (a.score != b.score) as usize;
        }
        assert!(changed > 0, "a deeper search changes some scores");
        // Two threads: the first half of the records, then the second, in order.
        let two = rescore(&dir.join("two.bin"), "2");
        assert_eq!(two.len(), one.len());
        for (a, b) in before.iter().zip(&two) {
            assert_eq!((a.white, a.black, a.ply), (b.white, b.black, b.ply));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--rescore` of a missing file: exit status 2, the file named, and no output file made.
#[test]
fn rescore_of_a_missing_file_is_a_clear_error() {
    let dir = fresh_dir("rescore-missing");
    let out = dir.join("out.bin");
    let st = Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["datagen", "--variant", "russian", "--rescore"])
        .arg(dir.join("no-such-file.bin"))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(st.status.code(), Some(2));
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(err.contains("no-such-file.bin"), "{err}");
    assert!(!out.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--label-from-tables`: the positions the databases decide take their value as result;
/// the run says how many games reached them and how many positions they decided; a folder
/// without tables is refused before `--out` is touched.
#[test]
fn results_come_from_the_named_tables() {
    let dir = fresh_dir("datagen-tables");
    let tables = dir.join("egtb");
    succeeds(
        Command::new(env!("CARGO_BIN_EXE_damka"))
            .args(["egtb", "build", "--variant", "russian", "--pieces", "4"])
            .arg("--dir")
            .arg(&tables),
    );
    let out = dir.join("t.bin");
    let run = |tables: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_damka"))
            .args(["datagen", "--variant", "russian", "--games", "16"])
            .args(["--nodes", "300", "--seed", "5", "--threads", "1"])
            .args(["--eval", "classic", "--out"])
            .arg(&out)
            .arg("--label-from-tables")
            .arg(tables)
            .output()
            .unwrap()
    };
    let missing = run(&dir.join("none"));
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("--label-from-tables"));
    assert!(!out.exists());

    let st = run(&tables);
    let err = String::from_utf8_lossy(&st.stderr);
    assert!(st.status.success(), "{err}");
    let last = err.lines().last().unwrap();
    let number_before = |what: &str| -> u64 {
        last.split(what)
            .next()
            .and_then(|h| h.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{last}"))
    };
    let (games, decided) = (
        number_before(" reached the tables"),
        number_before(" positions decided by them"),
    );
    assert!(games > 0 && decided >= games, "{last}");
    let tb = damka::egtb::Tablebase::open(&tables, Variant::Russian, 4).unwrap();
    let recs = data::read_file(&out).unwrap();
    check_records::<RussianPosition>(&recs, 16, false);
    let (mut held, mut drawn) = (0, 0);
    for (i, r) in recs.iter().enumerate() {
        let pos: RussianPosition = r.position().unwrap();
        if (r.white.all() | r.black.all()).count_ones() > 4 {
            continue;
        }
        held += 1;
        // The draw counters only turn wins into draws (or leave them undecided): a drawn
        // position is always decided, and labelled a draw.
        if tb.probe(&pos).unwrap() == damka::egtb::Value::Draw {
            drawn += 1;
            assert_eq!((r.result, r.adjudicated), (0, false), "record {i}");
        }
    }
    assert!(
        drawn <= decided && decided <= held,
        "{drawn} {decided} {held}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Databases that decide every position of at most `.0` pieces: the side with more
/// pieces wins, equal numbers draw.
struct MoreWins(u32);

fn count(p: &Pieces) -> i32 {
    p.all().count_ones() as i32
}

impl damka::egtb::endgames::Endgames<RussianPosition> for MoreWins {
    fn covers(&self, pos: &RussianPosition) -> bool {
        damka::egtb::pieces_on_board(pos) <= self.0
    }
    fn value(
        &self,
        pos: &RussianPosition,
        _: &<RussianPosition as Position>::RuleState,
    ) -> Option<damka::egtb::Value> {
        let me = pos.side_to_move();
        let lead = count(&pos.pieces(me)) - count(&pos.pieces(me.opposite()));
        Some(match lead.signum() {
            1 => damka::egtb::Value::Win(1),
            0 => damka::egtb::Value::Draw,
            _ => damka::egtb::Value::Loss(1),
        })
    }
}

#[test]
fn results_come_from_the_first_position_the_tables_decide() {
    let lines = damka::cli::datagen::openings(Variant::Russian);
    let mut searcher = damka::search::Searcher::<RussianPosition>::new(1, 4);
    let tables = MoreWins(18);
    let mut reached = 0;
    for index in 0..6 {
        let free = damka::cli::datagen::play_game(&mut searcher, None, &lines, 9, index, 300);
        let labelled =
            damka::cli::datagen::play_game(&mut searcher, Some(&tables), &lines, 9, index, 300);
        assert_eq!(free.decided, 0);
        // The same game, only the labels differ.
        assert_eq!(labelled.records.len(), free.records.len());
        let pieces = |r: &ScoredPosition| count(&r.white) + count(&r.black);
        let covered = free.records.iter().filter(|r| pieces(r) <= 18).count();
        assert_eq!(labelled.decided, covered);
        reached += (covered > 0) as u32;
        for (i, (a, b)) in labelled.records.iter().zip(&free.records).enumerate() {
            assert_eq!((a.white, a.black, a.side), (b.white, b.black, b.side));
            let first = free.records[i..].iter().find(|r| pieces(r) <= 18);
            let want = match first {
                Some(r) => ((count(&r.white) - count(&r.black)).signum() as i8, false),
                None => (b.result, b.adjudicated),
            };
            assert_eq!((a.result, a.adjudicated), want, "game {index}, record {i}");
        }
    }
    assert!(reached > 0, "no game reached 18 pieces");
}
