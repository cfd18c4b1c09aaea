//! Annotated PDN: a record written with a mark (`?`, `??`, ...) and a comment after each
//! move, as `damka analyse --pdn` produces it. Every PDN reader skips the comments and the
//! marks, so the annotated text reads back as the same game ([`Record::from_pdn`]).

use super::Record;
use crate::core::Color;
use crate::variant::{Notation, Position};

/// What is written after one move: a mark appended to it and a comment after it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveNote {
    /// Appended to the move (`?`, `??`; empty for none).
    pub mark: String,
    /// Written as `{comment}` after the move (empty: no comment). Braces are removed.
    pub comment: String,
}

/// Longest line of move text written.
const LINE_WIDTH: usize = 79;

impl<P: Position> Record<P> {
    /// The record as PDN text like [`Record::to_pdn`], with `notes[i]` after the `i`-th move
    /// (missing notes: nothing).
    pub fn to_pdn_annotated(&self, notes: &[MoveNote]) -> String {
        // The tags exactly as the plain writer puts them: those of the record without moves
        // (the start position and the declared result are all they depend on).
        let mut bare = self.clone();
        bare.game = super::Game::new(*self.game.start());
        let plain = bare.to_pdn();
        let head_end = plain.find("\n\n").map_or(plain.len(), |i| i + 2);
        let mut out = plain[..head_end].to_string();

        let mut words: Vec<String> = Vec::new();
        let black_first = self.game.start().side_to_move() == Color::Black;
        let positions = self.game.positions();
        for (i, (mv, pos)) in self.game.moves().iter().zip(positions).enumerate() {
            let number = (i + black_first as usize) / 2 + 1;
            let white = pos.side_to_move() == Color::White;
            let after_comment = i > 0 && notes.get(i - 1).is_some_and(|n| !n.comment.is_empty());
            if white {
                words.push(format!("{number}."));
            } else if i == 0 || after_comment {
                // After a comment the reader needs the number again to see whose move it is.
                words.push(format!("{number}..."));
            }
            let note = notes.get(i).cloned().unwrap_or_default();
            words.push(format!("{}{}", pos.move_to_algebraic(mv), note.mark));
            if !note.comment.is_empty() {
                let clean: String = note
                    .comment
                    .chars()
                    .filter(|c| !"{}".contains(*c))
                    .collect();
                words.push(format!("{{{clean}}}"));
            }
        }
        if let Some(end) = self.game.result() {
            if Some(end.outcome) == self.result {
                words.push(format!("{{{end}}}"));
            }
        }
        words.push(super::pdn::result_text(self.result).to_string());
        wrap(&mut out, &words);
        out
    }
}

/// Appends `words` separated by spaces, in lines of at most [`LINE_WIDTH`] characters (a
/// longer word stands alone), then a newline.
fn wrap(out: &mut String, words: &[String]) {
    let mut line_len = 0;
    for w in words {
        if line_len > 0 && line_len + 1 + w.len() > LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(w);
        line_len += w.len();
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variant::RussianPosition;

    #[test]
    fn marks_and_comments_are_written_and_read_back_as_the_same_game() {
        let mut g = Game::<RussianPosition>::from_start();
        for m in ["c3-d4", "f6-g5", "b2-c3", "g7-f6"] {
            g.play_text(m).unwrap();
        }
        let mut rec = Record::new(g);
        rec.set_tag("White", "x");
        let notes = vec![
            MoveNote::default(),
            MoveNote {
                mark: "?".into(),
                comment: "best e7-f6 {-0.10}".into(),
            },
            MoveNote {
                mark: "??".into(),
                comment: String::new(),
            },
        ];
        let text = rec.to_pdn_annotated(&notes);
        assert!(
            text.contains("1. c3-d4 f6-g5? {best e7-f6 -0.10} 2. b2-c3?? g7-f6 *"),
            "{text}"
        );
        let back = Record::<RussianPosition>::from_pdn(&text).unwrap();
        assert_eq!((&back.game, back.result), (&rec.game, rec.result));
        assert_eq!(back.tag("White"), Some("x"));
        // No notes: the plain record.
        assert_eq!(rec.to_pdn_annotated(&[]), rec.to_pdn());
    }
}
