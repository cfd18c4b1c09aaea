//! The page's files, compiled into the binary: no build step, no network, works offline.

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// Every file the page is made of: name, content type, content.
pub const FILES: [(&str, &str, &str); 14] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/board.js"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "local.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/local.js"),
    ),
    (
        "online.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/online.js"),
    ),
    (
        "animate.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/animate.js"),
    ),
    (
        "feel.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/feel.js"),
    ),
    (
        "start.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/start.js"),
    ),
    (
        "moves.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/moves.js"),
    ),
    (
        "words.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/words.js"),
    ),
    (
        "lobby.html",
        "text/html; charset=utf-8",
        include_str!("../assets/lobby.html"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/lobby.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("../assets/favicon.svg"),
    ),
];

/// The file `name`, or a 404.
pub fn page(name: &str) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => ([(header::CONTENT_TYPE, *kind)], *body).into_response(),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}
