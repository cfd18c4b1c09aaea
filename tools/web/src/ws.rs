//! The WebSocket the page talks over: one JSON object per message, each request answered by
//! the game's new state (sent to every connection watching that game), a hint, or an error.
//! A bad message (malformed, too large, illegal) gets `{"type":"error",...}` and the
//! connection goes on.

use crate::service::{ApiError, App, MoveRequest, NewGame};
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::Arc;
use tokio::sync::{broadcast, mpsc};
use tokio::task::JoinHandle;

/// The largest message the server reads; a larger one gets an error and is dropped.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// Beyond this the WebSocket layer itself refuses a message and closes the connection.
pub const HARD_LIMIT: usize = 1024 * 1024;

/// A request from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum Request {
    /// Start a game (the fields of the new-game form) and watch it.
    New(NewGame),
    /// Watch a game: its state now and after every change.
    Join { game: String },
    /// Play a move.
    Move {
        game: String,
        #[serde(rename = "move")]
        text: Option<String>,
        path: Option<Vec<String>>,
    },
    /// Take back a move.
    Undo { game: String },
    /// The engine's move and evaluation; `purpose` is echoed (`hint`, `eval`).
    Hint {
        game: String,
        purpose: Option<String>,
    },
    /// Answered by `pong`.
    Ping,
}

/// Upgrades the request to a WebSocket.
pub async fn upgrade(ws: WebSocketUpgrade, State(app): State<Arc<App>>) -> Response {
    ws.max_message_size(HARD_LIMIT)
        .on_upgrade(move |socket| serve(socket, app))
}

fn error(message: impl std::fmt::Display) -> Arc<str> {
    serde_json::json!({ "type": "error", "message": message.to_string() })
        .to_string()
        .into()
}

/// One connection: a writer task, the game it watches, and the requests it reads.
struct Connection {
    app: Arc<App>,
    out: mpsc::UnboundedSender<Arc<str>>,
    watched: Option<(String, JoinHandle<()>)>,
}

impl Connection {
    /// Watches game `id` (the last one asked for; a connection watches one game at a time).
    fn watch(&mut self, id: &str) -> Result<(), ApiError> {
        if self.watched.as_ref().is_some_and(|(w, _)| w == id) {
            return Ok(());
        }
        let mut rx = self.app.subscribe(id)?;
        let out = self.out.clone();
        let task = tokio::spawn(async move {
            loop {
                match rx.recv().await {
                    Ok(msg) => {
                        if out.send(msg).is_err() {
                            break;
                        }
                    }
                    // A slow page missed states: the next one is complete anyway.
                    Err(broadcast::error::RecvError::Lagged(_)) => continue,
                    Err(broadcast::error::RecvError::Closed) => break,
                }
            }
        });
        if let Some((_, old)) = self.watched.replace((id.to_string(), task)) {
            old.abort();
        }
        Ok(())
    }

    fn send_state(&self, id: &str) -> Result<(), ApiError> {
        let view = self.app.view(id)?;
        let msg = serde_json::json!({ "type": "state", "game": view }).to_string();
        let _ = self.out.send(msg.into());
        Ok(())
    }

    fn handle(&mut self, text: &str) -> Result<(), ApiError> {
        if text.len() > MAX_MESSAGE {
            return Err(ApiError::TooLarge(MAX_MESSAGE));
        }
        let req: Request = serde_json::from_str(text)
            .map_err(|e| ApiError::Bad(format!("malformed request: {e}")))?;
        match req {
            Request::New(form) => {
                let view = self.app.new_game(&form)?;
                self.watch(&view.id)?;
                self.send_state(&view.id)?;
                self.app.kick(&view.id)?;
            }
            Request::Join { game } => {
                self.watch(&game)?;
                self.send_state(&game)?;
                self.app.kick(&game)?;
            }
            Request::Move { game, text, path } => {
                self.watch(&game)?;
                self.app.play(&game, &MoveRequest { text, path })?;
            }
            Request::Undo { game } => {
                self.watch(&game)?;
                self.app.undo(&game)?;
            }
            Request::Hint { game, purpose } => {
                let (app, out) = (self.app.clone(), self.out.clone());
                // A search takes time: the connection reads on meanwhile.
                tokio::spawn(async move {
                    let msg = match app.hint(&game).await {
                        Ok(h) => {
                            let mut v = serde_json::json!(h);
                            v["type"] = "hint".into();
                            v["purpose"] = purpose.unwrap_or_else(|| "hint".into()).into();
                            v.to_string().into()
                        }
                        Err(e) => error(e),
                    };
                    let _ = out.send(msg);
                });
            }
            Request::Ping => {
                let _ = self.out.send(r#"{"type":"pong"}"#.into());
            }
        }
        Ok(())
    }
}

async fn serve(socket: WebSocket, app: Arc<App>) {
    let (mut sink, mut stream) = socket.split();
    let (out, mut queue) = mpsc::unbounded_channel::<Arc<str>>();
    let writer = tokio::spawn(async move {
        while let Some(msg) = queue.recv().await {
            if sink
                .send(Message::Text(Utf8Bytes::from(msg.as_ref())))
                .await
                .is_err()
            {
                break;
            }
        }
    });
    let mut conn = Connection {
        app,
        out: out.clone(),
        watched: None,
    };
    while let Some(msg) = stream.next().await {
        let result = match msg {
            Ok(Message::Text(t)) => conn.handle(t.as_str()),
            Ok(Message::Binary(b)) => match std::str::from_utf8(&b) {
                Ok(t) => conn.handle(t),
                Err(_) => Err(ApiError::Bad("binary messages must be UTF-8 JSON".into())),
            },
            Ok(Message::Close(_)) => break,
            Ok(_) => Ok(()),
            // Too large for the WebSocket layer, or a broken connection: it cannot go on.
            Err(_) => break,
        };
        if let Err(e) = result {
            let _ = out.send(error(e));
        }
    }
    if let Some((_, task)) = conn.watched.take() {
        task.abort();
    }
    drop(conn);
    drop(out);
    let _ = writer.await;
}
