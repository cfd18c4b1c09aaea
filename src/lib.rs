//! damka: a Russian and Turkish draughts engine.
//!
//! Layers, each depending only on those listed before it:
//! [`core`] (colours, squares, scores, move lists, the seeded generator), [`variant`] (one
//! board and move type shared by the games, the `Position` trait, one module per game with its
//! tables, move generation, rules and square numbering), [`perft`], [`eval`], [`egtb`] (the
//! endgame databases: index, build, probe; they know no search), [`dispatch`] (the one place a
//! run-time game choice becomes a type), [`game`] (whole games, records), [`search`] (generic
//! over the position: it never names a game), [`book`] (the opening book, grown by searches),
//! [`engine`] (the facade between text and search, built on [`game::Game`]), [`protocol`]
//! (Hub, DXP) and [`cli`]. The tools under `tools/` sit on top of the library and do not use
//! [`cli`].

pub mod book;
pub mod cli;
pub mod core;
pub mod data;
pub mod dispatch;
pub mod egtb;
pub mod engine;
pub mod eval;
pub mod game;
pub mod perft;
pub mod protocol;
pub mod search;
pub mod variant;
