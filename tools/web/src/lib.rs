//! damka-web: the board page served by damka. Play Russian or Turkish draughts in the browser
//! against the engine (at a chosen strength), a friend on the same device, or someone else
//! online in a room that anyone may watch.
//!
//! Modules by feature: [`local`] (games against the engine or a friend on the same device:
//! the games held, the engine's search threads, analysis and review), [`online`] (rooms played
//! between people: seats, clocks, rematches, the lobby, several nodes on one PostgreSQL),
//! [`transport`] (HTTP, the WebSocket, the connection guard, the page's files and the error
//! and form readings every operation shares), [`db`] (the rooms and games in SQLite or
//! PostgreSQL), [`app`] (the server's state) and [`game`] (a game of either variant and the
//! views the page draws, all rules from the damka library).

pub mod app;
pub mod db;
pub use damka_page as game;
pub mod local;
pub mod online;
pub mod transport;

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
    /// The database: a SQLite file (`:memory:`: kept nowhere), or a `postgres://` URL (a node
    /// of a site of several).
    pub db: String,
    /// The limits of online play.
    pub limits: online::RoomLimits,
    /// Endgame database folder and cache (MiB), if the engine uses tables.
    pub egtb: Option<(std::path::PathBuf, usize)>,
    /// Origins besides the server's own whose pages may open the WebSocket.
    pub origins: Vec<String>,
    /// The folder of the in-browser engine (`tools/wasm/build.sh`'s `target/wasm/`), served
    /// beside the page so that local games run in the browser; `None`: on the server only.
    pub wasm: Option<std::path::PathBuf>,
    /// Host names the server answers to besides IP addresses and loopback names (`*`: any):
    /// a request for another name is refused (421), so that a page of another site whose name
    /// was made to point here (DNS rebinding) cannot use the server as its own.
    pub allowed_hosts: Vec<String>,
}

impl Config {
    /// `threads` search threads with `hash_mb` tables each, rooms kept in memory only.
    pub fn new(threads: usize, hash_mb: usize) -> Config {
        Config {
            threads,
            hash_mb,
            db: ":memory:".into(),
            limits: online::RoomLimits::default(),
            egtb: None,
            origins: Vec::new(),
            wasm: None,
            allowed_hosts: Vec::new(),
        }
    }
}

/// The server's state and router as `config` says; the rooms being played when the server
/// last stopped go on (their flag timers start when called inside a tokio runtime).
pub fn serve(config: &Config) -> Result<(Arc<app::App>, axum::Router), String> {
    let online = online::Online::open(&config.db, config.limits)?;
    let mut endgames = local::pool::SharedEndgames::default();
    if let Some((dir, cache_mb)) = &config.egtb {
        let messages;
        (endgames, messages) = local::pool::SharedEndgames::open(dir, *cache_mb);
        // The server's log: a game without tables is played without them.
        for m in messages.iter().chain(&endgames.describe()) {
            eprintln!("damka-web: {m}");
        }
    }
    let pool = local::pool::Pool::with_endgames(config.threads, config.hash_mb, QUEUE, endgames);
    let app = app::App::with_origins(pool, MAX_GAMES, online, config.origins.clone());
    app.resume_rooms()?;
    let router = transport::http::router(app.clone())
        .merge(transport::http::offline_files(config.wasm.as_deref()))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(config.allowed_hosts.clone()),
            transport::http::check_host,
        ));
    Ok((app, router))
}

/// The server's state and router for `threads` search threads with `hash_mb` tables each,
/// online rooms in memory only.
pub fn build(threads: usize, hash_mb: usize) -> (Arc<app::App>, axum::Router) {
    // An in-memory database always opens; failing here would be a bug in the schema.
    serve(&Config::new(threads, hash_mb)).expect("the in-memory database opens")
}

/// How long the server may take to stop once asked: the clocks are stopped and saved at
/// once, and connections still open after this are cut.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// Reads a request's body within `limit` (the header timeout) before it is handled: a body
/// trickled in cannot hold a connection longer. A body over
/// [`transport::http::MAX_BODY`] is refused as before.
async fn body_deadline(
    axum::extract::State(limit): axum::extract::State<std::time::Duration>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let (parts, body) = req.into_parts();
    match tokio::time::timeout(limit, axum::body::to_bytes(body, transport::http::MAX_BODY)).await {
        Ok(Ok(bytes)) => {
            let req = axum::extract::Request::from_parts(parts, axum::body::Body::from(bytes));
            next.run(req).await
        }
        Ok(Err(_)) => transport::api::ApiError::TooLarge(transport::http::MAX_BODY).into_response(),
        Err(_) => (
            axum::http::StatusCode::REQUEST_TIMEOUT,
            "the request's body did not arrive in time",
        )
            .into_response(),
    }
}

/// Serves `router` on `listener` under `net`'s limits until `stop` fires; then stops and
/// saves the rooms' clocks at once and returns within [`SHUTDOWN_GRACE`], whatever the
/// clients do (a half-sent request, an open WebSocket).
pub async fn run(
    listener: tokio::net::TcpListener,
    app: Arc<app::App>,
    router: axum::Router,
    net: transport::guard::NetLimits,
    stop: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let (stopped_tx, stopped) = tokio::sync::oneshot::channel::<()>();
    let stopping = app.clone();
    let router = router.layer(axum::middleware::from_fn_with_state(
        net.header_timeout,
        body_deadline,
    ));
    let service = router.into_make_service_with_connect_info::<transport::guard::ClientAddr>();
    let server = axum::serve(
        transport::guard::GuardedListener::new(listener, net),
        service,
    )
    .with_graceful_shutdown(async move {
        stop.await;
        stopping.save_clocks();
        let _ = stopped_tx.send(());
    });
    let mut server = tokio::spawn(async move { server.await });
    let result = tokio::select! {
        r = &mut server => r.unwrap_or_else(|e| Err(std::io::Error::other(e))),
        _ = async {
            if stopped.await.is_ok() {
                tokio::time::sleep(SHUTDOWN_GRACE).await;
            } else {
                std::future::pending::<()>().await;
            }
        } => {
            server.abort();
            Ok(())
        }
    };
    // Stopped by the server's own end as well (an error): the time until now counts.
    app.save_clocks();
    result
}
