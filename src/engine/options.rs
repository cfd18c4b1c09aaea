//! The engine's options ([`Engine::options`], [`Engine::set_option`]): what the Hub `param`
//! lines declare and `set-param` sets, and what the command line sets by name. Each option is
//! declared once, in [`OPTIONS`], with its kind, range, reader and typed setter; text is read
//! in one place ([`Engine::set_option`]) and the setters see typed values.

use super::skill::{MAX_SKILL, MIN_SKILL};
use super::{
    parse_bool, Engine, EngineError, EngineOption, EngineSettings, OptionKind, MAX_EGTB_CACHE_MB,
    MAX_HASH_MB, MAX_THREADS,
};
use crate::core::Variant;

/// Most root lines a multi-PV search reports.
pub const MAX_MULTIPV: usize = 64;
/// Largest `seed` (so that it fits every client's integer).
pub const MAX_SEED: usize = i32::MAX as usize;
/// Largest `book-variety`, centi-men.
pub const MAX_BOOK_VARIETY: i64 = 300;

/// What a setter may answer: the option's value was refused, with the reason.
type SetResult = Result<(), EngineError>;

/// How an option is read and written, by kind; the range of an integer lives here only.
enum Access {
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
        get: fn(&Engine) -> i64,
        set: fn(&mut Engine, i64) -> SetResult,
    },
    /// `true` or `false`.
    Bool {
        get: fn(&Engine) -> bool,
        set: fn(&mut Engine, bool) -> SetResult,
    },
    /// Free text (a file name): the setter checks it.
    Text {
        get: fn(&Engine) -> String,
        set: fn(&mut Engine, &str) -> SetResult,
    },
    /// One of `values()`: the setter receives one of them.
    Enum {
        values: fn() -> Vec<&'static str>,
        get: fn(&Engine) -> &'static str,
        set: fn(&mut Engine, &str) -> SetResult,
    },
}

/// One option: its name and how it is read and written.
struct Declared {
    name: &'static str,
    access: Access,
}

/// Every option the engine has, in the order the Hub `param` lines list them.
const OPTIONS: &[Declared] = &[
    Declared {
        name: "variant",
        access: Access::Enum {
            values: || Variant::ALL.iter().map(|v| v.name()).collect(),
            get: |e| e.variant().name(),
            set: |e, v| {
                let v: Variant = v.parse().map_err(|e: crate::core::UnknownVariant| {
                    EngineError::BadOption(e.to_string())
                })?;
                if v != e.variant() {
                    e.set_variant(v);
                }
                Ok(())
            },
        },
    },
    Declared {
        name: "threads",
        access: Access::Int {
            min: 1,
            max: MAX_THREADS as i64,
            get: |e| e.threads() as i64,
            set: |e, n| {
                e.set_threads(n as usize);
                Ok(())
            },
        },
    },
    Declared {
        name: "hash",
        access: Access::Int {
            min: 1,
            max: MAX_HASH_MB as i64,
            get: |e| e.hash_mb() as i64,
            set: |e, n| {
                e.set_hash_mb(n as usize);
                Ok(())
            },
        },
    },
    Declared {
        name: "egtb-path",
        access: Access::Text {
            get: |e| e.settings.egtb_path.clone(),
            set: |e, path| e.update(|s| s.egtb_path = path.to_string()),
        },
    },
    Declared {
        // What `egtb-path` found for the current game, for a GUI to show; read-only (a value
        // set is accepted and changes nothing, so a client that sends back every parameter
        // it was given gets no error).
        name: "egtb-found",
        access: Access::Text {
            get: |e| e.egtb_found(),
            set: |_, _| Ok(()),
        },
    },
    Declared {
        name: "egtb-cache",
        access: Access::Int {
            min: 1,
            max: MAX_EGTB_CACHE_MB as i64,
            get: |e| e.settings.egtb_cache_mb as i64,
            set: |e, n| e.update(|s| s.egtb_cache_mb = n as usize),
        },
    },
    Declared {
        name: "eval",
        access: Access::Enum {
            values: || vec!["learned", "classic"],
            get: |e| match e.evals.get(e.variant()).net() {
                Some(_) => "learned",
                None => "classic",
            },
            set: |e, v| {
                let kind = v
                    .parse::<crate::eval::EvalKind>()
                    .map_err(EngineError::BadOption)?;
                // Learned where a game has no compiled-in net: that game keeps what it has.
                let mut evals = e.evals.clone();
                evals.set_kind(kind);
                e.set_evaluators(evals);
                Ok(())
            },
        },
    },
    Declared {
        name: "eval-file",
        access: Access::Text {
            get: |e| e.eval_file.clone(),
            set: |e, path| {
                if path.is_empty() {
                    return Ok(());
                }
                let mut evals = e.evals.clone();
                evals
                    .load_file(std::path::Path::new(path))
                    .map_err(|err| EngineError::BadOption(format!("eval-file: {err}")))?;
                e.set_evaluators(evals);
                e.eval_file = path.to_string();
                Ok(())
            },
        },
    },
    Declared {
        name: "multipv",
        access: Access::Int {
            min: 1,
            max: MAX_MULTIPV as i64,
            get: |e| i64::from(e.settings.multipv),
            set: |e, n| e.update(|s| s.multipv = n as u32),
        },
    },
    Declared {
        name: "skill",
        access: Access::Int {
            min: MIN_SKILL as i64,
            max: MAX_SKILL as i64,
            get: |e| i64::from(e.settings.skill),
            set: |e, n| e.update(|s| s.skill = n as u8),
        },
    },
    Declared {
        name: "seed",
        access: Access::Int {
            min: 0,
            max: MAX_SEED as i64,
            get: |e| e.settings.seed as i64,
            set: |e, n| e.update(|s| s.seed = n as u64),
        },
    },
    Declared {
        name: "book",
        access: Access::Bool {
            get: |e| e.book_enabled(),
            set: |e, on| e.update(|s| s.book = Some(on)),
        },
    },
    Declared {
        name: "book-file",
        access: Access::Text {
            get: |e| e.settings.book_file.clone(),
            set: |e, path| e.update(|s| s.book_file = path.to_string()),
        },
    },
    Declared {
        name: "book-variety",
        access: Access::Int {
            min: 0,
            max: MAX_BOOK_VARIETY,
            get: |e| i64::from(e.settings.book_variety),
            set: |e, v| e.update(|s| s.book_variety = v as i32),
        },
    },
];

