//! Several damka-web nodes on one PostgreSQL database (`--database postgres://...`).
//!
//! - **Ownership**: a room is played on one node at a time, the one holding its row in
//!   `leases` (renewed every [`TICK`], lapsing [`LEASE_MS`] after the last renewal, by the
//!   database's clock). Every save of a room first renews its lease *for this node* in the same
//!   transaction, so a node that lost a room (stalled, cut off) cannot overwrite what the new
//!   owner did. A node asked about a room another live node holds forwards the request to it
//!   (see `cluster/ops.rs`); a room whose lease lapsed (its node died) is taken over by the
//!   first node that needs it or sweeps for it, its running clock counted on from its last
//!   save.
//! - **Fan-out**: PostgreSQL `LISTEN/NOTIFY`, on the connection every node already has, so a
//!   site needs no other server. The owner notifies `damka_room_<id>` in the transaction that
//!   saves a change (delivered only if it commits, after it); nodes with pages in that room
//!   listen there, read the room back and send its state to their pages. Requests between
//!   nodes and their answers go on `damka_node_<id>`. Notifications may be lost (a connection
//!   that drops): every state is complete and carries its version, and a node whose listening
//!   connection comes back sends every room it watches again; a page that reconnects enters
//!   again and gets the whole room.

pub mod ops;

use crate::db::postgres::{self, PgThread};
use crate::db::{Db, Stmt, Value};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio_postgres::AsyncMessage;

/// How long a lease lasts after its last renewal, milliseconds: a node that dies gives its
/// rooms up this long after.
pub const LEASE_MS: i64 = 5_000;
/// How often a node renews its leases and looks for rooms whose lease lapsed.
pub const TICK: Duration = Duration::from_secs(1);
/// How long a node waits for another's answer to a forwarded request.
pub const RPC_TIMEOUT: Duration = Duration::from_secs(3);
/// The largest notification payload sent (PostgreSQL refuses 8,000 bytes and more).
pub const MAX_PAYLOAD: usize = 7_000;

/// The database's clock in milliseconds: leases never depend on the nodes' clocks.
const DB_NOW: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// What the listening connection hands to the server.
pub enum Inbound {
    /// A change in a room this node watches: its channel's payload.
    Event(String, serde_json::Value),
    /// A request from another node.
    Request(serde_json::Value),
    /// Notifications may have been missed (the listening connection came back).
    Resync,
}

type Pending = Arc<Mutex<HashMap<u64, std::sync::mpsc::Sender<serde_json::Value>>>>;

/// A room's two broadcast channels on this node (everyone; spectators only), shared by the
/// room while this node holds it and by the pages that watch it from here when another does.
pub type Channels = (broadcast::Sender<Arc<str>>, broadcast::Sender<Arc<str>>);

/// This node of a site of several.
pub struct Cluster {
    /// This node's id (random, new at every start).
    pub node: String,
    thread: PgThread,
    watched: Arc<Mutex<HashSet<String>>>,
    nudge: mpsc::UnboundedSender<()>,
    pending: Pending,
    next_request: AtomicU64,
    inbox: Mutex<Option<mpsc::UnboundedReceiver<Inbound>>>,
    channels: Mutex<HashMap<String, Channels>>,
    /// The last event heard for each watched room (sent again after a resync).
    pub(crate) last_event: Mutex<HashMap<String, serde_json::Value>>,
}

