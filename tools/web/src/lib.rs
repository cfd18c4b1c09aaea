//! damka-web: the board page served by damka. Play Russian or Turkish draughts in the browser
//! against the engine (at a chosen strength), a friend on the same device, or someone else
//! online in a room that anyone may watch.
//!
//! Modules by concern: [`app`] (the server's state), [`api`] (the error and form readings
//! every operation shares), [`game`] (a game of either variant and the views the page draws, all
//! rules from the damka library), [`store`] (the local games held and their watchers),
//! [`room`] (one online game: clocks, seats, draw offers, spectators' proposals), [`online`]
//! (the rooms and their operations), [`db`] (the rooms in SQLite), [`pool`] (the engine's
//! search threads and queue), [`service`] (the operations on local games, whatever the
//! transport), [`http`] (the pages and the JSON API), [`ws`] (the WebSocket), [`assets`] (the
//! page's files, compiled in).

pub mod api;
pub mod app;
pub mod assets;
pub mod db;
pub mod game;
pub mod http;
pub mod online;
pub mod pool;
pub mod room;
pub mod service;
pub mod store;
pub mod ws;

use std::sync::Arc;

/// How many games the server holds before it drops the least recently used.
pub const MAX_GAMES: usize = 1000;
/// How many engine requests may wait for a search thread.
pub const QUEUE: usize = 64;

/// How the server is set up (the command line's options).
#[derive(Clone, Debug)]
pub struct Config {
    /// Search threads.
    pub threads: usize,
    /// Transposition table of each search thread, MiB.
    pub hash_mb: usize,
    /// The SQLite file of the online rooms (`:memory:`: kept nowhere).
    pub db: String,
    /// The limits of online play.
    pub limits: online::Limits,
    /// Endgame database folder and cache (MiB), if the engine uses tables.
    pub egtb: Option<(std::path::PathBuf, usize)>,
}

impl Config {
    /// `threads` search threads with `hash_mb` tables each, rooms kept in memory only.
    pub fn new(threads: usize, hash_mb: usize) -> Config {
        Config {
            threads,
            hash_mb,
            db: ":memory:".into(),
            limits: online::Limits::default(),
            egtb: None,
        }
    }
}

/// The server's state and router as `config` says; the rooms being played when the server
/// last stopped go on (their flag timers start when called inside a tokio runtime).
pub fn serve(config: &Config) -> Result<(Arc<app::App>, axum::Router), String> {
    let online = online::Online::open(&config.db, config.limits)?;
    let mut endgames = pool::SharedEndgames::default();
    if let Some((dir, cache_mb)) = &config.egtb {
        let messages;
        (endgames, messages) = pool::SharedEndgames::open(dir, *cache_mb);
        // The server's log: a game without tables is played without them.
        for m in messages.iter().chain(&endgames.describe()) {
            eprintln!("damka-web: {m}");
        }
    }
    let pool = pool::Pool::with_endgames(config.threads, config.hash_mb, QUEUE, endgames);
    let app = app::App::new(pool, MAX_GAMES, online);
    app.resume_rooms()?;
    Ok((app.clone(), http::router(app)))
}

/// The server's state and router for `threads` search threads with `hash_mb` tables each,
/// online rooms in memory only.
pub fn build(threads: usize, hash_mb: usize) -> (Arc<app::App>, axum::Router) {
    // An in-memory database always opens; failing here would be a bug in the schema.
    serve(&Config::new(threads, hash_mb)).expect("the in-memory database opens")
}
