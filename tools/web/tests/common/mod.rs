//! What the API tests share: a server on a free loopback port, and WebSocket helpers.
// Each test file uses some of these, never all.
#![allow(dead_code)]

pub mod pg;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// A client's WebSocket.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Serves `config` on 127.0.0.1 (a free port): the WebSocket URL, the state, the server task.
pub async fn serve(
    config: damka_web::Config,
) -> (
    String,
    Arc<damka_web::app::App>,
    tokio::task::JoinHandle<()>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = config;
    config.db = pg::test_db(&config.db);
    let (app, router) = damka_web::serve(&config).unwrap();
    let task = tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    (format!("ws://{addr}/ws"), app, task)
}

/// A new connection to `url`.
pub async fn connect(url: &str) -> Ws {
    tokio_tungstenite::connect_async(url).await.unwrap().0
}

/// The next JSON message (20 s at most).
pub async fn next(ws: &mut Ws) -> Value {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .expect("the connection stays open")
            .expect("a good frame");
        if let Message::Text(t) = msg {
            if std::env::var_os("DEBUG_WS").is_some() {
                let v: Value = serde_json::from_str(t.as_str()).unwrap_or_default();
                let plies = v["room"]["moves"].as_array().map(Vec::len);
                let over = &v["room"]["status"];
                eprintln!("<- {} {plies:?} {over} {}", v["type"], v["message"]);
            }
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// The next message of `kind` whose test holds (states arrive for every change).
pub async fn wait_for(ws: &mut Ws, kind: &str, test: impl Fn(&Value) -> bool) -> Value {
    loop {
        let v = next(ws).await;
        if v["type"] == kind && test(&v) {
            return v;
        }
    }
}

/// Every message that arrives within `ms` milliseconds.
pub async fn drain(ws: &mut Ws, ms: u64) -> Vec<Value> {
    let mut out = Vec::new();
    let end = tokio::time::Instant::now() + Duration::from_millis(ms);
    while let Ok(Some(Ok(msg))) = tokio::time::timeout_at(end, ws.next()).await {
        if let Message::Text(t) = msg {
            out.push(serde_json::from_str(t.as_str()).unwrap());
        }
    }
    out
}

/// Sends a JSON message.
pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The next `seat` message: the room, the role and the token.
pub async fn seat(ws: &mut Ws) -> (String, String, Option<String>) {
    let s = wait_for(ws, "seat", |_| true).await;
    let token = s["token"].as_str().map(str::to_string);
    (
        s["room"].as_str().unwrap().to_string(),
        s["role"].as_str().unwrap().to_string(),
        token,
    )
}
