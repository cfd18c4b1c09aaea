//! Parameters the Hub session handles itself instead of handing them to the engine: the
//! client's square [`Numbering`], and the parameters of Scan that clients written for Scan
//! send whatever the engine declares (lidraughts-bot's defaults: `book-ply`, `tt-size`,
//! `bb-size`, and `initial-time`), mapped to damka's own or accepted without effect.
//!
//! [`check_option_value`] checks a value for one of the engine's declared parameters.
//!
//! Only `numbering` is declared in the `param` list. Scan's names are not: each duplicates
//! a parameter damka declares under its own name (`hash`, `egtb-path`, `book`), and a GUI
//! that sends every declared parameter's value would then set the same thing twice.

use super::numbering::Numbering;
use super::parse::shorten;
use crate::engine::{EngineOption, OptionKind, MAX_HASH_MB};

/// Bytes of one transposition-table entry (two `u64`, see `crate::search::tt`): Scan's
/// `tt-size` counts entries, damka's `hash` MiB.
const TT_ENTRY_BYTES: u64 = 16;
/// Largest `tt-size`: 2^32 entries of 16 bytes is damka's largest table, 65,536 MiB.
pub const MAX_TT_SIZE: u32 = 32;
/// Largest `bb-size` (pieces; more than any database damka or Scan builds).
pub const MAX_BB_SIZE: u32 = 32;
/// Largest `book-ply`.
pub const MAX_BOOK_PLY: u32 = 1000;

/// What setting a session parameter does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientParam {
    /// `numbering`: how the client numbers squares, from now on.
    Numbering(Numbering),
    /// Sets an engine option instead (`tt-size` sets `hash`): name and value.
    Engine(&'static str, String),
    /// Accepted, and has no effect in damka (`bb-size`, `book-ply`, `initial-time`).
    Ignored,
}

/// Whether `name` is a parameter the session keeps (case-insensitive); `None` for the
/// engine's own parameters and unknown ones.
pub fn is_client_param(name: &str) -> bool {
    let n = name.trim();
    [
        "numbering",
        "tt-size",
        "bb-size",
        "book-ply",
        "initial-time",
    ]
    .iter()
    .any(|p| p.eq_ignore_ascii_case(n))
}

/// What setting the session parameter `name` to `value` does, or the `error` message that
/// answers a value it does not take. Call only when [`is_client_param`] holds.
pub fn client_param(name: &str, value: &str) -> Result<ClientParam, String> {
    let name = name.trim().to_ascii_lowercase();
    let v = value.trim();
    let int = |max: u32, meaning: &str| -> Result<u32, String> {
        match v.parse::<u32>() {
            Ok(n) if n <= max => Ok(n),
            _ => Err(format!(
                "bad value {} for {name} (expected 0 to {max}: {meaning})",
                shorten(value)
            )),
        }
    };
    match name.as_str() {
        "numbering" => Numbering::parse(v).map(ClientParam::Numbering).ok_or_else(|| {
            format!(
                "bad value {} for numbering (expected standard: square 1 is a1, or top: square 1 is b8 as in pydraughts 0.5)",
                shorten(value)
            )
        }),
        "tt-size" => {
            let n = int(MAX_TT_SIZE, "log2 of the table's entries")?;
            Ok(ClientParam::Engine("hash", tt_size_to_mib(n).to_string()))
        }
        "bb-size" => int(MAX_BB_SIZE, "pieces of endgame databases").map(|_| ClientParam::Ignored),
        "book-ply" => int(MAX_BOOK_PLY, "plies of the opening book").map(|_| ClientParam::Ignored),
        _ => match v.parse::<f64>() {
            // `initial-time`: the clock at the start, in seconds (lidraughts-bot sends
            // `180.0`); damka reads the clock from each `level` line instead.
            Ok(t) if t.is_finite() => Ok(ClientParam::Ignored),
            _ => Err(format!(
                "bad value {} for initial-time (expected seconds)",
                shorten(value)
            )),
        },
    }
}

/// Whether `value` fits the option's declared kind; the error message otherwise.
pub fn check_option_value(opt: &EngineOption, value: &str) -> Result<(), String> {
    let v = value.trim();
    match &opt.kind {
        OptionKind::Enum(values) => {
            if values.iter().any(|x| x.eq_ignore_ascii_case(v)) {
                Ok(())
            } else if opt.name == "variant" {
                Err(format!("unknown variant {}", shorten(value)))
            } else {
                Err(format!(
                    "bad value {} for {} (expected {})",
                    shorten(value),
                    opt.name,
                    values.join(", ")
                ))
            }
        }
        OptionKind::Int { min, max } => match v.parse::<i64>() {
            Ok(n) if (*min..=*max).contains(&n) => Ok(()),
            _ => Err(format!(
                "bad value {} for {} (expected {min} to {max})",
                shorten(value),
                opt.name
            )),
        },
        OptionKind::Text => Ok(()),
        OptionKind::Bool => match crate::engine::parse_bool(v) {
            Some(_) => Ok(()),
            None => Err(format!(
                "bad value {} for {} (expected true or false)",
                shorten(value),
                opt.name
            )),
        },
    }
}

/// damka's table size in MiB for Scan's `tt-size` (2^n entries): the same memory, at least
/// 1 MiB, at most damka's largest.
pub fn tt_size_to_mib(n: u32) -> usize {
    let bytes = (1u64 << n.min(62)).saturating_mul(TT_ENTRY_BYTES);
    ((bytes >> 20) as usize).clamp(1, MAX_HASH_MB)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_parameters_map_or_are_accepted() {
        assert_eq!(
            client_param("tt-size", "23"),
            Ok(ClientParam::Engine("hash", "128".into()))
        );
        assert_eq!(tt_size_to_mib(0), 1);
        assert_eq!(tt_size_to_mib(16), 1);
        assert_eq!(tt_size_to_mib(20), 16);
        assert_eq!(tt_size_to_mib(MAX_TT_SIZE), MAX_HASH_MB);
        assert_eq!(client_param("BB-Size", " 0 "), Ok(ClientParam::Ignored));
        assert_eq!(client_param("book-ply", "20"), Ok(ClientParam::Ignored));
        assert_eq!(
            client_param("initial-time", "180.0"),
            Ok(ClientParam::Ignored)
        );
        assert_eq!(
            client_param("numbering", "Top"),
            Ok(ClientParam::Numbering(Numbering::Top))
        );
        for (name, value) in [
            ("tt-size", "33"),
            ("tt-size", "-1"),
            ("bb-size", "auto"),
            ("book-ply", "x"),
            ("initial-time", "inf"),
            ("numbering", "bottom"),
        ] {
            let e = client_param(name, value).unwrap_err();
            assert!(
                e.starts_with(&format!("bad value {value} for {name}")),
                "{e}"
            );
        }
        assert!(client_param("numbering", "x")
            .unwrap_err()
            .contains("standard"));
        assert!(is_client_param(" Numbering"));
        assert!(!is_client_param("hash"));
    }
}
