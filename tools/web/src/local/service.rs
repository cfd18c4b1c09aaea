//! What the server does with local games, whatever the transport: start a game, play a move,
//! take one back, ask the engine for its move or a hint. HTTP ([`crate::transport::http`]) and WebSocket ([`crate::transport::ws`])
//! both call these, so both speak the same requests and errors.

use crate::app::{App, EngineDone};
use crate::game::{MoveView, PageGame};
use crate::local::pool::{PoolError, PoolRequest, SearchReply, FULL_SKILL, SKILL_LEVELS};
use crate::local::store::{Entry, GameView, Opponent, Setup};
use crate::online::clock::TimeControl;
use crate::online::room::play_on;
use crate::online::{seconds, MAX_INCREMENT, TIME_RANGE};
use crate::transport::api::{parse_color, ApiError};
use damka::core::{Color, Variant};
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{broadcast, oneshot};

mod timing;

/// Shortest and longest engine time per move, seconds.
pub const MOVETIME_RANGE: (f64, f64) = (0.05, 30.0);
/// Engine time per move when a new game does not say.
pub const DEFAULT_MOVETIME: f64 = 1.0;
/// How long the engine's move waits before it asks the busy search threads again.
const BUSY_RETRY: std::time::Duration = std::time::Duration::from_millis(500);
/// The refusal of a move or undo by someone other than the game's owner.
pub const NOT_OWNER: &str =
    "this game belongs to the browser that started it: you may watch it, not move in it";
/// Longest hint or evaluation search, seconds.
pub const HINT_MAX_TIME: f64 = 2.0;

/// A new game, as the form sends it. Every field may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `russian` (default) or `turkish`; a PDN's `GameType` overrides it.
    pub variant: Option<String>,
    /// `engine` (default) or `human`.
    pub opponent: Option<String>,
    /// The person's colour against the engine: `white` (default) or `black`.
    pub color: Option<String>,
    /// The engine's strength, 1 to 10 (default 10).
    pub skill: Option<u8>,
    /// The engine's time per move, seconds (default 1).
    pub movetime: Option<f64>,
    /// Start from this position (FEN or Hub position string).
    pub fen: Option<String>,
    /// Go on from this game record (PDN); takes precedence over `fen`.
    pub pdn: Option<String>,
    /// A clock for each side with this many seconds for the game (as online rooms have;
    /// left out: no clock). The engine then plays by its clock, not `movetime`.
    pub time: Option<f64>,
    /// Seconds added to a clock after each of its side's moves (default 0; with `time`).
    pub increment: Option<f64>,
}

/// A move: its text (`c3-d4`, `c3:e5:g7`, Hub numbers, or a capture by its ends), or its
/// squares in order (`["c3", "e5", "g7"]`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The move as text.
    #[serde(rename = "move")]
    pub text: Option<String>,
    /// The start square and every landing square.
    pub path: Option<Vec<String>>,
    /// The game's owner secret (given when it was started): only its holder may move.
    pub token: Option<String>,
}

/// The engine's move suggested for the side to move, with its evaluation.
#[derive(Clone, Debug, Serialize)]
pub struct Hint {
    /// The game.
    pub game: String,
    /// The version of the game it was computed for.
    pub version: u64,
    /// The move, as the page draws it.
    #[serde(rename = "move")]
    pub mv: MoveView,
    /// Score for the side to move, centi-men.
    pub score: i32,
    /// Score for White, centi-men (for the evaluation bar).
    pub white_score: i32,
    /// The score in words.
    pub score_text: String,
    /// Depth completed.
    pub depth: u32,
    /// The principal variation in algebraic notation.
    pub pv: Vec<String>,
}

