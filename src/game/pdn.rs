//! PDN game records (Portable Draughts Notation), written and read for both games.
//!
//! Writing: the seven-tag roster (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
//! `Result`), then `GameType` (25 for Russian, 30 for Turkish, the numbers of the PDN standard
//! that pydraughts and lidraughts use), `FEN` when the game does not start from the initial
//! position, any other tags, and the moves in algebraic notation with every landing square,
//! numbered, ending with the result (`2-0`, `0-2`, `1-1`, `*`).
//!
//! Reading: tags, move numbers (`12.`, `12...`, `12.c3-d4`), moves in algebraic notation or Hub
//! numbers (matched against the legal moves, so a capture may be given by its ends), results in
//! either PDN style (`2-0`, `1-1`, `1-0`, `1/2-1/2`, ...); comments `{...}`, `;` line comments,
//! `%` escape lines, variations `(...)` (nested), NAGs (`$3`) and `!`/`?` suffixes are skipped.
//! A bad file gives a [`PdnError`] naming the line.

mod date;
mod lexer;

pub use date::{date_of_day, today};

use lexer::{Lexer, Token};

use super::Game;
use crate::core::{Color, Variant};
use crate::dispatch::{dispatch, GameTask};
use crate::eval::Evaluate;
use crate::variant::{Notation, Outcome, Perft, Position};
use std::fmt;

/// The PDN `GameType` number of a game.
pub fn game_type(v: Variant) -> u32 {
    struct GameType;
    impl GameTask for GameType {
        type Output = u32;
        fn run<P: Evaluate + Perft>(self) -> u32 {
            P::PDN_GAME_TYPE
        }
    }
    dispatch(v, GameType)
}

/// The game a record is for, from its `GameType` tag (or a `Variant` tag naming the game);
/// `None` if neither says (or names a game damka does not play).
pub fn detect_variant(text: &str) -> Option<Variant> {
    let mut lex = Lexer::new(text);
    while let Ok(Some(tok)) = lex.next_token() {
        match tok {
            Token::Tag(name, value) => {
                if name.eq_ignore_ascii_case("GameType") {
                    let n = value.split(',').next()?.trim().parse::<u32>().ok()?;
                    return Variant::ALL.into_iter().find(|v| game_type(*v) == n);
                }
                if name.eq_ignore_ascii_case("Variant") {
                    return value.trim().to_ascii_lowercase().parse().ok();
                }
            }
            _ => return None,
        }
    }
    None
}

/// The result text of a record: `2-0` (White won), `0-2`, `1-1` (draw), `*` (unknown).
pub fn result_text(result: Option<Outcome>) -> &'static str {
    match result {
        Some(Outcome::Win(Color::White)) => "2-0",
        Some(Outcome::Win(Color::Black)) => "0-2",
        Some(Outcome::Draw) => "1-1",
        None => "*",
    }
}

/// Reads a result token in any of the usual styles; `Some(None)` is the unknown result `*`.
fn parse_result(tok: &str) -> Option<Option<Outcome>> {
    Some(match tok {
        "2-0" | "1-0" => Some(Outcome::Win(Color::White)),
        "0-2" | "0-1" => Some(Outcome::Win(Color::Black)),
        "1-1" | "1/2-1/2" | "0.5-0.5" => Some(Outcome::Draw),
        "*" | "0-0" => None,
        _ => return None,
    })
}

/// A record that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PdnError {
    /// 1-based line of the problem.
    pub line: usize,
    /// What is wrong, fit to show a user.
    pub message: String,
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PDN line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PdnError {}

/// A game record: the tags, the game, and its declared result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record<P: Position> {
    /// Tags other than `GameType`, `FEN` and `Result` (which are written from the game and
    /// [`Record::result`]), in the order they are written after the roster.
    pub tags: Vec<(String, String)>,
    /// The game: start position and moves.
    pub game: Game<P>,
    /// The declared result; `None` is unknown or unfinished (`*`). [`Record::new`] takes it from
    /// [`Game::result`]; a tool may set another (adjudication, resignation).
    pub result: Option<Outcome>,
}

