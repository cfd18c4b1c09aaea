//! `damka-web`: serves the board page on http://127.0.0.1:8080 (see `docs/web.md`).

use clap::Parser;
use std::path::PathBuf;
use std::process::ExitCode;

/// The damka board page: play Russian or Turkish draughts in the browser.
#[derive(Parser, Debug)]
#[command(name = "damka-web", version = damka::VERSION)]
struct Args {
    /// Address to listen on (0.0.0.0 for every interface).
    #[arg(long, default_value = "127.0.0.1")]
    bind: String,
    /// Port to listen on (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Search threads: how many engine searches (moves, hints) run at once; more wait in a queue.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Transposition table of each search thread, MiB.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(1..=4096))]
    hash: u32,
    /// Endgame database folder (as given to `damka egtb build --dir`). Default: the folder
    /// `damka egtb build` writes to when it names none, if it exists; "" uses no tables.
    #[arg(long = "egtb-path", value_parser = any_path)]
    egtb_path: Option<PathBuf>,
    /// Endgame database cache of each game, MiB.
    #[arg(long = "egtb-cache", default_value_t = damka::engine::DEFAULT_EGTB_CACHE_MB as u32,
          value_parser = clap::value_parser!(u32).range(1..=damka::engine::MAX_EGTB_CACHE_MB as i64))]
    egtb_cache: u32,
    /// SQLite file of the games (created when missing; `:memory:` keeps none). Default:
    /// `damka-web.sqlite3` in the user's data folder (`%APPDATA%\\damka` on Windows,
    /// `$XDG_DATA_HOME/damka` or `~/.local/share/damka` elsewhere), never the working directory.
    #[arg(long)]
    db: Option<String>,
    /// PostgreSQL database shared by the nodes of a site (`postgres://user@host/db`; default:
    /// the DATABASE_URL environment variable). Without it the --db SQLite file is used.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Online games held at once (a finished one makes way for a new one).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    max_rooms: u32,
    /// Spectators in one online game.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    max_spectators: u32,
    /// WebSocket messages a connection may send per second (bursts of twice as many pass).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    rate: u32,
    /// Seconds the first player has for the first move once both seats are taken; then the
    /// game is aborted (no result).
    #[arg(long, default_value_t = 30.0, value_parser = first_move_seconds)]
    first_move_timeout: f64,
    /// Seconds the clock of the player to move waits for that player after the server starts
    /// again (a restart is not theirs to pay for); beyond it the clock runs.
    #[arg(long, default_value_t = 10.0, value_parser = grace_seconds)]
    grace: f64,
    /// Rooms one client address may create a minute.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    rooms_per_minute: u32,
    /// Local games one client address may start a minute.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    games_per_minute: u32,
    /// Spectator places one client address may hold in one online game.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    spectators_per_client: u32,
    /// Engine searches (hints, opinions) one client address may have queued or running at once.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=64))]
    engine_share: u32,
    /// Connections held at once; more are closed when accepted.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,
    /// Connections held at once from one address.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_per_address: u32,
    /// Seconds a new connection may take to send its first request.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout: u64,
    /// Seconds a connection may send nothing (pages answer the server's pings every 30 s).
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(35..=86_400))]
    idle_timeout: u64,
    /// Another origin (scheme://host:port) whose pages may open the WebSocket; repeat for
    /// several, `*` for any. Without it only the server's own pages may.
    #[arg(long, value_name = "ORIGIN")]
    allow_origin: Vec<String>,
    /// Serve the in-browser engine from this folder (what `bash tools/wasm/build.sh` writes
    /// into target/wasm; read at start): games against the engine and hot seat then run in the
    /// browser.
    #[arg(long, value_name = "DIR")]
    wasm: Option<PathBuf>,
    /// A host name the server answers to (the name in its address, `damka.example.org`);
    /// repeat for several, `*` for any. IP addresses and `localhost` always work; a request
    /// for another name is refused (421), against DNS rebinding.
    #[arg(long = "allowed-hosts", value_name = "NAME", value_delimiter = ',')]
    allowed_hosts: Vec<String>,
}

/// Seconds for the first move: 0.1 to 3600.
fn first_move_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.1..=3600.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds from 0.1 to 3600")),
    }
}

/// Seconds of grace: 0 to 600.
fn grace_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=600.0).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds from 0 to 600")),
    }
}

/// A path, the empty one included (it means "no tables").
fn any_path(s: &str) -> Result<PathBuf, String> {
    Ok(PathBuf::from(s))
}

