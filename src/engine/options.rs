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

/// An integer option in `min..=max`.
const fn int(
    name: &'static str,
    (min, max): (i64, i64),
    get: fn(&Engine) -> i64,
    set: fn(&mut Engine, i64) -> SetResult,
) -> Declared {
    let access = Access::Int { min, max, get, set };
    Declared { name, access }
}

/// A `true` / `false` option.
const fn flag(
    name: &'static str,
    get: fn(&Engine) -> bool,
    set: fn(&mut Engine, bool) -> SetResult,
) -> Declared {
    let access = Access::Bool { get, set };
    Declared { name, access }
}

/// A free-text option.
const fn text(
    name: &'static str,
    get: fn(&Engine) -> String,
    set: fn(&mut Engine, &str) -> SetResult,
) -> Declared {
    let access = Access::Text { get, set };
    Declared { name, access }
}

/// An option with one of `values()`.
const fn one_of(
    name: &'static str,
    values: fn() -> Vec<&'static str>,
    get: fn(&Engine) -> &'static str,
    set: fn(&mut Engine, &str) -> SetResult,
) -> Declared {
    let access = Access::Enum { values, get, set };
    Declared { name, access }
}

/// Every option the engine has, in the order the Hub `param` lines list them; one line each
/// (a table, so it is kept as written).
#[rustfmt::skip]
const OPTIONS: &[Declared] = &[
    one_of("variant", variant_names, |e| e.variant().name(), set_variant),
    int("threads", (1, MAX_THREADS as i64), |e| e.threads() as i64, set_threads),
    int("hash", (1, MAX_HASH_MB as i64), |e| e.hash_mb() as i64, set_hash),
    text("egtb-path", |e| e.settings.egtb_path.clone(),
        |e, p| e.update(|s| s.egtb_path = p.into())),
    // What `egtb-path` found for the current game, for a GUI to show; read-only (a value set
    // is accepted and changes nothing, so a client that sends back every parameter it was
    // given gets no error).
    text("egtb-found", |e| e.egtb_found(), |_, _| Ok(())),
    int("egtb-cache", (1, MAX_EGTB_CACHE_MB as i64), |e| e.settings.egtb_cache_mb as i64,
        |e, n| e.update(|s| s.egtb_cache_mb = n as usize)),
    one_of("eval", || vec!["learned", "classic"], eval_kind, set_eval_kind),
    text("eval-file", |e| e.eval_file.clone(), set_eval_file),
    int("multipv", (1, MAX_MULTIPV as i64), |e| e.settings.multipv.into(),
        |e, n| e.update(|s| s.multipv = n as u32)),
    int("skill", (MIN_SKILL as i64, MAX_SKILL as i64), |e| e.settings.skill.into(),
        |e, n| e.update(|s| s.skill = n as u8)),
    int("seed", (0, MAX_SEED as i64), |e| e.settings.seed as i64,
        |e, n| e.update(|s| s.seed = n as u64)),
    flag("book", |e| e.book_enabled(), |e, on| e.update(|s| s.book = Some(on))),
    text("book-file", |e| e.settings.book_file.clone(),
        |e, p| e.update(|s| s.book_file = p.into())),
    int("book-variety", (0, MAX_BOOK_VARIETY), |e| e.settings.book_variety.into(),
        |e, v| e.update(|s| s.book_variety = v as i32)),
];

// Threads and the table are set even when the value is the one in force: asking again is how
// a user gets threads or memory the system refused before (and a new table).
fn set_threads(e: &mut Engine, n: i64) -> SetResult {
    e.set_threads(n as usize);
    Ok(())
}

fn set_hash(e: &mut Engine, mb: i64) -> SetResult {
    e.set_hash_mb(mb as usize);
    Ok(())
}

fn variant_names() -> Vec<&'static str> {
    Variant::ALL.iter().map(|v| v.name()).collect()
}

fn set_variant(e: &mut Engine, name: &str) -> SetResult {
    let v: Variant = name
        .parse()
        .map_err(|err: crate::core::UnknownVariant| EngineError::BadOption(err.to_string()))?;
    if v != e.variant() {
        e.set_variant(v);
    }
    Ok(())
}

fn eval_kind(e: &Engine) -> &'static str {
    match e.evals.get(e.variant()).net() {
        Some(_) => "learned",
        None => "classic",
    }
}

fn set_eval_kind(e: &mut Engine, name: &str) -> SetResult {
    let kind = name
        .parse::<crate::eval::EvalKind>()
        .map_err(EngineError::BadOption)?;
    // Learned where a game has no compiled-in net: that game keeps what it has.
    let mut evals = e.evals.clone();
    evals.set_kind(kind);
    e.set_evaluators(evals);
    Ok(())
}

fn set_eval_file(e: &mut Engine, path: &str) -> SetResult {
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
}

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
