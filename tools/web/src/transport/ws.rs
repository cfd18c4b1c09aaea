//! The WebSocket the page talks over: one JSON object per message, each request answered by
//! the game's new state (sent to every connection watching that game), a hint, or an error.
//! A bad message (malformed, too large, illegal, over the rate limit) gets
//! `{"type":"error",...}` and the connection goes on. A connection is in at most one local
//! game or online room at a time; in a room its seat (player or spectator) is fixed when it
//! enters, so no later message can move for a seat it does not hold.

use crate::app::App;
use crate::local::analysis::{self, PositionAsk};
use crate::local::service::{Hint, MoveRequest, NewGame};
use crate::online::{NewRoom, Seat};
use crate::transport::api::ApiError;
use crate::transport::guard::Client;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{broadcast, mpsc, Notify};
use tokio::task::JoinHandle;

/// Messages waiting to be written to one connection; beyond them a page that does not read gets
/// no direct answers, and the oldest states of its game or room are dropped (the next is whole).
pub const OUT_QUEUE: usize = 64;

/// Bytes of messages waiting to be written to one connection: a page that lets more pile up
/// does not read, and is dropped (however large a game's state, one message always passes).
pub const MAX_QUEUED_BYTES: usize = 1024 * 1024;

/// How often the server pings a connection (browsers answer by themselves), so that a page
/// that reads and answers is never idle in the sense of [`crate::transport::guard::NetLimits`].
pub const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// The writer's queue of one connection, counted in bytes; a connection whose queue
/// overflows is closed (see [`MAX_QUEUED_BYTES`]).
#[derive(Clone)]
struct Out {
    tx: mpsc::Sender<Arc<str>>,
    queued: Arc<AtomicUsize>,
    kill: Arc<Notify>,
}

impl Out {
    /// Queues a message; false (and the connection is being closed) if the page does not
    /// read.
    fn push(&self, msg: Arc<str>) -> bool {
        let len = msg.len();
        let queued = self.queued.load(Ordering::SeqCst);
        if queued > 0 && queued + len > MAX_QUEUED_BYTES {
            self.kill.notify_one();
            return false;
        }
        self.queued.fetch_add(len, Ordering::SeqCst);
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.queued.fetch_sub(len, Ordering::SeqCst);
                self.kill.notify_one();
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                self.queued.fetch_sub(len, Ordering::SeqCst);
                false
            }
        }
    }
}

/// The largest message the server reads; a larger one gets an error and is dropped.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// Beyond this the WebSocket layer itself refuses a message and closes the connection.
pub const HARD_LIMIT: usize = 1024 * 1024;
/// The WebSocket layer's read buffer per connection, bytes (a longer message still arrives:
/// it is read in several parts).
pub const READ_BUFFER: usize = 8 * 1024;

/// The WebSocket layer's write buffer per connection, bytes: frames are gathered up to this
/// before they are written.
pub const WRITE_BUFFER: usize = 16 * 1024;
/// Bytes the WebSocket layer may hold unwritten for one connection (the answers to a client's
/// pings among them): a client that sends pings and never reads cannot make it grow further
/// (before, every pong was buffered without limit).
pub const MAX_WRITE_BUFFER: usize = 256 * 1024;

