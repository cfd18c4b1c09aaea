//! Online play: the rooms the server holds, who sits where, and every operation on them
//! (create, enter, move, resign, draw, propose, ask the engine), whatever the transport. Each
//! change is sent to the room's connections and saved in the database ([`crate::db`]) before
//! the operation returns; the clocks are checked by a timer armed at every turn start, so a
//! player whose time runs out loses even if nobody sends anything.

use crate::db::Db;
use crate::game::PageGame;
use crate::transport::api::{random_bytes, ApiError};
use crate::transport::guard::PerClient;
use cluster::Cluster;
use damka::core::{Color, Variant};
use room::{Role, Room, RoomView, TimeControl};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

pub mod clock;
pub mod cluster;
mod messages;
mod rematch;
pub mod room;
mod rooms;

/// Who enters a room: the seat's token if any, whether only to watch, and the client's
/// address (`None`: unknown).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Visitor<'a> {
    pub token: Option<&'a str>,
    pub watch: bool,
    pub client: Option<IpAddr>,
}

#[cfg(test)]
mod tests;

pub use messages::{Entered, Lobby, NewRoom, RoomLimits, RoomSummary, Seat};

/// Default time for the game, seconds, and increment per move.
pub const DEFAULT_TIME: (f64, f64) = (300.0, 3.0);
/// Shortest and longest time for the game, seconds.
pub const TIME_RANGE: (f64, f64) = (1.0, 3.0 * 3600.0);
/// Largest increment, seconds.
pub const MAX_INCREMENT: f64 = 600.0;
/// Engine time for a spectator's opinion, seconds.
pub const OPINION_TIME: f64 = 0.5;
/// Seconds after which an open room nobody joined may make way for a new one.
pub const OPEN_ROOM_TTL: u64 = 3600;
/// FinishedRoom games the lobby lists.
pub const LOBBY_FINISHED: usize = 50;

/// The rooms, their database and limits.
pub struct Online {
    rooms: Mutex<HashMap<String, Room>>,
    /// The database file: the rooms, and the local games (see [`crate::local::service`]).
    pub(crate) db: Db,
    /// The limits.
    pub limits: RoomLimits,
    viewers: AtomicU64,
    /// Set at shutdown: the clocks are stopped and saved, and nothing changes any more.
    stopped: AtomicBool,
    /// Rooms created per client address.
    created: PerClient,
    /// This node of a site of several (PostgreSQL), if it is one.
    pub cluster: Option<Arc<Cluster>>,
    /// Rooms whose last save failed: read back from the database before their next change,
    /// so that nothing not saved is ever acknowledged.
    stale: Mutex<std::collections::HashSet<String>>,
}

/// The spectator number of a client address: the same in every room and on every entry, so
/// that leaving and entering again gives no new allowance of engine opinions or proposals.
fn spectator_of(ip: IpAddr) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    ip.hash(&mut h);
    // The top bit set: never one of the numbers given to clients of unknown address.
    h.finish() | 1 << 63
}