fn parse_setup(req: &NewGame) -> Result<Setup, ApiError> {
    let opponent = match req.opponent.as_deref().unwrap_or("engine") {
        "engine" => Opponent::Engine,
        "human" => Opponent::Human,
        o => {
            return Err(ApiError::Bad(format!(
                "opponent must be engine or human, not {o:?}"
            )))
        }
    };
    let human = parse_color(req.color.as_deref())?;
    let skill = req.skill.unwrap_or(FULL_SKILL);
    if !SKILL_LEVELS.contains(&skill) {
        return Err(ApiError::Bad(format!(
            "skill must be from {} to {}, not {skill}",
            SKILL_LEVELS.start(),
            SKILL_LEVELS.end()
        )));
    }
    let movetime = req.movetime.unwrap_or(DEFAULT_MOVETIME);
    if !(MOVETIME_RANGE.0..=MOVETIME_RANGE.1).contains(&movetime) {
        return Err(ApiError::Bad(format!(
            "movetime must be from {} to {} seconds",
            MOVETIME_RANGE.0, MOVETIME_RANGE.1
        )));
    }
    let clock = match req.time {
        None => None,
        Some(_) => Some(TimeControl {
            base_ms: seconds(req.time, 0.0, TIME_RANGE, "time")?,
            inc_ms: seconds(req.increment, 0.0, (0.0, MAX_INCREMENT), "increment")?,
        }),
    };
    Ok(Setup {
        opponent,
        human,
        skill,
        movetime,
        clock,
    })
}

/// The search for the engine's move in a game: its position, time (its clock's, in a game
/// with clocks) and strength level, cancelled through `cancel`.
fn engine_request(e: &Entry, now: Instant, cancel: Arc<AtomicBool>) -> PoolRequest {
    let side = e.game.side_to_move();
    PoolRequest {
        game: e.game.typed().clone(),
        movetime: e.setup.movetime,
        clock: e.clocks.map(|c| {
            let left = c.left(side, now)[side.index()];
            [left as f64 / 1000.0, c.control.inc_ms as f64 / 1000.0]
        }),
        skill: e.setup.skill,
        client: e.owner.map(crate::transport::guard::group),
        cancel: Some(cancel),
        lines: 0,
    }
}

/// The answer to a change that could not be saved (503): it was not made, and the page
/// shows why.
pub fn unsaved(why: &str) -> ApiError {
    ApiError::Limit(format!(
        "could not save the game, so the last change was not made: {why}"
    ))
}

/// How the engine's turn began (see [`App::kick`]).
enum Start {
    /// Not its turn, or searching already.
    Nothing,
    /// The queue is full: asked again soon.
    Busy,
    /// Searching the game at this version, the search counted in its owner's share.
    Searching(
        oneshot::Receiver<Result<SearchReply, PoolError>>,
        u64,
        crate::transport::guard::Share,
    ),
}

impl App {
    /// Queues the engine's search in game `id` if it is its turn.
    fn engine_start(&self, id: &str, e: &mut Entry) -> Start {
        if !e.engine_to_move() || e.thinking {
            return Start::Nothing;
        }
        // The engine's moves count in the owner's share like its hints: many games
        // of one address wait their turn instead of filling the queue.
        let Ok(share) = self.engine_share(e.owner) else {
            return Start::Busy;
        };
        let cancel = Arc::new(AtomicBool::new(false));
        match self
            .pool
            .submit(engine_request(e, Instant::now(), cancel.clone()))
        {
            Ok(rx) => {
                e.thinking = true;
                e.search = Some(cancel);
                e.changed(id);
                Start::Searching(rx, e.version, share)
            }
            Err(err) => {
                e.notice = Some(format!("{err}; its move will follow"));
                e.changed(id);
                Start::Busy
            }
        }
    }

    /// Runs `f` on game `id`, read back from the database if the server does not hold it
    /// (after a restart, or made way for others); a change `f` makes is saved. A change that
    /// cannot be saved (a full disk, a database file removed) is not acknowledged: the answer
    /// is [`unsaved`] and the game goes back to what was last saved ([`App::revert`]).
    fn with<R>(&self, id: &str, f: impl FnOnce(&mut Entry) -> R) -> Result<R, ApiError> {
        if self.store.with(id, |_| ()).is_none() {
            self.restore_game(id)?;
        }
        let (r, saved) = self
            .store
            .with(id, |e| {
                let version = e.version;
                // Once the server is stopping the clocks are saved paused: nothing changes.
                let running = self.online.check_running().is_ok();
                // A clock at zero ends the game whoever asks first (the flag timer, a page).
                if running && e.flag(Instant::now()) {
                    e.changed(id);
                }
                let r = f(e);
                let saved = if running && e.version != version {
                    self.save_game(id, e)
                } else {
                    Ok(())
                };
                (r, saved)
            })
            .ok_or_else(|| ApiError::UnknownGame(id.to_string()))?;
        if let Err(m) = saved {
            self.revert(id);
            return Err(unsaved(&m));
        }
        Ok(r)
    }

