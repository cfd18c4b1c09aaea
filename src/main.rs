//! The `damka` binary: a thin wrapper over [`damka::cli`].

fn main() {
    // `damka dxp` is a server: a closed stderr (its log) must not end it, so it keeps Rust's
    // default of ignoring SIGPIPE, and its log ignores write errors.
    if std::env::args().nth(1).as_deref() != Some("dxp") {
        restore_sigpipe();
    }
    std::process::exit(damka::cli::main());
}

/// Rust ignores SIGPIPE, so `damka perft ... | head` would panic on the first write after the
/// reader left. A command-line tool should end quietly instead, as the shell expects.
#[cfg(unix)]
fn restore_sigpipe() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: `signal` from the C library, called once at start-up before any thread exists,
    // with a valid signal number and the default disposition.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_sigpipe() {}