/// A request from the page.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum Request {
    /// Start a game (the fields of the new-game form) and watch it.
    New(NewGame),
    /// Watch a game: its state now and after every change.
    Join { game: String },
    /// Play a move (`token`: the game's owner secret).
    Move {
        game: String,
        #[serde(rename = "move")]
        text: Option<String>,
        path: Option<Vec<String>>,
        token: Option<String>,
    },
    /// Take back a move.
    Undo { game: String, token: Option<String> },
    /// The engine's move and evaluation; `purpose` is echoed (`hint`, `eval`).
    Hint {
        game: String,
        purpose: Option<String>,
    },
    /// Answered by `pong`.
    Ping,
    /// Open an online room (the creator takes a seat) and enter it.
    Create(NewRoom),
    /// Enter a room: the seat `token` holds, else the free seat (unless `watch`), else watch.
    Enter {
        room: String,
        token: Option<String>,
        watch: Option<bool>,
    },
    /// A player's move in the room.
    Play {
        room: String,
        #[serde(rename = "move")]
        text: Option<String>,
        path: Option<Vec<String>>,
    },
    /// A spectator's proposal for the next move.
    Propose {
        room: String,
        #[serde(rename = "move")]
        text: Option<String>,
        path: Option<Vec<String>>,
    },
    /// The player resigns.
    Resign { room: String },
    /// The player offers a draw, or accepts the opponent's offer.
    Draw { room: String },
    /// The player declines the opponent's draw offer.
    Decline { room: String },
    /// The player aborts the game (before its first move only).
    Abort { room: String },
    /// The player offers a rematch, or accepts the opponent's offer.
    Rematch { room: String },
    /// A spectator asks for the engine's opinion (answered by `opinion`).
    Opinion { room: String },
    /// The engine's best lines in a position (answered by `analysis`).
    Analyse(PositionAsk),
    /// Review a game (`review-progress` after each position, then `review`); a game's kept
    /// review when it has one of these moves.
    Review(PositionAsk),
    /// Stop the running review.
    #[serde(rename = "review-cancel")]
    ReviewCancel,
}

/// Messages per second a connection may send, refilled continuously; a burst of `2 * rate`
/// passes. Beyond it messages are refused (one error per burst, so the answers do not flood
/// back), and a connection that keeps on is closed.
struct Bucket {
    rate: f64,
    tokens: f64,
    last: Instant,
    refused: u32,
}

/// Refused messages after which a connection is closed.
pub const FLOOD_CLOSE: u32 = 500;

impl Bucket {
    fn new(rate: u32) -> Bucket {
        let rate = f64::from(rate.max(1));
        Bucket {
            rate,
            tokens: 2.0 * rate,
            last: Instant::now(),
            refused: 0,
        }
    }

    /// Takes one message's token: `Ok` to serve it, `Err(first)` if refused (`first`: the
    /// first refused since the last one served).
    fn take(&mut self) -> Result<(), bool> {
        let now = Instant::now();
        let refill = now.duration_since(self.last).as_secs_f64() * self.rate;
        self.tokens = (self.tokens + refill).min(2.0 * self.rate);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            self.refused = 0;
            Ok(())
        } else {
            self.refused += 1;
            Err(self.refused == 1)
        }
    }
}

/// Whether a page of `origin` may open the WebSocket: the server's own origin (the request's
/// `Host`), or one of `allowed`. Without an `Origin` header the client is no browser, and no
/// page can act through it.
pub fn origin_allowed(origin: Option<&str>, host: Option<&str>, allowed: &[String]) -> bool {
    let Some(origin) = origin else { return true };
    let own = host.is_some_and(|h| {
        origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
            .is_some_and(|o| o.eq_ignore_ascii_case(h))
    });
    own || allowed
        .iter()
        .any(|a| a == "*" || a.trim_end_matches('/').eq_ignore_ascii_case(origin))
}

/// Upgrades the request to a WebSocket, if it comes from an allowed origin.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Client(client): Client,
    headers: axum::http::HeaderMap,
) -> Response {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    let origin = text(axum::http::header::ORIGIN);
    if !origin_allowed(origin, text(axum::http::header::HOST), &app.origins) {
        return (
            axum::http::StatusCode::FORBIDDEN,
            axum::Json(serde_json::json!({
                "error": format!("pages of {} may not use this server", origin.unwrap_or("?"))
            })),
        )
            .into_response();
    }
    // A small read buffer: the page's messages are short, and the default 128 KiB per
    // connection was most of the server's memory with a thousand spectators
    // (`docs/performance.md`, "Online play load test"). One frame is held whole until it ends:
    // its cap is the message's, not tungstenite's 16 MiB.
    ws.max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_WRITE_BUFFER)
        .on_upgrade(move |socket| serve(socket, app, client))
}

