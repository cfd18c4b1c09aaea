//! The parameters a Hub session keeps itself instead of handing them to the engine: the
//! client's square [`Numbering`] (with the conversion of its moves and FENs to damka's
//! numbering and back), and the parameters of Scan that clients written for Scan send
//! whatever the engine declares (lidraughts-bot's defaults: `book-ply`, `tt-size`, `bb-size`,
//! and `initial-time`), mapped to damka's own or accepted without effect ([`client_param`]).
//! [`check_option_value`] checks a value for one of the engine's declared parameters.
//!
//! damka numbers squares from the bottom left as seen from White (Russian 1 = a1, 10 = c3;
//! Turkish 1 = a1), as pydraughts 0.6 and later do. pydraughts 0.5 and earlier (which
//! lidraughts-bot pins) number them from the top left (Russian 1 = b8, 22 = c3; Turkish
//! 1 = a8), keeping the order within a row: the same square, mirrored top to bottom. The
//! position string is the same in both (it lists the squares top-left first either way), so
//! only the numbers in moves and FENs differ. The conversion lives here, at the protocol's
//! edge: the engine only ever sees its own numbers.
//!
//! Only `numbering` is declared in the `param` list. Scan's names are not: each duplicates
//! a parameter damka declares under its own name (`hash`, `egtb-path`, `book`), and a GUI
//! that sends every declared parameter's value would then set the same thing twice.

use super::command::{Level, LevelUpdate};
use super::line::shorten;
use crate::core::text::shorten_to;
use crate::core::Variant;
use crate::dispatch::{dispatch, GameTask};
use crate::engine::{EngineOption, OptionKind, MAX_HASH_MB};
use crate::eval::Evaluate;
use crate::game::Game;
use crate::variant::{Notation, Perft};

/// How the client numbers the squares in moves (`moves=`, `done`, `pv`, `level moves-only=`
/// and `exclude=`) and in numeric FENs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// 1 is the bottom-left square as seen from White (Russian a1, Turkish a1): damka's own,
    /// pydraughts 0.6 and later.
    #[default]
    Standard,
    /// 1 is the top-left square as seen from White (Russian b8, Turkish a8): pydraughts 0.5
    /// and earlier, hence lidraughts-bot with its pinned pydraughts 0.5.7.
    Top,
}

impl Numbering {
    /// The Hub parameter and command-line option that sets it.
    pub const PARAM: &'static str = "numbering";
    /// Every value, as declared in the `param` line.
    pub const ALL: [Numbering; 2] = [Numbering::Standard, Numbering::Top];

