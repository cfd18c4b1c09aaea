//! The learned evaluation: integer inference against a plain reference, colour symmetry, the
//! 16-bit first-layer sums against the `i32` ones, the weights file (round trip, malformed
//! files), and the compiled-in nets.

use crate::eval_support;
use damka::core::{Color, Rng, Variant};

use damka::eval::network::{self, Change};
use damka::eval::pattern;
use damka::eval::{evaluator, netfile, rotate};
use damka::variant::{Pieces, Position, RussianPosition, TurkishPosition};
use eval_support::{cut_off_net, edge_net, extreme_net, random_net};

/// Positions met in random games from the start (every ply), kings and captures included.
fn random_positions<P: Position>(count: usize, seed: u64) -> Vec<P> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = P::start();
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(pos);
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    out.truncate(count);
    out
}

/// The pieces of each side and the side to move of [`random_positions`].
fn random_sides<P: Position>(count: usize, seed: u64) -> Vec<(Pieces, Pieces, Color)> {
    let sides = |p: &P| {
        (
            p.pieces(Color::White),
            p.pieces(Color::Black),
            p.side_to_move(),
        )
    };
    random_positions::<P>(count, seed)
        .iter()
        .map(sides)
        .collect()
}

fn swapped(w: Pieces, b: Pieces) -> (Pieces, Pieces) {
    let t = |p: Pieces| Pieces {
        men: rotate(p.men),
        kings: rotate(p.kings),
    };
    (t(b), t(w))
}

fn check_game<P: Position>(variant: Variant) {
    let positions = random_positions::<P>(5000, 7 + variant as u64);
    let kings = positions
        .iter()
        .filter(|p| p.pieces(Color::White).kings | p.pieces(Color::Black).kings != 0)
        .count();
    assert!(kings > 100, "random games should reach kings ({kings})");
    // Seed 3: a net without region patterns (only kings, material and the network); seeds 4
    // and 5: first-layer sums far beyond the i16 range (64 and 128 units).
    for seed in 1..=5 {
        let mut net = match seed {
            4 | 5 => extreme_net(variant, seed),
            _ => random_net(variant, seed),
        };
        if seed == 3 {
            net.patterns.clear();
        }
        for pos in &positions {
            let (w, b, s) = (
                pos.pieces(Color::White),
                pos.pieces(Color::Black),
                pos.side_to_move(),
            );
            let fast = net.evaluate(w, b, s);
            assert_eq!(fast, net.evaluate_reference(w, b, s), "{pos}");
            assert_eq!(fast, net.evaluate_portable(w, b, s), "{pos}");
            // The same position with colours swapped, from the other side: same score for the
            // side to move, so the negation from White's point of view.
            let (sw, sb) = swapped(w, b);
            assert_eq!(fast, net.evaluate(sw, sb, !s), "{pos}");
            assert_eq!(fast, net.evaluate_reference(sw, sb, !s), "{pos}");
        }
    }
}

#[test]
fn integer_inference_equals_reference_and_is_colour_symmetric() {
    check_game::<RussianPosition>(Variant::Russian);
    check_game::<TurkishPosition>(Variant::Turkish);
}

/// The first layer's sums kept in 16 bits, changed from one position to the next as the
/// search changes them (from the last position of the same side to move, which may be of
/// another game and differ by many inputs), give the `i32` sums' terms, by the portable loops
/// and by AVX2; for nets whose units fill the 16-bit range ([`edge_net`]) and the compiled-in
/// nets, which have 16-bit sums.
fn check_narrow<P: Position>(variant: Variant) {
    let sides = random_sides::<P>(4000, 17 + variant as u64);
    let mut nets: Vec<pattern::Net> = (1..=2).map(|seed| random_net(variant, seed)).collect();
    nets.extend((6..=7).map(|seed| edge_net(variant, seed)));
    nets.extend(evaluator::compiled_in(variant).map(|n| (**n).clone()));
    for net in &nets {
        let n = net.network.as_ref().unwrap();
        let narrow = n.narrow().expect("16-bit sums");
        let mut portable = [[0u16; network::MAX_HIDDEN]; 2];
        #[cfg(target_arch = "x86_64")]
        let mut fast = [[0u16; network::MAX_HIDDEN]; 2];
        let mut last: [Option<[u64; 4]>; 2] = [None; 2];
        for &(w, b, side) in &sides {
            assert!(narrow.holds(w, b));
            let (own, opp) = match side {
                Color::White => (w, b),
                Color::Black => (b, w),
            };
            let pieces = [own.men, own.kings, opp.men, opp.kings];
            let flip = [0, 63][side.index()];
            let change = match last[side.index()] {
                Some(old) => Change::between(&old, &pieces, flip),
                None => Change::refresh(pieces, flip),
            };
            let (vo, vb) = pattern::view(w, b, side);
            let want = n.forward(vo, vb);
            assert_eq!(n.step_narrow(&mut portable[side.index()], &change), want);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: AVX2 is present.
                let got = unsafe { n.step_narrow_avx2(&mut fast[side.index()], &change) };
                assert_eq!(got, want);
            }
            last[side.index()] = Some(pieces);
        }
    }
}

