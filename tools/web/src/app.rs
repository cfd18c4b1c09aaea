//! The server's state ([`App`]): the local games, the online rooms and the engine pool. Its
//! operations live with their concern: local games in [`crate::local::service`], rooms in
//! [`crate::online`].

use crate::local::pool::Pool;
use crate::local::store::Store;
use crate::online::Online;
use crate::transport::api::ApiError;
use std::sync::Arc;
use tokio::sync::oneshot;

/// The server's state: the games, the online rooms and the engine pool.
pub struct App {
    /// The games.
    pub store: Store,
    /// The search threads.
    pub pool: Pool,
    /// The online rooms.
    pub online: Online,
    /// Local games started per client address.
    pub games_started: crate::transport::guard::PerClient,
    /// Origins besides the server's own whose pages may open the WebSocket.
    pub origins: Vec<String>,
    /// Engine searches asked for per client address (see [`App::engine_share`]).
    pub searches: crate::transport::guard::Shares,
}

/// Fires when the engine's move has been played (or dropped because the game changed).
pub type EngineDone = oneshot::Receiver<()>;

impl App {
    /// A server state with `pool`, room for `capacity` games, and the online rooms.
    pub fn new(pool: Pool, capacity: usize, online: Online) -> Arc<App> {
        App::with_origins(pool, capacity, online, Vec::new())
    }

    /// As [`App::new`], the WebSocket also open to pages of `origins` (`scheme://host:port`).
    pub fn with_origins(
        pool: Pool,
        capacity: usize,
        online: Online,
        origins: Vec<String>,
    ) -> Arc<App> {
        let per_minute = online.limits.games_per_minute;
        Arc::new(App {
            store: Store::new(capacity),
            pool,
            online,
            games_started: crate::transport::guard::PerClient::new(per_minute, per_minute),
            origins,
            searches: crate::transport::guard::Shares::default(),
        })
    }

    /// Runs `f` in `ms` milliseconds (and a few more, so that a clock read then is past its
    /// zero), unless the server is stopping then; nothing outside a tokio runtime (tests of the
    /// pure state). The clocks' flag timers.
    pub(crate) fn after_ms(self: &Arc<Self>, ms: i64, f: impl FnOnce(&Arc<App>) + Send + 'static) {
        let Ok(handle) = tokio::runtime::Handle::try_current() else {
            return;
        };
        let app = self.clone();
        handle.spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(ms.max(0) as u64 + 5)).await;
            if app.online.check_running().is_ok() {
                f(&app);
            }
        });
    }

    /// A share of the engine's queue for a search `client` asks for (a hint, an opinion),
    /// held until the search's answer: one client cannot fill the queue that every game's
    /// engine moves wait in.
    pub fn engine_share(
        &self,
        client: Option<std::net::IpAddr>,
    ) -> Result<crate::transport::guard::Share, ApiError> {
        let max = self.online.limits.engine_share;
        self.searches.take(client, max).ok_or_else(|| {
            ApiError::Limit(format!(
                "at most {max} engine searches at once from one address; wait for an answer"
            ))
        })
    }
}
