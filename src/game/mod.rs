//! Whole games: a position with its history, game-end and draw rules, and PDN records.
//! PLACEHOLDER: written by the whole-games issue.
