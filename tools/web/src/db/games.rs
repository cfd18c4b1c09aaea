//! The local games (against the engine, hot seat) in the same database as the rooms: each
//! one a row with its setup, its start position and its moves, written after every change and
//! read back when a page asks for a game the server does not hold (after a restart). The
//! table is bounded: beyond [`MAX_SAVED_GAMES`] the least recently changed rows go.

use super::{wall_ms, Db, Stmt, Value};
use crate::game::PageGame;
use crate::store::{color_name, Entry, Opponent, Setup};
use damka::core::{Color, Variant};

/// Local games kept in the database; the least recently changed beyond it are deleted.
pub const MAX_SAVED_GAMES: i64 = 20_000;

impl Db {
    /// Saves local game `id` as it is now; a new game makes way for it beyond
    /// [`MAX_SAVED_GAMES`].
    pub fn save_game(&self, id: &str, e: &Entry) -> Result<(), String> {
        let fresh = e.game.ply() == 0 && e.version == 0;
        let mut stmts = vec![Stmt::new(
            "INSERT INTO games (id, variant, start_fen, moves, opponent, human, skill, movetime,
                 token, version, updated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
             ON CONFLICT(id) DO UPDATE SET moves = $4, version = $10, updated = $11",
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
                 version FROM games WHERE id = $1",
            &[Value::Text(id.into())],
        )?;
        let Some(r) = rows.into_iter().next().filter(|r| r.len() == 9) else {
            return Ok(None);
        };
        let (variant, fen, moves) = (r[0].string(), r[1].string(), r[2].string());
        let (opponent, human, skill, movetime) =
            (r[3].string(), r[4].string(), r[5].int(), r[6].real());
        let (token, version) = (r[7].text(), r[8].int());
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