/// Whether `id` is fit for a channel's name (room ids are `r` and hex).
fn channel_safe(id: &str) -> bool {
    !id.is_empty() && id.len() <= 40 && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Logs a notification that is ignored: at most [`LOG_BURST`] lines every ten seconds (a
/// room's last events after its pages here left are ignored too, and a flood of bad
/// notifications must not fill the log), each payload cut to 120 characters.
pub fn ignored(what: &str, payload: &str) {
    static WINDOW: Mutex<(Option<std::time::Instant>, u32)> = Mutex::new((None, 0));
    let mut w = lock(&WINDOW);
    let now = std::time::Instant::now();
    if w.0
        .is_none_or(|t| now.duration_since(t) > Duration::from_secs(10))
    {
        if w.1 > LOG_BURST {
            eprintln!("damka-web: ignored {} more notifications", w.1 - LOG_BURST);
        }
        *w = (Some(now), 0);
    }
    w.1 += 1;
    if w.1 <= LOG_BURST {
        let cut: String = payload.chars().take(120).collect();
        eprintln!("damka-web: ignored a notification ({what}): {cut}");
    }
}

/// Lines about ignored notifications logged every ten seconds at most.
pub const LOG_BURST: u32 = 10;

impl Cluster {
    /// Joins the site whose database is at `url`: starts listening for this node's requests
    /// and sets `db`'s saves to guard the lease and notify the other nodes.
    pub fn join(url: &str, db: &mut Db) -> Result<Arc<Cluster>, String> {
        let bytes = crate::transport::api::random_bytes::<6>().map_err(|e| e.to_string())?;
        let node: String = std::iter::once("n".to_string())
            .chain(bytes.iter().map(|b| format!("{b:02x}")))
            .collect();
        let config = postgres::config(url)?;
        let thread = PgThread::start("damka-listen")?;
        let (nudge, nudges) = mpsc::unbounded_channel();
        let (inbox_tx, inbox) = mpsc::unbounded_channel();
        let cluster = Arc::new(Cluster {
            node: node.clone(),
            thread,
            watched: Arc::default(),
            nudge,
            pending: Arc::default(),
            next_request: AtomicU64::new(1),
            inbox: Mutex::new(Some(inbox)),
            channels: Mutex::default(),
            last_event: Mutex::default(),
        });
        let (watched, pending) = (cluster.watched.clone(), cluster.pending.clone());
        let (ready_tx, ready) = std::sync::mpsc::channel();
        cluster.thread.spawn(listen(
            config,
            format!("damka_node_{node}"),
            watched,
            nudges,
            pending,
            (inbox_tx, ready_tx),
        ));
        // A node serves once it hears the others (a request sent before would be lost).
        if postgres::wait(&ready, postgres::CALL_TIMEOUT).is_none() {
            return Err(format!(
                "cannot listen to the database at {}",
                postgres::redact(url)
            ));
        }
        let me = node.clone();
        db.hooks = Some(Box::new(move |room| {
            let guard = Stmt::guard(
                &format!("UPDATE leases SET expires = {DB_NOW} + {LEASE_MS} WHERE room = $1 AND node = $2"),
                vec![Value::Text(room.id.clone()), Value::Text(me.clone())],
            );
            let mut event = serde_json::json!({
                "node": me, "kind": "room", "version": room.version,
                "spectators": room.spectators, "last": room.last_tally,
            });
            if event.to_string().len() > MAX_PAYLOAD {
                event["last"] = serde_json::Value::Null;
            }
            (guard, notify_stmt(&room.id, &event))
        }));
        Ok(cluster)
    }

    /// The server's end of the notifications (taken once, by [`crate::app::App`]'s start).
    pub fn take_inbox(&self) -> Option<mpsc::UnboundedReceiver<Inbound>> {
        lock(&self.inbox).take()
    }

    /// Room `id`'s channels on this node (made when missing), listening to its notifications.
    pub fn channels(&self, id: &str) -> Channels {
        let mut all = lock(&self.channels);
        let pair = all
            .entry(id.to_string())
            .or_insert_with(|| (broadcast::channel(64).0, broadcast::channel(64).0))
            .clone();
        if channel_safe(id) && lock(&self.watched).insert(id.to_string()) {
            let _ = self.nudge.send(());
        }
        pair
    }

    /// Room `id`'s channels if this node has them.
    pub fn channels_of(&self, id: &str) -> Option<Channels> {
        lock(&self.channels).get(id).cloned()
    }

    /// The rooms whose channels this node has.
    pub fn watched_rooms(&self) -> Vec<String> {
        lock(&self.channels).keys().cloned().collect()
    }

    /// Forgets the channels nobody here listens to (except those of the rooms in `held`).
    pub fn drop_unused(&self, held: &HashSet<String>) {
        let mut all = lock(&self.channels);
        let before = all.len();
        all.retain(|id, (a, b)| held.contains(id) || a.receiver_count() + b.receiver_count() > 0);
        if all.len() != before {
            let mut watched = lock(&self.watched);
            watched.retain(|id| all.contains_key(id));
            lock(&self.last_event).retain(|id, _| all.contains_key(id));
            let _ = self.nudge.send(());
        }
    }

    /// Takes room `id`'s lease if nobody else holds it (the room must exist): true if this
    /// node holds it now.
    pub fn acquire(&self, db: &Db, id: &str) -> Result<bool, String> {
        db.backend().transaction(&[Stmt::guard(
            &format!(
                "INSERT INTO leases (room, node, expires)
                     SELECT $1, $2, {DB_NOW} + {LEASE_MS} WHERE EXISTS (SELECT 1 FROM rooms WHERE id = $1)
                 ON CONFLICT (room) DO UPDATE SET node = $2, expires = {DB_NOW} + {LEASE_MS}
                     WHERE leases.node = $2 OR leases.expires < {DB_NOW}"
            ),
            vec![Value::Text(id.into()), Value::Text(self.node.clone())],
        )])
    }

    /// Takes the lease of a new room (its id is fresh).
    pub fn claim(&self, db: &Db, id: &str) -> Result<bool, String> {
        db.backend().transaction(&[Stmt::guard(
            &format!("INSERT INTO leases (room, node, expires) VALUES ($1, $2, {DB_NOW} + {LEASE_MS}) ON CONFLICT (room) DO NOTHING"),
            vec![Value::Text(id.into()), Value::Text(self.node.clone())],
        )])
    }

    /// The node holding room `id`'s lease, if it has not lapsed.
    pub fn owner(&self, db: &Db, id: &str) -> Result<Option<String>, String> {
        let rows = db.backend().query(
            &format!("SELECT node FROM leases WHERE room = $1 AND expires >= {DB_NOW}"),
            &[Value::Text(id.into())],
        )?;
        Ok(rows
            .first()
            .and_then(|r| r.first())
            .and_then(Value::text_value))
    }

    /// Renews this node's leases of games not over and of finished games in `occupied` (a
    /// player of theirs is still in the room here, so a rematch can be offered and accepted
    /// where the players' presence is counted); the leases of other finished games go (such
    /// a game needs no owner, and the leases must not pile up): the rooms it still holds.
    pub fn renew(&self, db: &Db, occupied: &HashSet<String>) -> Result<HashSet<String>, String> {
        // Room ids are letters and digits, so a comma-separated list passes them as one value.
        let kept: Vec<&str> = occupied.iter().map(String::as_str).collect();
        db.backend().transaction(&[Stmt::new(
            "DELETE FROM leases WHERE node = $1 AND room IN (SELECT id FROM rooms WHERE over = 1) \
             AND NOT (room = ANY(string_to_array($2, ',')))",
            vec![Value::Text(self.node.clone()), Value::Text(kept.join(","))],
        )])?;
        let rows = db.backend().query(
            &format!(
                "UPDATE leases SET expires = {DB_NOW} + {LEASE_MS} WHERE node = $1 RETURNING room"
            ),
            &[Value::Text(self.node.clone())],
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| r.first().and_then(Value::text_value))
            .collect())
    }

    /// Games not over whose lease lapsed or that have none (their node died or stopped).
    pub fn orphans(&self, db: &Db, limit: usize) -> Result<Vec<String>, String> {
        let rows = db.backend().query(
            &format!(
                "SELECT r.id FROM rooms r LEFT JOIN leases l ON l.room = r.id
                 WHERE r.over = 0 AND (l.room IS NULL OR l.expires < {DB_NOW})
                 ORDER BY r.created LIMIT $1"
            ),
            &[Value::Int(limit as i64)],
        )?;
        Ok(rows
            .iter()
            .filter_map(|r| r.first().and_then(Value::text_value))
            .collect())
    }

    /// Gives every lease of this node up (a clean stop: other nodes take the rooms at once).
    pub fn release(&self, db: &Db) -> Result<(), String> {
        db.backend().transaction(&[Stmt::new(
            "DELETE FROM leases WHERE node = $1",
            vec![Value::Text(self.node.clone())],
        )])?;
        Ok(())
    }

    /// Tells the nodes watching room `id` about `event` (a small message: the spectators'
    /// count, the proposals), after this node's change.
    pub fn publish(&self, db: &Db, id: &str, kind: &str, msg: &str) {
        let event = serde_json::json!({"node": self.node, "kind": kind, "msg": msg});
        if event.to_string().len() > MAX_PAYLOAD {
            return;
        }
        if let Err(e) = db.backend().transaction(&[notify_stmt(id, &event)]) {
            eprintln!("damka-web: room {id}: cannot notify the other nodes: {e}");
        }
    }

    /// Sends `request` to node `to` and waits for its answer ([`RPC_TIMEOUT`] at most).
    pub fn request(
        &self,
        db: &Db,
        to: &str,
        mut request: serde_json::Value,
    ) -> Result<serde_json::Value, Unanswered> {
        let n = self.next_request.fetch_add(1, Ordering::Relaxed);
        request["req"] = n.into();
        request["from"] = self.node.clone().into();
        if request.to_string().len() > MAX_PAYLOAD {
            // A request fits in a notification (a move is a few squares).
            return Err(Unanswered::TooLarge);
        }
        let (tx, rx) = std::sync::mpsc::channel();
        lock(&self.pending).insert(n, tx);
        let sent = db.backend().transaction(&[Stmt::new(
            "SELECT pg_notify($1, $2)",
            vec![
                Value::Text(format!("damka_node_{to}")),
                Value::Text(request.to_string()),
            ],
        )]);
        let answer = match sent {
            Ok(_) => postgres::wait(&rx, RPC_TIMEOUT).ok_or(Unanswered::Silent),
            Err(e) => Err(Unanswered::Refused(e)),
        };
        lock(&self.pending).remove(&n);
        answer
    }

    /// Answers request `req` of node `to`.
    pub fn answer(&self, db: &Db, to: &str, req: u64, answer: serde_json::Value) {
        let mut answer = answer;
        answer["reply"] = req.into();
        let stmt = Stmt::new(
            "SELECT pg_notify($1, $2)",
            vec![
                Value::Text(format!("damka_node_{to}")),
                Value::Text(answer.to_string()),
            ],
        );
        if let Err(e) = db.backend().transaction(&[stmt]) {
            eprintln!("damka-web: cannot answer node {to}: {e}");
        }
    }
}

/// Why a request to another node got no answer.
#[derive(Debug)]
pub enum Unanswered {
    /// None came in time: the node may be dead.
    Silent,
    /// The database did not take the request.
    Refused(String),
    /// The request does not fit in a notification.
    TooLarge,
}

fn notify_stmt(id: &str, event: &serde_json::Value) -> Stmt {
    Stmt::new(
        "SELECT pg_notify($1, $2)",
        vec![
            Value::Text(format!("damka_room_{id}")),
            Value::Text(event.to_string()),
        ],
    )
}

/// Keeps a connection listening to `own` and the watched rooms' channels, reconnecting when
/// it drops (then [`Inbound::Resync`]); answers to this node's requests go straight to their
/// waiters, the rest to `inbox`.
async fn listen(
    config: tokio_postgres::Config,
    own: String,
    watched: Arc<Mutex<HashSet<String>>>,
    mut nudges: mpsc::UnboundedReceiver<()>,
    pending: Pending,
    (inbox, ready): (mpsc::UnboundedSender<Inbound>, std::sync::mpsc::Sender<()>),
) {
    let mut first = true;
    loop {
        let (client, mut conn) = match config.connect(tokio_postgres::NoTls).await {
            Ok(c) => c,
            Err(_) => {
                tokio::time::sleep(TICK).await;
                continue;
            }
        };
        let (ntx, mut notes) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(Ok(m)) = std::future::poll_fn(|cx| conn.poll_message(cx)).await {
                if let AsyncMessage::Notification(n) = m {
                    if ntx.send(n).is_err() {
                        break;
                    }
                }
            }
        });
        let mut listening = HashSet::new();
        if sync_listen(&client, &own, &watched, &mut listening)
            .await
            .is_ok()
        {
            if !first {
                let _ = inbox.send(Inbound::Resync);
            }
            let _ = ready.send(());
            first = false;
            loop {
                tokio::select! {
                    n = notes.recv() => match n {
                        Some(n) => dispatch(&own, n.channel(), n.payload(), &pending, &inbox),
                        None => break,
                    },
                    Some(()) = nudges.recv() => {
                        if sync_listen(&client, &own, &watched, &mut listening).await.is_err() {
                            break;
                        }
                    }
                }
            }
        }
        eprintln!("damka-web: lost the database's notifications; reconnecting");
        tokio::time::sleep(TICK).await;
    }
}

