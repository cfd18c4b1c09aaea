//! The games the server holds: each one its game, who plays it, and the channel its watchers
//! (the WebSocket connections of the page) hear about every change on. Games are held in
//! memory, the least recently used dropped beyond a fixed number.

use crate::game::{MoveView, PageGame, PlayedMove, Status};
use crate::online::clock::{status_with, Clocks, Ending, TimeControl};
use damka::core::Color;
use serde::Serialize;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Games one client address keeps however many others start: a full server makes way for a
/// new game with games of clients holding more, or unused for [`ABANDONED`], or the starting
/// client's own, never with those.
pub const GAMES_PER_CLIENT: usize = 20;
/// A game unused this long may make way for anyone's new game.
pub const ABANDONED: Duration = Duration::from_secs(3600);
use tokio::sync::broadcast;

/// Who plays against the person at the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// The engine, on the other colour.
    Engine,
    /// Another person on the same device (hot seat): the page plays both colours.
    Human,
}

impl Opponent {
    /// The name the API uses.
    pub fn name(self) -> &'static str {
        match self {
            Opponent::Engine => "engine",
            Opponent::Human => "human",
        }
    }
}

/// How a game is played: chosen with the new-game form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Setup {
    /// The engine or a second person.
    pub opponent: Opponent,
    /// The colour of the person at the page (against the engine).
    pub human: Color,
    /// The engine's strength level, 1 to 10.
    pub skill: u8,
    /// The engine's time per move, seconds (without a clock).
    pub movetime: f64,
    /// The clocks' time control (`None`: no clock).
    pub clock: Option<TimeControl>,
}

/// A game and its state on the server.
pub struct Entry {
    /// The game.
    pub game: PageGame,
    /// How it is played.
    pub setup: Setup,
    /// Counts changes: an engine answer for an older version is dropped.
    pub version: u64,
    /// The engine is searching this game's move.
    pub thinking: bool,
    /// The last thing that went wrong outside a request (an engine error), for the page.
    pub notice: Option<String>,
    /// Every change is sent here as a ready WebSocket message.
    pub events: broadcast::Sender<Arc<str>>,
    /// The address of the client that started it (`None`: unknown), whose quota it counts in
    /// (see [`Store::insert`]).
    pub owner: Option<IpAddr>,
    /// The [`crate::online::room::token_hash`] of the secret the browser that started it holds: only
    /// it may move or take back (`None`: a game anyone with its id may play, as before).
    pub token: Option<String>,
    /// The clocks, in a game played with them.
    pub clocks: Option<Clocks>,
    /// The end decided outside the rules of the board (a loss on time).
    pub ending: Option<Ending>,
    /// When the earliest flag timer pending fires (one timer a turn at most, however many
    /// pages ask).
    pub armed: Option<Instant>,
    /// Set to stop the engine's search under way when the game changes (a take-back): its
    /// answer would be dropped anyway, and it would hold a search thread and a queue place.
    pub search: Option<Arc<std::sync::atomic::AtomicBool>>,
    /// What each of the last moves took from its mover's clock, milliseconds (the time used
    /// less the increment gained; negative when the increment was larger), the latest last:
    /// a take-back gives exactly that back, so that a move and its take-back leave the clocks
    /// where they were (before, the increment stayed and a loop of them grew a clock without
    /// end).
    pub took: Vec<i64>,
    used: Instant,
}

/// What the page draws any game's board from, whoever plays it (the local games here, the
/// online rooms in [`crate::online::room`]).
#[derive(Clone, Debug, Serialize)]
pub struct BoardView {
    /// `russian` or `turkish`.
    pub variant: &'static str,
    /// The side to move (`white`, `black`).
    pub side: &'static str,
    /// The squares: which are playable, the start board, the board now.
    #[serde(flatten)]
    pub squares: Squares,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// The legal moves now, with their paths.
    pub legal: Vec<MoveView>,
    /// Over or not, and how.
    pub status: Status,
    /// The current position as FEN.
    pub fen: String,
}

/// The squares of a view, each as 64 characters indexed `8 * rank + file`, a1 first.
#[derive(Clone, Debug, Serialize)]
pub struct Squares {
    /// The playable squares, `1`/`0`.
    pub playable: String,
    /// The start board (`w W b B .`): with the moves the page rebuilds every position of the
    /// game.
    pub start: String,
    /// The board now, in the same form.
    pub board: String,
}

impl BoardView {
    /// The view of `game` as the rules leave it.
    pub fn of(game: &PageGame) -> BoardView {
        let game = game.view();
        BoardView {
            variant: game.variant().name(),
            side: color_name(game.side_to_move()),
            squares: Squares {
                playable: game.playable(),
                start: game.start_board(),
                board: game.board(),
            },
            moves: game.played(),
            legal: game.legal(),
            status: game.status(),
            fen: game.fen(),
        }
    }

    /// The view of `game`, ended by `ending` if one was decided outside the rules (then no
    /// move is legal any more).
    pub fn ended(game: &PageGame, ending: Option<Ending>) -> BoardView {
        let mut board = BoardView::of(game);
        if ending.is_some() {
            board.status = status_with(game, ending);
            board.legal.clear();
        }
        board
    }
}

