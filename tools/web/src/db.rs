//! The database behind the server, one schema on two back ends ([`SqlDriver`]): SQLite (the
//! embedded default, through `rusqlite`: one process, nothing to install) and PostgreSQL
//! (`--database postgres://...`: a server several damka-web nodes share, see
//! [`crate::online::cluster`]). Every room, its seats (tokens hashed), clocks, draw offer and result,
//! and every move with the mover's clock after it, are saved after each change; the local
//! games too, with their clocks (see `games.rs`). The SQL is written once, with `$N` parameters both engines read,
//! and the schema grows by numbered migrations applied in order on either back end.

mod games;
pub mod postgres;
mod reviews;
mod sqlite;

use crate::game::PageGame;
use crate::online::room::{Ending, Room, TimeControl};
use damka::core::Variant;
use std::time::Instant;

/// One value in or out of a statement (the few types the schema uses).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// SQL NULL.
    Null,
    /// A 64-bit integer (`BIGINT`).
    Int(i64),
    /// A double (`DOUBLE PRECISION`).
    Real(f64),
    /// Text.
    Text(String),
}

impl Value {
    fn int(&self) -> i64 {
        match self {
            Value::Int(v) => *v,
            Value::Real(v) => *v as i64,
            _ => 0,
        }
    }

    fn real(&self) -> f64 {
        match self {
            Value::Real(v) => *v,
            Value::Int(v) => *v as f64,
            _ => 0.0,
        }
    }

    fn text(&self) -> Option<String> {
        match self {
            Value::Text(t) => Some(t.clone()),
            _ => None,
        }
    }

    /// The text, if it is one.
    pub fn text_value(&self) -> Option<String> {
        self.text()
    }

    fn string(&self) -> String {
        self.text().unwrap_or_default()
    }

    /// The integer, or `None` for NULL.
    fn opt_int(&self) -> Option<i64> {
        match self {
            Value::Null => None,
            v => Some(v.int()),
        }
    }
}

impl From<Option<i64>> for Value {
    fn from(v: Option<i64>) -> Value {
        v.map_or(Value::Null, Value::Int)
    }
}

impl From<Option<String>> for Value {
    fn from(v: Option<String>) -> Value {
        v.map_or(Value::Null, Value::Text)
    }
}

/// A row of a query's answer.
pub type Row = Vec<Value>;

/// A statement of a transaction. With `expect_rows`, a statement that changes no row rolls the
/// transaction back (a guard: the lease of a room this node no longer holds).
pub struct Stmt {
    /// The SQL, parameters written `$1`, `$2`...
    pub sql: String,
    /// The parameters.
    pub params: Vec<Value>,
    /// Whether the statement must change a row.
    pub expect_rows: bool,
}

impl Stmt {
    /// A statement.
    pub fn new(sql: &str, params: Vec<Value>) -> Stmt {
        Stmt {
            sql: sql.to_string(),
            params,
            expect_rows: false,
        }
    }

    /// A statement that must change a row, or the transaction is rolled back.
    pub fn guard(sql: &str, params: Vec<Value>) -> Stmt {
        Stmt {
            expect_rows: true,
            ..Stmt::new(sql, params)
        }
    }
}

/// What a database engine offers the server: queries and transactions.
pub trait SqlDriver: Send + Sync {
    /// The rows `sql` answers.
    fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, String>;
    /// Runs `stmts` in one transaction: `Ok(false)` (rolled back) when a guard changed no row.
    fn transaction(&self, stmts: &[Stmt]) -> Result<bool, String>;
    /// The statement that serialises migrations between processes, if the engine needs one.
    fn migration_lock(&self) -> Option<&'static str> {
        None
    }
}

