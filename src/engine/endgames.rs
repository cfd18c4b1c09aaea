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

/// The options and the open tables.
#[derive(Default)]
pub struct EndgameConfig {
    /// Folder given by `egtb-path` (empty: no tables).
    pub path: String,
    /// Cache size in MiB.
    pub cache_mb: usize,
    /// The tables of the current game, if they opened.
    pub tables: Option<Arc<Tablebase>>,
    /// Messages not yet shown.
    pub messages: Vec<String>,
    /// Messages already shown for this folder: the same problem is said once, even when a
    /// change of game opens the folder again.
    shown: Vec<String>,
}

/// Most distinct messages remembered as shown for one folder.
const MAX_SHOWN: usize = 64;

impl EndgameConfig {
    /// No tables, default cache.
    pub fn new() -> EndgameConfig {
        EndgameConfig {
            cache_mb: DEFAULT_EGTB_CACHE_MB,
            ..EndgameConfig::default()
        }
    }

    /// Sets the folder and cache size (the tables are opened by [`EndgameConfig::reopen`]).
    /// Another folder has its own problems: what was said, or waits to be said, about the
    /// last one is dropped (a client that names its own folder before `init` hears nothing
    /// of the default one).
    pub fn configure(&mut self, path: &str, cache_mb: usize) {
        if path != self.path {
            self.shown.clear();
            self.messages.clear();
            if let Some(t) = &self.tables {
                t.take_messages();
            }
        }
        self.path = path.to_string();
        self.cache_mb = cache_mb;
    }

    /// Opens the tables of `variant` from the configured folder (none when the path is
    /// empty); a failure becomes a message and play goes on without tables.
    pub fn reopen(&mut self, variant: Variant) {
        // Problems of the tables closed now were said, or are said again if they recur.
        if let Some(t) = self.tables.take() {
            self.messages.extend(t.take_messages());
        }
        let path = self.path.trim();
        if path.is_empty() {
            return;
        }
        match Tablebase::open(&PathBuf::from(path), variant, self.cache_mb) {
            Ok(t) => self.tables = Some(Arc::new(t)),
            Err(e) => self
                .messages
                .push(format!("endgame databases not used: {e}")),
        }
    }

    /// Messages not yet shown, including the tables' own (a missing or damaged table); a
    /// message already shown for this folder is not repeated.
    pub fn take_messages(&mut self) -> Vec<String> {
        let mut out = std::mem::take(&mut self.messages);
        if let Some(t) = &self.tables {
            out.extend(t.take_messages());
        }
        out.retain(|m| !self.shown.contains(m));
        out.dedup();
        for m in &out {
            if self.shown.len() < MAX_SHOWN {
                self.shown.push(m.clone());
            }
        }
        out
    }

    /// Where the tables in use were found (`russian tables up to 4 pieces in DIR`), or
    /// `none`.
    pub fn found(&self) -> String {
        self.tables
            .as_ref()
            .map_or_else(|| "none".to_string(), |t| t.describe())
    }

    /// Successful probes so far, when tables are in use.
    pub fn hits(&self) -> Option<u64> {
        self.tables.as_ref().map(|t| t.hits())
    }
}

impl super::Engine {
    /// Where the endgame databases in use were found (`russian tables up to 4 pieces in DIR`),
    /// or `none`.
    pub fn egtb_found(&self) -> String {
        self.endgames.found()
    }

    /// Successful endgame database probes so far (`None` without databases).
    pub fn egtb_hits(&self) -> Option<u64> {
        self.endgames.hits()
    }
}
