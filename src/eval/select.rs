//! The evaluation in use, per game: the compiled-in learned net (the default where one is
//! compiled in), the hand-written evaluation, or a net loaded from a file. A process-wide
//! setting (the engine plays one game at a time with one evaluation); the search reads it
//! once per evaluation.

use super::netfile;
use super::pattern::Net;
use crate::core::{Color, Score, Variant};
use crate::variant::Pieces;
use once_cell::sync::Lazy;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The compiled-in nets' files, per game (trained by `tools/train`, see `docs/evaluation.md`).
const EMBEDDED_RUSSIAN: Option<&[u8]> = Some(include_bytes!("nets/russian.pat"));
const EMBEDDED_TURKISH: Option<&[u8]> = Some(include_bytes!("nets/turkish.pat"));

static NET_RUSSIAN: Lazy<Option<Net>> = Lazy::new(|| embedded_parse(EMBEDDED_RUSSIAN));
static NET_TURKISH: Lazy<Option<Net>> = Lazy::new(|| embedded_parse(EMBEDDED_TURKISH));

fn embedded_parse(b: Option<&[u8]>) -> Option<Net> {
    b.map(|b| netfile::from_bytes(b).expect("the compiled-in net is checked by the tests"))
}

/// The compiled-in net of a game, if there is one.
pub fn embedded(variant: Variant) -> Option<&'static Net> {
    match variant {
        Variant::Russian => NET_RUSSIAN.as_ref(),
        Variant::Turkish => NET_TURKISH.as_ref(),
    }
}

/// Choice codes: the game's default, the hand-written evaluation; anything else is the
/// address of a leaked `Net` loaded from a file.
const DEFAULT: usize = 0;
const CLASSIC: usize = 1;

static CHOICE: [AtomicUsize; 2] = [AtomicUsize::new(DEFAULT), AtomicUsize::new(DEFAULT)];

fn slot(v: Variant) -> &'static AtomicUsize {
    &CHOICE[match v {
        Variant::Russian => 0,
        Variant::Turkish => 1,
    }]
}

/// The two evaluations one can ask for by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalKind {
    /// The hand-written evaluation.
    Classic,
    /// The learned one (the compiled-in net, or the net last loaded from a file).
    Learned,
}

impl std::str::FromStr for EvalKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "classic" => Ok(EvalKind::Classic),
            "learned" => Ok(EvalKind::Learned),
            _ => Err(format!("eval must be classic or learned, not {s:?}")),
        }
    }
}

/// Uses the hand-written evaluation (`Classic`) or the compiled-in net (`Learned`) for a game;
/// fails if no net is compiled in for it.
pub fn set(variant: Variant, kind: EvalKind) -> Result<(), String> {
    let code = match kind {
        EvalKind::Classic => CLASSIC,
        EvalKind::Learned if embedded(variant).is_some() => DEFAULT,
        EvalKind::Learned => {
            return Err(format!(
                "no learned net is compiled in for {}",
                variant.name()
            ))
        }
    };
    slot(variant).store(code, Ordering::Relaxed);
    Ok(())
}

/// Loads a weights file and uses it for the game the file is for (returned).
pub fn load_file(path: &std::path::Path) -> Result<Variant, String> {
    let net = netfile::load(path)?;
    let v = net.variant;
    // Leaked on purpose: a search thread may still read the previous net, so nets are never
    // freed; a few of them per process at most (loading is a user action).
    let leaked: &'static Net = Box::leak(Box::new(net));
    slot(v).store(leaked as *const Net as usize, Ordering::Relaxed);
    Ok(v)
}

/// The net in use for a game, or `None` for the hand-written evaluation.
#[inline]
pub fn active(variant: Variant) -> Option<&'static Net> {
    match slot(variant).load(Ordering::Relaxed) {
        DEFAULT => embedded(variant),
        CLASSIC => None,
        p => {
            // SAFETY: every other code stored is the address of a `Net` leaked by `load_file`,
            // alive for the rest of the process and never written again.
            Some(unsafe { &*(p as *const Net) })
        }
    }
}

/// The name of the evaluation in use for a game (`classic` or the net's name).
pub fn name(variant: Variant) -> String {
    active(variant).map_or_else(|| "classic".to_string(), |n| n.name.clone())
}

/// The evaluation in use for a game, `classic` computing the hand-written one.
#[inline]
pub fn evaluate_with(
    variant: Variant,
    white: Pieces,
    black: Pieces,
    side: Color,
    classic: impl FnOnce() -> Score,
) -> Score {
    match active(variant) {
        Some(net) => net.evaluate(white, black, side),
        None => classic(),
    }
}
