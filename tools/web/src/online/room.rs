//! One online room: a game between two people on two devices, its server-side clocks, the
//! seats held by secret tokens, the draw offer, and the spectators' proposals for the next
//! move. Pure state: the caller passes the time (`Instant`), so every rule here is tested
//! without waiting; [`crate::online`] holds the rooms, sends their changes and saves them.

use crate::game::{PageGame, Status};
use crate::local::store::{color_name, BoardView};
use crate::online::clock::{status_with, time_left};
pub use crate::online::clock::{Ending, TimeControl};
pub use crate::transport::api::{same_token, token_hash};
use damka::core::Color;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::broadcast;

/// Who is at a connection: a player on a colour, or a spectator known by a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Holds the seat of this colour.
    Player(Color),
    /// Watches; the number tells one spectator's proposals from another's.
    Spectator(u64),
}

/// How long the first player has for the game's first move once both seats are taken, by
/// default (milliseconds); then the game is aborted (see [`Room::first_move_ms`]).
pub const FIRST_MOVE_MS: i64 = 30_000;

/// Length of a [`token_hash`]; a stored token of another length was written in plain text by
/// an older server, and is hashed when read.
pub const TOKEN_HASH_LEN: usize = 40;

/// One proposed move and how many spectators proposed it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    /// The move, in algebraic notation.
    #[serde(rename = "move")]
    pub text: String,
    /// Spectators who proposed it.
    pub count: usize,
    /// Whether it is the move played (known after the move).
    pub matched: bool,
}

/// The proposals for one move, shown to everyone once it is played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// The ply the proposals were for (1: the game's first move).
    pub ply: usize,
    /// The move played.
    pub played: String,
    /// The proposals, most proposed first.
    pub proposals: Vec<Proposal>,
}

/// Everything a room's page draws from (the same for players and spectators).
#[derive(Clone, Debug, Serialize)]
pub struct RoomView {
    /// The room's id.
    pub id: String,
    /// Counts changes.
    pub version: u64,
    /// Always `online`: the page draws a room like a game.
    pub opponent: &'static str,
    /// The time control: seconds for the game and added per move.
    pub time: [f64; 2],
    /// Time left now, milliseconds, White and Black.
    pub clocks: [i64; 2],
    /// The colour whose clock runs, if one does.
    pub running: Option<&'static str>,
    /// Whether each seat (White, Black) is taken.
    pub seats: [bool; 2],
    /// The colour that offered a draw, if an offer stands.
    pub draw_offer: Option<&'static str>,
    /// Spectators watching now.
    pub spectators: usize,
    /// The proposals for the last move played, with the one that matched.
    pub last_proposals: Option<Tally>,
    /// The colour whose draw offer was declined, until the next move or offer (so that the
    /// offerer hears it).
    pub draw_declined: Option<&'static str>,
    /// The colour that offered a rematch, while the offer stands.
    pub rematch_offer: Option<&'static str>,
    /// The rematch's room, once both players agreed.
    pub rematch: Option<String>,
    /// The board, moves and result.
    #[serde(flatten)]
    pub board: BoardView,
}