fn error(message: impl std::fmt::Display) -> Arc<str> {
    serde_json::json!({ "type": "error", "message": message.to_string() })
        .to_string()
        .into()
}

/// One connection: a writer task, the game or room it is in, and the requests it reads.
struct Connection {
    app: Arc<App>,
    out: Out,
    /// The local game or room watched, and the tasks forwarding its messages.
    watched: Option<(String, Vec<JoinHandle<()>>)>,
    /// Its seat, when in a room.
    seat: Option<Seat>,
    /// The client's address, when known.
    client: Option<std::net::IpAddr>,
    /// The running review's cancel flag and whether it still runs.
    review: Option<(Arc<AtomicBool>, Arc<AtomicBool>)>,
}

/// Forwards a game's or room's messages to the connection's writer.
fn forward(mut rx: broadcast::Receiver<Arc<str>>, out: Out) -> JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(msg) => {
                    if !out.push(msg) {
                        break;
                    }
                }
                // A slow page missed states: the next one is complete anyway.
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => break,
            }
        }
    })
}

/// Sends a search's answer (a hint, an engine opinion) as a `kind` message when it comes; the
/// connection reads on meanwhile.
fn reply_later(
    out: &Out,
    kind: &'static str,
    purpose: Option<String>,
    search: impl std::future::Future<Output = Result<Hint, ApiError>> + Send + 'static,
) {
    let out = out.clone();
    tokio::spawn(async move {
        let msg = match search.await {
            Ok(h) => {
                let mut v = serde_json::json!(h);
                v["type"] = kind.into();
                if let Some(p) = purpose {
                    v["purpose"] = p.into();
                }
                v.to_string().into()
            }
            Err(e) => error(e),
        };
        out.push(msg);
    });
}

impl Connection {
    /// Stops hearing the game or room watched, and leaves the room's seat.
    fn unwatch(&mut self) {
        if let Some((_, tasks)) = self.watched.take() {
            tasks.iter().for_each(JoinHandle::abort);
        }
        if let Some(seat) = self.seat.take() {
            self.app.leave_room(&seat);
        }
    }

    /// Watches local game `id` (a connection watches one game or room at a time).
    fn watch(&mut self, id: &str) -> Result<(), ApiError> {
        // Watched already, unless its game was dropped from memory (its channel closed).
        let live = |(w, tasks): &(String, Vec<JoinHandle<()>>)| {
            w == id && tasks.iter().all(|t| !t.is_finished())
        };
        if self.seat.is_none() && self.watched.as_ref().is_some_and(live) {
            return Ok(());
        }
        let rx = self.app.subscribe(id)?;
        self.unwatch();
        self.watched = Some((id.to_string(), vec![forward(rx, self.out.clone())]));
        Ok(())
    }

    /// The seat in room `room`, which the connection must have entered.
    fn seat(&self, room: &str) -> Result<&Seat, ApiError> {
        self.seat
            .as_ref()
            .filter(|s| s.room == room)
            .ok_or_else(|| ApiError::Bad(format!("enter room {room} first")))
    }

    fn enter(&mut self, room: &str, token: Option<&str>, watch: bool) -> Result<(), ApiError> {
        let entered = self.app.enter_room_for(room, token, watch, self.client)?;
        self.unwatch();
        for m in entered.first {
            self.out.push(m.into());
        }
        let mut tasks = vec![forward(entered.events, self.out.clone())];
        tasks.extend(entered.watch_events.map(|rx| forward(rx, self.out.clone())));
        self.watched = Some((room.to_string(), tasks));
        self.seat = Some(entered.seat);
        Ok(())
    }