/// LISTENs to the channels wanted now and UNLISTENs the others.
async fn sync_listen(
    client: &tokio_postgres::Client,
    own: &str,
    watched: &Mutex<HashSet<String>>,
    listening: &mut HashSet<String>,
) -> Result<(), tokio_postgres::Error> {
    let mut want: HashSet<String> = lock(watched)
        .iter()
        .map(|id| format!("damka_room_{id}"))
        .collect();
    want.insert(own.to_string());
    let mut sql = String::new();
    for c in want.difference(listening) {
        sql += &format!("LISTEN \"{c}\";");
    }
    for c in listening.difference(&want) {
        sql += &format!("UNLISTEN \"{c}\";");
    }
    if !sql.is_empty() {
        client.batch_execute(&sql).await?;
    }
    *listening = want;
    Ok(())
}

fn dispatch(
    own: &str,
    channel: &str,
    payload: &str,
    pending: &Pending,
    inbox: &mpsc::UnboundedSender<Inbound>,
) {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(payload) else {
        return ignored("not JSON", payload);
    };
    if channel == own {
        if let Some(n) = v["reply"].as_u64() {
            if let Some(tx) = lock(pending).remove(&n) {
                let _ = tx.send(v);
            }
        } else if v["op"].is_string() && v["from"].is_string() {
            let _ = inbox.send(Inbound::Request(v));
        } else {
            ignored("neither a request nor an answer", payload);
        }
    } else if let Some(room) = channel.strip_prefix("damka_room_") {
        let _ = inbox.send(Inbound::Event(room.to_string(), v));
    }
}
