//! The room operations the server's [`App`] serves (create, enter, move, resign, draw,
//! propose, ask the engine), on the rooms of [`super::Online`].

use super::*;
use crate::app::App;
use crate::local::service::Hint;
use crate::transport::api::parse_color;

/// The rooms being played `creator` holds, if that is its share or more: a quarter
/// of the places still free, at least one. However many addresses open rooms, the server
/// fills up slowly enough that a newcomer still gets a place, unless as many address groups
/// as places each hold one.
fn over_room_share(
    rooms: &HashMap<String, Room>,
    creator: Option<IpAddr>,
    max_rooms: usize,
) -> Option<usize> {
    creator?;
    let playing = rooms.values().filter(|r| !r.is_over());
    let (mut held, mut used) = (0, 0);
    for r in playing {
        used += 1;
        held += usize::from(r.creator == creator);
    }
    let share = (max_rooms.saturating_sub(used) / 4).max(1);
    (held >= share).then_some(held)
}

impl App {
    /// Arms room `id`'s flag timer for `left_ms` (nothing if no clock runs).
    pub(crate) fn arm_flag(self: &Arc<Self>, id: &str, left_ms: Option<i64>) {
        let Some(ms) = left_ms else { return };
        let id = id.to_string();
        // One timer per turn start: the turn's deadline never moves, so an earlier timer
        // that fires finds the clock still running and does nothing.
        self.after_ms(ms, move |app| {
            let _ = app.online.with(&id, |room, now| {
                if room.flag(now) {
                    let _ = app.online.commit(room, now);
                }
                Ok(())
            });
        });
    }

    /// Opens a room with the creator in their seat.
    pub fn create_room(self: &Arc<Self>, req: &NewRoom) -> Result<Seat, ApiError> {
        self.create_room_for(req, None)
    }

    /// Opens a room for the client at `client` (`None`: unknown, not limited per client),
    /// who may create [`RoomLimits::rooms_per_minute`].
    pub fn create_room_for(
        self: &Arc<Self>,
        req: &NewRoom,
        client: Option<IpAddr>,
    ) -> Result<Seat, ApiError> {
        self.online.check_running()?;
        let variant: Variant = match &req.variant {
            Some(v) => v
                .parse()
                .map_err(|e: damka::core::UnknownVariant| ApiError::Bad(e.to_string()))?,
            None => Variant::Russian,
        };
        let color = parse_color(req.color.as_deref())?;
        let control = TimeControl {
            base_ms: seconds(req.time, DEFAULT_TIME.0, TIME_RANGE, "time")?,
            inc_ms: seconds(
                req.increment,
                DEFAULT_TIME.1,
                (0.0, MAX_INCREMENT),
                "increment",
            )?,
        };
        let game = PageGame::new(variant, req.fen.as_deref()).map_err(ApiError::Bad)?;
        if game.is_over() {
            return Err(ApiError::Bad("the game is over in that position".into()));
        }
        if !self.online.created.take(client) {
            return Err(ApiError::Limit(format!(
                "at most {} new rooms a minute from one address; try again later",
                self.online.limits.rooms_per_minute
            )));
        }
        let id = format!("r{}", random_hex::<8>()?);
        let token = random_hex::<16>()?;
        let mut room = Room::new(id.clone(), game, control, unix_now());
        room.first_move_ms = self.online.limits.first_move_ms;
        let now = Instant::now();
        room.take_seat(color, token.clone(), now);
        room.creator = client.map(crate::transport::guard::group);
        self.open_room(room, true, now)?;
        Ok(Seat {
            room: id,
            role: Role::Player(color),
            token: Some(token),
        })
    }

