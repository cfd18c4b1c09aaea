//! The SQLite back end: one file (or `:memory:`), one connection behind a lock (writes are
//! short: a row or two a move).

use super::{Row, SqlDriver, Stmt, Value};
use rusqlite::types::{ToSqlOutput, ValueRef};
use rusqlite::{params_from_iter, Connection};
use std::sync::Mutex;

/// A SQLite database.
pub struct Sqlite {
    conn: Mutex<Connection>,
    /// The file and what it was when opened (`None`: in memory): a file removed or replaced
    /// while the server runs would take every later write with it, unseen (SQLite writes on
    /// to the removed file), so each write first checks that it is still there.
    file: Option<(String, FileId)>,
}

/// What tells one file from another that took its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct FileId(u64, u64);

impl FileId {
    fn of(path: &str) -> std::io::Result<FileId> {
        let meta = std::fs::metadata(path)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Ok(FileId(meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            // Elsewhere an open file cannot be removed: being there is enough.
            let _ = meta;
            Ok(FileId(0, 0))
        }
    }
}

fn err(e: rusqlite::Error) -> String {
    format!("database: {e}")
}

impl rusqlite::ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(match self {
            Value::Null => ToSqlOutput::Owned(rusqlite::types::Value::Null),
            Value::Int(v) => ToSqlOutput::from(*v),
            Value::Real(v) => ToSqlOutput::from(*v),
            Value::Text(t) => ToSqlOutput::from(t.as_str()),
        })
    }
}

fn value(v: ValueRef<'_>) -> Value {
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(i) => Value::Int(i),
        ValueRef::Real(r) => Value::Real(r),
        ValueRef::Text(t) | ValueRef::Blob(t) => Value::Text(String::from_utf8_lossy(t).into()),
    }
}

impl Sqlite {
    /// Opens (or creates) the database at `path` (`:memory:` for one that is not kept).
    pub fn open(path: &str) -> Result<Sqlite, String> {
        private_file(path)?;
        let conn = Connection::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
        conn.execute_batch("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;")
            .map_err(err)?;
        let on_disk = !(path == ":memory:" || path.is_empty() || path.starts_with("file:"));
        let file = if on_disk {
            let id = FileId::of(path).map_err(|e| format!("cannot open {path}: {e}"))?;
            Some((path.to_string(), id))
        } else {
            None
        };
        Ok(Sqlite {
            conn: Mutex::new(conn),
            file,
        })
    }

    /// An error if the database file is no longer the one opened (removed or replaced).
    fn still_there(&self) -> Result<(), String> {
        let Some((path, id)) = &self.file else {
            return Ok(());
        };
        match FileId::of(path) {
            Ok(now) if now == *id => Ok(()),
            Ok(_) => Err(format!(
                "the database file {path} was replaced while the server ran; restart it"
            )),
            Err(e) => Err(format!(
                "the database file {path} is gone ({e}): it was removed while the server \
                 ran; restart it"
            )),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while the lock was held leaves SQLite's own state consistent (a transaction
        // not committed is rolled back when dropped).
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl SqlDriver for Sqlite {
    fn query(&self, sql: &str, params: &[Value]) -> Result<Vec<Row>, String> {
        let conn = self.lock();
        let mut stmt = conn.prepare_cached(sql).map_err(err)?;
        let n = stmt.column_count();
        let rows = stmt
            .query_map(params_from_iter(params), |r| {
                (0..n).map(|i| r.get_ref(i).map(value)).collect()
            })
            .map_err(err)?
            .collect::<Result<Vec<Row>, _>>()
            .map_err(err);
        rows
    }

    fn transaction(&self, stmts: &[Stmt]) -> Result<bool, String> {
        self.still_there()?;
        let mut conn = self.lock();
        let tx = conn.transaction().map_err(err)?;
        for s in stmts {
            let changed = tx
                .prepare_cached(&s.sql)
                .and_then(|mut st| st.execute(params_from_iter(&s.params)))
                .map_err(err)?;
            if s.expect_rows && changed == 0 {
                // Dropped without a commit: rolled back.
                return Ok(false);
            }
        }
        tx.commit().map_err(err)?;
        Ok(true)
    }
}

/// Makes the database file readable by its owner only (created so when missing; SQLite's
/// journal files take the same permissions): it holds who plays where.
fn private_file(path: &str) -> Result<(), String> {
    if path == ":memory:" || path.is_empty() || path.starts_with("file:") {
        return Ok(());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .mode(0o600)
            .open(path)
            .map_err(|e| format!("cannot open {path}: {e}"))?;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| format!("cannot make {path} private: {e}"))?;
    }
    Ok(())
}