    /// Puts game `id` back as last saved after a change that could not be saved, and tells
    /// its watchers (under a newer version, so that the page takes it); a game that cannot be
    /// read back either is dropped from memory.
    fn revert(&self, id: &str) {
        let saved = self.online.db.load_game(id);
        let reverted = self.store.with(id, |e| {
            let Ok(Some(mut back)) = saved else {
                return false;
            };
            e.cancel_search();
            back.version = e.version;
            back.events = e.events.clone();
            back.owner = back.owner.or(e.owner);
            *e = back;
            e.changed(id);
            true
        });
        if reverted != Some(true) {
            self.store.remove(id);
        }
    }

    /// Saves game `id`; a failure is logged and returned.
    fn save_game(&self, id: &str, e: &Entry) -> Result<(), String> {
        self.online.db.save_game(id, e).inspect_err(|m| {
            eprintln!("damka-web: game {id}: {m}");
        })
    }

    /// Reads game `id` back from the database into the store.
    fn restore_game(&self, id: &str) -> Result<(), ApiError> {
        let unknown = || ApiError::UnknownGame(id.to_string());
        // Ids are the store's (`g` and digits, `-`, hex): anything else is not looked up.
        let well_formed = id.len() <= 40
            && id.starts_with('g')
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if !well_formed {
            return Err(unknown());
        }
        let entry = self
            .online
            .db
            .load_game(id)
            .map_err(ApiError::Bad)?
            .ok_or_else(unknown)?;
        self.store
            .insert_as(id.to_string(), entry)
            .map_err(ApiError::Limit)
    }

    /// Starts a game for the client at `client` (`None`: unknown, not limited), who may start
    /// [`crate::online::RoomLimits::games_per_minute`].
    pub fn new_game_for(
        &self,
        req: &NewGame,
        client: Option<std::net::IpAddr>,
    ) -> Result<GameView, ApiError> {
        if !self.games_started.take(client) {
            return Err(ApiError::Limit(format!(
                "at most {} new games a minute from one address; try again later",
                self.online.limits.games_per_minute
            )));
        }
        self.new_game_owned(req, client)
    }

    /// Starts a game (the engine does not move yet: see [`App::kick`]).
    pub fn new_game(&self, req: &NewGame) -> Result<GameView, ApiError> {
        self.new_game_owned(req, None)
    }

    fn new_game_owned(
        &self,
        req: &NewGame,
        owner: Option<std::net::IpAddr>,
    ) -> Result<GameView, ApiError> {
        let setup = parse_setup(req)?;
        let variant: Variant = match &req.variant {
            Some(v) => v
                .parse()
                .map_err(|e: damka::core::UnknownVariant| ApiError::Bad(e.to_string()))?,
            None => Variant::Russian,
        };
        let game = match (&req.pdn, &req.fen) {
            (Some(p), _) if !p.trim().is_empty() => PageGame::from_pdn(p, variant),
            (_, fen) => PageGame::new(variant, fen.as_deref()),
        }
        .map_err(ApiError::Bad)?;
        let mut entry = Entry::new(game, setup);
        entry.owner = owner;
        let token = crate::online::random_hex::<16>()?;
        entry.token = Some(crate::transport::api::token_hash(&token));
        let id = self.store.insert(entry).map_err(ApiError::Limit)?;
        let saved = self.store.with(&id, |e| self.save_game(&id, e));
        if let Some(Err(m)) = saved {
            self.store.remove(&id);
            return Err(unsaved(&m));
        }
        let mut view = self.view(&id)?;
        view.token = Some(token);
        Ok(view)
    }

