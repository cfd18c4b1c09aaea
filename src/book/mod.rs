//! The opening book: positions keyed by their Zobrist key, each with its moves and their
//! values, grown by `damka book build` ([`build`]) and probed by the engine before it
//! searches. One file per game; the books in `src/data/books/` are compiled in ([`compiled_in`]).
//!
//! File format (all numbers little-endian), documented in `docs/book.md`:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `DAMKABK1` |
//! | 1 | game: 0 Russian, 1 Turkish |
//! | 3 | zero |
//! | 4 | number of entries `n` |
//! | 16 n | entries, sorted by key then by value (best first) |
//! | 8 | checksum: [`checksum`] of every byte before it |
//!
//! An entry is one move of one position: key (8 bytes), move code ([`GameMove::hint`], 4),
//! value in centi-men for the side to move (i16, 2), depth searched (1), zero (1). A move is
//! recognised by matching its code against the legal moves, so a code two legal moves share
//! (almost never) is not used.

#[cfg(feature = "book")]
pub mod build;

use crate::core::{Score, Variant};
use crate::variant::{GameMove, Position};
use std::fmt;
use std::sync::Arc;

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"DAMKABK1";
/// Bytes before the entries.
const HEADER: usize = 16;
/// Bytes of an entry.
const ENTRY: usize = 16;
/// The most entries a book file may hold (64 MiB; the compiled-in books hold a few thousand):
/// a longer file is refused before it is read.
pub const MAX_ENTRIES: usize = 1 << 22;
/// The longest book file: [`MAX_ENTRIES`] entries, the header and the checksum.
pub const MAX_FILE_BYTES: usize = HEADER + MAX_ENTRIES * ENTRY + 8;

/// One move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's key ([`Position::key`]).
    pub key: u64,
    /// The move's code ([`GameMove::hint`]).
    pub code: u32,
    /// Value of the move for the side to move, centi-men.
    pub score: i16,
    /// Depth of the search that gave the value.
    pub depth: u8,
}

/// A book move found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove<M> {
    /// The move.
    pub mv: M,
    /// Its value for the side to move, centi-men.
    pub score: Score,
    /// Depth of the search that gave the value.
    pub depth: u8,
}

/// Why a book file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookError(pub String);

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BookError {}

/// An opening book of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    variant: Variant,
    /// Sorted by key, then best value first.
    entries: Vec<Entry>,
}

