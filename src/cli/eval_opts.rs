//! The evaluation options shared by the commands that search (`--eval`, `--eval-file`).

use crate::core::Variant;
use crate::eval::select::{self, EvalKind};
use clap::Args;

/// `--eval classic|learned` and `--eval-file FILE`.
#[derive(Args, Debug, Default, Clone)]
pub struct EvalArgs {
    /// Evaluation: `learned` (the compiled-in net, the default where there is one) or
    /// `classic` (hand-written), for both games.
    #[arg(long, value_parser = |s: &str| s.parse::<EvalKind>())]
    pub eval: Option<EvalKind>,
    /// Load a learned net from this weights file (for the game it was trained for).
    #[arg(long, conflicts_with = "eval")]
    pub eval_file: Option<std::path::PathBuf>,
}

impl EvalArgs {
    /// Installs the chosen evaluation; the error is a one-line message.
    pub fn apply(&self) -> Result<(), String> {
        if let Some(k) = self.eval {
            for v in Variant::ALL {
                // `learned` where a game has no compiled-in net is an error only when asked for
                // explicitly for that game; for both games at once it keeps what there is.
                if select::set(v, k).is_err() && k == EvalKind::Learned {
                    continue;
                }
            }
        }
        if let Some(p) = &self.eval_file {
            select::load_file(p)?;
        }
        Ok(())
    }
}
