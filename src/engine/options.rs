//! The engine's options ([`Engine::options`], [`Engine::set_option`]): what the Hub `param`
//! lines declare and `set-param` sets, and what the command line sets by name.

use super::skill::{MAX_SKILL, MIN_SKILL};
use super::{
    parse_bool, Engine, EngineError, EngineOption, OptionKind, MAX_EGTB_CACHE_MB, MAX_HASH_MB,
    MAX_THREADS,
};
use crate::core::Variant;

/// Most root lines a multi-PV search reports.
pub const MAX_MULTIPV: usize = 64;
/// Largest `seed` (so that it fits every client's integer).
pub const MAX_SEED: usize = i32::MAX as usize;
/// Largest `book-variety`, centi-men.
pub const MAX_BOOK_VARIETY: i64 = 300;

/// An integer option.
fn int_option(name: &'static str, min: i64, max: i64, value: String) -> EngineOption {
    EngineOption {
        name,
        kind: OptionKind::Int { min, max },
        value,
    }
}

impl Engine {
    /// The options the engine declares (`variant`, `threads`, `hash`, ...) with their values.
    pub fn options(&self) -> Vec<EngineOption> {
        vec![
            EngineOption {
                name: "variant",
                kind: OptionKind::Enum(Variant::ALL.iter().map(|v| v.name()).collect()),
                value: self.variant().name().to_string(),
            },
            int_option("threads", 1, MAX_THREADS as i64, self.threads().to_string()),
            int_option("hash", 1, MAX_HASH_MB as i64, self.hash_mb().to_string()),
            EngineOption {
                name: "egtb-path",
                kind: OptionKind::Text,
                value: self.endgames.path.clone(),
            },
            int_option(
                "egtb-cache",
                1,
                MAX_EGTB_CACHE_MB as i64,
                self.endgames.cache_mb.to_string(),
            ),
            EngineOption {
                name: "eval",
                kind: OptionKind::Enum(vec!["learned", "classic"]),
                value: match self.evals.get(self.variant()).net() {
                    Some(_) => "learned",
                    None => "classic",
                }
                .to_string(),
            },
            EngineOption {
                name: "eval-file",
                kind: OptionKind::Text,
                value: self.eval_file.clone(),
            },
            int_option(
                "multipv",
                1,
                MAX_MULTIPV as i64,
                crate::per_game!(&self.game, s => s.multipv()).to_string(),
            ),
            int_option(
                "skill",
                i64::from(MIN_SKILL),
                i64::from(MAX_SKILL),
                crate::per_game!(&self.game, s => s.skill()).to_string(),
            ),
            int_option("seed", 0, MAX_SEED as i64, self.seed.to_string()),
            EngineOption {
                name: "book",
                kind: OptionKind::Bool,
                value: self.book_enabled().to_string(),
            },
            EngineOption {
                name: "book-file",
                kind: OptionKind::Text,
                value: self.book_file.clone(),
            },
            int_option(
                "book-variety",
                0,
                MAX_BOOK_VARIETY,
                self.book_variety.to_string(),
            ),
        ]
    }

    /// Sets an option by name (case-insensitive) from its text value, as declared by
    /// [`Engine::options`].
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let int = |lo: usize, hi: usize| -> Result<usize, EngineError> {
            match value.trim().parse::<usize>() {
                Ok(v) if (lo..=hi).contains(&v) => Ok(v),
                _ => Err(EngineError::BadOption(format!(
                    "{name} must be an integer from {lo} to {hi}, not {value:?}"
                ))),
            }
        };
        match name.trim().to_ascii_lowercase().as_str() {
            "variant" => {
                let v: Variant = value.parse().map_err(|e: crate::core::UnknownVariant| {
                    EngineError::BadOption(e.to_string())
                })?;
                if v != self.variant() {
                    self.set_variant(v);
                }
                Ok(())
            }
            "threads" => {
                let n = int(1, MAX_THREADS)?;
                self.set_threads(n);
                Ok(())
            }
            "hash" => {
                let n = int(1, MAX_HASH_MB)?;
                self.set_hash_mb(n);
                Ok(())
            }
            "egtb-path" => {
                let cache = self.endgames.cache_mb;
                self.set_endgames(value.trim(), cache);
                Ok(())
            }
            "egtb-cache" => {
                let n = int(1, MAX_EGTB_CACHE_MB)?;
                let path = self.endgames.path.clone();
                self.set_endgames(&path, n);
                Ok(())
            }
            "eval" => {
                let kind = value
                    .parse::<crate::eval::EvalKind>()
                    .map_err(EngineError::BadOption)?;
                // Learned where a game has no compiled-in net: that game keeps what it has.
                let mut evals = self.evals.clone();
                evals.set_kind(kind);
                self.set_evaluators(evals);
                Ok(())
            }
            "eval-file" => {
                let path = value.trim();
                if path.is_empty() {
                    return Ok(());
                }
                let mut evals = self.evals.clone();
                evals
                    .load_file(std::path::Path::new(path))
                    .map_err(|e| EngineError::BadOption(format!("eval-file: {e}")))?;
                self.set_evaluators(evals);
                self.eval_file = path.to_string();
                Ok(())
            }
            "book" | "book-file" | "book-variety" => self.set_book_option(name, value),
            "multipv" => {
                let n = int(1, MAX_MULTIPV)? as u32;
                self.stop_and_wait();
                crate::per_game!(&mut self.game, s => s.set_multipv(n));
                Ok(())
            }
            "skill" => {
                let n = int(usize::from(MIN_SKILL), usize::from(MAX_SKILL))? as u8;
                self.stop_and_wait();
                crate::per_game!(&mut self.game, s => s.set_skill(n));
                Ok(())
            }
            "seed" => {
                let n = int(0, MAX_SEED)? as u64;
                self.stop_and_wait();
                self.seed = n;
                crate::per_game!(&mut self.game, s => s.set_seed(n));
                Ok(())
            }
            _ => Err(EngineError::BadOption(format!("unknown option {name:?}"))),
        }
    }

    /// `book` (on or off), `book-file` (a book file for its game; empty: the compiled-in
    /// books) and `book-variety`. A file that cannot be read or is damaged is refused with
    /// the reason, and the engine keeps the book it had.
    fn set_book_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.stop_and_wait();
        match name.trim().to_ascii_lowercase().as_str() {
            "book" => {
                self.book_on = Some(parse_bool(value).ok_or_else(|| {
                    EngineError::BadOption(format!("book must be true or false, not {value:?}"))
                })?);
            }
            "book-file" => {
                let path = value.trim();
                if path.is_empty() {
                    self.custom_book = None;
                } else {
                    let book = crate::book::Book::load(std::path::Path::new(path))
                        .map_err(|e| EngineError::BadOption(format!("book-file: {e}")))?;
                    self.custom_book = Some(std::sync::Arc::new(book));
                }
                self.book_file = path.to_string();
            }
            _ => match value.trim().parse::<i64>() {
                Ok(v) if (0..=MAX_BOOK_VARIETY).contains(&v) => self.book_variety = v as i32,
                _ => {
                    return Err(EngineError::BadOption(format!(
                    "book-variety must be an integer from 0 to {MAX_BOOK_VARIETY}, not {value:?}"
                )))
                }
            },
        }
        self.attach_book();
        Ok(())
    }
}
