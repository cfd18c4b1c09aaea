//! The HTTP side: the page's files (compiled in) and the JSON API. Request bodies are read as
//! bytes and parsed here, so a malformed or oversized body gets the same JSON error as any
//! other bad request: `{"error": "..."}` with a 4xx status.

use crate::app::App;
use crate::local::service::{MoveRequest, NewGame, MOVETIME_RANGE};
use crate::online::NewRoom;
use crate::transport::api::ApiError;
use crate::transport::assets;
use crate::transport::guard::Client;
use crate::transport::ws;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// The largest request body read, bytes (a long PDN fits many times over).
pub const MAX_BODY: usize = 64 * 1024;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = match self {
            ApiError::Bad(_) => StatusCode::BAD_REQUEST,
            ApiError::UnknownGame(_) => StatusCode::NOT_FOUND,
            ApiError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Limit(_) => StatusCode::SERVICE_UNAVAILABLE,
        };
        (
            status,
            Json(serde_json::json!({ "error": self.to_string() })),
        )
            .into_response()
    }
}

/// A JSON request body (an empty body is `{}`): a malformed or oversized one is refused with
/// the API's own error, not axum's plain-text rejection.
struct JsonBody<T>(T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let body = Bytes::from_request(req, state)
            .await
            .map_err(|e| match e.status() {
                StatusCode::PAYLOAD_TOO_LARGE => ApiError::TooLarge(MAX_BODY),
                _ => ApiError::Bad(format!("could not read the request: {e}")),
            })?;
        let body: &[u8] = if body.iter().all(u8::is_ascii_whitespace) {
            b"{}"
        } else {
            &body
        };
        serde_json::from_slice(body)
            .map(JsonBody)
            .map_err(|e| ApiError::Bad(format!("malformed JSON: {e}")))
    }
}

/// The router: the page, its files, the API and the WebSocket.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { assets::page("index.html") }))
        .route("/assets/{name}", get(asset))
        .route("/api/info", get(info))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(view))
        .route("/api/games/{id}/move", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/hint", post(hint))
        .route("/api/games/{id}/pdn", get(pdn))
        .route("/room/{id}", get(|| async { assets::page("index.html") }))
        .route("/lobby", get(|| async { assets::page("lobby.html") }))
        .route("/api/rooms", get(lobby).post(new_room))
        .route("/api/rooms/{id}", get(room))
        .route("/api/rooms/{id}/pdn", get(room_pdn))
        .route("/ws", get(ws::upgrade))
        .fallback(|| async { ApiError::UnknownGame("no such page".into()).into_response() })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::map_response(security_headers))
        .with_state(app)
}

/// The files that let the page play offline ([`assets::offline_files`]: `/sw.js` and, from
/// the `--wasm` folder, the in-browser engine), with the same headers as the rest.
pub fn offline_files(wasm: Option<&std::path::Path>) -> Router {
    assets::offline_files(wasm).layer(axum::middleware::map_response(security_headers))
}

/// The page's Content-Security-Policy: its own scripts, styles and images only (it has no
/// inline script or style; WebAssembly may be compiled, for the in-browser engine), its
/// WebSocket and API on the same origin, its web app manifest and workers (the engine's, the
/// service worker) from the same origin, and no framing.
pub const CSP: &str =
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; \
    img-src 'self' data:; connect-src 'self'; manifest-src 'self'; worker-src 'self'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Headers on every answer: the page may not be framed (clickjacking), run what it did not
/// bring, nor have its files read as another type; links leave no address behind.
async fn security_headers(mut res: Response) -> Response {
    let h = res.headers_mut();
    let set = [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
    ];
    for (name, value) in set {
        h.insert(name, axum::http::HeaderValue::from_static(value));
    }
    res
}

async fn asset(Path(name): Path<String>, headers: axum::http::HeaderMap) -> Response {
    assets::page_for(&name, &headers)
}

async fn info(State(app): State<Arc<App>>) -> Response {
    Json(serde_json::json!({
        "name": "damka-web",
        "version": env!("CARGO_PKG_VERSION"),
        "variants": ["russian", "turkish"],
        "skill_levels": crate::local::pool::SKILL_LEVELS.collect::<Vec<_>>(),
        "skill_option": true,
        "movetime_range": [MOVETIME_RANGE.0, MOVETIME_RANGE.1],
        "threads": app.pool.threads(),
    }))
    .into_response()
}

