//! Turkish perft against `../shared/perft/turkish.epd`, through the fast counting path and the
//! full generate-and-play path, with the incremental key checked against a fresh one.

use damka::core::MoveList;
use damka::variant::{GameMove, Position, TurkishPosition};

const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/perft/turkish.epd");

/// Leaf count with bulk counting at depth 1 (the fast path).
fn perft(pos: &TurkishPosition, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_moves() as u64;
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    list.iter().map(|m| perft(&pos.play(m), depth - 1)).sum()
}

/// Leaf count that generates and plays every move, checking the key and the counting paths.
fn perft_checked(pos: &TurkishPosition, depth: u32) -> u64 {
    assert_eq!(pos.key(), pos.compute_key(), "{pos}");
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    assert_eq!(list.len(), pos.count_moves(), "{pos}");
    assert_eq!(
        list.first().is_some_and(|m| m.is_capture()),
        pos.has_capture(),
        "{pos}"
    );
    list.iter()
        .map(|m| perft_checked(&pos.play(m), depth - 1))
        .sum()
}

/// The positions of the EPD file with their (depth, count) pairs.
fn epd() -> Vec<(TurkishPosition, Vec<(u32, u64)>)> {
    let text = std::fs::read_to_string(EPD).expect("read turkish.epd");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';');
        let fen = fields.next().unwrap().trim();
        let pos = TurkishPosition::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let counts = fields
            .map(|f| {
                let f = f.trim();
                let (d, n) = f[1..].split_once(' ').unwrap();
                (d.parse().unwrap(), n.trim().parse().unwrap())
            })
            .collect();
        out.push((pos, counts));
    }
    out
}

#[test]
fn epd_positions_to_a_node_cap() {
    let cap = if cfg!(debug_assertions) {
        200_000
    } else {
        20_000_000
    };
    let all = epd();
    assert!(all.len() > 100);
    let mut checked = 0;
    for (pos, counts) in &all {
        for &(d, n) in counts {
            if n > cap {
                continue;
            }
            assert_eq!(perft(pos, d), n, "{pos} depth {d}");
            checked += 1;
        }
    }
    assert!(checked > 300);
}

#[test]
fn epd_positions_full_path_with_keys() {
    for (pos, counts) in epd() {
        for (d, n) in counts {
            if d <= 3 && n <= 10_000 {
                assert_eq!(perft_checked(&pos, d), n, "{pos} depth {d}");
            }
        }
    }
}

#[test]
fn start_position_shallow() {
    let start = TurkishPosition::start();
    let expected = [8, 64, 708, 7538, 85090];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft_checked(&start, d as u32 + 1), n);
    }
}

#[test]
#[cfg_attr(debug_assertions, ignore)]
fn start_position_depth_9() {
    let start = TurkishPosition::start();
    assert_eq!(perft(&start, 9), 1_454_012_156);
}
