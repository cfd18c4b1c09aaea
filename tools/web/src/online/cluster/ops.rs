//! The room operations across nodes: finding the node that plays a room (taking it over
//! when its lease lapsed), forwarding a request to it and serving the requests of others,
//! sending the changes other nodes make to this node's pages, and the sweep that renews
//! this node's leases and takes the rooms of nodes that died.

use super::{ignored, Inbound, TICK};
use crate::app::App;
use crate::online::room::{Role, Room, Tally};
use crate::online::{Entered, Lobby, RoomSummary, Seat, Visitor};
use crate::transport::api::ApiError;
use damka::core::Color;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::sync::{Arc, Weak};
use std::time::Instant;

/// How a forwarded request that got no answer is told.
const NO_ANSWER: &str = "does not answer";

fn error_json(e: &ApiError) -> Value {
    let kind = match e {
        ApiError::UnknownGame(_) => "unknown",
        ApiError::Busy => "busy",
        ApiError::Limit(_) => "limit",
        _ => "bad",
    };
    let message = match e {
        ApiError::UnknownGame(id) => id.clone(),
        e => e.to_string(),
    };
    json!({"err": {"kind": kind, "message": message}})
}

fn error_of(v: &Value) -> ApiError {
    let m = v["message"].as_str().unwrap_or("error").to_string();
    match v["kind"].as_str() {
        Some("unknown") => ApiError::UnknownGame(m),
        Some("busy") => ApiError::Busy,
        Some("limit") => ApiError::Limit(m),
        _ => ApiError::Bad(m),
    }
}

fn role_json(role: Role) -> Value {
    match role {
        Role::Player(c) => json!({"color": crate::local::store::color_name(c)}),
        Role::Spectator(n) => json!({"spectator": n}),
    }
}

fn role_of(v: &Value) -> Option<Role> {
    match (v["color"].as_str(), v["spectator"].as_u64()) {
        (Some("white"), _) => Some(Role::Player(Color::White)),
        (Some("black"), _) => Some(Role::Player(Color::Black)),
        (_, Some(n)) => Some(Role::Spectator(n)),
        _ => None,
    }
}

fn strings(v: &Value) -> Option<Vec<String>> {
    v.as_array().map(|a| {
        a.iter()
            .filter_map(|s| s.as_str().map(String::from))
            .collect()
    })
}

impl App {
    /// The node playing room `id` if it is another; `None`: this node plays it (taken over
    /// or read back if needed), or this is a single server.
    pub(crate) fn locate(self: &Arc<Self>, id: &str) -> Result<Option<String>, ApiError> {
        let Some(c) = &self.online.cluster else {
            return Ok(None);
        };
        if self.online.holds(id) {
            return Ok(None);
        }
        let db = &self.online.db;
        let fail = |e: String| ApiError::Limit(format!("reconnecting: {e}"));
        if let Some(node) = c.owner(db, id).map_err(fail)? {
            if node != c.node {
                return Ok(Some(node));
            }
        }
        // Nobody plays it (its node died or stopped, or it is over): this node takes it.
        let left = self.online.take(id)?;
        self.arm(id, left);
        Ok(None)
    }

    /// Runs an operation on room `id`: `here` if this node plays it, else `remote` with the
    /// node that does. A node that does not answer (it died) is waited for until its lease
    /// lapses, and the room taken over: the operation goes through a few seconds late.
    pub(crate) fn route<T>(
        self: &Arc<Self>,
        id: &str,
        remote: impl Fn(&str) -> Result<T, ApiError>,
        here: impl FnOnce() -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let mut tries = 0;
        loop {
            let Some(node) = self.locate(id)? else {
                return here();
            };
            match remote(&node) {
                Err(ApiError::Limit(m)) if m.contains(NO_ANSWER) && tries < 2 => {
                    tries += 1;
                    self.wait_for_lapse(id, &node);
                }
                r => return r,
            }
        }
    }

    /// Runs a seat's operation `op` (with `args`, forwarded) on its room: `here` if this node
    /// plays it.
    pub(crate) fn route_op(
        self: &Arc<Self>,
        seat: &Seat,
        op: &str,
        args: Value,
        here: impl FnOnce() -> Result<(), ApiError>,
    ) -> Result<(), ApiError> {
        self.route(
            &seat.room,
            |node| {
                self.forward(node, &seat.room, op, seat, args.clone())
                    .map(|_| ())
            },
            here,
        )
    }

