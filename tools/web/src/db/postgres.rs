//! The PostgreSQL back end, through `tokio-postgres` (the asynchronous client of the
//! rust-postgres project). The server's room operations are synchronous (made under the rooms'
//! lock, as with SQLite), so the client lives on a thread of its own running a small tokio
//! runtime, and each call waits for its answer there, bounded in time: a database that stops
//! answering gives an error, never a server that hangs. A dropped connection is opened again
//! by the next call.

use super::{Row, SqlDriver, Stmt, Value};
use bytes::BytesMut;
use std::sync::Arc;
use std::time::Duration;
use tokio_postgres::types::{to_sql_checked, IsNull, ToSql, Type};
use tokio_postgres::{Client, Config, NoTls};

/// How long one call may take (the connection, the statements and the answer).
pub const CALL_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether `s` names a PostgreSQL database rather than a SQLite file.
pub fn is_url(s: &str) -> bool {
    s.starts_with("postgres://") || s.starts_with("postgresql://")
}

/// The URL without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => match url[s + 3..at].find(':') {
            Some(c) => format!("{}:***{}", &url[..s + 3 + c], &url[at..]),
            None => url.to_string(),
        },
        _ => url.to_string(),
    }
}

/// The connection settings `url` gives, with the server's time limits.
pub fn config(url: &str) -> Result<Config, String> {
    let mut config: Config = url
        .parse()
        .map_err(|e| format!("bad database URL {}: {e}", redact(url)))?;
    config.connect_timeout(CALL_TIMEOUT);
    config.application_name("damka-web");
    Ok(config)
}

/// A thread running a current-thread tokio runtime, stopped when dropped: the home of the
/// database connections, apart from the server's own runtime.
pub struct PgThread {
    handle: tokio::runtime::Handle,
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl PgThread {
    /// Starts the thread (named `name`).
    pub fn start(name: &str) -> Result<PgThread, String> {
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::Builder::new()
            .name(name.into())
            .spawn(move || {
                let rt = match tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                {
                    Ok(rt) => rt,
                    Err(e) => {
                        let _ = tx.send(Err(e.to_string()));
                        return;
                    }
                };
                let _ = tx.send(Ok(rt.handle().clone()));
                let _ = rt.block_on(stopped);
            })
            .map_err(|e| format!("cannot start a thread: {e}"))?;
        let handle = rx
            .recv()
            .map_err(|e| e.to_string())
            .and_then(|r| r)
            .map_err(|e| format!("cannot start the database runtime: {e}"))?;
        Ok(PgThread {
            handle,
            _stop: stop,
        })
    }

    /// Runs `fut` there and waits for its answer, `timeout` at most.
    pub fn call<T: Send + 'static>(
        &self,
        timeout: Duration,
        fut: impl std::future::Future<Output = Result<T, String>> + Send + 'static,
    ) -> Result<T, String> {
        let (tx, rx) = std::sync::mpsc::channel();
        self.handle.spawn(async move {
            let r = tokio::time::timeout(timeout, fut).await;
            let _ = tx.send(r.unwrap_or_else(|_| Err("the database does not answer".into())));
        });
        wait(&rx, timeout + Duration::from_secs(1))
            .unwrap_or_else(|| Err("the database does not answer".into()))
    }

    /// Runs `fut` there without waiting.
    pub fn spawn(&self, fut: impl std::future::Future<Output = ()> + Send + 'static) {
        self.handle.spawn(fut);
    }
}

/// Waits for `rx`'s answer, `timeout` at most, letting a multi-threaded tokio runtime move its
/// other tasks off this thread meanwhile.
pub fn wait<T>(rx: &std::sync::mpsc::Receiver<T>, timeout: Duration) -> Option<T> {
    blocking(|| rx.recv_timeout(timeout).ok())
}

/// Runs `f`, which blocks, telling a multi-threaded tokio runtime to move its other tasks off
/// this thread meanwhile.
pub fn blocking<T>(f: impl FnOnce() -> T) -> T {
    let multi = tokio::runtime::Handle::try_current()
        .is_ok_and(|h| h.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread);
    if multi {
        tokio::task::block_in_place(f)
    } else {
        f()
    }
}

/// A PostgreSQL database: one connection, its statements one at a time.
pub struct Postgres {
    thread: PgThread,
    config: Arc<Config>,
    client: Arc<tokio::sync::Mutex<Option<Client>>>,
}

/// A connection to `config`, its driver spawned on the current runtime.
pub async fn connect(config: &Config) -> Result<Client, String> {
    let (client, conn) = config.connect(NoTls).await.map_err(|e| e.to_string())?;
    tokio::spawn(async move {
        if let Err(e) = conn.await {
            eprintln!("damka-web: database connection: {e}");
        }
    });
    Ok(client)
}