/// Tags written by the record itself, never taken from [`Record::tags`].
const OWN_TAGS: [&str; 3] = ["GameType", "FEN", "Result"];
/// The roster tags written first, in this order, with `?` when unknown.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

impl<P: Position> Record<P> {
    /// A record of `game` with no tags and the result the rules give (or `*` if the game is
    /// not over).
    pub fn new(game: Game<P>) -> Record<P> {
        let result = game.result().map(|e| e.outcome);
        Record {
            tags: Vec::new(),
            game,
            result,
        }
    }

    /// The value of a tag (case-insensitive name), if set.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing an earlier value. `GameType`, `FEN` and `Result` are ignored:
    /// they come from the game and [`Record::result`].
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if OWN_TAGS.iter().any(|t| t.eq_ignore_ascii_case(name)) {
            return;
        }
        match self
            .tags
            .iter_mut()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
        {
            Some(t) => t.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The record as PDN text (ends with a newline).
    pub fn to_pdn(&self) -> String {
        let mut out = String::new();
        let mut tag = |name: &str, value: &str| {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        };
        for name in ROSTER {
            let default = if name == "Date" { "????.??.??" } else { "?" };
            tag(name, self.tag(name).unwrap_or(default));
        }
        let result = result_text(self.result);
        tag("Result", result);
        tag("GameType", &P::PDN_GAME_TYPE.to_string());
        if !self.game.starts_from_initial() {
            tag("FEN", &self.game.start().to_fen());
        }
        for (name, value) in &self.tags {
            let own = OWN_TAGS.iter().chain(ROSTER.iter());
            if !own.into_iter().any(|t| t.eq_ignore_ascii_case(name)) {
                tag(name, value);
            }
        }
        out.push('\n');

        let mut words: Vec<String> = Vec::new();
        let black_first = self.game.start().side_to_move() == Color::Black;
        let positions = self.game.positions();
        for (i, (mv, pos)) in self.game.moves().iter().zip(positions).enumerate() {
            let number = (i + black_first as usize) / 2 + 1;
            if pos.side_to_move() == Color::White {
                words.push(format!("{number}."));
            } else if i == 0 {
                words.push(format!("{number}..."));
            }
            words.push(pos.move_to_algebraic(mv));
        }
        // Say which rule ended the game when the record's result is the rules' result; a
        // comment, so every reader can skip it.
        if let Some(end) = self.game.result() {
            if Some(end.outcome) == self.result {
                words.push(format!("{{{end}}}"));
            }
        }
        words.push(result.to_string());
        let mut line_len = 0;
        for w in words {
            if line_len > 0 && line_len + 1 + w.len() > 79 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&w);
            line_len += w.len();
        }
        out.push('\n');
        out
    }

    /// Reads the first game of a PDN text. See [`read_all`].
    pub fn from_pdn(text: &str) -> Result<Record<P>, PdnError> {
        let mut lex = Lexer::new(text);
        match read_one::<P>(&mut lex)? {
            Some(r) => Ok(r),
            None => Err(PdnError {
                line: lex.line,
                message: "no game in the file".into(),
            }),
        }
    }
}

