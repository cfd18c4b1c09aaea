//! PDN records of finished games, written by the library's `damka::game::Record`, with the
//! match's own tags.

use crate::game::GameRecord;
use damka::core::Variant;
use damka::game::{Game, Record};
use damka::variant::Position;

/// What a match adds to a game's record.
pub struct PdnInfo<'a> {
    /// Event name.
    pub event: &'a str,
    /// Round (game number, 1-based).
    pub round: usize,
    /// Date as `YYYY.MM.DD`.
    pub date: &'a str,
    /// The engines' names, White first.
    pub names: [&'a str; 2],
    /// The game.
    pub variant: Variant,
    /// The time control as text.
    pub time_control: &'a str,
    /// The opening as given in the opening file.
    pub opening: &'a str,
}

/// The game as PDN text (followed by a blank line, so records can be appended).
pub fn write_game<P: Position>(info: &PdnInfo, game: &Game<P>, g: &GameRecord) -> String {
    let mut r = Record::new(game.clone());
    // Adjudications and failures decide results the rules alone do not.
    r.result = Some(g.outcome);
    r.set_tag("Event", info.event);
    r.set_tag("Site", "damka-match");
    r.set_tag("Date", info.date);
    r.set_tag("Round", &info.round.to_string());
    r.set_tag("White", info.names[0]);
    r.set_tag("Black", info.names[1]);
    r.set_tag("Variant", info.variant.name());
    r.set_tag("Opening", info.opening);
    r.set_tag("TimeControl", info.time_control);
    let termination = match &g.failure {
        Some(f) => format!("{}: {}", g.reason, f.failure.detail),
        None => g.reason.clone(),
    };
    r.set_tag("Termination", &termination);
    r.set_tag("PlyCount", &game.ply().to_string());
    let mut s = r.to_pdn();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::core::Color;
    use damka::game::pdn::read_all;
    use damka::variant::{Notation, Outcome, RussianPosition};

    #[test]
    fn writes_tags_and_reads_back() {
        let mut game = Game::new(RussianPosition::from_fen("B:Wa1:Bh8").unwrap());
        for m in ["h8-g7", "a1-b2", "g7-f6"] {
            game.play_text(m).unwrap();
        }
        let g = GameRecord {
            white: 0,
            black: 1,
            outcome: Outcome::Win(Color::Black),
            reason: "a illegal move".into(),
            failure: None,
            pdn: String::new(),
        };
        let info = PdnInfo {
            event: "test",
            round: 3,
            date: "2026.01.02",
            names: ["a", "b"],
            variant: Variant::Russian,
            time_control: "depth 2",
            opening: "B:Wa1:Bh8 h8-g7",
        };
        let s = write_game(&info, &game, &g);
        assert!(s.contains("[FEN \"B:Wa1:Bh8\"]\n"), "{s}");
        assert!(s.contains("[Result \"0-2\"]\n"));
        assert!(s.contains("[GameType \"25\"]\n"));
        assert!(s.contains("[Termination \"a illegal move\"]\n"));
        assert!(s.contains("1... h8-g7 2. a1-b2 g7-f6 0-2\n"), "{s}");
        let back = read_all::<RussianPosition>(&(s.clone() + &s)).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0].game, game);
        assert_eq!(back[0].result, Some(Outcome::Win(Color::Black)));
        assert_eq!(back[1].tag("Round"), Some("3"));
    }
}
