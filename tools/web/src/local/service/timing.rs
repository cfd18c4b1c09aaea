//! The clocks of local games on the server: the flag timer that ends a game whose running
//! clock reaches zero though nobody asks, and the stop at shutdown after which the time the
//! server is down counts against nobody.

use crate::app::App;
use crate::transport::api::ApiError;
use std::sync::Arc;
use std::time::Instant;

impl App {
    /// Arms the flag timer of game `id`, due at `deadline`, in `ms` milliseconds (`None`: no
    /// clock runs, or a timer fires by then already). The game read then finds its clock at
    /// zero and ends, which every watcher hears; a clock that still runs (the turn changed)
    /// gets its own timer then.
    pub(super) fn arm_clock(self: &Arc<Self>, id: &str, due: Option<(Instant, i64)>) {
        let Some((deadline, ms)) = due else { return };
        let id = id.to_string();
        self.after_ms(ms, move |app| {
            let _ = app.with(&id, |e| {
                if e.armed == Some(deadline) {
                    e.armed = None;
                }
            });
            let _ = app.kick(&id);
        });
    }

    /// Stops the clocks of every local game at shutdown, where they are now: read back by the
    /// next server, they run again from then. Not on a node of several: the database's games
    /// are the whole site's, and the other nodes' clocks run on (as a room's do when its node
    /// stops).
    pub fn stop_game_clocks(&self) -> Result<(), ApiError> {
        if self.online.cluster.is_some() {
            return Ok(());
        }
        self.online.db.pause_games().map_err(ApiError::Bad)
    }
}
