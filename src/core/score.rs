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
