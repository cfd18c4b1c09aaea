//! The online rooms in SQLite (embedded through `rusqlite`, nothing to install): every room,
//! its seats, clocks and result, and every move with the mover's clock after it, saved after
//! each change. At start the server reads back the games still running (they go on with their
//! clocks) and, on request, the finished ones (listed and downloaded as PDN). The local games
//! are kept in the same file (see `games.rs`), with their clocks.

mod games;

use crate::game::PageGame;
use crate::room::{Ending, Room, TimeControl};
use damka::core::Variant;
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::Mutex;
use std::time::Instant;

const SCHEMA: &str = "
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    base_ms INTEGER NOT NULL,
    inc_ms INTEGER NOT NULL,
    white_token TEXT,
    black_token TEXT,
    white_ms INTEGER NOT NULL,
    black_ms INTEGER NOT NULL,
    draw_offer TEXT,
    ending TEXT,
    result TEXT NOT NULL DEFAULT '*',
    status TEXT NOT NULL DEFAULT '',
    plies INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL,
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS moves (
    room TEXT NOT NULL REFERENCES rooms(id),
    ply INTEGER NOT NULL,
    hub TEXT NOT NULL,
    text TEXT NOT NULL,
    clock_ms INTEGER NOT NULL,
    PRIMARY KEY (room, ply)
);
CREATE INDEX IF NOT EXISTS rooms_over ON rooms(over, created);
";

/// A finished game as the lobby lists it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FinishedRoom {
    /// The room's id.
    pub id: String,
    /// `russian` or `turkish`.
    pub variant: String,
    /// `2-0`, `0-2` or `1-1`.
    pub result: String,
    /// The result in words, with the rule or reason.
    pub status: String,
    /// Moves played.
    pub plies: usize,
}

/// The database file, one connection behind a lock (writes are short: a row or two a move).
pub struct Db {
    conn: Mutex<Connection>,
}

fn err(e: rusqlite::Error) -> String {
    format!("database: {e}")
}

