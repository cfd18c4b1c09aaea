//! `damka perft` on the command line: output formats and exit statuses.

use crate::process_support;

const EPD: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/russian.epd");

fn damka(args: &[&str]) -> (i32, String, String) {
    let out = process_support::run(env!("CARGO_BIN_EXE_damka"), args, &[]);
    (out.code, out.stdout, out.stderr)
}

#[test]
fn perft_last_line_format() {
    let (code, out, _) = damka(&["perft", "--variant", "russian", "--depth", "6"]);
    assert_eq!(code, 0);
    let last = out.lines().last().unwrap();
    let f: Vec<&str> = last.split(' ').collect();
    assert_eq!(f[0], "perft");
    assert_eq!(f[1], "depth=6");
    assert_eq!(f[2], "nodes=37986");
    assert!(f[3].strip_prefix("time=").unwrap().parse::<f64>().is_ok());
    assert!(f[4].strip_prefix("nps=").unwrap().parse::<f64>().is_ok());
}

#[test]
fn divide_lists_root_moves() {
    let (code, out, _) = damka(&[
        "perft",
        "--variant",
        "russian",
        "--fen",
        "W:WKd2:Bc5,e5,c3,e3",
        "--depth",
        "2",
        "--divide",
        "--threads",
        "2",
    ]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    let mut total = 0;
    for l in &lines[..3] {
        let (mv, n) = l.split_once(' ').unwrap();
        assert!(mv.starts_with("d2:"), "{l}");
        total += n.parse::<u64>().unwrap();
    }
    assert!(lines[3].contains(&format!("nodes={total} ")), "{out}");
}

#[test]
fn epd_check_passes_and_reports() {
    let (code, out, _) = damka(&[
        "perft",
        "--variant",
        "russian",
        "--epd",
        EPD,
        "--max-nodes",
        "20000",
    ]);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() > 100);
    assert!(lines[0].starts_with("W:Wa1,c1"));
    assert!(
        lines[0].ends_with(" D1 expected=7 got=7 ok"),
        "{}",
        lines[0]
    );
    assert!(!out.contains("FAIL"));
    assert!(lines.last().unwrap().contains("failed=0"));
}

#[test]
fn epd_failure_exits_1() {
    let dir = std::env::temp_dir().join(format!("damka-perft-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bad.epd");
    std::fs::write(&file, "W:W1-12:B21-32 ;D1 7 ;D2 50\n").unwrap();
    let (code, out, _) = damka(&["perft", "--epd", file.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.contains("D2 expected=50 got=49 FAIL"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        &[
            "perft",
            "--variant",
            "russian",
            "--fen",
            "W:Wz9",
            "--depth",
            "3",
        ][..],
        &["perft", "--variant", "chess", "--depth", "3"][..],
        &["perft", "--variant", "russian", "--depth", "-1"][..],
        &["perft", "--variant", "russian", "--depth", "x"][..],
        &["perft", "--variant", "russian"][..],
        &[
            "perft",
            "--variant",
            "russian",
            "--epd",
            "/nonexistent/file.epd",
        ][..],
    ] {
        let (code, out, err) = damka(args);
        assert_eq!(code, 2, "{args:?}: {out} {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}
