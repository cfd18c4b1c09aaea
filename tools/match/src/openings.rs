//! Opening files: one opening per line, either a position (FEN such as `W:Wa1,c3:Bb6` or a Hub
//! position string), or moves from the start position, or a position followed by moves.
//! Moves are Hub numbers (`10-14`, `14x5x10`) or algebraic (`c3-d4`, `c3:e5`); move numbers
//! like `1.` are skipped. Blank lines are ignored, and so is everything after a `#`.

use damka::core::text::parse_lines;
use damka::variant::Notation;
use damka::variant::Position;

/// One opening: the position the game starts from and the moves already played from it.
#[derive(Clone, Debug)]
pub struct Opening<P: Position> {
    /// The game's initial position.
    pub start: P,
    /// The opening moves, played from `start` before the engines take over.
    pub moves: Vec<P::Move>,
    /// The line as given (for messages).
    pub text: String,
}

impl<P: Position> Opening<P> {
    /// The standard start position with no moves.
    pub fn standard() -> Self {
        Opening {
            start: P::start(),
            moves: Vec::new(),
            text: "start position".into(),
        }
    }
}

fn is_move_number(tok: &str) -> bool {
    let t = tok.trim_end_matches('.');
    tok.ends_with('.') && !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
}

/// Parses one opening line (anything after `#` is a comment).
pub fn parse_opening<P: Position>(line: &str) -> Result<Opening<P>, String> {
    let text = line.split('#').next().unwrap_or("").trim().to_string();
    let mut toks = text.split_whitespace().peekable();
    // Moves never start with an upper-case W or B; positions always do.
    let start = match toks.peek() {
        Some(t) if t.starts_with(['W', 'B']) => {
            let p = P::parse_any(t).map_err(|e| e.to_string())?;
            toks.next();
            p
        }
        _ => P::start(),
    };
    let mut pos = start;
    let mut moves = Vec::new();
    for tok in toks {
        if is_move_number(tok) {
            continue;
        }
        // "1.c3-d4" style: a move number glued to the move.
        let tok = match tok.split_once('.') {
            Some((n, m)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
                m.trim_start_matches('.')
            }
            _ => tok,
        };
        let mv = pos
            .parse_move(tok)
            .map_err(|e| format!("move {} ({tok}): {e}", moves.len() + 1))?;
        pos = pos.play(&mv);
        moves.push(mv);
    }
    Ok(Opening { start, moves, text })
}

/// Parses an opening file's text; errors name the line.
pub fn parse_openings<P: Position>(text: &str) -> Result<Vec<Opening<P>>, String> {
    parse_lines(text, parse_opening::<P>)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::variant::RussianPosition;

    /// The ballot file replays: 150 ballots, each named once (1-I to 15-X), none longer than
    /// three plies, every move legal, and no two alike.
    #[test]
    fn the_russian_ballots_are_the_whole_table() {
        let text = include_str!("../../../src/data/openings/russian-ballots.txt");
        let openings = parse_openings::<RussianPosition>(text).unwrap();
        assert_eq!(openings.len(), 150);
        let mut names = std::collections::BTreeSet::new();
        let mut lines = std::collections::BTreeSet::new();
        for (line, o) in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .zip(&openings)
        {
            assert!(o.moves.len() <= 3, "{line}");
            let name = line
                .split('#')
                .nth(1)
                .unwrap()
                .split_whitespace()
                .next()
                .unwrap();
            assert!(names.insert(name.to_string()), "{name} twice");
            assert!(
                lines.insert(o.text.clone()),
                "{line}: the same ballot twice"
            );
        }
        let romans = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"];
        for round in 1..=15 {
            for r in romans {
                assert!(
                    names.contains(&format!("{round}-{r}")),
                    "no ballot {round}-{r}"
                );
            }
        }
    }
}