/// An online game and everything about it.
pub struct Room {
    /// The room's id (in its link).
    pub id: String,
    /// The address group of the client that opened it, while this server holds it (not
    /// saved), for the fair share of rooms (`None`: unknown).
    pub creator: Option<std::net::IpAddr>,
    /// The game.
    pub game: PageGame,
    /// The time control.
    pub control: TimeControl,
    /// The seats' tokens (White, Black), as their [`token_hash`]; `None`: free.
    pub tokens: [Option<String>; 2],
    /// Time left at the start of the turn in progress, milliseconds (White, Black).
    pub remaining: [i64; 2],
    /// When the turn in progress started: the clock of the side to move runs since then.
    pub turn_start: Option<Instant>,
    /// The end decided outside the rules of the board.
    pub ending: Option<Ending>,
    /// The colour whose draw offer stands.
    pub draw_offer: Option<Color>,
    /// The colour whose draw offer was declined last (until the next move or offer).
    pub draw_declined: Option<Color>,
    /// The colour whose rematch offer stands (the game is over).
    pub rematch_offer: Option<Color>,
    /// The rematch's room, once both players agreed to one.
    pub rematch: Option<String>,
    /// Connections of each player (White, Black) in the room now, on the node that plays it
    /// (not saved): a rematch is offered only to a player still there.
    pub present: [u32; 2],
    /// Counts changes.
    pub version: u64,
    /// Spectators watching now.
    pub spectators: usize,
    /// Moves saved in the database so far.
    pub saved_plies: usize,
    /// Created, seconds since 1970.
    pub created: u64,
    /// Engine opinions asked for, by spectator.
    pub opinions: HashMap<u64, u32>,
    /// Spectator places held, by spectator (one client address is one spectator).
    pub watchers: HashMap<u64, usize>,
    /// The last move's proposals.
    pub last_tally: Option<Tally>,
    /// Time for the game's first move once both seats are taken, milliseconds; without it
    /// the game is aborted (so nobody loses a game that never started).
    pub first_move_ms: i64,
    proposals: HashMap<u64, String>,
    /// Every change, to everyone in the room.
    pub events: broadcast::Sender<Arc<str>>,
    /// The proposals as they come, to the spectators only.
    pub watch_events: broadcast::Sender<Arc<str>>,
}

impl Room {
    /// A room for `game` with both seats free and full clocks.
    pub fn new(id: String, game: PageGame, control: TimeControl, created: u64) -> Room {
        Room {
            id,
            creator: None,
            game,
            control,
            tokens: [None, None],
            remaining: [control.base_ms; 2],
            turn_start: None,
            ending: None,
            draw_offer: None,
            draw_declined: None,
            rematch_offer: None,
            rematch: None,
            present: [0; 2],
            version: 0,
            spectators: 0,
            saved_plies: 0,
            created,
            opinions: HashMap::new(),
            watchers: HashMap::new(),
            last_tally: None,
            first_move_ms: FIRST_MOVE_MS,
            proposals: HashMap::new(),
            events: broadcast::channel(64).0,
            watch_events: broadcast::channel(64).0,
        }
    }