    fn send_state(&self, id: &str) -> Result<(), ApiError> {
        let view = self.app.view(id)?;
        let msg = serde_json::json!({ "type": "state", "game": view }).to_string();
        self.out.push(msg.into());
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
                let view = self.app.new_game_for(&form, self.client)?;
                // The owner's secret goes to this connection alone, before the state.
                let owner =
                    serde_json::json!({"type": "owner", "game": view.id, "token": view.token});
                self.out.push(owner.to_string().into());
                self.watch(&view.id)?;
                self.send_state(&view.id)?;
                self.app.kick(&view.id)?;
            }
            Request::Join { game } => {
                self.watch(&game)?;
                self.send_state(&game)?;
                self.app.kick(&game)?;
            }
            Request::Move {
                game,
                text,
                path,
                token,
            } => {
                self.watch(&game)?;
                self.app.play(&game, &MoveRequest { text, path, token })?;
            }
            Request::Undo { game, token } => {
                self.watch(&game)?;
                self.app.undo(&game, token.as_deref())?;
            }
            Request::Hint { game, purpose } => {
                let app = self.app.clone();
                let purpose = purpose.unwrap_or_else(|| "hint".into());
                let (share, client) = (app.engine_share(self.client)?, self.client);
                reply_later(&self.out, "hint", Some(purpose), async move {
                    let answer = app.hint(&game, client).await;
                    drop(share);
                    answer
                });
            }
            Request::Ping => {
                self.out.push(r#"{"type":"pong"}"#.into());
            }
            req => self.handle_room(req)?,
        }
        Ok(())
    }

    fn handle_room(&mut self, req: Request) -> Result<(), ApiError> {
        match req {
            Request::Create(form) => {
                let seat = self.app.create_room_for(&form, self.client)?;
                self.enter(&seat.room, seat.token.as_deref(), false)?;
            }
            Request::Enter { room, token, watch } => {
                self.enter(&room, token.as_deref(), watch.unwrap_or(false))?
            }
            Request::Play { room, text, path } => {
                let seat = self.seat(&room)?;
                self.app.room_play(seat, path.as_deref(), text.as_deref())?;
            }
            Request::Propose { room, text, path } => {
                let seat = self.seat(&room)?;
                self.app
                    .room_propose(seat, text.as_deref(), path.as_deref())?;
            }
            Request::Resign { room } => self.app.room_resign(self.seat(&room)?)?,
            Request::Draw { room } => self.app.room_draw(self.seat(&room)?)?,
            Request::Decline { room } => self.app.room_decline(self.seat(&room)?)?,
            Request::Abort { room } => self.app.room_abort(self.seat(&room)?)?,
            Request::Rematch { room } => {
                let client = self.client;
                self.app.room_rematch(self.seat(&room)?, client)?
            }
            Request::Opinion { room } => {
                let seat = self.seat(&room)?.clone();
                let app = self.app.clone();
                let (share, client) = (app.engine_share(self.client)?, self.client);
                reply_later(&self.out, "opinion", None, async move {
                    let answer = app.room_opinion(&seat, client).await;
                    drop(share);
                    answer
                });
            }
            Request::Analyse(ask) => {
                let app = self.app.clone();
                let (share, client) = (app.engine_share(self.client)?, self.client);
                let out = self.out.clone();
                tokio::spawn(async move {
                    let msg = app.analysis_message(&ask, client).await;
                    drop(share);
                    out.push(msg);
                });
            }
            Request::Review(ask) => self.review(ask)?,
            Request::ReviewCancel => match &self.review {
                Some((cancel, running)) if running.load(Ordering::SeqCst) => {
                    cancel.store(true, Ordering::SeqCst)
                }
                _ => return Err(ApiError::Bad("no review is running".into())),
            },
            _ => {}
        }
        Ok(())
    }

    /// Starts a review of `ask`'s game (one at a time per connection), or answers with the
    /// review kept with its server game.
    fn review(&mut self, ask: PositionAsk) -> Result<(), ApiError> {
        if self
            .review
            .as_ref()
            .is_some_and(|(_, running)| running.load(Ordering::SeqCst))
        {
            return Err(ApiError::Bad(
                "a review is already running: wait for it or cancel it first".into(),
            ));
        }
        if let Some(kept) = ask.game.as_deref().and_then(|id| self.app.kept_review(id)) {
            self.out.push(analysis::tagged("review", kept));
            return Ok(());
        }
        let app = self.app.clone();
        let (share, client) = (app.engine_share(self.client)?, self.client);
        let (cancel, running) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicBool::new(true)),
        );
        self.review = Some((cancel.clone(), running.clone()));
        let out = self.out.clone();
        tokio::spawn(async move {
            let progress = out.clone();
            let msg = app
                .review_message(&ask, client, cancel, move |m| progress.push(m))
                .await;
            drop(share);
            running.store(false, Ordering::SeqCst);
            out.push(msg);
        });
        Ok(())
    }
}