    /// The value's name (`standard`, `top`).
    pub const fn name(self) -> &'static str {
        match self {
            Numbering::Standard => "standard",
            Numbering::Top => "top",
        }
    }

    /// Reads a value by name, ignoring case and surrounding blanks.
    pub fn parse(text: &str) -> Option<Numbering> {
        let t = text.trim();
        Numbering::ALL
            .into_iter()
            .find(|n| n.name().eq_ignore_ascii_case(t))
    }

    /// The other numbering (to tell a client that sent moves in the wrong one).
    pub const fn other(self) -> Numbering {
        match self {
            Numbering::Standard => Numbering::Top,
            Numbering::Top => Numbering::Standard,
        }
    }

    /// The square number `n` of this numbering in damka's, or the other way: the mirror is
    /// its own inverse. `None` for a number that is no square of the game.
    pub fn square(self, variant: Variant, n: u32) -> Option<u32> {
        let per_row = squares_per_row(variant);
        if n == 0 || n > 8 * per_row {
            return None;
        }
        Some(match self {
            Numbering::Standard => n,
            Numbering::Top => {
                let (row, col) = ((n - 1) / per_row, (n - 1) % per_row);
                per_row * (7 - row) + col + 1
            }
        })
    }

    /// A move's text converted between this numbering and damka's (either way). Only
    /// numeric moves (`22-18`, `14x5x10`) change; algebraic ones (`c3-d4`) and numbers that
    /// are no square are left as they are, for the engine to judge and report.
    pub fn convert_move(self, variant: Variant, text: &str) -> String {
        if self == Numbering::Standard
            || !text.trim_start().starts_with(|c: char| c.is_ascii_digit())
        {
            return text.to_string();
        }
        map_numbers(text, |n| self.square(variant, n))
    }

    /// Every move of a list converted (see [`Numbering::convert_move`]).
    pub fn convert_moves(self, variant: Variant, moves: &[String]) -> Vec<String> {
        moves
            .iter()
            .map(|m| self.convert_move(variant, m))
            .collect()
    }

    /// A `level` line with its root moves (`moves-only`, `exclude`) in damka's numbering;
    /// each `(damka's text, the client's)` is added to `pairs`, to quote the client's text in
    /// an error.
    pub fn convert_level(
        self,
        variant: Variant,
        u: LevelUpdate,
        pairs: &mut Vec<(String, String)>,
    ) -> LevelUpdate {
        let mut convert = |moves: Vec<String>| {
            let c = self.convert_moves(variant, &moves);
            pairs.extend(c.iter().cloned().zip(moves.iter().cloned()));
            c
        };
        LevelUpdate(
            u.0.into_iter()
                .map(|l| match l {
                    Level::MovesOnly(m) => Level::MovesOnly(convert(m)),
                    Level::Exclude(m) => Level::Exclude(convert(m)),
                    other => other,
                })
                .collect(),
        )
    }

    /// A position text converted: a FEN's numeric squares and ranges (`W:W21-32:B1-12`)
    /// change, a range becoming the list of its squares; a Hub position string (the same in
    /// both numberings) and algebraic squares are left as they are.
    pub fn convert_position(self, variant: Variant, text: &str) -> String {
        if self == Numbering::Standard || !text.contains(':') {
            return text.to_string();
        }
        let mut fields = text.split(':');
        let mut out = fields.next().unwrap_or_default().to_string();
        for field in fields {
            out.push(':');
            let trimmed = field.trim_start();
            match trimmed.chars().next() {
                Some(c @ ('W' | 'w' | 'B' | 'b')) => {
                    out.push(c);
                    let squares: Vec<String> = trimmed[1..]
                        .split(',')
                        .map(|tok| self.convert_fen_token(variant, tok))
                        .collect();
                    out.push_str(&squares.join(","));
                }
                _ => out.push_str(field),
            }
        }
        out
    }

    /// One square of a FEN's piece list (`21`, `K3`, `5-8`, `c3`), converted.
    fn convert_fen_token(self, variant: Variant, tok: &str) -> String {
        let t = tok.trim();
        let (king, name) = match t.strip_prefix(['K', 'k']) {
            Some(rest) => (&t[..1], rest),
            None => ("", t),
        };
        let number = |s: &str| s.parse::<u32>().ok().and_then(|n| self.square(variant, n));
        if let Some((a, b)) = name.split_once('-') {
            let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) else {
                return tok.to_string();
            };
            let Some(squares) = (a..=b)
                .map(|n| self.square(variant, n).map(|m| format!("{king}{m}")))
                .collect::<Option<Vec<_>>>()
            else {
                return tok.to_string();
            };
            if squares.is_empty() {
                return tok.to_string();
            }
            return squares.join(",");
        }
        match number(name) {
            Some(m) => format!("{king}{m}"),
            None => tok.to_string(),
        }
    }
}

/// Whether `moves` (in damka's numbering) can all be played from the position `text`: to
/// tell a client whose moves are illegal as it numbers them, but legal in the other
/// numbering, which setting it needs. Nothing in the engine changes.
pub fn moves_legal(variant: Variant, text: &str, moves: &[String]) -> bool {
    struct Check<'a> {
        text: &'a str,
        moves: &'a [String],
    }
    impl GameTask for Check<'_> {
        type Output = bool;
        fn run<P: Evaluate + Perft>(self) -> bool {
            let Ok(start) = P::parse_any(self.text) else {
                return false;
            };
            let mut game = Game::new(start);
            self.moves.iter().all(|m| game.play_text(m).is_ok())
        }
    }
    dispatch(variant, Check { text, moves })
}

/// The `error` message for a `pos` line whose move `index` the engine refused with
/// `message`: the client's own text of the move (`client`: the position text and moves as the
/// client sent them; `converted`: the moves as damka read them), and, when every move is
/// legal in the other numbering, which setting the client needs.
pub fn bad_move_message(
    numbering: Numbering,
    variant: Variant,
    client: (&str, &[String]),
    converted: &[String],
    (index, message): (usize, &str),
) -> String {
    let (text, moves) = client;
    let mut m = match (converted.get(index), moves.get(index)) {
        (Some(c), Some(original)) => message.replacen(c.as_str(), original, 1),
        _ => message.to_string(),
    };
    // Room for the hint within the protocol's 200 characters.
    m = shorten_to(&m, 100).into_owned();
    let other = numbering.other();
    let other_moves = other.convert_moves(variant, moves);
    if other_moves != converted
        && moves_legal(
            variant,
            &other.convert_position(variant, text),
            &other_moves,
        )
    {
        let from = match other {
            Numbering::Standard => "from a1 (pydraughts 0.6 and later)",
            Numbering::Top => "from b8 (pydraughts 0.5)",
        };
        let name = other.name();
        m.push_str(&format!(
            "; the moves are legal with squares numbered {from}: set the parameter numbering to {name} (damka hub --numbering {name})"
        ));
    }
    m
}