#[test]
fn sixteen_bit_sums_give_the_i32_sums_terms() {
    check_narrow::<RussianPosition>(Variant::Russian);
    check_narrow::<TurkishPosition>(Variant::Turkish);
}

#[test]
fn a_unit_out_of_the_16_bit_range_keeps_the_sums_in_i32() {
    // Taking its lowest sum off would need more than a `u16` holds: no 16-bit form, and the
    // scores are the reference's.
    for variant in Variant::ALL {
        let net = cut_off_net(variant, 8);
        assert!(net.network.as_ref().unwrap().narrow().is_none());
        let sides = match variant {
            Variant::Russian => random_sides::<RussianPosition>(500, 3),
            Variant::Turkish => random_sides::<TurkishPosition>(500, 3),
        };
        for (w, b, s) in sides {
            assert_eq!(net.evaluate(w, b, s), net.evaluate_reference(w, b, s));
        }
    }
}

#[test]
fn training_features_give_the_net_score() {
    // The trainer's features, weighted as it weighs them, give the engine's score (up to the
    // final rounding), so the trainer fits exactly what the engine computes.
    // The network term is not in these features (the trainer computes it itself; its test is
    // in tools/train).
    for variant in Variant::ALL {
        let mut net = random_net(variant, 99);
        net.network = None;
        let positions = match variant {
            Variant::Russian => random_sides::<RussianPosition>(500, 3),
            Variant::Turkish => random_sides::<TurkishPosition>(500, 3),
        };
        let mut flat: Vec<[i16; 2]> = net.patterns.clone();
        flat.extend_from_slice(&net.kings);
        flat.extend_from_slice(&net.material);
        flat.push(net.classic);
        assert_eq!(flat.len(), pattern::feature_count(variant));
        let mut buf = Vec::new();
        for (w, b, s) in positions {
            buf.clear();
            let phase = pattern::features(variant, w, b, s, &mut buf);
            let (mut o, mut e) = (0f64, 0f64);
            for &(f, c) in &buf {
                o += c as f64 * flat[f as usize][0] as f64;
                e += c as f64 * flat[f as usize][1] as f64;
            }
            let x = (phase as f64 * o + (1.0 - phase as f64) * e) / pattern::SCALE as f64;
            let got = net.evaluate(w, b, s) as f64;
            // Rounding: the final division, and the classic term's division by 100.
            assert!((x - got).abs() <= 2.0 + 1e-3, "{x} vs {got}");
        }
    }
}