/// The schema, by migration: each is applied once, in order, recorded in `schema_version`.
/// Types are the ones both engines know (`BIGINT`, `TEXT`, `DOUBLE PRECISION`).
const MIGRATIONS: &[&str] = &[
    // 1: rooms, moves and local games (what SQLite files of earlier versions already hold).
    "CREATE TABLE IF NOT EXISTS rooms (
        id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL,
        base_ms BIGINT NOT NULL, inc_ms BIGINT NOT NULL, white_token TEXT, black_token TEXT,
        white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL, draw_offer TEXT, ending TEXT,
        result TEXT NOT NULL DEFAULT '*', status TEXT NOT NULL DEFAULT '',
        plies BIGINT NOT NULL DEFAULT 0, created BIGINT NOT NULL, over BIGINT NOT NULL DEFAULT 0);
     CREATE TABLE IF NOT EXISTS moves (
        room TEXT NOT NULL REFERENCES rooms(id), ply BIGINT NOT NULL, hub TEXT NOT NULL,
        text TEXT NOT NULL, clock_ms BIGINT NOT NULL, PRIMARY KEY (room, ply));
     CREATE INDEX IF NOT EXISTS rooms_over ON rooms(over, created);
     CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY, variant TEXT NOT NULL, start_fen TEXT NOT NULL, moves TEXT NOT NULL,
        opponent TEXT NOT NULL, human TEXT NOT NULL, skill BIGINT NOT NULL,
        movetime DOUBLE PRECISION NOT NULL, token TEXT, version BIGINT NOT NULL,
        updated BIGINT NOT NULL);
     CREATE INDEX IF NOT EXISTS games_updated ON games(updated)",
    // 2: several nodes: when a room was saved (its running clock goes on from then
    // on the node that takes it over), its version (pages ignore older states), and the
    // leases saying which node owns a room (used on PostgreSQL only).
    "ALTER TABLE rooms ADD COLUMN saved_at BIGINT NOT NULL DEFAULT 0;
     ALTER TABLE rooms ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
     CREATE TABLE IF NOT EXISTS leases (
        room TEXT PRIMARY KEY, node TEXT NOT NULL, expires BIGINT NOT NULL)",
    // 3: clocks of local games (NULL: a game without clocks): the time control, the time
    // left at the start of the turn in progress, whose clock runs and since when (wall-clock
    // milliseconds; NULL while paused), and an ending outside the rules (time).
    "ALTER TABLE games ADD COLUMN base_ms BIGINT;
     ALTER TABLE games ADD COLUMN inc_ms BIGINT;
     ALTER TABLE games ADD COLUMN white_ms BIGINT;
     ALTER TABLE games ADD COLUMN black_ms BIGINT;
     ALTER TABLE games ADD COLUMN running TEXT;
     ALTER TABLE games ADD COLUMN turn_started BIGINT;
     ALTER TABLE games ADD COLUMN ending TEXT",
    // 4: who started a local game (its client address, whose quota it counts in when read
    // back), and what each of its last moves took from its mover's clock (milliseconds,
    // separated by spaces: a take-back gives that back).
    "ALTER TABLE games ADD COLUMN owner TEXT;
     ALTER TABLE games ADD COLUMN took TEXT",
    // 5: what players say to each other about the game: whose draw offer was declined
    // (the offerer hears it), whose rematch offer stands, and the rematch's room.
    "ALTER TABLE rooms ADD COLUMN draw_declined TEXT;
     ALTER TABLE rooms ADD COLUMN rematch_offer TEXT;
     ALTER TABLE rooms ADD COLUMN rematch TEXT",
    // 6: a game's review (the page's review view as JSON, for the moves it was made of),
    // kept with the game and gone with it.
    "ALTER TABLE games ADD COLUMN review TEXT",
];

/// A colour as saved (`white`, `black`), or NULL.
fn color_text(c: Option<damka::core::Color>) -> Value {
    c.map(|c| crate::local::store::color_name(c).to_string())
        .into()
}

/// The colour saved as `v`, if one is.
fn text_color(v: &Value) -> Option<damka::core::Color> {
    match v.text().as_deref() {
        Some("white") => Some(damka::core::Color::White),
        Some("black") => Some(damka::core::Color::Black),
        _ => None,
    }
}

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

/// What a node of several adds to every save of a room: a guard before (the lease) and a
/// statement after (the notification), given the room.
pub type SaveHooks = Box<dyn Fn(&Room) -> (Stmt, Stmt) + Send + Sync>;

/// The database: a back end, and what the server stores in it.
pub struct Db {
    backend: Box<dyn SqlDriver>,
    /// Statements added to every save of a room (the lease guard before, the notification
    /// after), given the room; set by [`crate::online::cluster`] on a node of several.
    pub(crate) hooks: Option<SaveHooks>,
}

/// Milliseconds since 1970 by this machine's clock.
pub fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// The moment `now` was at wall-clock time `wall` (milliseconds since 1970, see [`wall_ms`]):
/// how a clock saved in the database runs on in this process. A time in the future is `now`.
pub fn instant_at(wall: i64, now: Instant) -> Instant {
    let since = std::time::Duration::from_millis((wall_ms() - wall).max(0) as u64);
    now.checked_sub(since).unwrap_or(now)
}

