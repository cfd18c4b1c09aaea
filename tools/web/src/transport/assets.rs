//! The page's files, compiled into the binary: no build step, no network, works offline. Also
//! the service worker (`/sw.js`) that keeps them, and the in-browser engine's files where
//! `--wasm` names them, in the browser's cache (see docs/wasm.md, "Offline").

use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use sha1::{Digest, Sha1};

/// Every file the page is made of: name, content type, content.
pub const FILES: [(&str, &str, &[u8]); 24] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_bytes!("../../assets/index.html"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/style.css"),
    ),
    (
        "board.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/board.js"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/app.js"),
    ),
    (
        "local.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/local.js"),
    ),
    (
        "online.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/online.js"),
    ),
    (
        "animate.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/animate.js"),
    ),
    (
        "feel.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/feel.js"),
    ),
    (
        "start.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/start.js"),
    ),
    (
        "offline.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/offline.js"),
    ),
    (
        "moves.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/moves.js"),
    ),
    (
        "words.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/words.js"),
    ),
    (
        "premove.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/premove.js"),
    ),
    (
        "analysis.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/analysis.js"),
    ),
    (
        "review.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/review.js"),
    ),
    (
        "editor.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/editor.js"),
    ),
    (
        "engine-tools.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/engine-tools.js"),
    ),
    (
        "analysis.css",
        "text/css; charset=utf-8",
        include_bytes!("../../assets/analysis.css"),
    ),
    (
        "lobby.html",
        "text/html; charset=utf-8",
        include_bytes!("../../assets/lobby.html"),
    ),
    (
        "lobby.js",
        "text/javascript; charset=utf-8",
        include_bytes!("../../assets/lobby.js"),
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_bytes!("../../assets/favicon.svg"),
    ),
    (
        "manifest.webmanifest",
        "application/manifest+json",
        include_bytes!("../../assets/manifest.webmanifest"),
    ),
    (
        "icon-192.png",
        "image/png",
        include_bytes!("../../assets/icon-192.png"),
    ),
    (
        "icon-512.png",
        "image/png",
        include_bytes!("../../assets/icon-512.png"),
    ),
];

/// The file `name`, or a 404.
pub fn page(name: &str) -> Response {
    page_for(name, &HeaderMap::new())
}

/// The file `name` as an answer to a request with `headers` (a 304 when it has the file
/// already), or a 404.
pub fn page_for(name: &str, headers: &HeaderMap) -> Response {
    match FILES.iter().find(|(n, _, _)| *n == name) {
        Some((_, kind, body)) => cached_file(headers, kind, &etag(body), *body),
        None => (StatusCode::NOT_FOUND, "no such file").into_response(),
    }
}

/// A strong validator of `bytes`: a hash of them, quoted.
fn etag(bytes: &[u8]) -> String {
    let hash = Sha1::digest(bytes);
    format!("\"{}\"", hex(&hash[..10]))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A file with its ETag and `Cache-Control: no-cache` (the browser keeps it but asks each
/// time, getting a 304 when it has not changed: the names stay the same from one version to
/// the next, so a lifetime would keep an old page or engine after an upgrade).
fn cached_file(
    headers: &HeaderMap,
    kind: &'static str,
    tag: &str,
    body: impl Into<axum::body::Body>,
) -> Response {
    let unchanged = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == tag || t.trim() == "*"));
    let mut res = if unchanged {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        ([(header::CONTENT_TYPE, kind)], body.into()).into_response()
    };
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(tag) = HeaderValue::from_str(tag) {
        h.insert(header::ETAG, tag);
    }
    res
}

/// The files of the in-browser engine and their types.
const ENGINE_FILES: [(&str, &str); 4] = [
    ("damka-worker.js", "text/javascript; charset=utf-8"),
    ("damka-simd-jspi.wasm", "application/wasm"),
    ("damka-simd.wasm", "application/wasm"),
    ("damka.wasm", "application/wasm"),
];

/// The page's files that the service worker does not keep: the lobby needs the server.
const ONLINE_ONLY: [&str; 2] = ["lobby.html", "lobby.js"];

/// The service worker, as written; its `BUILD` line is filled in by [`service_worker`].
const SW_TEMPLATE: &str = include_str!("../../assets/sw.js");
const SW_BUILD_LINE: &str = "const BUILD = { version: \"\", files: [] };";

/// The service worker for these files: its BUILD line names them (relative to `/`) and their
/// version, a hash of their names and contents, so that a new binary or new engine files make
/// a new `sw.js` and the browser installs the new version.
fn service_worker(engine: &[(&str, &[u8])]) -> String {
    let mut files = vec![("./".to_string(), page_body("index.html"))];
    for (name, _, body) in FILES {
        if name != "index.html" && !ONLINE_ONLY.contains(&name) {
            files.push((format!("assets/{name}"), body));
        }
    }
    for (name, body) in engine {
        files.push((name.to_string(), body));
    }
    let mut hash = Sha1::new();
    for (name, body) in &files {
        hash.update((name.len() as u64).to_le_bytes());
        hash.update(name.as_bytes());
        hash.update((body.len() as u64).to_le_bytes());
        hash.update(body);
    }
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    let build = serde_json::json!({ "version": hex(&hash.finalize()[..8]), "files": names });
    SW_TEMPLATE.replacen(SW_BUILD_LINE, &format!("const BUILD = {build};"), 1)
}

fn page_body(name: &str) -> &'static [u8] {
    FILES
        .iter()
        .find(|(n, _, _)| *n == name)
        .map_or(&[][..], |(_, _, b)| *b)
}

/// `/sw.js` and, from `wasm` (read once, at start), the in-browser engine's files: the worker
/// script and its WebAssembly builds. A file not there is 404 (the page then plays on the
/// server) and is not in the service worker's list.
pub fn offline_files(wasm: Option<&std::path::Path>) -> Router {
    let mut r = Router::new();
    let mut engine: Vec<(&str, axum::body::Bytes)> = Vec::new();
    for (name, kind) in ENGINE_FILES {
        let Some(bytes) = wasm.and_then(|dir| std::fs::read(dir.join(name)).ok()) else {
            continue;
        };
        let bytes = axum::body::Bytes::from(bytes);
        engine.push((name, bytes.clone()));
        let tag = etag(&bytes);
        r = r.route(
            &format!("/{name}"),
            get(move |h: HeaderMap| async move { cached_file(&h, kind, &tag, bytes) }),
        );
    }
    let listed: Vec<(&str, &[u8])> = engine.iter().map(|(n, b)| (*n, &b[..])).collect();
    let sw = axum::body::Bytes::from(service_worker(&listed));
    let tag = etag(&sw);
    let kind = "text/javascript; charset=utf-8";
    r.route(
        "/sw.js",
        get(move |h: HeaderMap| async move { cached_file(&h, kind, &tag, sw) }),
    )
}
