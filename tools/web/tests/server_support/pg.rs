//! A throwaway PostgreSQL for the tests: `initdb` in a temporary folder, `pg_ctl start` on a
//! free loopback port (its socket in the folder too), stopped and removed when dropped. The
//! programs are found through `DAMKA_PG_BIN` (a folder), else `PATH`, else Debian's
//! `/usr/lib/postgresql/*/bin`. Run as root (CI), the server runs as the `postgres` user.
//! Without PostgreSQL a test is skipped with a notice, except under CI (`CI` set) or with
//! `DAMKA_REQUIRE_PG` set, where it fails.
//!
//! `DAMKA_WEB_TEST_PG=postgres://...` gives a running server instead (`tools/web/pg_test.sh`
//! starts one for a whole test run): each test then makes a database of its own there.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A PostgreSQL server for one test.
pub struct Pg {
    dir: PathBuf,
    bin: PathBuf,
    port: u16,
    /// The URL of its `postgres` database.
    pub url: String,
}

fn find_bin() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("DAMKA_PG_BIN") {
        // Named, it is the only place looked at.
        let d = PathBuf::from(d);
        return d.join("initdb").is_file().then_some(d);
    }
    if let Ok(path) = std::env::var("PATH") {
        for d in std::env::split_paths(&path) {
            if d.join("initdb").is_file() && d.join("pg_ctl").is_file() {
                return Some(d);
            }
        }
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").is_file())
        .collect();
    found.sort();
    found.pop()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

/// Whether a missing PostgreSQL fails the test rather than skipping it.
fn required() -> bool {
    std::env::var_os("CI").is_some() || std::env::var_os("DAMKA_REQUIRE_PG").is_some()
}

fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    l.local_addr().unwrap().port()
}