    /// Waits until node `node` no longer holds room `id` (its lease lapsed or went), a lease's
    /// length at most.
    fn wait_for_lapse(&self, id: &str, node: &str) {
        let Some(c) = &self.online.cluster else {
            return;
        };
        let end = Instant::now() + std::time::Duration::from_millis(super::LEASE_MS as u64 + 1000);
        crate::db::postgres::blocking(|| {
            while Instant::now() < end {
                match c.owner(&self.online.db, id) {
                    Ok(Some(n)) if n == node => {
                        std::thread::sleep(std::time::Duration::from_millis(250))
                    }
                    _ => return,
                }
            }
        })
    }

    fn arm(self: &Arc<Self>, id: &str, left: Option<i64>) {
        self.arm_flag(id, left);
    }

    /// Sends operation `op` of `seat` in room `id` to node `node`; its answer.
    pub(crate) fn forward(
        &self,
        node: &str,
        id: &str,
        op: &str,
        seat: &Seat,
        mut args: Value,
    ) -> Result<Value, ApiError> {
        let Some(c) = &self.online.cluster else {
            return Err(ApiError::Bad("no other server".into()));
        };
        args["op"] = op.into();
        args["room"] = id.into();
        args["role"] = role_json(seat.role);
        let answer = c
            .request(&self.online.db, node, args)
            .map_err(|e| match e {
                super::Unanswered::Silent => ApiError::Limit(format!(
                    "reconnecting: the server playing room {id} {NO_ANSWER}; try again"
                )),
                super::Unanswered::Refused(e) => ApiError::Limit(format!("reconnecting: {e}")),
                super::Unanswered::TooLarge => ApiError::Bad("the request is too large".into()),
            })?;
        match answer.get("err") {
            Some(e) => Err(error_of(e)),
            None => Ok(answer["ok"].clone()),
        }
    }

    /// Enters room `id`, which node `node` plays: the seat is taken there, the pages here hear
    /// the room through this node's channels.
    pub(crate) fn enter_remote(
        self: &Arc<Self>,
        node: &str,
        id: &str,
        token: Option<&str>,
        watch: bool,
        client: Option<std::net::IpAddr>,
    ) -> Result<Entered, ApiError> {
        let Some(c) = self.online.cluster.clone() else {
            return Err(ApiError::Bad("no other server".into()));
        };
        // Listening first, so that no change after the entry is missed.
        let (events, watch_events) = c.channels(id);
        let (rx, watch_rx) = (events.subscribe(), watch_events.subscribe());
        let args = json!({"token": token, "watch": watch, "client": client.map(|a| a.to_string())});
        let spectator = Seat {
            room: id.into(),
            role: Role::Spectator(0),
            token: None,
        };
        let ok = self.forward(node, id, "enter", &spectator, args)?;
        let role = role_of(&ok["role"]).ok_or_else(|| ApiError::Bad("a bad answer".into()))?;
        let seat = Seat {
            room: id.into(),
            role,
            token: ok["token"].as_str().map(String::from),
        };
        let mut room = self.online.replica(id)?;
        room.spectators = ok["spectators"].as_u64().unwrap_or(0) as usize;
        room.last_tally = serde_json::from_value::<Tally>(ok["last"].clone()).ok();
        let mut first = vec![
            seat.message(),
            json!({"type": "room", "room": room.view(Instant::now())}).to_string(),
        ];
        let is_spectator = matches!(role, Role::Spectator(_));
        if is_spectator {
            first.push(
                json!({"type": "proposals", "room": id, "ply": room.game.ply() + 1,
                       "proposals": ok["proposals"]})
                .to_string(),
            );
        }
        Ok(Entered {
            seat,
            events: rx,
            watch_events: is_spectator.then_some(watch_rx),
            first,
        })
    }

    /// Reads room `id`: the one played here, else as saved (another node plays it, or nobody).
    pub(crate) fn read_room<R>(
        &self,
        id: &str,
        f: impl FnOnce(&Room, Instant) -> R,
    ) -> Result<R, ApiError> {
        if self.online.cluster.is_none() || self.online.holds(id) {
            return self.online.with(id, |room, now| Ok(f(room, now)));
        }
        let room = self.online.replica(id)?;
        Ok(f(&room, Instant::now()))
    }