/// Reads every game of a PDN text. A `GameType` (or `Variant`) tag naming another game is an
/// error; a record without one is read as game `P`.
pub fn read_all<P: Position>(text: &str) -> Result<Vec<Record<P>>, PdnError> {
    let mut lex = Lexer::new(text);
    let mut out = Vec::new();
    while let Some(r) = read_one::<P>(&mut lex)? {
        out.push(r);
    }
    Ok(out)
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Reads one game; `None` at the end of the text.
fn read_one<P: Position>(lex: &mut Lexer) -> Result<Option<Record<P>>, PdnError> {
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut tag_result: Option<Option<Outcome>> = None;
    let mut game: Option<Game<P>> = None;
    let mut result: Option<Option<Outcome>> = None;
    let mut seen_anything = false;
    loop {
        // A tag after moves starts the next game: look before taking it.
        if game.as_ref().is_some_and(|g| g.ply() > 0) && lex.at_tag() {
            break;
        }
        lex.skip()?;
        let line = lex.line;
        let Some(tok) = lex.next_token()? else { break };
        seen_anything = true;
        let err = |message: String| PdnError { line, message };
        match tok {
            Token::Tag(name, value) => {
                if name.eq_ignore_ascii_case("GameType") {
                    let n = value.split(',').next().unwrap_or("").trim();
                    let want = P::PDN_GAME_TYPE;
                    if n.parse::<u32>().ok() != Some(want) {
                        return Err(err(format!(
                            "GameType {value:?} is not {} (GameType {want})",
                            P::VARIANT
                        )));
                    }
                } else if name.eq_ignore_ascii_case("Variant") {
                    if value.trim().to_ascii_lowercase().parse::<Variant>().ok() != Some(P::VARIANT)
                    {
                        return Err(err(format!("Variant {value:?} is not {}", P::VARIANT)));
                    }
                    tags.push((name, value));
                } else if name.eq_ignore_ascii_case("FEN") {
                    if game.as_ref().is_some_and(|g| g.ply() > 0) {
                        return Err(err("FEN tag after the moves".into()));
                    }
                    let g = Game::from_fen(&value)
                        .map_err(|e| err(format!("FEN tag {value:?}: {e}")))?;
                    game = Some(g);
                } else if name.eq_ignore_ascii_case("Result") {
                    tag_result = Some(
                        parse_result(value.trim())
                            .ok_or_else(|| err(format!("bad Result tag {value:?}")))?,
                    );
                } else {
                    tags.push((name, value));
                }
            }
            Token::Word(w) => {
                if let Some(r) = parse_result(&w) {
                    result = Some(r);
                    break;
                }
                let mv_text = strip_move_number(&w);
                let mv_text = mv_text.trim_end_matches(['!', '?']);
                if mv_text.is_empty() {
                    continue;
                }
                let g = game.get_or_insert_with(Game::from_start);
                let ply = g.ply();
                if let Err(e) = g.play_text(mv_text) {
                    let pos = g.position();
                    return Err(err(format!(
                        "move {} ({} to play): {e}",
                        g.move_number(),
                        if pos.side_to_move() == Color::White {
                            "White"
                        } else {
                            "Black"
                        }
                    )));
                }
                debug_assert_eq!(g.ply(), ply + 1);
            }
        }
    }
    if !seen_anything {
        return Ok(None);
    }
    Ok(Some(Record {
        tags,
        game: game.unwrap_or_else(Game::from_start),
        result: result.or(tag_result).unwrap_or(None),
    }))
}

/// `12.c3-d4` -> `c3-d4`, `12.` / `12...` -> empty; anything else unchanged.
fn strip_move_number(w: &str) -> &str {
    let digits = w.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && w[digits..].starts_with('.') {
        w[digits..].trim_start_matches('.')
    } else {
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_numbers_are_stripped() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("3.c3-d4"), "c3-d4");
        assert_eq!(strip_move_number("c3-d4"), "c3-d4");
        assert_eq!(strip_move_number("9-13"), "9-13");
        assert_eq!(strip_move_number("9x18"), "9x18");
    }

    #[test]
    fn results_in_every_style() {
        assert_eq!(parse_result("2-0"), Some(Some(Outcome::Win(Color::White))));
        assert_eq!(parse_result("0-1"), Some(Some(Outcome::Win(Color::Black))));
        assert_eq!(parse_result("1/2-1/2"), Some(Some(Outcome::Draw)));
        assert_eq!(parse_result("*"), Some(None));
        assert_eq!(parse_result("c3-d4"), None);
        assert_eq!(parse_result("9-13"), None);
    }

    #[test]
    fn variants_are_detected() {
        assert_eq!(
            detect_variant("[GameType \"25,W,8,8,A0,0\"]\n1. c3-d4 *"),
            Some(Variant::Russian)
        );
        assert_eq!(
            detect_variant("[Event \"x\"]\n[GameType \"30\"]\n*"),
            Some(Variant::Turkish)
        );
        assert_eq!(detect_variant("[GameType \"20\"]"), None);
        assert_eq!(detect_variant("1. c3-d4 *"), None);
    }
}
