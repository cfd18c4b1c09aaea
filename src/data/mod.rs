//! The data compiled into the program, all of it in this folder: the learned evaluation's
//! weights (`nets/`, written by `damka-train`), the opening books (`books/`, written by
//! `damka book build`), the balanced openings of self-play and data generation (`openings/`,
//! written by `damka-match openings`; `src/data/openings` points here) and the positions of
//! `damka bench` (`bench/`). Each is one file per game; the code that reads them lives with
//! its layer (the net reader in [`crate::eval`], the book reader in [`crate::book`]).

use crate::core::Variant;

/// The compiled-in learned net of `variant`, in the weights file format
/// ([`crate::eval::netfile`]); `None` where a game has none.
pub fn net(variant: Variant) -> Option<&'static [u8]> {
    Some(match variant {
        Variant::Russian => include_bytes!("nets/russian.pat"),
        Variant::Turkish => include_bytes!("nets/turkish.pat"),
    })
}

#[cfg(feature = "book")]
/// The compiled-in opening book of `variant` ([`crate::book`]'s file format).
pub fn book(variant: Variant) -> &'static [u8] {
    match variant {
        Variant::Russian => include_bytes!("books/russian.book"),
        Variant::Turkish => include_bytes!("books/turkish.book"),
    }
}

/// The balanced openings of `variant`: a comment header, then one line of moves each.
pub fn openings(variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => include_str!("openings/russian.txt"),
        Variant::Turkish => include_str!("openings/turkish.txt"),
    }
}

/// The positions of `damka bench` for `variant`, one FEN a line. They make the `Bench:`
/// signature of search and evaluation commits: change them only on purpose.
pub fn bench_positions(variant: Variant) -> &'static str {
    match variant {
        Variant::Russian => include_str!("bench/russian.txt"),
        Variant::Turkish => include_str!("bench/turkish.txt"),
    }
}