    /// The game's view.
    pub fn view(&self, id: &str) -> Result<GameView, ApiError> {
        self.with(id, |e| e.view(id))
    }

    /// The game's change messages, from now on.
    pub fn subscribe(&self, id: &str) -> Result<broadcast::Receiver<Arc<str>>, ApiError> {
        self.with(id, |e| e.events.subscribe())
    }

    /// Plays the person's move; the engine then starts on its reply if it is its turn.
    pub fn play(
        self: &Arc<Self>,
        id: &str,
        req: &MoveRequest,
    ) -> Result<(GameView, Option<EngineDone>), ApiError> {
        self.online.check_running()?;
        let view = self.with(id, |e| {
            if !e.owned_by(req.token.as_deref()) {
                return Err(ApiError::Bad(NOT_OWNER.into()));
            }
            if e.ending.is_some() {
                let status = crate::online::clock::status_with(&e.game, e.ending);
                return Err(ApiError::Bad(format!("the game is over: {}", status.text)));
            }
            if e.thinking || e.engine_to_move() {
                return Err(ApiError::Bad("it is the engine's turn".into()));
            }
            let mover = e.game.side_to_move();
            play_on(&mut e.game, req.path.as_deref(), req.text.as_deref())
                .map_err(ApiError::Bad)?;
            e.clock_moved(mover, Instant::now());
            e.notice = None;
            Ok(e.changed(id))
        })??;
        let done = self.kick(id)?;
        Ok((self.view(id).unwrap_or(view), done))
    }

    /// Takes back the last move (against the engine: back to the person's turn).
    pub fn undo(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
    ) -> Result<(GameView, Option<EngineDone>), ApiError> {
        self.online.check_running()?;
        self.with(id, |e| {
            if !e.owned_by(token) {
                return Err(ApiError::Bad(NOT_OWNER.into()));
            }
            if e.ending.is_some() {
                return Err(ApiError::Bad("the game was lost on time".into()));
            }
            if e.game.ply() == 0 {
                return Err(ApiError::Bad("nothing to take back".into()));
            }
            // The time of the turn in progress stays used; each move taken back gives its
            // mover what it took; the clock of the side to move after the take-back runs
            // from now.
            let now = Instant::now();
            let side = e.game.side_to_move();
            if let Some(c) = e.clocks.as_mut() {
                c.settle(side, now, false);
            }
            e.take_back();
            while e.setup.opponent == Opponent::Engine
                && e.game.side_to_move() != e.setup.human
                && e.take_back()
            {}
            if let Some(c) = e.clocks.as_mut() {
                c.turn_start = Some(now);
            }
            // A search still running is for a position that is gone: it is stopped, and its
            // answer dropped.
            e.cancel_search();
            e.notice = None;
            Ok(e.changed(id))
        })??;
        // Back at the start with the engine playing White: it moves again.
        let done = self.kick(id)?;
        Ok((self.view(id)?, done))
    }

    /// Starts the engine's search if it is its turn; the move is played when found. Arms the
    /// flag timer of a clock that runs.
    pub fn kick(self: &Arc<Self>, id: &str) -> Result<Option<EngineDone>, ApiError> {
        let (start, flag_in) = self.with(id, |e| (self.engine_start(id, e), e.arm()))?;
        self.arm_clock(id, flag_in);
        let app = self.clone();
        let id = id.to_string();
        match start {
            Start::Nothing => Ok(None),
            Start::Busy => {
                // The person's move is played; the engine's follows when a thread is free.
                tokio::spawn(async move {
                    tokio::time::sleep(BUSY_RETRY).await;
                    let _ = app.kick(&id);
                });
                Ok(None)
            }
            Start::Searching(rx, version, share) => {
                let (done_tx, done_rx) = oneshot::channel();
                tokio::spawn(async move {
                    let reply = rx.await.unwrap_or_else(|_| {
                        Err(PoolError::Engine("the search thread stopped".into()))
                    });
                    drop(share);
                    app.engine_reply(&id, version, reply);
                    // The person's clock runs now: its flag timer.
                    let _ = app.kick(&id);
                    let _ = done_tx.send(());
                });
                Ok(Some(done_rx))
            }
        }
    }