    /// Saves the new `room` and holds it (under the creator's fair share if `share`), once
    /// there is space and, on a node of several, its lease.
    pub(super) fn open_room(
        &self,
        mut room: Room,
        share: bool,
        now: Instant,
    ) -> Result<(), ApiError> {
        let mut rooms = self.online.lock();
        let held = over_room_share(&rooms, room.creator, self.online.limits.max_rooms);
        if let Some(held) = held.filter(|_| share) {
            return Err(ApiError::Limit(format!(
                "this address holds {held} of the games being played, its share while the \
                 server fills up; finish one first"
            )));
        }
        if !make_space(&mut rooms, self.online.limits.max_rooms, &self.online.db) {
            return Err(ApiError::Limit(format!(
                "the server holds {} games being played, the most it takes; try again later",
                self.online.limits.max_rooms
            )));
        }
        let id = room.id.clone();
        if let Some(c) = &self.online.cluster {
            // The lease first: a room is never saved without its owner.
            if !c.claim(&self.online.db, &id).map_err(super::reconnecting)? {
                return Err(ApiError::Limit("try again".into()));
            }
            (room.events, room.watch_events) = c.channels(&id);
        }
        self.online.commit(&mut room, now)?;
        rooms.insert(id, room);
        Ok(())
    }

    /// Enters room `id`: the seat `token` holds, else the free seat (unless `watch`), else a
    /// spectator's place. A token that holds no seat here is refused.
    pub fn enter_room(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        watch: bool,
    ) -> Result<Entered, ApiError> {
        self.enter_room_for(id, token, watch, None)
    }

    /// Enters room `id` for the client at `client` (`None`: unknown): as [`App::enter_room`],
    /// but a client is one spectator however often it enters (its proposal and its engine
    /// opinions are counted once) and holds at most [`RoomLimits::spectators_per_client`] places.
    pub fn enter_room_for(
        self: &Arc<Self>,
        id: &str,
        token: Option<&str>,
        watch: bool,
        client: Option<IpAddr>,
    ) -> Result<Entered, ApiError> {
        self.route(
            id,
            |node| self.enter_remote(node, id, token, watch, client),
            || {
                self.enter_here(
                    id,
                    Visitor {
                        token,
                        watch,
                        client,
                    },
                )
            },
        )
    }

    /// [`App::enter_room_for`] on a room this node plays.
    pub(crate) fn enter_here(
        self: &Arc<Self>,
        id: &str,
        who: Visitor<'_>,
    ) -> Result<Entered, ApiError> {
        let Visitor {
            token,
            watch,
            client,
        } = who;
        let max_spectators = self.online.limits.max_spectators;
        let per_client = self.online.limits.spectators_per_client;
        let (entered, left) = self.online.with(id, |room, now| {
            let mut left = None;
            let (role, token) = match token {
                Some(t) => match room.seat_of(t) {
                    // The spectators' proposals and the engine's opinions are theirs alone.
                    Some(_) if watch => {
                        return Err(ApiError::Bad(format!(
                            "a player of room {id} cannot watch it as a spectator"
                        )))
                    }
                    Some(c) => {
                        if room.release(c, now) {
                            left = self.online.commit(room, now)?;
                        }
                        (Role::Player(c), Some(t.to_string()))
                    }
                    None => {
                        return Err(ApiError::Bad(format!(
                            "stale or forged token: it holds no seat in room {id}"
                        )))
                    }
                },
                None => match room.free_seat().filter(|_| !watch && !room.is_over()) {
                    Some(c) => {
                        let t = random_hex::<16>()?;
                        room.take_seat(c, t.clone(), now);
                        left = self.online.commit(room, now)?;
                        (Role::Player(c), Some(t))
                    }
                    None => {
                        if room.spectators >= max_spectators {
                            return Err(ApiError::Limit(format!(
                                "room {id} has {max_spectators} spectators, the most it takes"
                            )));
                        }
                        let n = match client {
                            Some(ip) => spectator_of(ip),
                            None => self.online.viewers.fetch_add(1, Ordering::Relaxed),
                        };
                        let places = room.watchers.entry(n).or_default();
                        if *places >= per_client {
                            return Err(ApiError::Limit(format!(
                                "{per_client} places in room {id} from one address, the most it takes"
                            )));
                        }
                        *places += 1;
                        room.spectators += 1;
                        let msg = serde_json::json!({"type": "spectators", "room": id, "count": room.spectators}).to_string();
                        let _ = room.events.send(msg.as_str().into());
                        self.online.relay(room, "spectators", &msg);
                        (Role::Spectator(n), None)
                    }
                },
            };
            if let Role::Player(c) = role {
                room.present[c.index()] += 1;
            }
            let spectator = matches!(role, Role::Spectator(_));
            let mut first = vec![serde_json::json!({ "type": "room", "room": room.view(now) }).to_string()];
            if spectator {
                first.push(serde_json::json!({
                    "type": "proposals", "room": id, "ply": room.game.ply() + 1,
                    "proposals": room.tally(),
                }).to_string());
            }
            let seat = Seat { room: id.to_string(), role, token };
            first.insert(0, seat.message());
            Ok((
                Entered {
                    seat,
                    events: room.events.subscribe(),
                    watch_events: spectator.then(|| room.watch_events.subscribe()),
                    first,
                },
                left,
            ))
        })?;
        self.arm_flag(id, left);
        Ok(entered)
    }

