//! `damka-match`: engine-against-engine matches. PLACEHOLDER: written by the match-tool issue.

fn main() {
    eprintln!("damka-match: not implemented yet");
    std::process::exit(2);
}