/// FNV-1a over `bytes`, 64 bits: enough to tell a damaged or truncated file.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Book {
    /// An empty book of `variant`.
    pub fn new(variant: Variant) -> Book {
        Book {
            variant,
            entries: Vec::new(),
        }
    }

    /// The game of the book.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Every entry, sorted by key then best first.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// Number of positions.
    pub fn positions(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for e in &self.entries {
            if last != Some(e.key) {
                n += 1;
                last = Some(e.key);
            }
        }
        n
    }

    /// Whether the position with `key` is in the book.
    pub fn contains(&self, key: u64) -> bool {
        self.range(key).next().is_some()
    }

    fn range(&self, key: u64) -> impl Iterator<Item = &Entry> {
        let start = self.entries.partition_point(|e| e.key < key);
        self.entries[start..]
            .iter()
            .take_while(move |e| e.key == key)
    }

    /// Puts the position `key` in the book with `moves` (its earlier moves, if any, are
    /// replaced).
    pub fn insert(&mut self, key: u64, moves: &[Entry]) {
        self.entries.retain(|e| e.key != key);
        let at = self.entries.partition_point(|e| e.key < key);
        let mut mine: Vec<Entry> = moves.iter().map(|m| Entry { key, ..*m }).collect();
        mine.sort_by_key(|e| std::cmp::Reverse(e.score));
        self.entries.splice(at..at, mine);
    }

    /// The book moves of `pos` that are legal there, best first; empty when the position is
    /// not in the book (or is of another game).
    pub fn probe<P: Position>(&self, pos: &P) -> Vec<BookMove<P::Move>> {
        if P::VARIANT != self.variant {
            return Vec::new();
        }
        let mut found = self.range(pos.key()).peekable();
        if found.peek().is_none() {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        found
            .filter_map(|e| {
                let mut same = legal.iter().filter(|m| m.hint() == e.code);
                match (same.next(), same.next()) {
                    (Some(m), None) => Some(BookMove {
                        mv: *m,
                        score: Score::from(e.score),
                        depth: e.depth,
                    }),
                    _ => None,
                }
            })
            .collect()
    }

    /// The book as file bytes (see the module's documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER + ENTRY * self.entries.len() + 8);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&[self.variant.code(), 0, 0, 0]);
        out.extend_from_slice(&(self.entries.len() as u32).to_le_bytes());
        for e in &self.entries {
            out.extend_from_slice(&e.key.to_le_bytes());
            out.extend_from_slice(&e.code.to_le_bytes());
            out.extend_from_slice(&e.score.to_le_bytes());
            out.extend_from_slice(&[e.depth, 0]);
        }
        let sum = checksum(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a book file's bytes, checking everything: magic, game, length, checksum and
    /// order. Every fault is a [`BookError`] that says what is wrong.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let err = |m: &str| Err(BookError(m.to_string()));
        if bytes.len() < HEADER + 8 || &bytes[..8] != MAGIC {
            return err("not a damka book (bad magic)");
        }
        let variant = Variant::from_code(bytes[8])
            .ok_or_else(|| BookError(format!("unknown game code {}", bytes[8])))?;
        let n = u32::from_le_bytes(bytes[12..16].try_into().unwrap_or_default()) as usize;
        let want = n.checked_mul(ENTRY).and_then(|b| b.checked_add(HEADER + 8));
        if want != Some(bytes.len()) {
            return Err(BookError(format!(
                "damaged book: {} bytes for {n} entries (truncated or padded)",
                bytes.len()
            )));
        }
        let body = &bytes[..bytes.len() - 8];
        let sum = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or_default());
        if checksum(body) != sum {
            return err("damaged book: checksum mismatch");
        }
        let entries: Vec<Entry> = body[HEADER..]
            .chunks_exact(ENTRY)
            .map(|c| Entry {
                key: u64::from_le_bytes(c[..8].try_into().unwrap_or_default()),
                code: u32::from_le_bytes(c[8..12].try_into().unwrap_or_default()),
                score: i16::from_le_bytes(c[12..14].try_into().unwrap_or_default()),
                depth: c[14],
            })
            .collect();
        let ordered = entries
            .windows(2)
            .all(|w| w[0].key < w[1].key || (w[0].key == w[1].key && w[0].score >= w[1].score));
        if !ordered {
            return err("damaged book: entries out of order");
        }
        Ok(Book { variant, entries })
    }

    /// Reads a book file (a regular file of at most [`MAX_FILE_BYTES`]).
    pub fn load(path: &std::path::Path) -> Result<Book, BookError> {
        let bytes = crate::core::file::read_bounded(path, MAX_FILE_BYTES as u64, "a book file")
            .map_err(BookError)?;
        Book::from_bytes(&bytes).map_err(|e| BookError(format!("{}: {e}", path.display())))
    }
}

/// The compiled-in book of `variant`, read once; none without the `book` feature.
#[cfg(not(feature = "book"))]
pub fn compiled_in(_variant: Variant) -> Option<Arc<Book>> {
    None
}

/// The compiled-in book of `variant` ([`crate::data::book`]), read once.
#[cfg(feature = "book")]
pub fn compiled_in(variant: Variant) -> Option<Arc<Book>> {
    use once_cell::sync::Lazy;
    static RUSSIAN: Lazy<Option<Arc<Book>>> = Lazy::new(|| {
        Book::from_bytes(crate::data::book(Variant::Russian))
            .ok()
            .map(Arc::new)
    });
    static TURKISH: Lazy<Option<Arc<Book>>> = Lazy::new(|| {
        Book::from_bytes(crate::data::book(Variant::Turkish))
            .ok()
            .map(Arc::new)
    });
    match variant {
        Variant::Russian => RUSSIAN.clone(),
        Variant::Turkish => TURKISH.clone(),
    }
}