    /// A connection leaves its room (closed, or entering another).
    pub fn leave_room(self: &Arc<Self>, seat: &Seat) {
        let _ = self.route(
            &seat.room,
            |node| self.forward(node, &seat.room, "leave", seat, serde_json::json!({})),
            || {
                self.leave_here(seat);
                Ok(serde_json::Value::Null)
            },
        );
    }

    /// [`App::leave_room`] on a room this node plays.
    pub(crate) fn leave_here(&self, seat: &Seat) {
        if let Role::Player(c) = seat.role {
            let _ = self.online.with(&seat.room, |room, _| {
                let n = &mut room.present[c.index()];
                *n = n.saturating_sub(1);
                Ok(())
            });
        }
        if let Role::Spectator(n) = seat.role {
            let _ = self.online.with(&seat.room, |room, _| {
                room.spectators = room.spectators.saturating_sub(1);
                let places = room.watchers.entry(n).or_default();
                *places = places.saturating_sub(1);
                if *places == 0 {
                    room.watchers.remove(&n);
                    room.forget(n);
                }
                let tally = room.proposals_changed();
                self.online.relay(room, "proposals", &tally);
                let msg = serde_json::json!({"type": "spectators", "room": room.id, "count": room.spectators}).to_string();
                let _ = room.events.send(msg.as_str().into());
                self.online.relay(room, "spectators", &msg);
                Ok(())
            });
        }
    }

    /// A player's change to the game (a move, a resignation, a draw offer), made, sent and
    /// saved; the flag timer is armed for the next turn. A clock found at zero ends the game
    /// first (and is sent and saved) whatever the change was.
    pub(crate) fn player_change(
        self: &Arc<Self>,
        seat: &Seat,
        change: impl FnOnce(&mut Room, Color, Instant) -> Result<(), String>,
    ) -> Result<(), ApiError> {
        let color = player_of(seat)?;
        self.online.check_running()?;
        let (result, left) = self.online.with(&seat.room, |room, now| {
            if room.flag(now) {
                self.online.commit(room, now)?;
                return Ok((Err(room.flag_reason()), None));
            }
            match change(room, color, now) {
                Ok(()) => Ok((Ok(()), self.online.commit(room, now)?)),
                Err(e) => Ok((Err(e), None)),
            }
        })?;
        self.arm_flag(&seat.room, left);
        result.map_err(ApiError::Bad)
    }

    /// The player's move.
    pub fn room_play(
        self: &Arc<Self>,
        seat: &Seat,
        path: Option<&[String]>,
        text: Option<&str>,
    ) -> Result<(), ApiError> {
        let args = serde_json::json!({"path": path, "move": text});
        self.route_op(seat, "play", args, || {
            self.player_change(seat, |room, c, now| room.play(c, path, text, now))
        })
    }