/// Waits for Ctrl-C or, on Unix, SIGTERM (how a service manager or a test stops the server).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

/// The SQLite file used when none is named: `damka-web.sqlite3` in [`damka::data_dir`], whose
/// folder is made when missing.
fn default_db() -> Result<String, String> {
    let dir = damka::data_dir();
    std::fs::create_dir_all(&dir)
        .map_err(|e| format!("cannot make the data folder {}: {e}", dir.display()))?;
    let file = dir.join("damka-web.sqlite3");
    file.to_str().map(str::to_string).ok_or_else(|| {
        format!(
            "the data folder {} is not valid Unicode: name a file with --db",
            dir.display()
        )
    })
}

/// Where the games of `db` are kept, in words for the first log line.
fn kept_in(db: &str) -> String {
    if damka_web::db::postgres::is_url(db) {
        format!("in {}", damka_web::db::postgres::redact(db))
    } else if db == ":memory:" {
        "in memory only".to_string()
    } else {
        let path = std::path::Path::new(db);
        let full = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        format!("in {}", full.display())
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("damka-web: cannot start: {e}");
            return ExitCode::FAILURE;
        }
    };
    rt.block_on(async {
        let addr = format!("{}:{}", args.bind, args.port);
        let listener = match tokio::net::TcpListener::bind(&addr).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("damka-web: cannot listen on {addr}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let config = damka_web::Config {
            threads: args.threads as usize,
            hash_mb: args.hash as usize,
            db: match args
                .database
                .clone()
                .or_else(|| std::env::var("DATABASE_URL").ok().filter(|u| !u.is_empty()))
            {
                Some(url) if damka_web::db::postgres::is_url(&url) => url,
                Some(url) => {
                    let url = damka_web::db::postgres::redact(&url);
                    eprintln!("damka-web: {url} is not a postgres:// URL");
                    return ExitCode::FAILURE;
                }
                None => match &args.db {
                    Some(db) => db.clone(),
                    None => match default_db() {
                        Ok(db) => db,
                        Err(e) => {
                            eprintln!("damka-web: {e}");
                            return ExitCode::FAILURE;
                        }
                    },
                },
            },
            limits: damka_web::online::RoomLimits {
                max_rooms: args.max_rooms as usize,
                max_spectators: args.max_spectators as usize,
                rate: args.rate,
                first_move_ms: (args.first_move_timeout * 1000.0) as i64,
                grace_ms: (args.grace * 1000.0) as i64,
                rooms_per_minute: args.rooms_per_minute,
                games_per_minute: args.games_per_minute,
                spectators_per_client: args.spectators_per_client as usize,
                engine_share: args.engine_share as usize,
                ..damka_web::online::RoomLimits::default()
            },
            egtb: match &args.egtb_path {
                Some(p) if p.as_os_str().is_empty() => None,
                Some(p) => Some(p.clone()),
                None => damka::egtb::default_dir_if_present(),
            }
            .map(|dir| (dir, args.egtb_cache as usize)),
            origins: args.allow_origin.clone(),
            wasm: args.wasm.clone(),
            allowed_hosts: args.allowed_hosts.clone(),
        };
        let net = damka_web::transport::guard::NetLimits {
            max_connections: args.max_connections as usize,
            per_address: args.max_per_address as usize,
            header_timeout: std::time::Duration::from_secs(args.header_timeout),
            idle_timeout: std::time::Duration::from_secs(args.idle_timeout),
            ..damka_web::transport::guard::NetLimits::default()
        };
        let (app, router) = match damka_web::serve(&config) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("damka-web: {e}");
                return ExitCode::FAILURE;
            }
        };
        if let Some(c) = &app.online.cluster {
            println!("damka-web: node {} of the site on PostgreSQL", c.node);
        }
        // One line says where to point a browser and where the games are kept, so that a user
        // who started the program from a shortcut or an unpacked archive can find both.
        let kept = kept_in(&config.db);
        match listener.local_addr() {
            Ok(a) => println!("damka-web: serving http://{a}/ (games kept {kept})"),
            Err(_) => println!("damka-web: serving on {addr} (games kept {kept})"),
        }
        // On a signal the clocks stop and are saved at once (the time of the turns in progress
        // counts until then when the games resume), and the server ends within seconds.
        match damka_web::run(listener, app, router, net, stop_signal()).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("damka-web: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
