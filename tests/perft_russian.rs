//! Perft of Russian draughts against `../shared/perft/russian.epd`.

use damka::perft::{check_epd, divide, parse_epd, perft, perft_checked, perft_parallel, EpdEntry};
use damka::variant::{Position, RussianPosition};

const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/perft/russian.epd");

fn entries() -> Vec<EpdEntry<RussianPosition>> {
    let text = std::fs::read_to_string(EPD).expect("read russian.epd");
    parse_epd(&text).expect("parse russian.epd")
}

#[test]
fn every_epd_position_up_to_node_cap() {
    let e = entries();
    assert!(e.len() >= 100, "only {} positions read", e.len());
    let checks = check_epd(&e, 1_000_000, 1, |_| {});
    let failed: Vec<_> = checks.iter().filter(|c| !c.ok()).collect();
    assert!(failed.is_empty(), "{failed:#?}");
    // Every position has at least its depth 1-3 counts under the cap.
    assert!(checks.len() >= 3 * e.len());
}

#[test]
fn incremental_hash_and_counting_checked_at_every_node() {
    for e in entries() {
        for &(depth, expected) in &e.counts {
            if expected > 50_000 {
                continue;
            }
            assert_eq!(
                perft_checked(&e.position, depth),
                Ok(expected),
                "{} D{depth}",
                e.fen
            );
        }
    }
}

#[test]
fn divide_and_threads_agree_with_perft() {
    let start = RussianPosition::start();
    let d = divide(&start, 6);
    assert_eq!(d.len(), 7);
    assert_eq!(d.iter().map(|x| x.1).sum::<u64>(), 37986);
    assert_eq!(perft_parallel(&start, 7, 2), 190146);
    assert_eq!(perft_parallel(&start, 7, 3), perft(&start, 7));
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn start_position_depth_11() {
    assert_eq!(perft(&RussianPosition::start(), 11), 110_917_189);
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn every_epd_count_up_to_50m_release() {
    let checks = check_epd(&entries(), 50_000_000, 2, |_| {});
    let failed: Vec<_> = checks.iter().filter(|c| !c.ok()).collect();
    assert!(failed.is_empty(), "{failed:#?}");
}