impl Pg {
    /// A new server, or `None` (with a notice) where PostgreSQL is not installed and not
    /// required.
    pub fn start(test: &str) -> Option<Pg> {
        let Some(bin) = find_bin() else {
            assert!(
                !required(),
                "PostgreSQL is required here (CI or DAMKA_REQUIRE_PG): no initdb in DAMKA_PG_BIN, \
                 PATH or /usr/lib/postgresql/*/bin (Debian: apt-get install postgresql)"
            );
            // Written straight to stderr, past the test harness's capture: a skip is seen.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "NOTICE: {test} skipped: PostgreSQL not found (initdb, pg_ctl)"
            );
            return None;
        };
        let dir =
            std::env::temp_dir().join(format!("damka-pg-{}-{}", std::process::id(), free_port()));
        std::fs::create_dir_all(&dir).unwrap();
        let port = free_port();
        let pg = Pg {
            url: format!("postgres://damka@127.0.0.1:{port}/postgres"),
            dir,
            bin,
            port,
        };
        if is_root() {
            let ok = Command::new("chown")
                .arg("-R")
                .arg("postgres:")
                .arg(&pg.dir)
                .status();
            assert!(ok.is_ok_and(|s| s.success()), "chown to postgres failed");
        }
        let data = pg.dir.join("data");
        let init = format!(
            "-D {} -U damka --auth=trust -E UTF8 --no-sync",
            data.display()
        );
        pg.run("initdb", &init, None);
        pg.start_again();
        Some(pg)
    }

    /// Runs `program` with `args` (split at spaces: the paths here have none) and `last`.
    fn run(&self, program: &str, args: &str, last: Option<&str>) {
        let mut cmd = command(&self.bin, program);
        cmd.args(args.split(' ')).args(last).current_dir(&self.dir);
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{program} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Starts the server (again, after [`Pg::stop`]) on the same port and data.
    pub fn start_again(&self) {
        let data = self.dir.join("data");
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300",
            self.port,
            self.dir.display()
        );
        let log = self.dir.join("log");
        let args = format!("-D {} -l {} -w start -o", data.display(), log.display());
        // The server's options are one argument.
        self.run("pg_ctl", &args, Some(&opts));
    }

    /// Stops the server (the nodes lose their database).
    pub fn stop(&self) {
        let data = self.dir.join("data");
        let args = format!("-D {} -m immediate -w stop", data.display());
        self.run("pg_ctl", &args, None);
    }

    /// The folder of the server.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Pg {
    fn drop(&mut self) {
        let data = self.dir.join("data");
        if data.join("postmaster.pid").exists() {
            let args = format!("-D {} -m immediate -w stop", data.display());
            let _ = command(&self.bin, "pg_ctl").args(args.split(' ')).output();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// `program` of the PostgreSQL folder `bin`, run as the `postgres` user when this is root
/// (PostgreSQL refuses to run as root).
fn command(bin: &Path, program: &str) -> Command {
    let exe = bin.join(program);
    if is_root() {
        let mut c = Command::new("runuser");
        c.args(["-u", "postgres", "--"]).arg(exe);
        c
    } else {
        Command::new(exe)
    }
}

/// A database of its own for test `test`: on the server `DAMKA_WEB_TEST_PG` names, or on a
/// throwaway server (returned, to keep it running). `None`: no PostgreSQL, test skipped.
pub async fn database(test: &str) -> Option<(Option<Pg>, String)> {
    let (pg, base) = match std::env::var("DAMKA_WEB_TEST_PG") {
        Ok(url) if !url.is_empty() => (None, url),
        _ => {
            let pg = Pg::start(test)?;
            let url = pg.url.clone();
            (Some(pg), url)
        }
    };
    let name = format!(
        "t_{}_{}",
        test.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
        free_port()
    );
    let (client, conn) = tokio_postgres::connect(&base, tokio_postgres::NoTls)
        .await
        .expect("the test database server answers");
    tokio::spawn(conn);
    client
        .batch_execute(&format!("CREATE DATABASE {name}"))
        .await
        .unwrap();
    let url = match base.rfind('/') {
        Some(i) if i > "postgres://".len() => format!("{}/{name}", &base[..i]),
        _ => format!("{base}/{name}"),
    };
    Some((pg, url))
}

/// Sends `NOTIFY channel, payload` on the database at `url`.
pub async fn notify(url: &str, channel: &str, payload: &str) {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    client
        .execute("SELECT pg_notify($1, $2)", &[&channel, &payload])
        .await
        .unwrap();
}

/// How many leases room `room` has on the database at `url` (0 or 1).
pub async fn leases(url: &str, room: &str) -> i64 {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    client
        .query_one("SELECT count(*) FROM leases WHERE room = $1", &[&room])
        .await
        .unwrap()
        .get(0)
}

/// The database a test names (a SQLite file, `:memory:`), or in its place, when
/// `DAMKA_WEB_TEST_PG` names a PostgreSQL server (the API tests run against both back ends):
/// a database there, the same for the same file (a restart finds its games), a new one for
/// `:memory:`.
pub fn test_db(db: &str) -> String {
    let Ok(base) = std::env::var("DAMKA_WEB_TEST_PG") else {
        return db.to_string();
    };
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    db.hash(&mut h);
    let name = match db {
        ":memory:" => format!("m_{}_{}", std::process::id(), free_port()),
        _ => format!("f_{:x}", h.finish()),
    };
    let create = base.clone();
    let sql = format!("SELECT 1 FROM pg_database WHERE datname = '{name}'");
    let make = format!("CREATE DATABASE {name}");
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async {
            let (client, conn) = tokio_postgres::connect(&create, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(conn);
            if client.query(&sql, &[]).await.unwrap().is_empty() {
                client.batch_execute(&make).await.unwrap();
            }
        })
    })
    .join()
    .unwrap();
    match base.rfind('/') {
        Some(i) if i > "postgres://".len() => format!("{}/{name}", &base[..i]),
        _ => format!("{base}/{name}"),
    }
}
