//! The server's state ([`App`]): the local games, the online rooms and the engine pool. Its
//! operations live with their concern: local games in [`crate::service`], rooms in
//! [`crate::online`].

use crate::online::Online;
use crate::pool::Pool;
use crate::store::Store;
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
}

/// Fires when the engine's move has been played (or dropped because the game changed).
pub type EngineDone = oneshot::Receiver<()>;

impl App {
    /// A server state with `pool`, room for `capacity` games, and the online rooms.
    pub fn new(pool: Pool, capacity: usize, online: Online) -> Arc<App> {
        Arc::new(App {
            store: Store::new(capacity),
            pool,
            online,
        })
    }
}
