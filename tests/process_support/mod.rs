//! Running a built program in the integration tests (`damka`): its arguments, a scripted
//! standard input, and what it wrote.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// What a program did.
pub struct Out {
    /// Exit status (-1 when killed by a signal).
    pub code: i32,
    /// Standard output, which must be UTF-8.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Out {
    /// The lines of standard output.
    pub fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `program ARGS`, writes `input` to its standard input piece by piece and closes it. A
/// piece that starts with `~` (the `~` is not written) is followed by a pause of 200 ms, so
/// that the program acts on it before the next piece arrives.
pub fn run(program: &str, args: &[&str], input: &[&[u8]]) -> Out {
    let mut command = Command::new(program);
    command.args(args);
    run_command(&mut command, input)
}

/// [`run`] with `data` as `$XDG_DATA_HOME` (a [`data_home`]).
pub fn run_in(data: &Path, program: &str, args: &[&str], input: &[&[u8]]) -> Out {
    let mut command = Command::new(program);
    command.args(args).env("XDG_DATA_HOME", data);
    run_command(&mut command, input)
}

/// [`run`] for a command that sets more than its arguments (its environment).
pub fn run_command(command: &mut Command, input: &[&[u8]]) -> Out {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {:?}: {e}", command.get_program()));
    let mut stdin = child.stdin.take().expect("stdin is piped");
    for piece in input {
        if let Some(rest) = piece.strip_prefix(b"~") {
            stdin.write_all(rest).expect("write to stdin");
            stdin.flush().expect("flush stdin");
            std::thread::sleep(Duration::from_millis(200));
        } else {
            stdin.write_all(piece).expect("write to stdin");
        }
    }
    drop(stdin);
    let out = child.wait_with_output().expect("wait for the program");
    Out {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A fresh, empty folder in the temporary directory for this test process and `name`, to
/// serve as `$XDG_DATA_HOME`: the default database folder is then `DIR/damka/egtb`, and
/// nothing the user built elsewhere is seen.
pub fn data_home(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-data-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path in the temporary directory for this test process and `name` (any file already
/// there is removed).
pub fn temp_path(name: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("damka-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_file(&p);
    p
}