/// `N` random bytes in hex: ids and secret tokens.
pub(crate) fn random_hex<const N: usize>() -> Result<String, ApiError> {
    Ok(random_bytes::<N>()?
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// `value` seconds (or `default`) in milliseconds, refused outside `range` with a message
/// that names the field.
pub(crate) fn seconds(
    value: Option<f64>,
    default: f64,
    range: (f64, f64),
    name: &str,
) -> Result<i64, ApiError> {
    let v = value.unwrap_or(default);
    if !(range.0..=range.1).contains(&v) {
        return Err(ApiError::Bad(format!(
            "{name} must be from {} to {} seconds",
            range.0, range.1
        )));
    }
    Ok((v * 1000.0).round() as i64)
}

fn player_of(seat: &Seat) -> Result<Color, ApiError> {
    match seat.role {
        Role::Player(c) => Ok(c),
        Role::Spectator(_) => Err(ApiError::Bad(
            "spectators cannot move for a player (a move made on your board is a proposal)".into(),
        )),
    }
}

impl Online {
    /// The rooms saved in the database at `db_path` (a SQLite file, `:memory:`: kept
    /// nowhere; a `postgres://` URL: a node of a site of several), under `limits`.
    pub fn open(db_path: &str, limits: RoomLimits) -> Result<Online, String> {
        let mut db = Db::open(db_path)?;
        let cluster = match crate::db::postgres::is_url(db_path) {
            true => Some(Cluster::join(db_path, &mut db)?),
            false => None,
        };
        Ok(Online {
            rooms: Mutex::new(HashMap::new()),
            db,
            cluster,
            stale: Mutex::default(),
            limits,
            viewers: AtomicU64::new(1),
            stopped: AtomicBool::new(false),
            created: PerClient::new(limits.rooms_per_minute, limits.rooms_per_minute),
        })
    }

    /// How many rooms are held in memory.
    pub fn rooms_held(&self) -> usize {
        self.lock().len()
    }

    /// An error once the server is stopping.
    pub(crate) fn check_running(&self) -> Result<(), ApiError> {
        if self.stopped.load(Ordering::SeqCst) {
            return Err(ApiError::Limit("the server is stopping".into()));
        }
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Room>> {
        // Every change to a room is made and saved under this lock; a panic half way would
        // leave at most one room's in-memory state ahead of its saved one.
        self.rooms.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Runs `f` on room `id`, read from the database if it is not held (a finished game).
    pub(crate) fn with<R>(
        &self,
        id: &str,
        f: impl FnOnce(&mut Room, Instant) -> Result<R, ApiError>,
    ) -> Result<R, ApiError> {
        let mut rooms = self.lock();
        let stale = self.stale_take(id);
        if stale || !rooms.contains_key(id) {
            let mut room = self.load_here(id).inspect_err(|_| {
                if stale {
                    self.stale
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .insert(id.to_string());
                }
            })?;
            if let Some(old) = rooms.remove(id) {
                room.carry_over(old);
            }
            make_space(&mut rooms, self.limits.max_rooms + 1, &self.db);
            rooms.insert(id.to_string(), room);
        }
        let room = rooms
            .get_mut(id)
            .ok_or_else(|| ApiError::UnknownGame(id.to_string()))?;
        f(room, Instant::now())
    }

    /// Saves room's change and then sends it to its connections; returns the time left on
    /// the running clock, for the flag timer. If the save fails the change is not
    /// acknowledged: the room is read back from the database before its next change, and
    /// everyone in it hears that the server is reconnecting to its database.
    fn commit(&self, room: &mut Room, now: Instant) -> Result<Option<i64>, ApiError> {
        room.version += 1;
        if let Err(e) = self.db.save(room, now) {
            eprintln!("damka-web: room {}: {e}", room.id);
            self.stale
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(room.id.clone());
            let msg = format!("reconnecting: the game's database cannot be reached or the room moved ({e}); the last change was not made, try again");
            let json = serde_json::json!({"type": "error", "room": room.id, "message": msg});
            let _ = room.events.send(json.to_string().into());
            return Err(ApiError::Limit(msg));
        }
        room.announce(now);
        Ok(room.time_to_flag(now))
    }

    fn stale_take(&self, id: &str) -> bool {
        self.stale
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(id)
    }

    /// Room `id` read from the database to be played here (on a node of several: once this
    /// node holds its lease, its running clock counted on from its last save).
    fn load_here(&self, id: &str) -> Result<Room, ApiError> {
        let unknown = || ApiError::UnknownGame(id.to_string());
        let mut room = match &self.cluster {
            None => self
                .db
                .load(id)
                .map_err(ApiError::Bad)?
                .ok_or_else(unknown)?,
            Some(c) => {
                if !c.acquire(&self.db, id).map_err(reconnecting)? {
                    // A room that does not exist has no lease to take, nor an owner.
                    if c.owner(&self.db, id).map_err(reconnecting)?.is_none() {
                        return Err(unknown());
                    }
                    return Err(ApiError::Limit(format!(
                        "room {id} is played on another server now; try again"
                    )));
                }
                self.replica(id)?
            }
        };
        room.first_move_ms = self.limits.first_move_ms;
        Ok(room)
    }

    /// Room `id` as saved, its clock running on from its last save, on this node's channels
    /// (on a node of several; for a room another node holds, a copy to read).
    pub(crate) fn replica(&self, id: &str) -> Result<Room, ApiError> {
        let (mut room, saved_at) = self
            .db
            .load_at(id)
            .map_err(reconnecting)?
            .ok_or_else(|| ApiError::UnknownGame(id.to_string()))?;
        if room.started() && !room.is_over() {
            room.turn_start = Some(crate::db::instant_at(saved_at, Instant::now()));
        }
        if let Some(c) = &self.cluster {
            (room.events, room.watch_events) = c.channels(id);
        }
        Ok(room)
    }

    /// Whether this node holds room `id` now.
    pub(crate) fn holds(&self, id: &str) -> bool {
        self.lock().contains_key(id)
    }

    /// The finished rooms held with a player still in them (a rematch may yet be offered:
    /// [`Room::offer_rematch`] asks whether the opponent is present, which only this node's
    /// copy of the room knows).
    pub(crate) fn occupied_finished(&self) -> std::collections::HashSet<String> {
        self.lock()
            .values()
            .filter(|r| r.is_over() && r.present.iter().any(|&n| n > 0))
            .map(|r| r.id.clone())
            .collect()
    }

    /// The ids of the rooms held.
    pub(crate) fn held_ids(&self) -> std::collections::HashSet<String> {
        self.lock().keys().cloned().collect()
    }

    /// Whether the server is stopping.
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// Takes room `id` to be played here (a node of several, whose lease it takes): the time
    /// left on its running clock, for the flag timer.
    pub(crate) fn take(&self, id: &str) -> Result<Option<i64>, ApiError> {
        let mut rooms = self.lock();
        if let Some(r) = rooms.get(id) {
            return Ok(r.time_to_flag(Instant::now()));
        }
        let room = self.load_here(id)?;
        let left = room.time_to_flag(Instant::now());
        make_space(&mut rooms, self.limits.max_rooms + 1, &self.db);
        rooms.insert(id.to_string(), room);
        Ok(left)
    }

    /// Forgets the rooms held but not in `held` (their leases went to other nodes); their
    /// pages here go on hearing them through the other node.
    pub(crate) fn keep_only(&self, held: &std::collections::HashSet<String>) {
        self.lock().retain(|id, _| held.contains(id));
    }

    /// Tells the other nodes watching `room` what was just sent to its pages here.
    fn relay(&self, room: &Room, kind: &str, msg: &str) {
        if let Some(c) = &self.cluster {
            c.publish(&self.db, &room.id, kind, msg);
        }
    }
}

/// A database error as the client hears it.
fn reconnecting(e: String) -> ApiError {
    ApiError::Limit(format!("reconnecting: {e}"))
}

impl Room {
    /// Takes over what only memory held of `old`, the same room read again: its pages'
    /// channels, the players and spectators present, their opinions and the last tally.
    fn carry_over(&mut self, old: Room) {
        self.events = old.events;
        self.watch_events = old.watch_events;
        self.spectators = old.spectators;
        self.present = old.present;
        self.watchers = old.watchers;
        self.opinions = old.opinions;
        self.last_tally = old.last_tally;
    }
}

/// Drops rooms until fewer than `cap` are held: finished ones first (they stay in the
/// database), then open ones nobody joined for [`OPEN_ROOM_TTL`] seconds (removed from the
/// database too: no move was played). False if every room held is still wanted.
fn make_space(rooms: &mut HashMap<String, Room>, cap: usize, db: &Db) -> bool {
    let now = unix_now();
    while rooms.len() >= cap {
        let finished = rooms
            .values()
            .filter(|r| r.is_over() && r.spectators == 0)
            .min_by_key(|r| r.created);
        let abandoned = || {
            rooms
                .values()
                .filter(|r| !r.started() && r.spectators == 0)
                .filter(|r| now.saturating_sub(r.created) >= OPEN_ROOM_TTL)
                .min_by_key(|r| r.created)
        };
        let (id, forget) = match finished.map(|r| (r.id.clone(), false)) {
            Some(x) => x,
            None => match abandoned() {
                Some(r) => (r.id.clone(), true),
                None => return false,
            },
        };
        rooms.remove(&id);
        if forget {
            if let Err(e) = db.delete(&id) {
                eprintln!("damka-web: room {id}: {e}");
            }
        }
    }
    true
}