/// Playable squares per row: 4 on the Russian board (dark squares only), 8 on the Turkish.
fn squares_per_row(variant: Variant) -> u32 {
    match variant {
        Variant::Russian => 4,
        Variant::Turkish => 8,
    }
}

/// `text` with every run of digits that `f` maps replaced by its image; runs it does not map
/// stay as written.
fn map_numbers(text: &str, f: impl Fn(u32) -> Option<u32>) -> String {
    let mut out = String::with_capacity(text.len() + 4);
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        if digits.is_empty() {
            return;
        }
        match digits.parse::<u32>().ok().and_then(&f) {
            Some(n) => out.push_str(&n.to_string()),
            None => out.push_str(digits),
        }
        digits.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            flush(&mut digits, &mut out);
            out.push(c);
        }
    }
    flush(&mut digits, &mut out);
    out
}

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
    fn russian_squares_mirror_top_to_bottom() {
        let top = Numbering::Top;
        let r = Variant::Russian;
        // 1 = b8 from the top is damka's 29 = b8; 22 = c3 is damka's 10; 32 = g1 is 4.
        assert_eq!(top.square(r, 1), Some(29));
        assert_eq!(top.square(r, 4), Some(32));
        assert_eq!(top.square(r, 21), Some(9));
        assert_eq!(top.square(r, 22), Some(10));
        assert_eq!(top.square(r, 32), Some(4));
        assert_eq!(top.square(r, 0), None);
        assert_eq!(top.square(r, 33), None);
        for n in 1..=32 {
            let m = top.square(r, n).unwrap();
            assert_eq!(top.square(r, m), Some(n), "an involution");
            assert_eq!((n - 1) % 4, (m - 1) % 4, "the place in the row is kept");
            let formula = 4 * (7 - (n - 1) / 4) + (n - 1) % 4 + 1;
            assert_eq!(m, formula);
            assert_eq!(Numbering::Standard.square(r, n), Some(n));
        }
    }

    #[test]
    fn turkish_squares_mirror_top_to_bottom() {
        let t = Variant::Turkish;
        // pydraughts 0.5's first Turkish move 41-33 is a3-a4, damka's 17-25.
        assert_eq!(Numbering::Top.convert_move(t, "41-33"), "17-25");
        assert_eq!(Numbering::Top.square(t, 1), Some(57));
        assert_eq!(Numbering::Top.square(t, 64), Some(8));
        assert_eq!(Numbering::Top.square(t, 65), None);
    }

    #[test]
    fn moves_convert_both_ways() {
        let top = Numbering::Top;
        let r = Variant::Russian;
        let client = [
            "21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20",
        ];
        let damka = ["9-13", "10-13", "10-14", "11-14", "11-15", "12-15", "12-16"];
        for (c, d) in client.iter().zip(damka) {
            assert_eq!(top.convert_move(r, c), d);
            assert_eq!(top.convert_move(r, d), *c);
        }
        assert_eq!(top.convert_move(r, "14x5x10"), "18x25x22");
        // Algebraic moves, numbers that are no square and junk pass through.
        assert_eq!(top.convert_move(r, "c3-d4"), "c3-d4");
        assert_eq!(top.convert_move(r, "5-40"), "25-40");
        assert_eq!(top.convert_move(r, "099999999999-1"), "099999999999-29");
        assert_eq!(top.convert_move(r, ""), "");
        assert_eq!(Numbering::Standard.convert_move(r, "22-18"), "22-18");
    }

    #[test]
    fn fens_convert() {
        let top = Numbering::Top;
        let r = Variant::Russian;
        assert_eq!(top.convert_position(r, "W:W22,K1:B5-6"), "W:W10,K29:B25,26");
        assert_eq!(
            top.convert_position(r, "W:Wc3,K3:Bb6:H0"),
            "W:Wc3,K31:Bb6:H0"
        );
        // Malformed ranges are left for the engine to refuse.
        assert_eq!(top.convert_position(r, "W:W9-4,40:B"), "W:W9-4,40:B");
        let hub = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        assert_eq!(top.convert_position(r, hub), hub);
        assert_eq!(
            Numbering::Standard.convert_position(r, "W:W22:B1"),
            "W:W22:B1"
        );
    }

    #[test]
    fn names() {
        assert_eq!(Numbering::parse(" TOP "), Some(Numbering::Top));
        assert_eq!(Numbering::parse("standard"), Some(Numbering::Standard));
        assert_eq!(Numbering::parse("bottom"), None);
        assert_eq!(Numbering::Top.other(), Numbering::Standard);
    }

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
