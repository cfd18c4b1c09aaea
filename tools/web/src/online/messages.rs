//! What online play takes and gives: its limits, the new-room form, a connection's seat,
//! and the lobby's lists.

use crate::db::FinishedRoom;
use crate::online::room::Role;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use tokio::sync::broadcast;

/// The limits of online play (set by the server's options).
#[derive(Clone, Copy, Debug)]
pub struct RoomLimits {
    /// Rooms held at once (a finished one makes way for a new one).
    pub max_rooms: usize,
    /// Spectators in one room.
    pub max_spectators: usize,
    /// Messages a connection may send per second (bursts of twice as many pass).
    pub rate: u32,
    /// Engine opinions one spectator may ask for in one room.
    pub opinions: u32,
    /// Rooms one client address may create a minute (as many at once).
    pub rooms_per_minute: u32,
    /// Local games one client address may start a minute (as many at once).
    pub games_per_minute: u32,
    /// Spectator places one client address may hold in one room.
    pub spectators_per_client: usize,
    /// Engine searches (hints, opinions) one client address may have queued or running at
    /// once: its share of the engine's queue ([`crate::QUEUE`]).
    pub engine_share: usize,
    /// Milliseconds the first player has for the game's first move once both seats are
    /// taken; then the game is aborted.
    pub first_move_ms: i64,
    /// Milliseconds the clock of the player to move waits for that player after the server
    /// starts again (the time the server took them away is not theirs to pay); beyond it the
    /// clock runs, so being away is never a free pause.
    pub grace_ms: i64,
}

impl Default for RoomLimits {
    fn default() -> RoomLimits {
        RoomLimits {
            max_rooms: 200,
            max_spectators: 50,
            rate: 20,
            opinions: 5,
            rooms_per_minute: 10,
            games_per_minute: 60,
            spectators_per_client: 3,
            engine_share: 4,
            first_move_ms: crate::online::room::FIRST_MOVE_MS,
            grace_ms: 10_000,
        }
    }
}

/// A new room, as the page's form or `POST /api/rooms` sends it. Every field may be left out.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewRoom {
    /// `russian` (default) or `turkish`.
    pub variant: Option<String>,
    /// The creator's colour: `white` (default), `black` or `random`.
    pub color: Option<String>,
    /// Time for the game, seconds (default 300).
    pub time: Option<f64>,
    /// Added after every move, seconds (default 3).
    pub increment: Option<f64>,
    /// Start from this position (FEN) instead of the initial one.
    pub fen: Option<String>,
}

/// A connection's place in a room.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    /// The room.
    pub room: String,
    /// Player of a colour, or spectator.
    pub role: Role,
    /// The secret that holds the seat (players only), to keep for coming back.
    pub token: Option<String>,
}

impl Seat {
    /// The `seat` message telling the connection where it sits, as JSON.
    pub fn json(&self) -> serde_json::Value {
        let role = match self.role {
            Role::Player(c) => crate::local::store::color_name(c),
            Role::Spectator(_) => "spectator",
        };
        serde_json::json!({ "type": "seat", "room": self.room, "role": role, "token": self.token })
    }

    /// The `seat` message as the WebSocket sends it.
    pub fn message(&self) -> String {
        self.json().to_string()
    }
}

/// What a connection entering a room gets: its seat, the room's messages from now on, and the
/// messages to send it first (the room as it is, and the proposals so far for a spectator).
pub struct Entered {
    /// Where it sits.
    pub seat: Seat,
    /// Every change of the room.
    pub events: broadcast::Receiver<Arc<str>>,
    /// The proposals as they come (spectators only).
    pub watch_events: Option<broadcast::Receiver<Arc<str>>>,
    /// The messages to send first.
    pub first: Vec<String>,
}

/// A room as the lobby lists it.
#[derive(Clone, Debug, Serialize)]
pub struct RoomSummary {
    /// The room's id.
    pub id: String,
    /// `russian` or `turkish`.
    pub variant: &'static str,
    /// Seconds for the game and per move.
    pub time: [f64; 2],
    /// Whether each seat (White, Black) is taken.
    pub seats: [bool; 2],
    /// Moves played.
    pub plies: usize,
    /// Spectators watching.
    pub spectators: usize,
    /// The status line.
    pub status: String,
}

/// The lobby: games to join, games to watch, games finished.
#[derive(Clone, Debug, Serialize)]
pub struct Lobby {
    /// Waiting for a second player.
    pub open: Vec<RoomSummary>,
    /// Being played.
    pub live: Vec<RoomSummary>,
    /// Over (from the database), newest first.
    pub finished: Vec<FinishedRoom>,
}

impl Lobby {
    /// The lobby of `rooms` not over (each with whether both seats are taken), newest first,
    /// and the `finished` games.
    pub fn of(
        rooms: impl IntoIterator<Item = (RoomSummary, bool)>,
        finished: Vec<FinishedRoom>,
    ) -> Lobby {
        let (live, open): (Vec<_>, Vec<_>) = rooms.into_iter().partition(|(_, started)| *started);
        Lobby {
            open: open.into_iter().map(|(r, _)| r).collect(),
            live: live.into_iter().map(|(r, _)| r).collect(),
            finished,
        }
    }
}