    /// The player resigns.
    pub fn room_resign(self: &Arc<Self>, seat: &Seat) -> Result<(), ApiError> {
        self.route_op(seat, "resign", serde_json::json!({}), || {
            self.player_change(seat, |room, c, now| room.resign(c, now))
        })
    }

    /// The player offers a draw, or accepts the opponent's offer.
    pub fn room_draw(self: &Arc<Self>, seat: &Seat) -> Result<(), ApiError> {
        self.route_op(seat, "draw", serde_json::json!({}), || {
            self.player_change(seat, |room, c, now| room.offer_draw(c, now).map(|_| ()))
        })
    }

    /// The player declines the opponent's draw offer.
    pub fn room_decline(self: &Arc<Self>, seat: &Seat) -> Result<(), ApiError> {
        self.route_op(seat, "decline", serde_json::json!({}), || {
            self.player_change(seat, |room, c, _| room.decline_draw(c))
        })
    }

    /// A spectator's proposal for the next move (its text or, preferred, its squares); the
    /// new tally goes to the spectators.
    pub fn room_propose(
        self: &Arc<Self>,
        seat: &Seat,
        text: Option<&str>,
        path: Option<&[String]>,
    ) -> Result<(), ApiError> {
        let args = serde_json::json!({"path": path, "move": text});
        self.route_op(seat, "propose", args, || {
            self.propose_here(seat, path, text)
        })
    }

    /// [`App::room_propose`] on a room this node plays.
    pub(crate) fn propose_here(
        &self,
        seat: &Seat,
        path: Option<&[String]>,
        text: Option<&str>,
    ) -> Result<(), ApiError> {
        let Role::Spectator(n) = seat.role else {
            return Err(ApiError::Bad(
                "players move; only spectators propose".into(),
            ));
        };
        self.online.with(&seat.room, |room, _| {
            room.propose(n, path, text).map_err(ApiError::Bad)?;
            let tally = room.proposals_changed();
            self.online.relay(room, "proposals", &tally);
            Ok(())
        })
    }

    /// The engine's opinion of the position, for a spectator (a few per game each).
    pub async fn room_opinion(
        self: &Arc<Self>,
        seat: &Seat,
        client: Option<std::net::IpAddr>,
    ) -> Result<Hint, ApiError> {
        let (game, version) = self.route(
            &seat.room,
            |node| {
                self.forward(node, &seat.room, "opinion", seat, serde_json::json!({}))?;
                let room = self.online.replica(&seat.room)?;
                Ok((room.game, room.version))
            },
            || self.opinion_here(seat),
        )?;
        self.hint_for(&game, &seat.room, version, OPINION_TIME, client)
            .await
    }

    /// Counts a spectator's engine opinion on a room this node plays: the game to search.
    pub(crate) fn opinion_here(&self, seat: &Seat) -> Result<(PageGame, u64), ApiError> {
        let Role::Spectator(n) = seat.role else {
            return Err(ApiError::Bad(
                "players cannot ask the engine during their game".into(),
            ));
        };
        let max = self.online.limits.opinions;
        self.online.with(&seat.room, |room, _| {
            let asked = room.opinions.entry(n).or_default();
            if *asked >= max {
                return Err(ApiError::Limit(format!(
                    "{max} engine opinions per game, the most a spectator gets"
                )));
            }
            *asked += 1;
            Ok((room.game.clone(), room.version))
        })
    }

    /// The room's view now.
    pub fn room_view(&self, id: &str) -> Result<RoomView, ApiError> {
        self.read_room(id, |room, now| room.view(now))
    }

