//! The `damka` binary: a thin wrapper over [`damka::cli`].

fn main() {
    restore_sigpipe();
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