#[test]
fn weights_file_round_trips_and_refuses_damage() {
    for (variant, seed) in [
        (Variant::Russian, 5),
        (Variant::Turkish, 5),
        (Variant::Russian, 6),
    ] {
        let net = random_net(variant, seed);
        let h = net.network.as_ref().unwrap().hidden();
        let bytes = netfile::to_bytes(&net);
        assert_eq!(netfile::from_bytes(&bytes).unwrap(), net);
        let err = |b: &[u8]| netfile::from_bytes(b).unwrap_err();
        assert!(err(&bytes[..bytes.len() - 1]).contains("bytes"));
        assert!(err(b"hello").contains("DAMKAPAT"));
        let mut flipped = bytes.clone();
        flipped[200] ^= 1;
        assert!(err(&flipped).contains("checksum"));
        let mut game = bytes.clone();
        game[12] = 9;
        assert!(err(&game).contains("game"));
        let mut windows = bytes.clone();
        windows[48] += 1;
        assert!(err(&windows).contains("windows"));
        let mut version = bytes.clone();
        version[8] = 7;
        assert!(err(&version).contains("version 7"));
        // The hidden-unit count sits after the linear weights, before the network's.
        let at = bytes.len() - 4 - 2 * (network::INPUTS * h + 3 * h) - 4;
        assert_eq!(bytes[at..at + 4], (h as u32).to_le_bytes());
        let mut hidden = bytes.clone();
        hidden[at] ^= 3;
        assert!(err(&hidden).contains("hidden units"));
        // A net without patterns: no pattern weights in the file, and a window count of 0.
        let mut bare = net.clone();
        bare.patterns.clear();
        let bb = netfile::to_bytes(&bare);
        assert_eq!(bb.len(), bytes.len() - 4 * net.patterns.len());
        assert_eq!(bb[48..52], 0u32.to_le_bytes());
        assert_eq!(netfile::from_bytes(&bb).unwrap(), bare);
        // A net without a network is a shorter file that reads back as such.
        let mut linear = net.clone();
        linear.network = None;
        let lb = netfile::to_bytes(&linear);
        assert_eq!(lb.len(), at + 8);
        assert_eq!(netfile::from_bytes(&lb).unwrap(), linear);
        // Version 2 (generations 1 and 2): the same without the hidden-unit count.
        let mut v2 = lb[..at].to_vec();
        v2[8] = 2;
        let h = v2.iter().fold(0x811c_9dc5u32, |h, &b| {
            (h ^ b as u32).wrapping_mul(0x0100_0193)
        });
        v2.extend_from_slice(&h.to_le_bytes());
        assert_eq!(netfile::from_bytes(&v2).unwrap(), linear);
    }
}

#[test]
fn compiled_in_nets_load_and_are_symmetric() {
    for variant in Variant::ALL {
        let Some(net) = evaluator::compiled_in(variant) else {
            continue;
        };
        assert_eq!(net.variant, variant);
        // The starting position is balanced for a good net.
        let s = match variant {
            Variant::Russian => {
                let p = RussianPosition::start();
                net.evaluate(p.pieces(Color::White), p.pieces(Color::Black), Color::White)
            }
            Variant::Turkish => {
                let p = TurkishPosition::start();
                net.evaluate(p.pieces(Color::White), p.pieces(Color::Black), Color::White)
            }
        };
        assert!(s.abs() < 60, "{} start {s}", variant.name());
    }
}

#[test]
fn cli_refuses_bad_weights_files_with_status_2() {
    let dir = std::env::temp_dir().join(format!("damka-eval-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.pat");
    std::fs::write(&bad, b"DAMKAPAT but not really").unwrap();
    let missing = dir.join("missing.pat");
    for file in [&bad, &missing] {
        for cmd in [
            &["bench", "--depth", "1"][..],
            &["analyse", "--depth", "1"][..],
        ] {
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_damka"))
                .args(cmd)
                .arg("--eval-file")
                .arg(file)
                .output()
                .unwrap();
            assert_eq!(out.status.code(), Some(2), "{cmd:?} {}", file.display());
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(err.contains(&file.display().to_string()), "{err}");
        }
    }
    // A good file is accepted and named by the engine.
    let good = dir.join("good.pat");
    let mut net = random_net(Variant::Turkish, 3);
    net.name = "test-net-7".into();
    std::fs::write(&good, netfile::to_bytes(&net)).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_damka"))
        .args([
            "analyse",
            "--variant",
            "turkish",
            "--depth",
            "2",
            "--eval-file",
        ])
        .arg(&good)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_network_refuses_weights_of_the_wrong_lengths() {
    use damka::eval::network::{Network, INPUTS};
    let ok = |h: usize| Network::new(h, vec![0; INPUTS * h], vec![0; h], [vec![0; h], vec![0; h]]);
    assert!(ok(64).is_ok() && ok(128).is_ok());
    assert!(ok(96).unwrap_err().contains("96 hidden units"));
    let short = Network::new(
        64,
        vec![0; INPUTS * 64 - 1],
        vec![0; 64],
        [vec![0; 64], vec![0; 64]],
    );
    assert!(short.unwrap_err().contains("lengths"));
    let out = Network::new(
        128,
        vec![0; INPUTS * 128],
        vec![0; 128],
        [vec![0; 128], vec![0; 64]],
    );
    assert!(out.unwrap_err().contains("lengths"));
}
