//! What damka-web takes without options: endgame databases built into the default folder
//! (`damka egtb build` with no `--dir`) are used, and `--egtb-path ""` turns them off. The
//! server says at start which tables it uses, which is what these tests read.

use damka::variant::RussianPosition;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts damka-web with `data` as `$XDG_DATA_HOME` and `args`, waits for the line naming
/// its address, stops it, and returns what it wrote on stderr before that line.
fn start_log(data: &Path, args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka-web"))
        .args(["--bind", "127.0.0.1", "--port", "0", "--db", ":memory:"])
        .args(args)
        .env("XDG_DATA_HOME", data)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the damka-web binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("serving http://"), "{line}");
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn tables_in_the_default_folder_are_used_without_options() {
    let data = std::env::temp_dir().join(format!("damka-web-defaults-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();

    // Nothing built: no tables, and no word about them.
    let log = start_log(&data, &[]);
    assert!(!log.contains("tables"), "{log}");

    // Built where `damka egtb build` writes by default (the library's own default folder).
    std::env::set_var("XDG_DATA_HOME", &data);
    let folder = damka::egtb::default_dir();
    assert!(folder.starts_with(&data));
    damka::egtb::build::build_all::<RussianPosition>(&folder, 3, |_, _, _| {}).unwrap();
    let log = start_log(&data, &[]);
    assert!(
        log.contains(&format!(
            "russian tables up to 3 pieces in {}",
            folder.display()
        )),
        "{log}"
    );

    // An empty --egtb-path: none.
    let log = start_log(&data, &["--egtb-path", ""]);
    assert!(!log.contains("tables"), "{log}");
    let _ = std::fs::remove_dir_all(&data);
}