    /// The colour whose seat `token` holds.
    pub fn seat_of(&self, token: &str) -> Option<Color> {
        let hash = token_hash(token);
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| matches!(&self.tokens[c.index()], Some(t) if same_token(t, &hash)))
    }

    /// Gives seat `color` to `token` if it is free; the clocks start once both are taken.
    pub fn take_seat(&mut self, color: Color, token: String, now: Instant) -> bool {
        if self.tokens[color.index()].is_some() || self.is_over() {
            return false;
        }
        self.tokens[color.index()] = Some(token_hash(&token));
        if self.tokens.iter().all(Option::is_some) {
            self.turn_start = Some(now);
        }
        true
    }

    /// The free seat, if one is (White first).
    pub fn free_seat(&self) -> Option<Color> {
        [Color::White, Color::Black]
            .into_iter()
            .find(|&c| self.tokens[c.index()].is_none())
    }

    /// Both seats are taken: the game is on.
    pub fn started(&self) -> bool {
        self.tokens.iter().all(Option::is_some)
    }

    /// Whether the game is over, by the rules or otherwise.
    pub fn is_over(&self) -> bool {
        self.ending.is_some() || self.game.is_over()
    }

    /// The result, by the rules or otherwise.
    pub fn status(&self) -> Status {
        status_with(&self.game, self.ending)
    }

    /// The clock that runs now, if one does.
    pub fn running(&self) -> Option<Color> {
        self.turn_start
            .filter(|_| !self.is_over())
            .map(|_| self.game.side_to_move())
    }

    /// Time left now, milliseconds (White, Black).
    pub fn clocks(&self, now: Instant) -> [i64; 2] {
        let running = self.running().zip(self.turn_start);
        time_left(self.remaining, running, now)
    }

    /// Milliseconds the running clock is still held for (after a restart of the server,
    /// until the player to move is back or the grace is over; see [`Room::hold`]).
    pub fn held_ms(&self, now: Instant) -> i64 {
        self.turn_start
            .map_or(0, |s| s.saturating_duration_since(now).as_millis() as i64)
    }

    /// Holds the running clock for `grace_ms` from `now`: the time until then is charged to
    /// nobody (the turn starts at its end, or when [`Room::release`] is called before).
    pub fn hold(&mut self, now: Instant, grace_ms: i64) {
        if self.running().is_some() {
            self.turn_start = Some(now + std::time::Duration::from_millis(grace_ms.max(0) as u64));
        }
    }

    /// `color` is back in the room: if its clock was held, it runs from `now`. True if it was.
    pub fn release(&mut self, color: Color, now: Instant) -> bool {
        let held = self.held_ms(now) > 0 && self.running() == Some(color);
        if held {
            self.turn_start = Some(now);
        }
        held
    }

    /// Milliseconds left for the game's first move, while it is awaited.
    pub fn first_move_left(&self, now: Instant) -> Option<i64> {
        let start = self.turn_start.filter(|_| self.game.ply() == 0)?;
        self.running()?;
        Some(self.first_move_ms - now.saturating_duration_since(start).as_millis() as i64)
    }

    /// Milliseconds until the running clock reaches zero or the first move is overdue.
    pub fn time_to_flag(&self, now: Instant) -> Option<i64> {
        let clock = self.running().map(|side| self.clocks(now)[side.index()])?;
        let first = self
            .first_move_left(now)
            .map_or(clock, |first| first.min(clock));
        Some(first + self.held_ms(now))
    }

    /// Why a player may not move any more after [`Room::flag`] ended the game.
    pub fn flag_reason(&self) -> String {
        match self.ending {
            Some(Ending::Aborted(_)) => "the game was aborted: no first move in time".into(),
            _ => "your time ran out".into(),
        }
    }

    /// Ends the game if the running clock is at zero (lost on time) or the first move is
    /// overdue (aborted); true if it ended now.
    pub fn flag(&mut self, now: Instant) -> bool {
        if let (Some(left), Some(side)) = (self.first_move_left(now), self.running()) {
            if left <= 0 {
                self.end(Ending::Aborted(side), now);
                return true;
            }
        }
        match self.running() {
            Some(side) if self.clocks(now)[side.index()] <= 0 => {
                self.end(Ending::Time(side), now);
                true
            }
            _ => false,
        }
    }

    /// Ends the game by `ending` (outside the rules): the clocks stop where they are now and
    /// an open draw offer lapses.
    fn end(&mut self, ending: Ending, now: Instant) {
        self.remaining = self.clocks(now);
        self.ending = Some(ending);
        self.turn_start = None;
        self.draw_offer = None;
    }

    /// Stops the clocks where they are now (before a save at shutdown, or at the game's end):
    /// the running one goes on from there at the next turn start.
    pub fn settle_clocks(&mut self, now: Instant) {
        self.remaining = self.clocks(now);
        if self.turn_start.is_some() {
            self.turn_start = Some(now);
        }
    }

    fn check_turn(&mut self, color: Color, now: Instant) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        if !self.started() {
            return Err("waiting for the opponent to take the other seat".into());
        }
        if self.flag(now) {
            return Err(self.flag_reason());
        }
        if self.game.side_to_move() != color {
            return Err(format!(
                "it is {}'s turn",
                color_name(self.game.side_to_move())
            ));
        }
        Ok(())
    }

    /// Plays `color`'s move, given by its squares or its text: the clocks and the draw offer
    /// follow, and the proposals for it are tallied.
    pub fn play(
        &mut self,
        color: Color,
        path: Option<&[String]>,
        text: Option<&str>,
        now: Instant,
    ) -> Result<(), String> {
        self.check_turn(color, now)?;
        // The mover's clock stops before the move changes the side to move.
        let left = self.clocks(now);
        play_on(&mut self.game, path, text)?;
        self.remaining = left;
        self.remaining[color.index()] += self.control.inc_ms;
        self.turn_start = (!self.game.is_over()).then_some(now);
        // A move answers the opponent's offer: declined. The mover's own offer stands.
        if self.draw_offer == Some(color.opposite()) {
            self.draw_offer = None;
        }
        self.draw_declined = None;
        let played = self
            .game
            .history()
            .last()
            .map(|m| m.text.clone())
            .unwrap_or_default();
        let mut proposals: Vec<Proposal> = self
            .tally()
            .into_iter()
            .map(|mut p| {
                p.matched = p.text == played;
                p
            })
            .collect();
        proposals.sort_by(|a, b| b.count.cmp(&a.count).then(a.text.cmp(&b.text)));
        self.last_tally = Some(Tally {
            ply: self.game.ply(),
            played,
            proposals,
        });
        self.proposals.clear();
        Ok(())
    }

    /// `color` resigns.
    pub fn resign(&mut self, color: Color, now: Instant) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        self.end(Ending::Resigned(color), now);
        Ok(())
    }

    /// `color` offers a draw, or accepts the opponent's offer (then the game is drawn).
    /// Returns true when the game ends by it.
    pub fn offer_draw(&mut self, color: Color, now: Instant) -> Result<bool, String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        if !self.started() {
            return Err("waiting for the opponent to take the other seat".into());
        }
        match self.draw_offer {
            Some(c) if c == color => Err("your draw offer stands already".into()),
            Some(_) => {
                self.end(Ending::Agreed, now);
                Ok(true)
            }
            None => {
                self.draw_offer = Some(color);
                self.draw_declined = None;
                Ok(false)
            }
        }
    }

    /// `color` declines the opponent's draw offer.
    pub fn decline_draw(&mut self, color: Color) -> Result<(), String> {
        match self.draw_offer {
            Some(c) if c != color => {
                self.draw_offer = None;
                self.draw_declined = Some(c);
                Ok(())
            }
            _ => Err("there is no draw offer to decline".into()),
        }
    }

    /// `color` aborts the game, which is possible only before its first move: no result.
    pub fn abort(&mut self, color: Color, now: Instant) -> Result<(), String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        if self.game.ply() > 0 {
            return Err("a game can be aborted only before its first move; resign instead".into());
        }
        self.end(Ending::AbortedBy(color), now);
        Ok(())
    }

    /// `color` offers a rematch, or accepts the opponent's offer: true when both now agree
    /// (the caller opens the new room and sets [`Room::rematch`]).
    pub fn offer_rematch(&mut self, color: Color) -> Result<bool, String> {
        if !self.is_over() {
            return Err("a rematch is offered once the game is over".into());
        }
        if let Some(id) = &self.rematch {
            return Err(format!("the rematch is on already, in room {id}"));
        }
        let other = color.opposite();
        if self.tokens[other.index()].is_none() {
            return Err("nobody took the other seat of this game".into());
        }
        match self.rematch_offer {
            Some(c) if c == color => Err("your rematch offer stands already".into()),
            Some(_) => Ok(true),
            None if self.present[other.index()] == 0 => {
                Err("your opponent left the room; a rematch needs both players".into())
            }
            None => {
                self.rematch_offer = Some(color);
                Ok(false)
            }
        }
    }

    /// The rematch of this room's game, as room `id`: the same game, start position and time
    /// control, each seat held by the same player's token with the colours swapped, both
    /// clocks full and the first player's running from `now`.
    pub fn rematch_room(&self, id: String, created: u64, now: Instant) -> Result<Room, String> {
        let game = PageGame::new(self.game.variant(), Some(&self.game.start_fen()))?;
        let mut room = Room::new(id, game, self.control, created);
        room.tokens = [self.tokens[1].clone(), self.tokens[0].clone()];
        room.first_move_ms = self.first_move_ms;
        room.turn_start = Some(now);
        Ok(room)
    }

    /// Spectator `who` proposes a move for the side to move (replacing an earlier one);
    /// returns it in algebraic notation.
    pub fn propose(
        &mut self,
        who: u64,
        path: Option<&[String]>,
        text: Option<&str>,
    ) -> Result<String, String> {
        if self.is_over() {
            return Err("the game is over".into());
        }
        let mut trial = self.game.clone();
        play_on(&mut trial, path, text)?;
        let mv = trial
            .history()
            .last()
            .map(|m| m.text.clone())
            .ok_or("no move")?;
        self.proposals.insert(who, mv.clone());
        Ok(mv)
    }

    /// The proposals for the move to come, most proposed first.
    pub fn tally(&self) -> Vec<Proposal> {
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for m in self.proposals.values() {
            *counts.entry(m).or_default() += 1;
        }
        let mut v: Vec<Proposal> = counts
            .into_iter()
            .map(|(m, count)| Proposal {
                text: m.to_string(),
                count,
                matched: false,
            })
            .collect();
        v.sort_by(|a, b| b.count.cmp(&a.count).then(a.text.cmp(&b.text)));
        v
    }

    /// Forgets spectator `who`'s proposal (they left).
    pub fn forget(&mut self, who: u64) {
        self.proposals.remove(&who);
    }

    /// What every page in the room draws.
    pub fn view(&self, now: Instant) -> RoomView {
        let board = BoardView::ended(&self.game, self.ending);
        RoomView {
            id: self.id.clone(),
            version: self.version,
            opponent: "online",
            time: self.control.seconds(),
            clocks: self.clocks(now),
            running: self
                .running()
                .filter(|_| self.held_ms(now) == 0)
                .map(color_name),
            seats: [self.tokens[0].is_some(), self.tokens[1].is_some()],
            draw_offer: self.draw_offer.map(color_name),
            spectators: self.spectators,
            last_proposals: self.last_tally.clone(),
            draw_declined: self.draw_declined.map(color_name),
            rematch_offer: self.rematch_offer.map(color_name),
            rematch: self.rematch.clone(),
            board,
        }
    }

    /// Records a change: a new version, and the view sent to everyone in the room.
    pub fn changed(&mut self, now: Instant) {
        self.version += 1;
        self.announce(now);
    }

    /// Sends the view to everyone in the room (the change is saved: [`Room::changed`] in two).
    pub fn announce(&self, now: Instant) {
        let msg = serde_json::json!({ "type": "room", "room": self.view(now) }).to_string();
        // Nobody in the room is not an error.
        let _ = self.events.send(msg.into());
    }

    /// Sends the proposals so far to the spectators; the message sent.
    pub fn proposals_changed(&self) -> String {
        let msg = serde_json::json!({
            "type": "proposals",
            "room": self.id,
            "ply": self.game.ply() + 1,
            "proposals": self.tally(),
        })
        .to_string();
        let _ = self.watch_events.send(msg.as_str().into());
        msg
    }
}

/// Plays a move given by its squares (preferred) or its text, as a page sends it (a local
/// game's move reads the same way).
pub(crate) fn play_on(
    game: &mut PageGame,
    path: Option<&[String]>,
    text: Option<&str>,
) -> Result<(), String> {
    match (path, text) {
        (Some(p), _) => game.play_path(p),
        (None, Some(t)) => game.play_text(t),
        (None, None) => Err("a move needs \"move\" or \"path\"".into()),
    }
}
