//! The local games (against the engine, hot seat) in the same SQLite file as the rooms: each
//! one a row with its setup, its start position and its moves, written after every change and
//! read back when a page asks for a game the server does not hold (after a restart). The
//! table is bounded: beyond [`MAX_SAVED_GAMES`] the least recently changed rows go.
//!
//! A game with clocks keeps them in its row: the time left at the start of the turn in
//! progress, the side whose clock runs and when its turn began (wall-clock milliseconds), so
//! that the time since counts when the game is read back, by this server (a game that made way
//! for others) or the next. At a clean stop [`Db::pause_games`] charges every running clock
//! with its time until then and marks it paused: the next server starts it again when the game
//! is read back, and the time the server was down counts against nobody.

use super::{err, Db};
use crate::clock::{Clocks, Ending, TimeControl};
use crate::game::PageGame;
use crate::store::{color_name, Entry, Opponent, Setup};
use damka::core::{Color, Variant};
use rusqlite::{params, Connection, OptionalExtension};
use std::time::{Duration, Instant};

/// Local games kept in the database; the least recently changed beyond it are deleted.
pub const MAX_SAVED_GAMES: i64 = 20_000;

const SCHEMA: &str = "
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

/// The columns of the clocks, added to a file written before local games had them (each
/// NULL in an old row: a game without clocks).
const CLOCK_COLUMNS: [(&str, &str); 7] = [
    ("base_ms", "INTEGER"),
    ("inc_ms", "INTEGER"),
    ("white_ms", "INTEGER"),
    ("black_ms", "INTEGER"),
    ("running", "TEXT"),
    ("turn_started", "INTEGER"),
    ("ending", "TEXT"),
];

/// Creates the table, or adds to an older one the columns it lacks.
pub(super) fn migrate(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(SCHEMA)?;
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info('games')")?;
    let have = stmt
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<Result<Vec<_>, _>>()?;
    for (name, kind) in CLOCK_COLUMNS {
        if !have.iter().any(|h| h == name) {
            conn.execute_batch(&format!("ALTER TABLE games ADD COLUMN {name} {kind}"))?;
        }
    }
    Ok(())
}

/// A game's clocks as its row keeps them.
#[derive(Default)]
struct ClockRow {
    control: Option<[i64; 2]>,
    remaining: [Option<i64>; 2],
    running: Option<String>,
    turn_started: Option<i64>,
    ending: Option<String>,
}

impl ClockRow {
    fn of(e: &Entry, now: Instant) -> ClockRow {
        let Some(c) = e.clocks else {
            return ClockRow::default();
        };
        // The turn's start in wall-clock time, as far back from now as it is.
        let started = |t: Instant| now_ms() - now.saturating_duration_since(t).as_millis() as i64;
        ClockRow {
            control: Some([c.control.base_ms, c.control.inc_ms]),
            remaining: c.remaining.map(Some),
            running: e.running().map(|c| color_name(c).to_string()),
            turn_started: e.running().and(c.turn_start).map(started),
            ending: e.ending.map(|x| x.code().to_string()),
        }
    }

    /// The clocks read back at `now`: a running clock counts the time since its turn began,
    /// a paused one (the server stopped cleanly) runs again from now.
    fn clocks(&self, now: Instant) -> Option<Clocks> {
        let [base_ms, inc_ms] = self.control?;
        let control = TimeControl { base_ms, inc_ms };
        let remaining = self.remaining.map(|r| r.unwrap_or(base_ms).max(0));
        let turn_start = self.running.as_ref().map(|_| match self.turn_started {
            Some(t) => {
                let since = Duration::from_millis((now_ms() - t).max(0) as u64);
                now.checked_sub(since).unwrap_or(now)
            }
            None => now,
        });
        Some(Clocks {
            control,
            remaining,
            turn_start,
        })
    }
}

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
        let c = ClockRow::of(e, Instant::now());
        let control = c.control.map(|[b, i]| (b, i)).unzip();
        conn.execute(
            "INSERT INTO games (id, variant, start_fen, moves, opponent, human, skill, movetime,
                 token, version, updated, base_ms, inc_ms, white_ms, black_ms, running,
                 turn_started, ending)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16,
                 ?17, ?18)
             ON CONFLICT(id) DO UPDATE SET moves = ?4, version = ?10, updated = ?11,
                 white_ms = ?14, black_ms = ?15, running = ?16, turn_started = ?17,
                 ending = ?18",
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
                control.0,
                control.1,
                c.remaining[0],
                c.remaining[1],
                c.running,
                c.turn_started,
                c.ending,
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
                     version, base_ms, inc_ms, white_ms, black_ms, running, turn_started, ending
                 FROM games WHERE id = ?1",
                params![id],
                |r| {
                    let clock = ClockRow {
                        control: Option::zip(r.get(9)?, r.get(10)?).map(|(b, i)| [b, i]),
                        remaining: [r.get(11)?, r.get(12)?],
                        running: r.get(13)?,
                        turn_started: r.get(14)?,
                        ending: r.get(15)?,
                    };
                    Ok((
                        [
                            r.get::<_, String>(0)?,
                            r.get(1)?,
                            r.get(2)?,
                            r.get(3)?,
                            r.get(4)?,
                        ],
                        (r.get::<_, i64>(5)?, r.get::<_, f64>(6)?),
                        r.get::<_, Option<String>>(7)?,
                        r.get::<_, i64>(8)?,
                        clock,
                    ))
                },
            )
            .optional()
            .map_err(err)?;
        let Some((
            [variant, fen, moves, opponent, human],
            (skill, movetime),
            token,
            version,
            clock,
        )) = row
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
        let clocks = clock.clocks(Instant::now());
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
            clock: clocks.map(|c| c.control),
        };
        let mut entry = Entry::new(game, setup);
        entry.token = token;
        entry.version = version.max(0) as u64;
        entry.clocks = clocks;
        entry.ending = clock.ending.as_deref().and_then(Ending::from_code);
        Ok(Some(entry))
    }

    /// Stops every running clock of a local game where it is now (at a clean stop of the
    /// server): its time until now is charged, and it is marked paused, so the next server
    /// starts it again when the game is read back.
    pub fn pause_games(&self) -> Result<(), String> {
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(err)?;
        for (side, column) in [("white", "white_ms"), ("black", "black_ms")] {
            tx.execute(
                &format!(
                    "UPDATE games SET {column} = MAX(0, {column} - MAX(0, ?1 - turn_started))
                     WHERE running = ?2 AND turn_started IS NOT NULL"
                ),
                params![now_ms(), side],
            )
            .map_err(err)?;
        }
        tx.execute(
            "UPDATE games SET turn_started = NULL WHERE turn_started IS NOT NULL",
            [],
        )
        .map_err(err)?;
        tx.commit().map_err(err)
    }
}
