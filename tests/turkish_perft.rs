//! Turkish perft against `../shared/perft/turkish.epd` through the generic driver: bulk
//! counting, the checked path (incremental key, `count_moves`, `has_capture`, duplicates at
//! every node), threads, divide, and the command line.

use damka::perft::{check_epd, divide, parse_epd, perft, perft_checked, perft_parallel, EpdEntry};
use damka::variant::{Position, TurkishPosition};

mod process_support;

const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/perft/turkish.epd");

fn epd() -> Vec<EpdEntry<TurkishPosition>> {
    let text = std::fs::read_to_string(EPD).expect("read turkish.epd");
    let all = parse_epd::<TurkishPosition>(&text).expect("parse turkish.epd");
    assert!(all.len() > 100);
    all
}

#[test]
fn epd_positions_to_a_node_cap() {
    let cap = if cfg!(debug_assertions) {
        200_000
    } else {
        20_000_000
    };
    let checks = check_epd(&epd(), cap, 1, |_| {});
    assert!(checks.len() > 300);
    for c in &checks {
        assert!(c.ok(), "{c:?}");
    }
}

#[test]
fn epd_positions_checked_path() {
    for e in epd() {
        for &(d, n) in &e.counts {
            if n <= 10_000 {
                assert_eq!(perft_checked(&e.position, d), Ok(n), "{} depth {d}", e.fen);
            }
        }
    }
}

#[test]
fn start_position_shallow_checked() {
    let start = TurkishPosition::start();
    let expected = [8, 64, 708, 7538, 85090];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft_checked(&start, d as u32 + 1), Ok(n));
    }
    assert_eq!(perft_parallel(&start, 5, 2), 85090);
    let div = divide(&start, 3);
    assert_eq!(div.len(), 8);
    assert_eq!(div.iter().map(|(_, n)| n).sum::<u64>(), 708);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn start_position_depth_9() {
    assert_eq!(perft(&TurkishPosition::start(), 9), 1_454_012_156);
}

#[test]
fn command_line_epd_and_divide() {
    let damka = |args: &[&str]| {
        let out = process_support::run(env!("CARGO_BIN_EXE_damka"), args, &[]);
        assert_eq!(out.code, 0, "{}", out.stdout);
        out.stdout
    };
    let turkish = ["perft", "--variant", "turkish"];
    let text = damka(&[&turkish[..], &["--epd", EPD, "--max-nodes", "20000"]].concat());
    assert!(text.contains("failed=0"), "{text}");
    let fen = "W:Wa2,b2,c2,d2,e2,f2,g2,h2,b3,c3,d3,e3,f3,g3,h3,Ka5:\
               Bb5,e5,c6,d6,f6,g6,h6,b7,c7,d7,e7,f7,g7,h7";
    let text = damka(&[&turkish[..], &["--fen", fen, "--depth", "1", "--divide"]].concat());
    for mv in ["a5xc5xf5", "a5xc5xg5", "a5xc5xh5"] {
        assert!(text.contains(mv), "{mv} missing in {text}");
    }
    assert!(text.contains("nodes=3 "), "{text}");
}