async fn serve(socket: WebSocket, app: Arc<App>, client: Option<std::net::IpAddr>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut queue) = mpsc::channel::<Arc<str>>(OUT_QUEUE);
    let out = Out {
        tx,
        queued: Arc::new(AtomicUsize::new(0)),
        kill: Arc::new(Notify::new()),
    };
    let queued = out.queued.clone();
    let mut writer = tokio::spawn(async move {
        let mut ping = tokio::time::interval(PING_EVERY);
        ping.tick().await;
        loop {
            tokio::select! {
                m = queue.recv() => {
                    let Some(msg) = m else { break };
                    let sent = sink
                        .send(Message::Text(Utf8Bytes::from(msg.as_ref())))
                        .await;
                    queued.fetch_sub(msg.len(), Ordering::SeqCst);
                    if sent.is_err() {
                        break;
                    }
                }
                _ = ping.tick() => {
                    if sink.send(Message::Ping(Default::default())).await.is_err() {
                        break;
                    }
                }
            }
        }
    });
    let kill = out.kill.clone();
    let mut conn = Connection {
        app: app.clone(),
        out: out.clone(),
        watched: None,
        seat: None,
        client,
        review: None,
    };
    let mut bucket = Bucket::new(app.online.limits.rate);
    let mut killed = false;
    loop {
        let next = tokio::select! {
            m = stream.next() => m,
            _ = kill.notified() => {
                killed = true;
                break;
            }
        };
        let Some(msg) = next else { break };
        let text = match msg {
            Ok(Message::Text(t)) => Ok(t.to_string()),
            Ok(Message::Binary(b)) => String::from_utf8(b.to_vec())
                .map_err(|_| ApiError::Bad("binary messages must be UTF-8 JSON".into())),
            Ok(Message::Close(_)) => break,
            // A ping or pong costs an answer or a read like any message: it takes its token,
            // and a flood of them closes the connection.
            Ok(_) => match bucket.take() {
                Err(_) if bucket.refused >= FLOOD_CLOSE => break,
                _ => continue,
            },
            // Too large for the WebSocket layer, or a broken connection: it cannot go on.
            Err(_) => break,
        };
        let result = match bucket.take() {
            Ok(()) => text.and_then(|t| conn.handle(&t)),
            Err(_) if bucket.refused >= FLOOD_CLOSE => break,
            Err(true) => Err(ApiError::Limit(format!(
                "too many messages: at most {} a second (this one and the next are dropped until then)",
                app.online.limits.rate
            ))),
            Err(false) => Ok(()),
        };
        if let Err(e) = result {
            out.push(error(e));
        }
    }
    conn.unwatch();
    drop(conn);
    drop(out);
    // A page that does not read would hold the writer for ever: it is stopped, not awaited.
    if killed
        || tokio::time::timeout(std::time::Duration::from_secs(5), &mut writer)
            .await
            .is_err()
    {
        writer.abort();
    }
}
