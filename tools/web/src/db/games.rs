//! The local games (against the engine, hot seat) in the same SQLite file as the rooms: each
//! one a row with its setup, its start position and its moves, written after every change and
//! read back when a page asks for a game the server does not hold (after a restart). The
//! table is bounded: beyond [`MAX_SAVED_GAMES`] the least recently changed rows go.

use super::{err, Db};
use crate::game::PageGame;
use crate::store::{color_name, Entry, Opponent, Setup};
use damka::core::{Color, Variant};
use rusqlite::{params, OptionalExtension};

/// Local games kept in the database; the least recently changed beyond it are deleted.
pub const MAX_SAVED_GAMES: i64 = 20_000;

pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    moves TEXT NOT NULL,
    opponent TEXT NOT NULL,
    human TEXT NOT NULL,
    skill INTEGER NOT NULL,
    movetime REAL NOT NULL,
    token TEXT,
    version INTEGER NOT NULL,
    updated INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
";

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl Db {
    /// Saves local game `id` as it is now; a new game makes way for it beyond
    /// [`MAX_SAVED_GAMES`].
    pub fn save_game(&self, id: &str, e: &Entry) -> Result<(), String> {
        let conn = self.lock();
        let fresh = e.game.ply() == 0 && e.version == 0;
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, moves, opponent, human, skill, movetime,
                 token, version, updated)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
             ON CONFLICT(id) DO UPDATE SET moves = ?4, version = ?10, updated = ?11",
            params![
                id,
                e.game.variant().name(),
                e.game.start_fen(),
                e.game.hub_moves().join(" "),
                e.setup.opponent.name(),
                color_name(e.setup.human),
                e.setup.skill as i64,
                e.setup.movetime,
                e.token,
                e.version as i64,
                now_ms(),
            ],
        )
        .map_err(err)?;
        if fresh {
            conn.execute(
                "DELETE FROM games WHERE id IN
                     (SELECT id FROM games ORDER BY updated DESC LIMIT -1 OFFSET ?1)",
                params![MAX_SAVED_GAMES],
            )
            .map_err(err)?;
        }
        Ok(())
    }

    /// Local game `id` as saved (`None`: no such game).
    pub fn load_game(&self, id: &str) -> Result<Option<Entry>, String> {
        let conn = self.lock();
        let row = conn
            .query_row(
                "SELECT variant, start_fen, moves, opponent, human, skill, movetime, token,
                     version FROM games WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, String>(2)?,
                        [r.get::<_, String>(3)?, r.get::<_, String>(4)?],
                        r.get::<_, i64>(5)?,
                        r.get::<_, f64>(6)?,
                        r.get::<_, Option<String>>(7)?,
                        r.get::<_, i64>(8)?,
                    ))
                },
            )
            .optional()
            .map_err(err)?;
        let Some((variant, fen, moves, [opponent, human], skill, movetime, token, version)) = row
        else {
            return Ok(None);
        };
        let bad = |m: String| format!("game {id}: {m}");
        let variant: Variant = variant.parse().map_err(|e| bad(format!("{e}")))?;
        let mut game = PageGame::new(variant, Some(&fen)).map_err(bad)?;
        for m in moves.split_whitespace() {
            game.play_text(m)
                .map_err(|e| bad(format!("move {m}: {e}")))?;
        }
        let setup = Setup {
            opponent: if opponent == "human" {
                Opponent::Human
            } else {
                Opponent::Engine
            },
            human: if human == "black" {
                Color::Black
            } else {
                Color::White
            },
            skill: skill.clamp(1, 10) as u8,
            movetime,
        };
        let mut entry = Entry::new(game, setup);
        entry.token = token;
        entry.version = version.max(0) as u64;
        Ok(Some(entry))
    }
}