    /// The lobby of a site of several nodes: the games not over from the database.
    pub(crate) fn lobby_of_site(
        &self,
        finished: Vec<crate::db::FinishedRoom>,
    ) -> Result<Lobby, ApiError> {
        let rows = self
            .online
            .db
            .live(self.online.limits.max_rooms.max(50))
            .map_err(ApiError::Bad)?;
        let summaries = rows.iter().filter(|r| r.len() == 8).map(|r| {
            let int = |i: usize| match &r[i] {
                crate::db::Value::Int(v) => *v,
                _ => 0,
            };
            let text = |i: usize| r[i].text_value().unwrap_or_default();
            let variant = match text(1).as_str() {
                "turkish" => "turkish",
                _ => "russian",
            };
            let seats = [int(4) != 0, int(5) != 0];
            let summary = RoomSummary {
                id: text(0),
                variant,
                time: [int(2) as f64 / 1000.0, int(3) as f64 / 1000.0],
                seats,
                plies: int(6).max(0) as usize,
                spectators: 0,
                status: text(7),
            };
            (summary, seats == [true, true])
        });
        Ok(Lobby::of(summaries, finished))
    }

    /// Starts this node's part in the site: the notifications' reader and the sweep.
    pub(crate) fn start_cluster(self: &Arc<Self>) {
        let Some(c) = &self.online.cluster else {
            return;
        };
        let Some(mut inbox) = c.take_inbox() else {
            return;
        };
        let runtime = tokio::runtime::Handle::try_current().ok();
        let weak = Arc::downgrade(self);
        let rt = runtime.clone();
        let _ = std::thread::Builder::new()
            .name("damka-inbox".into())
            .spawn(move || {
                let _guard = rt.as_ref().map(|h| h.enter());
                while let Some(m) = inbox.blocking_recv() {
                    let Some(app) = weak.upgrade() else { break };
                    app.inbound(m);
                }
            });
        let weak: Weak<App> = Arc::downgrade(self);
        let _ = std::thread::Builder::new()
            .name("damka-sweep".into())
            .spawn(move || {
                let _guard = runtime.as_ref().map(|h| h.enter());
                loop {
                    std::thread::sleep(TICK);
                    let Some(app) = weak.upgrade() else { break };
                    app.sweep();
                }
            });
    }

    fn inbound(self: &Arc<Self>, m: Inbound) {
        match m {
            Inbound::Request(v) => self.serve_request(&v),
            Inbound::Event(room, v) => self.on_event(&room, &v),
            Inbound::Resync => {
                let Some(c) = &self.online.cluster else {
                    return;
                };
                for id in c.watched_rooms() {
                    let last = c.last_event.lock().ok().and_then(|l| l.get(&id).cloned());
                    let v = last.unwrap_or_else(|| json!({"kind": "room", "spectators": 0}));
                    self.on_event(&id, &v);
                }
            }
        }
    }

    /// Sends another node's change of room `id` to this node's pages in it.
    fn on_event(&self, id: &str, v: &Value) {
        let Some(c) = &self.online.cluster else {
            return;
        };
        if v["node"].as_str() == Some(c.node.as_str()) || self.online.holds(id) {
            return;
        }
        let Some((events, watch_events)) = c.channels_of(id) else {
            return ignored(&format!("room {id} is not watched here"), &v.to_string());
        };
        match v["kind"].as_str() {
            Some("room") => match self.online.replica(id) {
                Ok(mut room) => {
                    room.spectators = v["spectators"].as_u64().unwrap_or(0) as usize;
                    room.last_tally = serde_json::from_value(v["last"].clone()).ok();
                    let msg = json!({"type": "room", "room": room.view(Instant::now())});
                    let _ = events.send(msg.to_string().into());
                    if let Ok(mut last) = c.last_event.lock() {
                        last.insert(id.to_string(), v.clone());
                    }
                }
                Err(ApiError::UnknownGame(_)) => {
                    ignored(&format!("unknown room {id}"), &v.to_string())
                }
                Err(e) => eprintln!("damka-web: room {id}: {e}"),
            },
            Some("spectators") => {
                let _ = events.send(v["msg"].as_str().unwrap_or("{}").into());
            }
            Some("proposals") => {
                let _ = watch_events.send(v["msg"].as_str().unwrap_or("{}").into());
            }
            _ => ignored("unknown kind", &v.to_string()),
        }
    }