impl Db {
    /// Opens the database `path` names: a `postgres://` or `postgresql://` URL, else a SQLite
    /// file (created when missing; `:memory:` for one that is not kept), and brings its schema
    /// up to date.
    pub fn open(path: &str) -> Result<Db, String> {
        let backend: Box<dyn SqlDriver> = if postgres::is_url(path) {
            Box::new(postgres::Postgres::connect(path)?)
        } else {
            Box::new(sqlite::Sqlite::open(path)?)
        };
        let db = Db {
            backend,
            hooks: None,
        };
        db.migrate()?;
        Ok(db)
    }

    /// The back end, for statements of its own (the cluster's leases).
    pub fn backend(&self) -> &dyn SqlDriver {
        &*self.backend
    }

    fn migrate(&self) -> Result<(), String> {
        let lock = || {
            let lock = self.backend.migration_lock();
            lock.map(|l| Stmt::new(l, vec![])).into_iter()
        };
        let create = "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)";
        let mut stmts: Vec<Stmt> = lock().collect();
        stmts.push(Stmt::new(create, vec![]));
        self.backend.transaction(&stmts)?;
        for (i, step) in MIGRATIONS.iter().enumerate() {
            let n = i as i64 + 1;
            let mut stmts: Vec<Stmt> = lock().collect();
            // Another node may have applied it meanwhile: the guard then rolls back.
            stmts.push(Stmt::guard(
                "INSERT INTO schema_version (version) SELECT CAST($1 AS BIGINT) WHERE NOT EXISTS
                     (SELECT 1 FROM schema_version WHERE version >= $1)",
                vec![Value::Int(n)],
            ));
            for sql in step.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                stmts.push(Stmt::new(sql, vec![]));
            }
            self.backend
                .transaction(&stmts)
                .map_err(|e| format!("migration {n}: {e}"))?;
        }
        Ok(())
    }

    /// Saves the room and the moves not saved yet, in one transaction (on a node of several:
    /// only while this node holds the room's lease, and the other nodes are told).
    pub fn save(&self, room: &mut Room, now: Instant) -> Result<(), String> {
        let clocks = room.clocks(now);
        let status = room.status();
        let mut stmts = Vec::new();
        let hooks = self.hooks.as_ref().map(|h| h(room));
        if let Some((guard, _)) = &hooks {
            stmts.push(Stmt::guard(&guard.sql, guard.params.clone()));
        }
        stmts.push(Stmt::new(
            "INSERT INTO rooms (id, variant, start_fen, base_ms, inc_ms, white_token, black_token,
                 white_ms, black_ms, draw_offer, ending, result, status, plies, created, over,
                 saved_at, version, draw_declined, rematch_offer, rematch)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17,
                 $18, $19, $20, $21)
             ON CONFLICT(id) DO UPDATE SET white_token = $6, black_token = $7, white_ms = $8,
                 black_ms = $9, draw_offer = $10, ending = $11, result = $12, status = $13,
                 plies = $14, over = $16, saved_at = $17, version = $18, draw_declined = $19,
                 rematch_offer = $20, rematch = $21",
            vec![
                Value::Text(room.id.clone()),
                Value::Text(room.game.variant().name().into()),
                Value::Text(room.game.start_fen()),
                Value::Int(room.control.base_ms),
                Value::Int(room.control.inc_ms),
                room.tokens[0].clone().into(),
                room.tokens[1].clone().into(),
                Value::Int(clocks[0]),
                Value::Int(clocks[1]),
                color_text(room.draw_offer),
                room.ending.map(|e| e.code().to_string()).into(),
                Value::Text(status.result),
                Value::Text(status.text),
                Value::Int(room.game.ply() as i64),
                Value::Int(room.created as i64),
                Value::Int(status.over as i64),
                Value::Int(wall_ms()),
                Value::Int(room.version as i64),
                color_text(room.draw_declined),
                color_text(room.rematch_offer),
                room.rematch.clone().into(),
            ],
        ));
        let hub = room.game.hub_moves();
        let history = room.game.history();
        let black_first = room.game.start_side() == damka::core::Color::Black;
        for ply in room.saved_plies..hub.len() {
            // The mover's clock after the move (White, index 0, moves on even plies from a
            // White start).
            let mover = (ply + black_first as usize) % 2;
            stmts.push(Stmt::new(
                "INSERT INTO moves (room, ply, hub, text, clock_ms) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT(room, ply) DO UPDATE SET hub = $3, text = $4, clock_ms = $5",
                vec![
                    Value::Text(room.id.clone()),
                    Value::Int(ply as i64),
                    Value::Text(hub[ply].clone()),
                    Value::Text(history[ply].text.clone()),
                    Value::Int(clocks[mover]),
                ],
            ));
        }
        if let Some((_, notify)) = hooks {
            stmts.push(notify);
        }
        if !self.backend.transaction(&stmts)? {
            return Err(format!(
                "room {} is held by another server now; nothing was changed",
                room.id
            ));
        }
        room.saved_plies = hub.len();
        Ok(())
    }

    /// The room `id` as saved, its clocks stopped (the caller starts them again).
    pub fn load(&self, id: &str) -> Result<Option<Room>, String> {
        Ok(self.load_at(id)?.map(|(room, _)| room))
    }

    /// The room `id` as saved and when it was saved (milliseconds since 1970).
    pub fn load_at(&self, id: &str) -> Result<Option<(Room, i64)>, String> {
        let rows = self.backend.query(
            "SELECT variant, start_fen, base_ms, inc_ms, white_token, black_token, white_ms,
                 black_ms, draw_offer, ending, created, saved_at, version, draw_declined,
                 rematch_offer, rematch FROM rooms WHERE id = $1",
            &[Value::Text(id.into())],
        )?;
        let Some(r) = rows.into_iter().next().filter(|r| r.len() == 16) else {
            return Ok(None);
        };
        let variant: Variant = r[0]
            .string()
            .parse()
            .map_err(|e| format!("room {id}: {e}"))?;
        let mut game =
            PageGame::new(variant, Some(&r[1].string())).map_err(|e| format!("room {id}: {e}"))?;
        let moves = self.backend.query(
            "SELECT hub FROM moves WHERE room = $1 ORDER BY ply",
            &[Value::Text(id.into())],
        )?;
        for m in &moves {
            let m = m.first().map(Value::string).unwrap_or_default();
            game.play_text(&m)
                .map_err(|e| format!("room {id}: move {m}: {e}"))?;
        }
        let control = TimeControl {
            base_ms: r[2].int(),
            inc_ms: r[3].int(),
        };
        let mut room = Room::new(id.to_string(), game, control, r[10].int() as u64);
        room.tokens = [r[4].text(), r[5].text()].map(|t| {
            t.map(|t| match t.len() {
                crate::online::room::TOKEN_HASH_LEN => t,
                _ => crate::online::room::token_hash(&t),
            })
        });
        room.remaining = [r[6].int(), r[7].int()];
        room.ending = r[9].text().as_deref().and_then(Ending::from_code);
        room.draw_offer = text_color(&r[8]);
        room.draw_declined = text_color(&r[13]);
        room.rematch_offer = text_color(&r[14]);
        room.rematch = r[15].text();
        room.version = r[12].int().max(0) as u64;
        room.saved_plies = moves.len();
        Ok(Some((room, r[11].int())))
    }

    /// Removes room `id` and its moves.
    pub fn delete(&self, id: &str) -> Result<(), String> {
        let id = || vec![Value::Text(id.into())];
        self.backend.transaction(&[
            Stmt::new("DELETE FROM moves WHERE room = $1", id()),
            Stmt::new("DELETE FROM rooms WHERE id = $1", id()),
        ])?;
        Ok(())
    }

    /// The ids of the games not over, oldest first.
    pub fn running(&self) -> Result<Vec<String>, String> {
        let rows = self
            .backend
            .query("SELECT id FROM rooms WHERE over = 0 ORDER BY created", &[])?;
        Ok(rows.iter().map(|r| r[0].string()).collect())
    }

    /// The last `limit` finished games, newest first.
    pub fn finished(&self, limit: usize) -> Result<Vec<FinishedRoom>, String> {
        let rows = self.backend.query(
            "SELECT id, variant, result, status, plies FROM rooms WHERE over = 1
             ORDER BY created DESC, id LIMIT $1",
            &[Value::Int(limit as i64)],
        )?;
        Ok(rows
            .iter()
            .map(|r| FinishedRoom {
                id: r[0].string(),
                variant: r[1].string(),
                result: r[2].string(),
                status: r[3].string(),
                plies: r[4].int().max(0) as usize,
            })
            .collect())
    }

    /// The games not over (the lobby of a node of several, whose rooms other nodes hold):
    /// id, variant, time control (ms), seats taken, plies, status, newest first.
    pub fn live(&self, limit: usize) -> Result<Vec<Row>, String> {
        self.backend.query(
            "SELECT id, variant, base_ms, inc_ms, white_token IS NOT NULL, black_token IS NOT NULL,
                 plies, status FROM rooms WHERE over = 0 ORDER BY created DESC, id LIMIT $1",
            &[Value::Int(limit as i64)],
        )
    }
}
