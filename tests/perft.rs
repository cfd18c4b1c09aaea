//! Perft of both games through one generic suite: the EPD files (`tests/data/*.epd`) to a
//! node cap with bulk counting, the checked path (incremental key, `count_moves`,
//! `has_capture`, duplicates at every node) on the smaller counts, divide and threads against
//! plain perft, the start position deep (release builds), and the command line.

use crate::process_support;

use damka::perft::{check_epd, divide, parse_epd, perft, perft_checked, perft_parallel, EpdEntry};
use damka::variant::{Perft, Position, RussianPosition, TurkishPosition};

const RUSSIAN_EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/russian.epd");
const TURKISH_EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/turkish.epd");

/// The positions of an EPD file (more than 100 of them).
fn entries<P: Perft>(path: &str) -> Vec<EpdEntry<P>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let all = parse_epd::<P>(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert!(all.len() >= 100, "only {} positions in {path}", all.len());
    all
}

/// Every count of `path` up to `cap` nodes agrees (on `threads` threads). Returns how many
/// counts were checked and the number of positions.
fn epd_to_cap<P: Perft>(path: &str, cap: u64, threads: usize) -> (usize, usize) {
    let e = entries::<P>(path);
    let checks = check_epd(&e, cap, threads, |_| {});
    let failed: Vec<_> = checks.iter().filter(|c| !c.ok()).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    (checks.len(), e.len())
}

/// Every count of `path` up to `cap` leaves agrees on the checked path.
fn epd_checked<P: Perft>(path: &str, cap: u64) {
    for e in entries::<P>(path) {
        for &(depth, expected) in e.counts.iter().filter(|c| c.1 <= cap) {
            assert_eq!(
                perft_checked(&e.position, depth),
                Ok(expected),
                "{} D{depth}",
                e.fen
            );
        }
    }
}

/// From the start: `divide` at `depth` has `moves` root moves adding up to `leaves`, and
/// perft on 2 and 3 threads at `depth + 1` agrees with one thread.
fn divide_and_threads<P: Perft>(depth: u32, moves: usize, leaves: u64) {
    let start = P::start();
    let d = divide(&start, depth);
    assert_eq!(d.len(), moves);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), leaves);
    let one = perft(&start, depth + 1);
    assert_eq!(perft_parallel(&start, depth + 1, 2), one);
    assert_eq!(perft_parallel(&start, depth + 1, 3), one);
}

#[test]
fn russian_epd_to_a_node_cap() {
    let (checked, positions) = epd_to_cap::<RussianPosition>(RUSSIAN_EPD, 1_000_000, 1);
    // Every position has at least its depth 1-3 counts under the cap.
    assert!(checked >= 3 * positions, "{checked} counts checked");
}

#[test]
fn turkish_epd_to_a_node_cap() {
    let cap = if cfg!(debug_assertions) {
        200_000
    } else {
        20_000_000
    };
    let (checked, _) = epd_to_cap::<TurkishPosition>(TURKISH_EPD, cap, 1);
    assert!(checked > 300, "{checked} counts checked");
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn russian_epd_to_50m_release() {
    epd_to_cap::<RussianPosition>(RUSSIAN_EPD, 50_000_000, 2);
}

#[test]
fn russian_checked_path() {
    epd_checked::<RussianPosition>(RUSSIAN_EPD, 50_000);
}

#[test]
fn turkish_checked_path() {
    epd_checked::<TurkishPosition>(TURKISH_EPD, 10_000);
}

#[test]
fn russian_divide_and_threads() {
    divide_and_threads::<RussianPosition>(6, 7, 37986);
    assert_eq!(perft(&RussianPosition::start(), 7), 190146);
}

#[test]
fn turkish_divide_and_threads() {
    divide_and_threads::<TurkishPosition>(3, 8, 708);
    let start = TurkishPosition::start();
    for (d, n) in [8, 64, 708, 7538, 85090].into_iter().enumerate() {
        assert_eq!(perft_checked(&start, d as u32 + 1), Ok(n));
    }
    assert_eq!(perft_parallel(&start, 5, 2), 85090);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn russian_start_depth_11() {
    assert_eq!(perft(&RussianPosition::start(), 11), 110_917_189);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn turkish_start_depth_9() {
    assert_eq!(perft(&TurkishPosition::start(), 9), 1_454_012_156);
}

#[test]
fn turkish_command_line_epd_and_divide() {
    let damka = |args: &[&str]| {
        let out = process_support::run(env!("CARGO_BIN_EXE_damka"), args, &[]);
        assert_eq!(out.code, 0, "{}", out.stdout);
        out.stdout
    };
    let turkish = ["perft", "--variant", "turkish"];
    let text = damka(
        &[
            &turkish[..],
            &["--epd", TURKISH_EPD, "--max-nodes", "20000"],
        ]
        .concat(),
    );
    assert!(text.contains("failed=0"), "{text}");
    let fen = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,b3,c3,d3,e3,f3,g3,h3,Ka5:\
               Bb5,e5,c6,d6,f6,g6,h6,b7,c7,d7,e7,f7,g7,h7";
    let text = damka(&[&turkish[..], &["--fen", fen, "--depth", "1", "--divide"]].concat());
    for mv in ["a5xc5xf5", "a5xc5xg5", "a5xc5xh5"] {
        assert!(text.contains(mv), "{mv} missing in {text}");
    }
    assert!(text.contains("nodes=3 "), "{text}");
}