/// Everything the page draws a local game from.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// Counts changes.
    pub version: u64,
    /// `engine` or `human`.
    pub opponent: &'static str,
    /// The colour of the person at the page (`white`, `black`).
    pub color: &'static str,
    /// The engine's strength level.
    pub skill: u8,
    /// The engine's time per move, seconds (without a clock).
    pub movetime: f64,
    /// The time control: seconds for the game and added per move (`None`: no clock).
    pub time: Option<[f64; 2]>,
    /// Time left now, milliseconds, White and Black (`None`: no clock).
    pub clocks: Option<[i64; 2]>,
    /// The colour whose clock runs, if one does.
    pub running: Option<&'static str>,
    /// Whether the page may enter a move now (not over, not the engine's turn).
    pub can_move: bool,
    /// The engine is thinking.
    pub thinking: bool,
    /// A message about something that went wrong outside a request.
    pub notice: Option<String>,
    /// The owner's secret, in the answer that starts the game only (never in a broadcast).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The board, moves and result.
    #[serde(flatten)]
    pub board: BoardView,
}

/// The lower-case colour name.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Entry {
    /// A new entry for `game`.
    pub fn new(game: PageGame, setup: Setup) -> Entry {
        Entry {
            game,
            setup,
            version: 0,
            thinking: false,
            notice: None,
            events: broadcast::channel(64).0,
            owner: None,
            token: None,
            clocks: setup.clock.map(|c| Clocks::start(c, Instant::now())),
            ending: None,
            armed: None,
            search: None,
            took: Vec::new(),
            used: Instant::now(),
        }
    }

    /// Stops the engine's search under way, if any: the game changed.
    pub fn cancel_search(&mut self) {
        self.thinking = false;
        if let Some(c) = self.search.take() {
            c.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    }

    /// Whether the game is over, by the rules or on time.
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.game.is_over()
    }

    /// The clock that runs now, if one does.
    pub fn running(&self) -> Option<Color> {
        let running = self.clocks?.turn_start.is_some() && !self.is_over();
        running.then(|| self.game.side_to_move())
    }

    /// Milliseconds until the running clock reaches zero, if one runs.
    pub fn time_to_flag(&self, now: Instant) -> Option<i64> {
        let side = self.running()?;
        self.clocks?.time_to_flag(side, now)
    }

    /// Ends the game if the running clock is at zero (lost on time); true if it ended now.
    pub fn flag(&mut self, now: Instant) -> bool {
        let (Some(side), Some(clocks)) = (self.running(), self.clocks.as_mut()) else {
            return false;
        };
        if clocks.left(side, now)[side.index()] > 0 {
            return false;
        }
        clocks.settle(side, now, false);
        self.ending = Some(Ending::Time(side));
        self.cancel_search();
        true
    }

    /// When the running clock reaches zero and in how many milliseconds, if a flag timer is
    /// wanted for it: none is armed that fires by then. A timer that fires early arms the next
    /// (see [`crate::local::service`]), and each side's zero only moves later as the game goes on,
    /// so a game has at most a few timers pending however fast its moves come.
    pub fn arm(&mut self) -> Option<(Instant, i64)> {
        let now = Instant::now();
        let side = self.running()?;
        let clocks = self.clocks?;
        let deadline = clocks.turn_start?
            + Duration::from_millis(clocks.remaining[side.index()].max(0) as u64);
        if self.armed.is_some_and(|a| a <= deadline) {
            return None;
        }
        self.armed = Some(deadline);
        Some((
            deadline,
            deadline.saturating_duration_since(now).as_millis() as i64,
        ))
    }

    /// The clocks after `mover`'s move, just played at `now`.
    pub fn clock_moved(&mut self, mover: Color, now: Instant) {
        let over = self.is_over();
        if let Some(c) = self.clocks.as_mut() {
            let before = c.remaining[mover.index()];
            c.moved(mover, over, now);
            self.took.push(before - c.remaining[mover.index()]);
        }
    }

    /// Takes back the last move and gives its mover's clock what that move took (see
    /// [`Entry::took`]; a move whose cost is not known, made before the game was saved by an
    /// older server, gives back nothing but takes its increment away). False when there is
    /// no move to take back.
    pub fn take_back(&mut self) -> bool {
        if !self.game.undo() {
            return false;
        }
        if let Some(c) = self.clocks.as_mut() {
            let mover = self.game.side_to_move().index();
            let took = self.took.pop().unwrap_or(-c.control.inc_ms);
            c.remaining[mover] = (c.remaining[mover] + took).max(0);
        }
        true
    }

    /// Whether `token` may move in this game: the owner's, or any for a game without one.
    pub fn owned_by(&self, token: Option<&str>) -> bool {
        match &self.token {
            None => true,
            Some(hash) => token.is_some_and(|t| {
                crate::transport::api::same_token(hash, &crate::transport::api::token_hash(t))
            }),
        }
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        self.setup.opponent == Opponent::Engine
            && !self.is_over()
            && self.game.side_to_move() != self.setup.human
    }

    /// The page's view of the game.
    pub fn view(&self, id: &str) -> GameView {
        let now = Instant::now();
        GameView {
            id: id.to_string(),
            version: self.version,
            opponent: self.setup.opponent.name(),
            color: color_name(self.setup.human),
            skill: self.setup.skill,
            movetime: self.setup.movetime,
            time: self.clocks.map(|c| c.control.seconds()),
            clocks: self.clocks.map(|c| c.left(self.game.side_to_move(), now)),
            running: self.running().map(color_name),
            can_move: !self.is_over() && !self.engine_to_move() && !self.thinking,
            thinking: self.thinking,
            notice: self.notice.clone(),
            token: None,
            board: BoardView::ended(&self.game, self.ending),
        }
    }

    /// Records a change: a new version, and the view sent to every watcher.
    pub fn changed(&mut self, id: &str) -> GameView {
        self.version += 1;
        let view = self.view(id);
        let msg = serde_json::json!({ "type": "state", "game": &view }).to_string();
        // No watcher is not an error: an HTTP client reads the answer instead.
        let _ = self.events.send(msg.into());
        view
    }
}

