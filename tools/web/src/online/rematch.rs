//! What players say to each other about the game beyond their moves: an abort before the
//! first move, and a rematch offered and accepted (a new room with the colours swapped).

use super::*;
use crate::app::App;

impl App {
    /// The player aborts the game (before its first move only).
    pub fn room_abort(self: &Arc<Self>, seat: &Seat) -> Result<(), ApiError> {
        self.route_op(seat, "abort", serde_json::json!({}), || {
            self.player_change(seat, |room, c, now| room.abort(c, now))
        })
    }

    /// The player offers a rematch, or accepts the opponent's offer: then a new room opens
    /// with the colours swapped, each player's token holding its new seat, and the old room
    /// names it ([`Room::rematch`]). It counts in the rooms `client` may create.
    pub fn room_rematch(
        self: &Arc<Self>,
        seat: &Seat,
        client: Option<IpAddr>,
    ) -> Result<(), ApiError> {
        let args = serde_json::json!({ "client": client.map(|a| a.to_string()) });
        self.route_op(seat, "rematch", args, || self.rematch_here(seat, client))
    }

    /// [`App::room_rematch`] on a room this node plays.
    pub(crate) fn rematch_here(
        self: &Arc<Self>,
        seat: &Seat,
        client: Option<IpAddr>,
    ) -> Result<(), ApiError> {
        let color = player_of(seat)?;
        self.online.check_running()?;
        // The new room's id is set in the old one at once (not yet saved nor sent), so that a
        // second acceptance finds it; the old room tells its pages once the new one exists.
        let planned = self.online.with(&seat.room, |room, now| {
            if !room.offer_rematch(color).map_err(ApiError::Bad)? {
                self.online.commit(room, now)?;
                return Ok(None);
            }
            if !self.online.created.take(client) {
                return Err(ApiError::Limit(format!(
                    "at most {} new rooms a minute from one address; try again later",
                    self.online.limits.rooms_per_minute
                )));
            }
            let id = format!("r{}", random_hex::<8>()?);
            let new = room
                .rematch_room(id.clone(), unix_now(), now)
                .map_err(ApiError::Bad)?;
            room.rematch = Some(id);
            Ok(Some(new))
        })?;
        let Some(mut new) = planned else {
            return Ok(());
        };
        let (id, now) = (new.id.clone(), Instant::now());
        new.creator = client.map(crate::transport::guard::group);
        let left = new.time_to_flag(now);
        let opened = self.open_room(new, false, now);
        self.online.with(&seat.room, |room, now| {
            match &opened {
                Ok(()) => room.rematch_offer = None,
                Err(_) => room.rematch = None,
            }
            self.online.commit(room, now).map(|_| ())
        })?;
        opened?;
        self.arm_flag(&id, left);
        Ok(())
    }
}
