//! The local games (against the engine, hot seat) in the same database as the rooms: each
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

use super::{instant_at, wall_ms, Db, Stmt, Value};
use crate::game::PageGame;
use crate::local::store::{color_name, Entry, Opponent, Setup};
use crate::online::clock::{Clocks, Ending, TimeControl};
use damka::core::{Color, Variant};
use std::time::Instant;

/// Local games kept in the database; the least recently changed beyond it are deleted.
pub const MAX_SAVED_GAMES: i64 = 20_000;

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
        let started = |t: Instant| wall_ms() - now.saturating_duration_since(t).as_millis() as i64;
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
        let turn_start = self
            .running
            .as_ref()
            .map(|_| self.turn_started.map_or(now, |t| instant_at(t, now)));
        Some(Clocks {
            control,
            remaining,
            turn_start,
        })
    }
}

impl Db {
    /// Saves local game `id` as it is now; a new game makes way for it beyond
    /// [`MAX_SAVED_GAMES`].
    pub fn save_game(&self, id: &str, e: &Entry) -> Result<(), String> {
        let fresh = e.game.ply() == 0 && e.version == 0;
        let c = ClockRow::of(e, Instant::now());
        let control = c.control.map(|[b, i]| (b, i)).unzip();
        let mut stmts = vec![Stmt::new(
            "INSERT INTO games (id, variant, start_fen, moves, opponent, human, skill, movetime,
                 token, version, updated, base_ms, inc_ms, white_ms, black_ms, running,
                 turn_started, ending, owner, took)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
                 $17, $18, $19, $20)
             ON CONFLICT(id) DO UPDATE SET moves = $4, version = $10, updated = $11,
                 white_ms = $14, black_ms = $15, running = $16, turn_started = $17,
                 ending = $18, took = $20",
            vec![
                Value::Text(id.into()),
                Value::Text(e.game.variant().name().into()),
                Value::Text(e.game.start_fen()),
                Value::Text(e.game.hub_moves().join(" ")),
                Value::Text(e.setup.opponent.name().into()),
                Value::Text(color_name(e.setup.human).into()),
                Value::Int(e.setup.skill as i64),
                Value::Real(e.setup.movetime),
                e.token.clone().into(),
                Value::Int(e.version as i64),
                Value::Int(wall_ms()),
                control.0.into(),
                control.1.into(),
                c.remaining[0].into(),
                c.remaining[1].into(),
                c.running.into(),
                c.turn_started.into(),
                c.ending.into(),
                e.owner.map(|o| o.to_string()).into(),
                Value::Text(
                    e.took
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(" "),
                ),
            ],
        )];
        if fresh {
            // Older than the MAX_SAVED_GAMES-th most recent (a form both engines read).
            stmts.push(Stmt::new(
                "DELETE FROM games WHERE updated <
                     (SELECT updated FROM games ORDER BY updated DESC LIMIT 1 OFFSET $1)",
                vec![Value::Int(MAX_SAVED_GAMES - 1)],
            ));
        }
        self.backend.transaction(&stmts)?;
        Ok(())
    }

    /// Local game `id` as saved (`None`: no such game).
    pub fn load_game(&self, id: &str) -> Result<Option<Entry>, String> {
        let rows = self.backend.query(
            "SELECT variant, start_fen, moves, opponent, human, skill, movetime, token,
                 version, base_ms, inc_ms, white_ms, black_ms, running, turn_started, ending,
                 owner, took FROM games WHERE id = $1",
            &[Value::Text(id.into())],
        )?;
        let Some(r) = rows.into_iter().next().filter(|r| r.len() == 18) else {
            return Ok(None);
        };
        let (variant, fen, moves) = (r[0].string(), r[1].string(), r[2].string());
        let (opponent, human, skill, movetime) =
            (r[3].string(), r[4].string(), r[5].int(), r[6].real());
        let (token, version) = (r[7].text(), r[8].int());
        let clock = ClockRow {
            control: Option::zip(r[9].opt_int(), r[10].opt_int()).map(|(b, i)| [b, i]),
            remaining: [r[11].opt_int(), r[12].opt_int()],
            running: r[13].text(),
            turn_started: r[14].opt_int(),
            ending: r[15].text(),
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
        // A game saved before owners were (or with an address that does not read) counts
        // as one of no address's.
        entry.owner = r[16].text().and_then(|o| o.parse().ok());
        // Unreadable costs are dropped: a take-back then only takes the increment away.
        entry.took = r[17]
            .text()
            .unwrap_or_default()
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .unwrap_or_default();
        Ok(Some(entry))
    }

    /// Stops every running clock of a local game where it is now (at a clean stop of the
    /// server): its time until now is charged, and it is marked paused, so the next server
    /// starts it again when the game is read back.
    pub fn pause_games(&self) -> Result<(), String> {
        let mut stmts = Vec::new();
        for (side, column) in [("white", "white_ms"), ("black", "black_ms")] {
            // Written with CASE, which both engines read (SQLite's MAX(a, b) is PostgreSQL's
            // GREATEST).
            stmts.push(Stmt::new(
                &format!(
                    "UPDATE games SET {column} = CASE
                         WHEN $1 <= turn_started THEN {column}
                         WHEN {column} < $1 - turn_started THEN 0
                         ELSE {column} - ($1 - turn_started) END
                     WHERE running = $2 AND turn_started IS NOT NULL"
                ),
                vec![Value::Int(wall_ms()), Value::Text(side.into())],
            ));
        }
        stmts.push(Stmt::new(
            "UPDATE games SET turn_started = NULL WHERE turn_started IS NOT NULL",
            vec![],
        ));
        self.backend.transaction(&stmts).map(|_| ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::local::store::{Entry, Opponent, Setup};

    /// A game read back keeps its owner (before, it came back without one, and its owner's
    /// games no longer counted against its quota) and what its moves took from the clocks.
    #[test]
    fn a_game_read_back_keeps_its_owner_and_its_moves_costs() {
        let db = Db::open(":memory:").unwrap();
        let setup = Setup {
            opponent: Opponent::Human,
            human: Color::White,
            skill: 10,
            movetime: 1.0,
            clock: Some(TimeControl {
                base_ms: 60_000,
                inc_ms: 5_000,
            }),
        };
        let mut e = Entry::new(PageGame::new(Variant::Russian, None).unwrap(), setup);
        e.owner = Some("2001:db8::7".parse().unwrap());
        e.game.play_text("c3-d4").unwrap();
        e.clock_moved(Color::White, Instant::now());
        assert_eq!(e.took.len(), 1);
        db.save_game("g1-abc", &e).unwrap();
        let back = db.load_game("g1-abc").unwrap().unwrap();
        assert_eq!(back.owner, e.owner);
        assert_eq!(back.took, e.took);
    }
}