impl Postgres {
    /// Connects to the database at `url`: an error if it cannot be reached now.
    pub fn connect(url: &str) -> Result<Postgres, String> {
        let pg = Postgres {
            thread: PgThread::start("damka-pg")?,
            config: Arc::new(config(url)?),
            client: Arc::new(tokio::sync::Mutex::new(None)),
        };
        pg.query("SELECT 1", &[])
            .map_err(|e| format!("cannot reach the database at {}: {e}", redact(url)))?;
        Ok(pg)
    }

    /// Runs `f` with the connection (opened again if it was lost).
    fn with_client<T: Send + 'static>(
        &self,
        f: impl for<'c> FnOnce(
                &'c mut Client,
            ) -> std::pin::Pin<
                Box<dyn std::future::Future<Output = Result<T, String>> + Send + 'c>,
            > + Send
            + 'static,
    ) -> Result<T, String> {
        let (slot, config) = (self.client.clone(), self.config.clone());
        self.thread.call(CALL_TIMEOUT, async move {
            let mut slot = slot.lock().await;
            if slot.as_ref().is_none_or(Client::is_closed) {
                *slot = Some(connect(&config).await?);
            }
            match slot.as_mut() {
                Some(c) => f(c).await,
                None => Err("no connection".into()),
            }
        })
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        match self {
            Value::Null => Ok(IsNull::Yes),
            Value::Int(v) if *ty == Type::INT4 => (*v as i32).to_sql(ty, out),
            Value::Int(v) if *ty == Type::FLOAT8 => (*v as f64).to_sql(ty, out),
            Value::Int(v) => v.to_sql(ty, out),
            Value::Real(v) => v.to_sql(ty, out),
            Value::Text(t) => t.as_str().to_sql(ty, out),
        }
    }

    fn accepts(ty: &Type) -> bool {
        i64::accepts(ty) || i32::accepts(ty) || f64::accepts(ty) || <&str>::accepts(ty)
    }

    to_sql_checked!();
}

/// Column `i` of `row` as a [`Value`].
fn value(row: &tokio_postgres::Row, i: usize) -> Value {
    let ty = row.columns()[i].type_().clone();
    let v = match ty {
        Type::INT8 => row
            .try_get::<_, Option<i64>>(i)
            .ok()
            .flatten()
            .map(Value::Int),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(i)
            .ok()
            .flatten()
            .map(|v| Value::Int(v as i64)),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(i)
            .ok()
            .flatten()
            .map(|v| Value::Int(v as i64)),
        Type::FLOAT8 => row
            .try_get::<_, Option<f64>>(i)
            .ok()
            .flatten()
            .map(Value::Real),
        _ => row
            .try_get::<_, Option<String>>(i)
            .ok()
            .flatten()
            .map(Value::Text),
    };
    v.unwrap_or(Value::Null)
}

fn refs(params: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    params.iter().map(|p| p as &(dyn ToSql + Sync)).collect()
}

impl SqlDriver for Postgres {
    fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, String> {
        let (sql, params) = (sql.to_string(), params.to_vec());
        self.with_client(move |c| {
            Box::pin(async move {
                let rows = c
                    .query(sql.as_str(), &refs(&params))
                    .await
                    .map_err(|e| format!("database: {e}"))?;
                Ok(rows
                    .iter()
                    .map(|r| (0..r.len()).map(|i| value(r, i)).collect())
                    .collect())
            })
        })
    }

    fn transaction(&self, stmts: &[Stmt]) -> Result<bool, String> {
        let stmts: Vec<(String, Vec<Value>, bool)> = stmts
            .iter()
            .map(|s| (s.sql.clone(), s.params.clone(), s.expect_rows))
            .collect();
        self.with_client(move |c| {
            Box::pin(async move {
                let tx = c
                    .transaction()
                    .await
                    .map_err(|e| format!("database: {e}"))?;
                for (sql, params, expect_rows) in &stmts {
                    let n = tx
                        .execute(sql.as_str(), &refs(params))
                        .await
                        .map_err(|e| format!("database: {e}"))?;
                    if *expect_rows && n == 0 {
                        // Dropped without a commit: rolled back.
                        return Ok(false);
                    }
                }
                tx.commit().await.map_err(|e| format!("database: {e}"))?;
                Ok(true)
            })
        })
    }

    fn migration_lock(&self) -> Option<&'static str> {
        // Nodes started together apply each migration once.
        Some("SELECT pg_advisory_xact_lock(3535)")
    }
}