/// The game that makes way for `entry` in a full store, least recently used first
/// in each kind: a finished game (it is in the database, and read back when asked for), a
/// game abandoned or of a client over [`GAMES_PER_CLIENT`], a game of the client holding the
/// most when it holds more than the newcomer will (so that a newcomer always gets its fair
/// share, whatever the number of addresses that filled the store), else one of the
/// newcomer's own. `None`: every game is its owner's only one, and the newcomer has one.
fn victim(games: &HashMap<String, Entry>, entry: &Entry, now: Instant) -> Option<String> {
    let key = |e: &Entry| e.owner.map(crate::transport::guard::group);
    let mut held: HashMap<Option<IpAddr>, usize> = HashMap::new();
    for e in games.values() {
        *held.entry(key(e)).or_default() += 1;
    }
    let mine = key(entry);
    let lru = |keep: &dyn Fn(&Entry) -> bool| {
        games
            .iter()
            .filter(|(_, e)| keep(e))
            .min_by_key(|(_, e)| e.used)
            .map(|(k, _)| k.clone())
    };
    let newcomer_holds = held.get(&mine).copied().unwrap_or(0) + 1;
    let most = held
        .iter()
        .filter(|(k, n)| **k != mine && **n > newcomer_holds)
        .max_by_key(|(_, n)| **n)
        .map(|(k, _)| *k);
    lru(&|e| e.is_over())
        .or_else(|| {
            lru(&|e| {
                key(e) != mine
                    && (held[&key(e)] > GAMES_PER_CLIENT || now.duration_since(e.used) >= ABANDONED)
            })
        })
        .or_else(|| most.and_then(|m| lru(&|e| key(e) == m)))
        .or_else(|| lru(&|e| key(e) == mine))
}

/// The games, by id.
pub struct Store {
    games: Mutex<HashMap<String, Entry>>,
    counter: AtomicU64,
    random: RandomState,
    capacity: usize,
}

impl Store {
    /// An empty store holding at most `capacity` games.
    pub fn new(capacity: usize) -> Store {
        Store {
            games: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(1),
            random: RandomState::new(),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A panic while the lock was held cannot leave a game half changed (every change is
        // one assignment), so the map is still good to use.
        self.games.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Adds a game; returns its new id (hard to guess, so a game is reached only by its page).
    /// A full store drops, least recently used first, a game abandoned or of a client over
    /// [`GAMES_PER_CLIENT`], else one of the new game's owner; if there is none, the game is
    /// refused (the error says why).
    pub fn insert(&self, entry: Entry) -> Result<String, String> {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let id = format!("g{n}-{:012x}", self.random.hash_one(n) & 0xffff_ffff_ffff);
        self.insert_as(id.clone(), entry)?;
        Ok(id)
    }

    /// Adds a game under a known id (one read back from the database), making way as
    /// [`Store::insert`] does.
    pub fn insert_as(&self, id: String, entry: Entry) -> Result<(), String> {
        let mut games = self.lock();
        if games.contains_key(&id) {
            return Ok(()); // read back twice at once: the first one stays
        }
        while games.len() >= self.capacity {
            let victim = victim(&games, &entry, Instant::now());
            match victim {
                Some(k) => games.remove(&k),
                None => {
                    return Err(format!(
                        "the server holds {} games, none of which may make way yet; try again \
                         later",
                        games.len()
                    ))
                }
            };
        }
        games.insert(id, entry);
        Ok(())
    }

    /// Runs `f` on the game `id`, or `None` if there is no such game.
    pub fn with<R>(&self, id: &str, f: impl FnOnce(&mut Entry) -> R) -> Option<R> {
        let mut games = self.lock();
        let e = games.get_mut(id)?;
        e.used = Instant::now();
        Some(f(e))
    }

    /// Drops game `id` from memory (it stays in the database as last saved).
    pub fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Number of games held.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether no game is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests;
