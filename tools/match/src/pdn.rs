//! PDN records of finished games.

use crate::game::GameRecord;
use crate::rules::result_token;
use damka::core::Variant;

/// PDN `GameType` numbers (PDN 3.0 standard).
fn game_type(v: Variant) -> u32 {
    match v {
        Variant::Russian => 25,
        Variant::Turkish => 30,
    }
}

/// The tags a match writes beyond the seven of the standard roster.
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
}

/// Writes one game as PDN text (tags, blank line, moves wrapped at 80 columns, blank line).
pub fn write_game(info: &PdnInfo, g: &GameRecord) -> String {
    let mut out = String::new();
    let tag = |out: &mut String, k: &str, v: &str| {
        out.push_str(&format!("[{k} \"{}\"]\n", v.replace('"', "'")));
    };
    tag(&mut out, "Event", info.event);
    tag(&mut out, "Site", "damka-match");
    tag(&mut out, "Date", info.date);
    tag(&mut out, "Round", &info.round.to_string());
    tag(&mut out, "White", info.names[0]);
    tag(&mut out, "Black", info.names[1]);
    let result = result_token(g.outcome);
    tag(&mut out, "Result", result);
    tag(&mut out, "GameType", &game_type(info.variant).to_string());
    tag(&mut out, "Variant", info.variant.name());
    if !g.standard_start {
        tag(&mut out, "FEN", &g.start_fen);
    }
    tag(&mut out, "TimeControl", info.time_control);
    tag(&mut out, "Termination", &g.reason);
    tag(&mut out, "PlyCount", &g.moves.len().to_string());
    out.push('\n');
    let black_first = g.start_fen.starts_with('B');
    let mut toks: Vec<String> = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        let ply = i + usize::from(black_first);
        let opening_ends = i == g.opening_plies && i > 0;
        if opening_ends {
            toks.push("{end of opening}".into());
        }
        if ply % 2 == 0 {
            toks.push(format!("{}.", ply / 2 + 1));
        } else if i == 0 || opening_ends {
            toks.push(format!("{}...", ply / 2 + 1));
        }
        toks.push(m.clone());
    }
    if let Some(f) = &g.failure {
        toks.push(format!(
            "{{{}}}",
            f.failure.to_string().replace(['{', '}'], "")
        ));
    }
    toks.push(result.to_string());
    let mut col = 0;
    for t in toks {
        if col > 0 && col + 1 + t.len() > 80 {
            out.push('\n');
            col = 0;
        } else if col > 0 {
            out.push(' ');
            col += 1;
        }
        out.push_str(&t);
        col += t.len();
    }
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::variant::Outcome;

    #[test]
    fn writes_tags_and_moves() {
        let g = GameRecord {
            white: 0,
            black: 1,
            start_fen: "B:Wa1:Bh8".into(),
            standard_start: false,
            moves: vec!["h8-g7".into(), "a1-b2".into(), "g7-f6".into()],
            opening_plies: 1,
            outcome: Outcome::Draw,
            reason: "threefold repetition".into(),
            failure: None,
        };
        let info = PdnInfo {
            event: "test",
            round: 3,
            date: "2026.01.02",
            names: ["a", "b"],
            variant: Variant::Russian,
            time_control: "depth 2",
        };
        let s = write_game(&info, &g);
        assert!(s.contains("[FEN \"B:Wa1:Bh8\"]\n"), "{s}");
        assert!(s.contains("[Result \"1-1\"]\n"));
        assert!(s.contains("[GameType \"25\"]\n"));
        assert!(
            s.contains("\n1... h8-g7 {end of opening} 2. a1-b2 g7-f6 1-1\n"),
            "{s}"
        );
    }
}