    fn engine_reply(&self, id: &str, version: u64, reply: Result<SearchReply, PoolError>) {
        // The game may be gone or changed (undo, a new move): then the answer is dropped.
        let _ = self.with(id, |e| {
            if e.version != version || !e.thinking {
                return;
            }
            e.thinking = false;
            e.search = None;
            let mover = e.game.side_to_move();
            match reply
                .map_err(|e| e.to_string())
                .and_then(|r| e.game.play_move(r.best))
            {
                Ok(()) => {
                    e.clock_moved(mover, Instant::now());
                    e.notice = None;
                }
                Err(m) => e.notice = Some(m),
            }
            e.changed(id);
        });
    }

    /// The engine's move for the side to move, at full strength, with its evaluation, for
    /// `client` (its place in the queue's turns).
    pub async fn hint(&self, id: &str, client: Option<std::net::IpAddr>) -> Result<Hint, ApiError> {
        let (game, version, movetime) =
            self.with(id, |e| (e.game.clone(), e.version, e.setup.movetime))?;
        self.hint_for(&game, id, version, movetime.min(HINT_MAX_TIME), client)
            .await
    }

    /// The engine's move in `game` (known as `id`, at `version`), searched for `movetime`
    /// seconds at full strength: a hint, or a spectator's engine opinion in a room.
    pub async fn hint_for(
        &self,
        game: &PageGame,
        id: &str,
        version: u64,
        movetime: f64,
        client: Option<std::net::IpAddr>,
    ) -> Result<Hint, ApiError> {
        if game.is_over() {
            return Err(ApiError::Bad("the game is over".into()));
        }
        let request = PoolRequest {
            game: game.typed().clone(),
            movetime,
            clock: None,
            skill: FULL_SKILL,
            client: client.map(crate::transport::guard::group),
            cancel: None,
            lines: 0,
        };
        let r = self.pool.search(request).await?;
        let mv = game
            .move_view(&r.best)
            .ok_or_else(|| ApiError::Bad("the engine's move is not legal".into()))?;
        let white_score = match game.side_to_move() {
            Color::White => r.score,
            Color::Black => -r.score,
        };
        Ok(Hint {
            game: id.to_string(),
            version,
            mv,
            score: r.score,
            white_score,
            score_text: r.score_text,
            depth: r.depth,
            pv: game.line_texts(&r.pv),
        })
    }

    /// The game as a PDN record.
    pub fn pdn(&self, id: &str) -> Result<String, ApiError> {
        self.with(id, |e| {
            let (white, black) = match (e.setup.opponent, e.setup.human) {
                (Opponent::Human, _) => ("Player 1", "Player 2"),
                (Opponent::Engine, Color::White) => ("Player", "damka"),
                (Opponent::Engine, Color::Black) => ("damka", "Player"),
            };
            let date = damka::game::pdn::today();
            e.game.pdn(&[
                ("Event", "damka-web game"),
                ("Site", "damka-web"),
                ("Date", &date),
                ("White", white),
                ("Black", black),
            ])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_sets_the_engine_search() {
        let form = NewGame {
            variant: Some("turkish".into()),
            color: Some("black".into()),
            skill: Some(4),
            movetime: Some(0.5),
            ..NewGame::default()
        };
        let setup = parse_setup(&form).unwrap();
        let mut e = Entry::new(PageGame::new(Variant::Turkish, None).unwrap(), setup);
        assert!(e.engine_to_move());
        e.game.play_text("d3-d4").unwrap();
        let r = engine_request(&e, Instant::now(), Default::default());
        assert_eq!((r.skill, r.movetime), (4, 0.5));
        let searched = PageGame::from_typed(r.game);
        assert_eq!(searched.variant(), Variant::Turkish);
        assert_eq!(searched.hub_moves(), e.game.hub_moves());
        assert_eq!(parse_setup(&NewGame::default()).unwrap().skill, FULL_SKILL);
        for bad in [0, 11] {
            let form = NewGame {
                skill: Some(bad),
                ..NewGame::default()
            };
            assert!(parse_setup(&form).is_err());
        }
    }
}