    /// The room's game as PDN, with the result however it came.
    pub fn room_pdn(&self, id: &str) -> Result<String, ApiError> {
        self.read_room(id, |room, _| {
            let date = damka::game::pdn::today();
            let control = format!(
                "{}+{}",
                room.control.base_ms as f64 / 1000.0,
                room.control.inc_ms as f64 / 1000.0
            );
            let reason = room.ending.map(|e| e.reason()).unwrap_or_default();
            let mut tags = vec![
                ("Event", "damka-web online game"),
                ("Site", "damka-web"),
                ("Date", date.as_str()),
                ("White", "White player"),
                ("Black", "Black player"),
                ("TimeControl", control.as_str()),
            ];
            if !reason.is_empty() {
                tags.push(("Termination", reason.as_str()));
            }
            room.game
                .pdn_with_result(&tags, room.ending.and_then(|e| e.outcome()))
        })
    }

    /// The lobby's lists.
    pub fn lobby(&self) -> Result<Lobby, ApiError> {
        let finished = self
            .online
            .db
            .finished(LOBBY_FINISHED)
            .map_err(ApiError::Bad)?;
        if self.online.cluster.is_some() {
            return self.lobby_of_site(finished);
        }
        let rooms = self.online.lock();
        let mut held: Vec<&Room> = rooms.values().filter(|r| !r.is_over()).collect();
        held.sort_by_key(|r| (std::cmp::Reverse(r.created), r.id.clone()));
        let summaries = held.into_iter().map(|r| {
            let summary = RoomSummary {
                id: r.id.clone(),
                variant: r.game.variant().name(),
                time: [
                    r.control.base_ms as f64 / 1000.0,
                    r.control.inc_ms as f64 / 1000.0,
                ],
                seats: [r.tokens[0].is_some(), r.tokens[1].is_some()],
                plies: r.game.ply(),
                spectators: r.spectators,
                status: r.status().text,
            };
            (summary, r.started())
        });
        Ok(Lobby::of(summaries, finished))
    }

    /// Reads back the games that were being played when the server stopped: their clocks go
    /// on from the time they had when last saved. Returns how many.
    pub fn resume_rooms(self: &Arc<Self>) -> Result<usize, String> {
        if self.online.cluster.is_some() {
            // The nodes' sweep takes the rooms whose lease lapsed (see `cluster::ops`).
            self.start_cluster();
            return Ok(0);
        }
        let ids = self.online.db.running()?;
        let now = Instant::now();
        let mut armed = Vec::new();
        {
            let mut rooms = self.online.lock();
            // Beyond the cap, the rooms stay in the database (read again when asked for) but
            // are not held, and their clocks wait.
            for id in ids.iter().take(self.online.limits.max_rooms) {
                if let Some(mut room) = self.online.db.load(id)? {
                    room.first_move_ms = self.online.limits.first_move_ms;
                    if room.started() && !room.is_over() {
                        room.turn_start = Some(now);
                        // The server's stop was nobody's doing: the player to move is not
                        // charged for finding it again, up to the grace.
                        room.hold(now, self.online.limits.grace_ms);
                        armed.push((id.clone(), room.time_to_flag(now)));
                    }
                    rooms.insert(id.clone(), room);
                }
            }
        }
        for (id, left) in armed {
            self.arm_flag(&id, left);
        }
        Ok(ids.len().min(self.online.limits.max_rooms))
    }

    /// Stops every clock and saves it as it is now (at shutdown: the time until then counts,
    /// none after); from then on no move is taken and no flag falls. Once only: a second call
    /// does nothing.
    pub fn save_clocks(&self) {
        if self.online.stopped.swap(true, Ordering::SeqCst) {
            return;
        }
        let mut rooms = self.online.lock();
        let now = Instant::now();
        for room in rooms.values_mut().filter(|r| r.running().is_some()) {
            room.settle_clocks(now);
            if let Err(e) = self.online.db.save(room, now) {
                eprintln!("damka-web: room {}: {e}", room.id);
            }
        }
        drop(rooms);
        if let Err(e) = self.stop_game_clocks() {
            eprintln!("damka-web: local games' clocks: {e}");
        }
        if let Some(c) = &self.online.cluster {
            // The other nodes take the rooms at once, their clocks running on.
            if let Err(e) = c.release(&self.online.db) {
                eprintln!("damka-web: {e}");
            }
        }
    }
}
