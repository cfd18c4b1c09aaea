//! `damka-train` end to end: it trains a net with the network term on records whose score is
//! not linear in the pieces, the validation loss falls, the file it writes loads with its
//! network, `--init` goes on from it, and bad input is exit status 2.

use damka::core::{Color, Rng, Variant};
use damka::eval::data::ScoredPosition;
use damka::eval::netfile;
use damka::variant::{Position, RussianPosition};
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("damka-train-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Records of random Russian games, scored by a function of the pieces that no sum of
/// per-square weights gives: the difference in men times its absolute value.
fn write_records(path: &Path) {
    let mut rng = Rng::new(11);
    let mut out = Vec::new();
    for _ in 0..300 {
        let mut pos = RussianPosition::start();
        for ply in 0..120u16 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let side = pos.side_to_move();
            let (own, opp) = (pos.pieces(side), pos.pieces(!side));
            let d = own.men.count_ones() as i32 - opp.men.count_ones() as i32;
            let r = ScoredPosition {
                variant: Variant::Russian,
                white: pos.pieces(Color::White),
                black: pos.pieces(Color::Black),
                side,
                capture: false,
                adjudicated: false,
                result: 0,
                reversible_plies: 0,
                score: (60 * d * d.abs()).clamp(-3000, 3000) as i16,
                ply,
                rules: [0; 5],
            };
            out.extend_from_slice(&r.encode());
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    std::fs::write(path, out).unwrap();
}

fn train(args: &[String]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_damka-train"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The validation loss and squared error on an `epoch N:` line.
fn validation(line: &str) -> (f64, f64) {
    let v: Vec<&str> = line
        .split("validation loss ")
        .nth(1)
        .expect("a validation loss")
        .split_whitespace()
        .collect();
    (v[0].parse().unwrap(), v[2].parse().unwrap())
}

#[test]
fn trains_a_network_and_refuses_bad_input() {
    let d = dir();
    let data = d.join("r.bin");
    write_records(&data);
    let net = d.join("n.pat");
    let (data_s, net_s) = (data.to_str().unwrap(), net.to_str().unwrap());
    let common = [
        "--variant",
        "russian",
        "--data",
        data_s,
        "--lambda",
        "0",
        "--k",
        "200",
    ];
    // The common arguments followed by these.
    let with = |extra: &[&str]| -> Vec<String> {
        common.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    let first_run = [
        "--network",
        "--epochs",
        "6",
        "--name",
        "t-net",
        "--out",
        net_s,
    ];
    let (code, err) = train(&with(&first_run));
    assert_eq!(code, Some(0), "{err}");
    let epochs: Vec<&str> = err.lines().filter(|l| l.starts_with("epoch ")).collect();
    assert_eq!(epochs.len(), 7, "{err}");
    let (first, last) = (validation(epochs[0]), validation(epochs[6]));
    assert!(
        last.0 < first.0 && last.1 < first.1 * 0.5,
        "{first:?} -> {last:?}\n{err}"
    );
    // The linear terms alone cannot fit the squared difference as well.
    let linear = d.join("l.pat");
    let linear_s = linear.to_str().unwrap();
    let (code, errl) = train(&with(&["--epochs", "6", "--name", "l", "--out", linear_s]));
    assert_eq!(code, Some(0), "{errl}");
    let lin = validation(errl.lines().rfind(|l| l.starts_with("epoch ")).unwrap());
    assert!(last.1 < lin.1 * 0.8, "network {last:?}, linear {lin:?}");
    let loaded = netfile::load(&net).unwrap();
    assert_eq!(loaded.name, "t-net");
    assert!(loaded.network.is_some());

    // Going on from the net keeps its network and starts at its loss.
    let net2 = d.join("n2.pat");
    let net2_s = net2.to_str().unwrap();
    let (code, err2) = train(&with(&[
        "--init", net_s, "--epochs", "1", "--name", "t2", "--out", net2_s,
    ]));
    assert_eq!(code, Some(0), "{err2}");
    let start = err2.lines().find(|l| l.starts_with("epoch 0")).unwrap();
    assert!(
        validation(start).1 <= last.1 * 1.01,
        "{start} after {last:?}"
    );
    assert!(netfile::load(&net2).unwrap().network.is_some());

    // --no-patterns: the net written has none (and keeps its network); going on from it
    // leaves them out without being told.
    let bare = d.join("bare.pat");
    let bare_s = bare.to_str().unwrap();
    let (code, err3) = train(&with(&[
        "--init",
        net_s,
        "--no-patterns",
        "--epochs",
        "2",
        "--name",
        "bare",
        "--out",
        bare_s,
    ]));
    assert_eq!(code, Some(0), "{err3}");
    let b = netfile::load(&bare).unwrap();
    assert!(!b.has_patterns() && b.network.is_some(), "{err3}");
    assert!(netfile::load(&net).unwrap().has_patterns());
    let bare2 = d.join("bare2.pat");
    let bare2_s = bare2.to_str().unwrap();
    let (code, err4) = train(&with(&[
        "--init", bare_s, "--epochs", "1", "--name", "bare2", "--out", bare2_s,
    ]));
    assert_eq!(code, Some(0), "{err4}");
    assert!(err4.contains("without patterns"), "{err4}");
    assert!(!netfile::load(&bare2).unwrap().has_patterns());

    // Bad input: a missing data file, a damaged --init file.
    let missing = d.join("missing.bin");
    let mut c = with(&["--name", "x", "--out", net_s]);
    c[3] = missing.to_str().unwrap().to_string();
    let (code, err) = train(&c);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("missing.bin"), "{err}");
    let bad = d.join("bad.pat");
    std::fs::write(&bad, b"DAMKAPAT short").unwrap();
    let bad_s = bad.to_str().unwrap();
    let (code, err) = train(&with(&["--init", bad_s, "--name", "x", "--out", net_s]));
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("bad.pat"), "{err}");
}