impl Engine {
    /// The options the engine declares (`variant`, `threads`, `hash`, ...) with their values.
    pub fn options(&self) -> Vec<EngineOption> {
        OPTIONS
            .iter()
            .map(|o| {
                let (kind, value) = match &o.access {
                    Access::Int { min, max, get, .. } => (
                        OptionKind::Int {
                            min: *min,
                            max: *max,
                        },
                        get(self).to_string(),
                    ),
                    Access::Bool { get, .. } => (OptionKind::Bool, get(self).to_string()),
                    Access::Text { get, .. } => (OptionKind::Text, get(self)),
                    Access::Enum { values, get, .. } => {
                        (OptionKind::Enum(values()), get(self).to_string())
                    }
                };
                EngineOption {
                    name: o.name,
                    kind,
                    value,
                }
            })
            .collect()
    }

    /// Sets an option by name (case-insensitive) from its text value, as declared by
    /// [`Engine::options`]: the text is checked against the option's kind and range here,
    /// and its setter receives the typed value.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        let wanted = name.trim().to_ascii_lowercase();
        let Some(option) = OPTIONS.iter().find(|o| o.name == wanted) else {
            return Err(EngineError::BadOption(format!("unknown option {name:?}")));
        };
        let name = option.name;
        match &option.access {
            Access::Int { min, max, set, .. } => match value.trim().parse::<i64>() {
                Ok(v) if (*min..=*max).contains(&v) => set(self, v),
                _ => Err(EngineError::BadOption(format!(
                    "{name} must be an integer from {min} to {max}, not {value:?}"
                ))),
            },
            Access::Bool { set, .. } => match parse_bool(value) {
                Some(on) => set(self, on),
                None => Err(EngineError::BadOption(format!(
                    "{name} must be true or false, not {value:?}"
                ))),
            },
            Access::Text { set, .. } => set(self, value.trim()),
            Access::Enum { set, .. } => set(self, value.trim()),
        }
    }

    /// Applies the settings in force changed by `change` (an option's typed setter).
    fn update(&mut self, change: impl FnOnce(&mut EngineSettings)) -> SetResult {
        let mut settings = self.settings.clone();
        change(&mut settings);
        self.apply(&settings)
    }
}
