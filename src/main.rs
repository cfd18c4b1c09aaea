//! The `damka` binary: a thin wrapper over [`damka::cli`].

fn main() {
    std::process::exit(damka::cli::main());
}