/// Waits for the engine's reply, if it is thinking, so an HTTP client gets both moves.
async fn settle(
    app: &Arc<App>,
    id: &str,
    done: Option<crate::app::EngineDone>,
) -> Result<Response, ApiError> {
    if let Some(done) = done {
        let _ = done.await;
    }
    Ok(Json(app.view(id)?).into_response())
}

async fn new_game(
    State(app): State<Arc<App>>,
    Client(client): Client,
    JsonBody(req): JsonBody<NewGame>,
) -> Result<Response, ApiError> {
    let view = app.new_game_for(&req, client)?;
    let done = app.kick(&view.id)?;
    if let Some(done) = done {
        let _ = done.await;
    }
    // The owner's secret is in this answer only.
    let mut after = app.view(&view.id)?;
    after.token = view.token;
    Ok((StatusCode::CREATED, Json(after)).into_response())
}

async fn view(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(app.view(&id)?).into_response())
}

async fn play(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    JsonBody(mut req): JsonBody<MoveRequest>,
) -> Result<Response, ApiError> {
    if req.token.is_none() {
        req.token = header_token(&headers).map(str::to_string);
    }
    let (_, done) = app.play(&id, &req)?;
    settle(&app, &id, done).await
}

/// The header an HTTP client gives a game's owner secret in (a move may carry it in its
/// body's `token` instead).
pub const TOKEN_HEADER: &str = "x-game-token";

fn header_token(headers: &axum::http::HeaderMap) -> Option<&str> {
    headers.get(TOKEN_HEADER).and_then(|v| v.to_str().ok())
}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
) -> Result<Response, ApiError> {
    let (_, done) = app.undo(&id, header_token(&headers))?;
    settle(&app, &id, done).await
}

async fn hint(
    State(app): State<Arc<App>>,
    Client(client): Client,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let _share = app.engine_share(client)?;
    Ok(Json(app.hint(&id, client).await?).into_response())
}

fn pdn_file(text: String, name: &str) -> Response {
    let file = format!("attachment; filename=\"damka-{name}.pdn\"");
    (
        [
            (
                header::CONTENT_TYPE,
                "application/x-pdn; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, file),
        ],
        text,
    )
        .into_response()
}

async fn pdn(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(pdn_file(app.pdn(&id)?, &id))
}

async fn lobby(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    Ok(Json(app.lobby()?).into_response())
}

/// Opens a room over HTTP: the answer holds the creator's seat and its token.
async fn new_room(
    State(app): State<Arc<App>>,
    Client(client): Client,
    JsonBody(req): JsonBody<NewRoom>,
) -> Result<Response, ApiError> {
    let seat = app.create_room_for(&req, client)?;
    let body = serde_json::json!({ "seat": seat.json(), "room": app.room_view(&seat.room)? });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn room(State(app): State<Arc<App>>, Path(id): Path<String>) -> Result<Response, ApiError> {
    Ok(Json(app.room_view(&id)?).into_response())
}

async fn room_pdn(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    Ok(pdn_file(app.room_pdn(&id)?, &id))
}

/// Whether a request for `host` (a `Host` header: a name or address, and perhaps a port) is
/// for this server: an IP address (a DNS-rebinding page reaches the server under its own
/// name, never an address), `localhost` and names under it, and the names of `allowed`
/// (`*`: any name).
pub fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let host = host.trim();
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => match host.rsplit_once(':') {
            Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) => name,
            _ => host,
        },
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    name.parse::<std::net::IpAddr>().is_ok()
        || name == "localhost"
        || name.ends_with(".localhost")
        || allowed.iter().any(|a| {
            let a = a.trim_end_matches('.');
            a == "*" || a.eq_ignore_ascii_case(&name) || a.eq_ignore_ascii_case(host)
        })
}

/// Refuses (421 Misdirected Request) a request whose `Host` names another server: see
/// [`host_allowed`]. A request without one (not from a browser) is served.
pub async fn check_host(
    State(allowed): State<Arc<Vec<String>>>,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    let host = req
        .headers()
        .get(header::HOST)
        .map(|h| h.to_str().unwrap_or("?").to_string());
    match host {
        Some(h) if !host_allowed(&h, &allowed) => {
            let shown: String = h.chars().take(100).collect();
            let msg = format!(
                "this server does not answer to the name {shown:?} (its --allowed-hosts option \
                 lists the names it answers to)"
            );
            let res = (
                StatusCode::MISDIRECTED_REQUEST,
                Json(serde_json::json!({ "error": msg })),
            );
            security_headers(res.into_response()).await
        }
        _ => next.run(req).await,
    }
}
