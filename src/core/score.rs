//! Scores, in centi-men from the side to move's point of view (100 = one man).

/// A search or evaluation score in centi-men, from the side to move's point of view.
pub type Score = i32;

/// The score of a win on the spot (a position where the side to move has already won).
/// A win in `n` plies scores `WIN - n`; a loss in `n` plies `-(WIN - n)`.
pub const WIN: Score = 10_000;

/// The largest score a search ever returns; wider than any win so windows can enclose it.
pub const INFINITE: Score = 10_001;

/// The draw score.
pub const DRAW: Score = 0;

/// Scores at or beyond this magnitude are wins or losses at a known distance.
pub const WIN_THRESHOLD: Score = WIN - 1_000;

/// A win for the side to move `ply` plies from the root.
#[inline]
pub const fn win_in(ply: usize) -> Score {
    WIN - ply as Score
}

/// A loss for the side to move `ply` plies from the root.
#[inline]
pub const fn loss_in(ply: usize) -> Score {
    -WIN + ply as Score
}

/// Whether the score announces a forced win or loss.
#[inline]
pub const fn is_decisive(s: Score) -> bool {
    s >= WIN_THRESHOLD || s <= -WIN_THRESHOLD
}

/// How [`score_text`] writes a forced win or loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreStyle {
    /// In words, for a person at the board: `win in 7 plies`, `loss in 1 ply`.
    Words,
    /// One token, for output read by programs (`damka analyse`): `win-in-7`, `loss-in-1`.
    Token,
}

/// A score as text: men with a sign and two decimals (`+0.35`, `-1.20`), or the distance of a
/// forced win or loss in plies, written in `style`.
pub fn score_text(s: Score, style: ScoreStyle) -> String {
    if !is_decisive(s) {
        return format!("{:+.2}", s as f64 / 100.0);
    }
    let plies = WIN - s.abs();
    let word = if s > 0 { "win" } else { "loss" };
    match style {
        ScoreStyle::Token => format!("{word}-in-{plies}"),
        ScoreStyle::Words if plies == 1 => format!("{word} in 1 ply"),
        ScoreStyle::Words => format!("{word} in {plies} plies"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_texts() {
        for style in [ScoreStyle::Words, ScoreStyle::Token] {
            assert_eq!(score_text(35, style), "+0.35");
            assert_eq!(score_text(0, style), "+0.00");
            assert_eq!(score_text(-120, style), "-1.20");
            assert_eq!(score_text(WIN_THRESHOLD - 1, style), "+89.99");
        }
        assert_eq!(score_text(WIN - 7, ScoreStyle::Words), "win in 7 plies");
        assert_eq!(score_text(-WIN + 4, ScoreStyle::Words), "loss in 4 plies");
        assert_eq!(score_text(WIN - 1, ScoreStyle::Words), "win in 1 ply");
        assert_eq!(score_text(WIN - 7, ScoreStyle::Token), "win-in-7");
        assert_eq!(score_text(-WIN + 1, ScoreStyle::Token), "loss-in-1");
        assert_eq!(score_text(WIN_THRESHOLD, ScoreStyle::Token), "win-in-1000");
    }
}
