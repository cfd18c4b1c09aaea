//! damka-web: the board page served by damka. Play Russian or Turkish draughts in the browser
//! against the engine (at a chosen strength) or a friend on the same device.
//!
//! Modules by concern: [`game`] (a game of either variant and the views the page draws, all
//! rules from the damka library), [`store`] (the games held and their watchers), [`pool`] (the
//! engine's search threads and queue), [`service`] (the operations, whatever the transport),
//! [`http`] (the page and the JSON API), [`ws`] (the WebSocket), [`assets`] (the page's files,
//! compiled in).

pub mod assets;
pub mod game;
pub mod http;
pub mod pool;
pub mod service;
pub mod store;
pub mod ws;

use std::sync::Arc;

/// How many games the server holds before it drops the least recently used.
pub const MAX_GAMES: usize = 1000;
/// How many engine requests may wait for a search thread.
pub const QUEUE: usize = 64;

/// The server's state and router for `threads` search threads with `hash_mb` tables each.
pub fn build(threads: usize, hash_mb: usize) -> (Arc<service::App>, axum::Router) {
    let app = service::App::new(pool::Pool::new(threads, hash_mb, QUEUE), MAX_GAMES);
    (app.clone(), http::router(app))
}