    /// Serves another node's request on a room this node plays, and answers it.
    fn serve_request(self: &Arc<Self>, v: &Value) {
        let (Some(c), Some(from), Some(req)) = (
            self.online.cluster.clone(),
            v["from"].as_str(),
            v["req"].as_u64(),
        ) else {
            return ignored("a request without its sender", &v.to_string());
        };
        let room = v["room"].as_str().unwrap_or_default();
        let answer = if !self.online.holds(room) {
            // Never forwarded again: the asking node finds the room's node itself.
            ignored(
                &format!("a request for room {room:?}, not played here"),
                &v.to_string(),
            );
            Err(ApiError::Limit(format!(
                "room {room} moved to another server; try again"
            )))
        } else {
            self.serve_op(room, v)
        };
        let answer = answer.map_or_else(|e| error_json(&e), |ok| json!({"ok": ok}));
        c.answer(&self.online.db, from, req, answer);
    }

    fn serve_op(self: &Arc<Self>, room: &str, v: &Value) -> Result<Value, ApiError> {
        let role = role_of(&v["role"]).ok_or_else(|| ApiError::Bad("no role".into()))?;
        let seat = Seat {
            room: room.into(),
            role,
            token: None,
        };
        let path = strings(&v["path"]);
        let text = v["move"].as_str();
        match v["op"].as_str().unwrap_or_default() {
            "enter" => {
                let client = v["client"].as_str().and_then(|a| a.parse().ok());
                let token = v["token"].as_str();
                let watch = v["watch"].as_bool().unwrap_or(false);
                let entered = self.enter_here(
                    room,
                    Visitor {
                        token,
                        watch,
                        client,
                    },
                )?;
                self.online.with(room, |r, _| {
                    Ok(json!({
                        "role": role_json(entered.seat.role), "token": entered.seat.token,
                        "spectators": r.spectators, "proposals": r.tally(), "last": r.last_tally,
                    }))
                })
            }
            "leave" => {
                self.leave_here(&seat);
                Ok(Value::Null)
            }
            "play" => self
                .player_change(&seat, |r, c, now| r.play(c, path.as_deref(), text, now))
                .map(|_| Value::Null),
            "resign" => self
                .player_change(&seat, |r, c, now| r.resign(c, now))
                .map(|_| Value::Null),
            "draw" => self
                .player_change(&seat, |r, c, now| r.offer_draw(c, now).map(|_| ()))
                .map(|_| Value::Null),
            "decline" => self
                .player_change(&seat, |r, c, _| r.decline_draw(c))
                .map(|_| Value::Null),
            "abort" => self
                .player_change(&seat, |r, c, now| r.abort(c, now))
                .map(|_| Value::Null),
            "rematch" => {
                let client = v["client"].as_str().and_then(|a| a.parse().ok());
                self.rematch_here(&seat, client).map(|_| Value::Null)
            }
            "propose" => self
                .propose_here(&seat, path.as_deref(), text)
                .map(|_| Value::Null),
            "opinion" => self.opinion_here(&seat).map(|_| Value::Null),
            op => Err(ApiError::Bad(format!("unknown operation {op:?}"))),
        }
    }

    /// Every [`TICK`]: renews this node's leases (forgetting the rooms it lost, and finished
    /// ones no player is in any more), takes the rooms nobody holds, and drops the channels
    /// nobody here listens to.
    fn sweep(self: &Arc<Self>) {
        let Some(c) = self.online.cluster.clone() else {
            return;
        };
        if self.online.is_stopped() {
            return;
        }
        let occupied = self.online.occupied_finished();
        let held = match c.renew(&self.online.db, &occupied) {
            Ok(h) => h,
            Err(e) => return eprintln!("damka-web: cannot renew the leases: {e}"),
        };
        self.online.keep_only(&held);
        let room = self
            .online
            .limits
            .max_rooms
            .saturating_sub(self.online.rooms_held());
        if let Ok(ids) = c.orphans(&self.online.db, room.min(20)) {
            for id in ids {
                match self.online.take(&id) {
                    Ok(left) => self.arm(&id, left),
                    Err(e) => eprintln!("damka-web: room {id}: {e}"),
                }
            }
        }
        let held: HashSet<String> = self.online.held_ids();
        c.drop_unused(&held);
    }
}
