//! Names the commit the programs are built from (`damka --version`): `DAMKA_COMMIT` when set
//! (a release script, a source archive without git), else git's `HEAD`, else `unknown`.

use std::path::Path;
use std::process::Command;

/// A git command's output in the package's folder, `None` when git or the repository is
/// missing.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !text.is_empty()).then_some(text)
}

/// Asks cargo to run this again when `file` changes; a file that does not exist is left out,
/// since cargo would take it as changed on every build.
fn watch(file: &str) {
    if Path::new(file).exists() {
        println!("cargo:rerun-if-changed={file}");
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=DAMKA_COMMIT");
    let commit = match std::env::var("DAMKA_COMMIT") {
        Ok(c) if !c.trim().is_empty() => c.trim().to_string(),
        _ => {
            // HEAD moves on a checkout, the branch's ref (or packed-refs) on a commit; git
            // names their paths, which differ in a linked worktree.
            let path = |name: &str| git(&["rev-parse", "--git-path", name]);
            for name in ["HEAD", "packed-refs"] {
                if let Some(p) = path(name) {
                    watch(&p);
                }
            }
            if let Some(p) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|r| path(&r)) {
                watch(&p);
            }
            git(&["rev-parse", "--short=12", "HEAD"]).unwrap_or_else(|| "unknown".into())
        }
    };
    println!("cargo:rustc-env=DAMKA_COMMIT={commit}");
}
