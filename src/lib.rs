//! damka: a Russian and Turkish draughts engine.
//!
//! Layers, each depending only on those listed before it:
//! [`core`] (colours, squares, scores, move lists, the seeded generator), [`variant`] (one
//! board and move type shared by the games, the `Position` trait, one module per game with its
//! tables, move generation, rules and square numbering), [`perft`], [`eval`], [`egtb`] (the
//! endgame databases: index, build, probe; they know no search), [`dispatch`] (the one place a
//! run-time game choice becomes a type), [`game`] (whole games, records), [`search`] (generic
//! over the position: it never names a game), [`book`] (the opening book, grown by searches),
//! [`engine`] (the facade between text and search, built on [`game::Game`]), [`review`] (a
//! game's moves judged and marked from searches of its positions), [`protocol`] (Hub, DXP)
//! and [`cli`]. The tools under `tools/` sit on top of the library and do not use
//! [`cli`]. The data compiled in (learned nets, opening books, openings, bench positions) is
//! in [`data`], below everything.
//!
//! # Examples
//!
//! Play a move and see the game go on:
//!
//! ```
//! use damka::game::Game;
//! use damka::variant::{Position, RussianPosition};
//!
//! let mut game = Game::<RussianPosition>::from_start();
//! game.play_text("c3-d4").unwrap();
//! assert_eq!(game.ply(), 1);
//! assert!(!game.is_over());
//! assert!(game.play_text("c3-d4").is_err(), "the square is empty now");
//! assert_eq!(game.position().legal_moves().len(), 7);
//! ```
//!
//! Search a position (typed moves, one search thread, a 16 MiB table):
//!
//! ```
//! use damka::engine::{GameSession, GoMode, Limits};
//! use damka::variant::{GameMove, RussianPosition};
//!
//! let mut session = GameSession::<RussianPosition>::new(1, 16);
//! // White's man on c3 must take both black men: c3:e5:g7.
//! session.set_position("W:Wc3:Bd4,f6", &[]).unwrap();
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! let found = session.search_blocking(&limits, GoMode::Analyze, |_| {}).unwrap();
//! assert_eq!(found.best.unwrap().capture_count(), 2);
//! assert!(found.score > 0);
//! ```
//!
//! Run a Hub session in memory (what `damka hub` does on stdin and stdout):
//!
//! ```
//! use damka::core::Variant;
//! use damka::engine::Engine;
//! use damka::protocol::hub::{run_session, HubConfig};
//! use std::io::Cursor;
//!
//! let commands = "hub\ninit\npos start\nlevel depth=3\ngo think\n";
//! let mut replies = Vec::new();
//! let engine = Engine::new(Variant::Russian);
//! run_session(Cursor::new(commands), &mut replies, engine, HubConfig::default()).unwrap();
//! let replies = String::from_utf8(replies).unwrap();
//! assert!(replies.starts_with("id name=damka"));
//! assert!(replies.lines().any(|l| l == "ready"));
//! // The input ends after `go`: the search is stopped and still answers with a move.
//! assert!(replies.lines().any(|l| l.starts_with("done move=")));
//! ```

#![warn(missing_docs)]

pub mod book;
#[cfg(feature = "cli")]
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
pub mod review;
pub mod search;
pub mod variant;

use std::path::PathBuf;

/// The commit the library was built from (git's short hash; `DAMKA_COMMIT` when set at build
/// time; `unknown` outside a repository), for `--version` lines.
pub const COMMIT: &str = env!("DAMKA_COMMIT");

/// The version and the commit, `0.1.0 (commit 5f0f132abcde)`: what every program of the
/// workspace prints for `--version`.
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("DAMKA_COMMIT"),
    ")"
);

/// damka's folder in the user's data folder, where files kept between runs go (the endgame
/// databases, damka-web's games): `damka` under `%APPDATA%` on Windows, else under
/// `$XDG_DATA_HOME`, else `~/.local/share`; the working directory only when none of these is
/// set. Not the working directory by default, so that a program started from an unpacked
/// archive or a shortcut finds what an earlier run kept, and leaves nothing beside itself.
pub fn data_dir() -> PathBuf {
    let var = |name: &str| {
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let base = if cfg!(windows) {
        var("APPDATA").or_else(|| var("XDG_DATA_HOME"))
    } else {
        var("XDG_DATA_HOME").or_else(|| var("APPDATA"))
    };
    base.or_else(|| var("HOME").map(|h| h.join(".local").join("share")))
        .unwrap_or_else(|| PathBuf::from("."))
        .join("damka")
}
