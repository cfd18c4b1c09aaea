//! damka: a Russian and Turkish draughts engine.
//!
//! Layers, each depending only on those listed before it:
//! [`core`] (colours, squares, scores, move lists), [`variant`] (the `Position` trait and one
//! module per game), [`perft`], [`eval`], [`search`], [`engine`] (the facade between text and
//! search), [`game`] (whole games, records), [`protocol`] (Hub) and [`cli`].

pub mod cli;
pub mod core;
pub mod engine;
pub mod egtb;
pub mod eval;
pub mod game;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod variant;
