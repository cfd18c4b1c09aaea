//! The endgame database options shared by the commands that search (`--egtb-path`,
//! `--egtb-cache`), declared once.

use clap::Args;
use std::path::PathBuf;

/// `--egtb-path DIR` and `--egtb-cache MiB`.
#[derive(Args, Debug, Clone)]
pub struct EgtbArgs {
    /// Endgame database folder (as given to `damka egtb build --dir`); none by default.
    #[arg(long = "egtb-path")]
    pub path: Option<PathBuf>,
    /// Endgame database cache in MiB.
    #[arg(long = "egtb-cache", default_value_t = crate::engine::DEFAULT_EGTB_CACHE_MB)]
    pub cache: usize,
}

impl Default for EgtbArgs {
    fn default() -> Self {
        EgtbArgs {
            path: None,
            cache: crate::engine::DEFAULT_EGTB_CACHE_MB,
        }
    }
}

impl EgtbArgs {
    /// The folder and cache size, when a folder is given.
    pub fn tables(&self) -> Option<(PathBuf, usize)> {
        self.path.clone().map(|p| (p, self.cache))
    }
}
