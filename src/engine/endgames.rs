//! The engine's endgame databases: the `egtb-path` and `egtb-cache` options, the tables opened
//! for the current game and handed to its searcher, and the messages about missing or damaged
//! tables, each shown once.

use crate::core::Variant;
use crate::egtb::Tablebase;
use std::path::PathBuf;
use std::sync::Arc;

/// Default cache of decoded blocks, MiB.
pub const DEFAULT_EGTB_CACHE_MB: usize = 32;
/// Largest accepted cache, MiB.
pub const MAX_EGTB_CACHE_MB: usize = 65_536;

/// The open tables and what is to be said about them.
#[derive(Default)]
pub struct EndgameConfig {
    /// The tables of the current game, if they opened.
    pub tables: Option<Arc<Tablebase>>,
    /// Messages not yet shown.
    pub messages: Vec<String>,
}

impl EndgameConfig {
    /// No tables.
    pub fn new() -> EndgameConfig {
        EndgameConfig::default()
    }

    /// Opens the tables of `variant` from `path` (none when it is empty) with a cache of
    /// `cache_mb` MiB; a failure becomes a message and play goes on without tables.
    pub fn reopen(&mut self, path: &str, cache_mb: usize, variant: Variant) {
        self.tables = None;
        let path = path.trim();
        if path.is_empty() {
            return;
        }
        let cache_mb = cache_mb.clamp(1, MAX_EGTB_CACHE_MB);
        match Tablebase::open(&PathBuf::from(path), variant, cache_mb) {
            Ok(t) => self.tables = Some(Arc::new(t)),
            Err(e) => self
                .messages
                .push(format!("endgame databases not used: {e}")),
        }
    }

    /// Messages not yet shown, including the tables' own (a missing or damaged table).
    pub fn take_messages(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.messages);
        if let Some(t) = &self.tables {
            out.extend(t.take_messages());
        }
        out
    }

    /// Successful probes so far, when tables are in use.
    pub fn hits(&self) -> Option<u64> {
        self.tables.as_ref().map(|t| t.hits())
    }
}