impl Db {
    /// Opens (or creates) the database at `path` (`:memory:` for one that is not kept).
    pub fn open(path: &str) -> Result<Db, String> {
        private_file(path)?;
        let conn = Connection::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        conn.execute_batch(SCHEMA).map_err(err)?;
        games::migrate(&conn).map_err(err)?;
        Ok(Db {
            conn: Mutex::new(conn),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while the lock was held leaves SQLite's own state consistent (a transaction
        // not committed is rolled back when dropped).
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Saves the room and the moves not saved yet, in one transaction.
    pub fn save(&self, room: &mut Room, now: Instant) -> Result<(), String> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(err)?;
        let clocks = room.clocks(now);
        let status = room.status();
        tx.execute(
            "INSERT INTO rooms (id, variant, start_fen, base_ms, inc_ms, white_token, black_token,
                 white_ms, black_ms, draw_offer, ending, result, status, plies, created, over)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
             ON CONFLICT(id) DO UPDATE SET white_token = ?6, black_token = ?7, white_ms = ?8,
                 black_ms = ?9, draw_offer = ?10, ending = ?11, result = ?12, status = ?13,
                 plies = ?14, over = ?16",
            params![
                room.id,
                room.game.variant().name(),
                room.game.start_fen(),
                room.control.base_ms,
                room.control.inc_ms,
                room.tokens[0],
                room.tokens[1],
                clocks[0],
                clocks[1],
                room.draw_offer.map(crate::store::color_name),
                room.ending.map(Ending::code),
                status.result,
                status.text,
                room.game.ply() as i64,
                room.created as i64,
                status.over as i64,
            ],
        )
        .map_err(err)?;
        let hub = room.game.hub_moves();
        let history = room.game.history();
        for ply in room.saved_plies..hub.len() {
            // The mover's clock after the move (White, index 0, moves on even plies from a
            // White start).
            let black_first = room.game.start_side() == damka::core::Color::Black;
            let mover = (ply + black_first as usize) % 2;
            tx.execute(
                "INSERT OR REPLACE INTO moves (room, ply, hub, text, clock_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![room.id, ply as i64, hub[ply], history[ply].text, clocks[mover]],
            )
            .map_err(err)?;
        }
        tx.commit().map_err(err)?;
        room.saved_plies = hub.len();
        Ok(())
    }

    /// The room `id` as saved, its clocks stopped (the caller starts them again).
    pub fn load(&self, id: &str) -> Result<Option<Room>, String> {
        let conn = self.lock();
        let row = conn
            .query_row(
                "SELECT variant, start_fen, base_ms, inc_ms, white_token, black_token, white_ms,
                     black_ms, draw_offer, ending, created FROM rooms WHERE id = ?1",
                params![id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, String>(1)?,
                        [r.get::<_, i64>(2)?, r.get::<_, i64>(3)?],
                        [
                            r.get::<_, Option<String>>(4)?,
                            r.get::<_, Option<String>>(5)?,
                        ],
                        [r.get::<_, i64>(6)?, r.get::<_, i64>(7)?],
                        r.get::<_, Option<String>>(8)?,
                        r.get::<_, Option<String>>(9)?,
                        r.get::<_, i64>(10)?,
                    ))
                },
            )
            .optional()
            .map_err(err)?;
        let Some((variant, fen, [base_ms, inc_ms], tokens, clocks, offer, ending, created)) = row
        else {
            return Ok(None);
        };
        let variant: Variant = variant.parse().map_err(|e| format!("room {id}: {e}"))?;
        let mut game = PageGame::new(variant, Some(&fen)).map_err(|e| format!("room {id}: {e}"))?;
        let mut stmt = conn
            .prepare("SELECT hub FROM moves WHERE room = ?1 ORDER BY ply")
            .map_err(err)?;
        let moves = stmt
            .query_map(params![id], |r| r.get::<_, String>(0))
            .map_err(err)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        for m in &moves {
            game.play_text(m)
                .map_err(|e| format!("room {id}: move {m}: {e}"))?;
        }
        let mut room = Room::new(
            id.to_string(),
            game,
            TimeControl { base_ms, inc_ms },
            created as u64,
        );
        room.tokens = tokens.map(|t| {
            t.map(|t| match t.len() {
                crate::room::TOKEN_HASH_LEN => t,
                _ => crate::room::token_hash(&t),
            })
        });
        room.remaining = clocks;
        room.ending = ending.as_deref().and_then(Ending::from_code);
        room.draw_offer = match offer.as_deref() {
            Some("white") => Some(damka::core::Color::White),
            Some("black") => Some(damka::core::Color::Black),
            _ => None,
        };
        room.saved_plies = moves.len();
        Ok(Some(room))
    }

    /// Removes room `id` and its moves.
    pub fn delete(&self, id: &str) -> Result<(), String> {
        let conn = self.lock();
        conn.execute("DELETE FROM moves WHERE room = ?1", params![id])
            .map_err(err)?;
        conn.execute("DELETE FROM rooms WHERE id = ?1", params![id])
            .map_err(err)?;
        Ok(())
    }

    /// The ids of the games not over, oldest first.
    pub fn running(&self) -> Result<Vec<String>, String> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare("SELECT id FROM rooms WHERE over = 0 ORDER BY created")
            .map_err(err)?;
        let ids = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(err)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(err);
        ids
    }

    /// The last `limit` finished games, newest first.
    pub fn finished(&self, limit: usize) -> Result<Vec<FinishedRoom>, String> {
        let conn = self.lock();
        let mut stmt = conn
            .prepare(
                "SELECT id, variant, result, status, plies FROM rooms WHERE over = 1
                 ORDER BY created DESC, id LIMIT ?1",
            )
            .map_err(err)?;
        let rows = stmt
            .query_map(params![limit as i64], |r| {
                Ok(FinishedRoom {
                    id: r.get(0)?,
                    variant: r.get(1)?,
                    result: r.get(2)?,
                    status: r.get(3)?,
                    plies: r.get::<_, i64>(4)? as usize,
                })
            })
            .map_err(err)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(err);
        rows
    }
}

/// Makes the database file readable by its owner only (created so when missing; SQLite's
/// journal files take the same permissions): it holds who plays where.
fn private_file(path: &str) -> Result<(), String> {
    if path == ":memory:" || path.is_empty() || path.starts_with("file:") {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| format!("cannot open {path}: {e}"))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("cannot make {path} private: {e}"))?;
    }
    Ok(())
}
