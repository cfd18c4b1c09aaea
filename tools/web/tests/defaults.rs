//! What damka-web takes without options: endgame databases built into the default folder
//! (`damka egtb build` with no `--dir`) are used, and `--egtb-path ""` turns them off; the
//! games are kept in the user's data folder. The server says at start which tables it uses and
//! where it keeps the games, which is what these tests read. Bad files in the folder (another
//! game's tables, a table cut short) are said once at start and left out, and the searches of
//! the server's pool play the endings the tables cover perfectly.

use damka::variant::RussianPosition;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// Starts damka-web on a free loopback port in the folder `cwd`, with `data` as
/// `$XDG_DATA_HOME` and `args`, reads its first line (the one naming its address), stops it,
/// and returns that line and what it wrote on stderr.
fn first_line(data: &Path, cwd: &Path, args: &[&str]) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_damka-web"))
        .args(["--bind", "127.0.0.1", "--port", "0"])
        .args(args)
        .env("XDG_DATA_HOME", data)
        .env_remove("DATABASE_URL")
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the damka-web binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    (line, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// What damka-web with no database (`--db :memory:`) and `args` wrote on stderr before the
/// line naming its address.
fn start_log(data: &Path, args: &[&str]) -> String {
    let (line, log) = first_line(data, data, &[&["--db", ":memory:"], args].concat());
    assert!(line.contains("serving http://"), "{line}");
    log
}

#[test]
fn tables_in_the_default_folder_are_used_without_options() {
    let data = std::env::temp_dir().join(format!("damka-web-defaults-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::fs::create_dir_all(&data).unwrap();

    // Nothing built: no tables, and no word about them.
    let log = start_log(&data, &[]);
    assert!(!log.contains("tables"), "{log}");

    // Built where `damka egtb build` writes by default (the library's own default folder).
    std::env::set_var("XDG_DATA_HOME", &data);
    let folder = damka::egtb::default_dir();
    assert!(folder.starts_with(&data));
    damka::egtb::build::build_all::<RussianPosition>(&folder, 3, |_, _, _| {}).unwrap();
    let log = start_log(&data, &[]);
    assert!(
        log.contains(&format!(
            "russian tables up to 3 pieces in {}",
            folder.display()
        )),
        "{log}"
    );

    // An empty --egtb-path: none.
    let log = start_log(&data, &["--egtb-path", ""]);
    assert!(!log.contains("tables"), "{log}");
    let _ = std::fs::remove_dir_all(&data);
}

/// Without `--db` the games are kept in the user's data folder, which the first line names,
/// and nothing is written in the folder the server starts in.
#[test]
fn games_are_kept_in_the_data_folder_named_in_the_first_line() {
    let root = std::env::temp_dir().join(format!("damka-web-datadir-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let (data, cwd) = (root.join("data"), root.join("cwd"));
    std::fs::create_dir_all(&data).unwrap();
    std::fs::create_dir_all(&cwd).unwrap();
    let (line, _) = first_line(&data, &cwd, &["--egtb-path", ""]);
    let file = data.join("damka").join("damka-web.sqlite3");
    assert!(line.starts_with("damka-web: serving http://"), "{line}");
    assert!(
        line.contains(&format!("(games kept in {})", file.display())),
        "{line}"
    );
    assert!(file.is_file(), "no database at {}", file.display());
    let left: Vec<_> = std::fs::read_dir(&cwd).unwrap().collect();
    assert!(left.is_empty(), "files in the working folder: {left:?}");
    let _ = std::fs::remove_dir_all(&root);
}

/// A folder with Russian tables up to 3 pieces, one cut short, and Russian files where the
/// Turkish tables go: one message per game at start, and every move of won Russian endings
/// searched by the pool is the fastest conversion (or the slowest loss).
#[test]
fn bad_files_are_said_once_and_the_pool_plays_endings_perfectly() {
    use damka::dispatch::PerGame;
    use damka::egtb::{preference, Tablebase, Value};
    use damka::game::Game;
    use damka::variant::{GameMove, Notation, Position};
    use damka_web::local::pool::{Pool, PoolRequest, SharedEndgames};

    let dir = std::env::temp_dir().join(format!("damka-web-badtables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    damka::egtb::build::build_all::<RussianPosition>(&dir, 3, |_, _, _| {}).unwrap();
    let (ru, tu) = (dir.join("russian"), dir.join("turkish"));
    std::fs::create_dir_all(&tu).unwrap();
    for f in ["0101.egtb", "0210.egtb"] {
        std::fs::copy(ru.join(f), tu.join(f)).unwrap();
    }
    let cut = std::fs::OpenOptions::new()
        .write(true)
        .open(ru.join("0120.egtb"))
        .unwrap();
    cut.set_len(cut.metadata().unwrap().len() - 3).unwrap();

    let (endgames, messages) = SharedEndgames::open(&dir, 1);
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages
            .iter()
            .any(|m| m.contains("0120.egtb") && m.contains("cut short")),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m.contains("turkish") && m.contains("russian table")),
        "{messages:?}"
    );
    assert_eq!(endgames.describe().len(), 1);

    let tb = Tablebase::open(&dir, damka::core::Variant::Russian, 4).unwrap();
    let pool = Pool::with_endgames(1, 1, 4, endgames);
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut checked = 0;
    for fen in ["W:WKc3,Ke1:Bh6", "W:WKa1,Kg1:Bd4", "W:WKb2,Kh2:Bf6"] {
        let start = RussianPosition::from_fen(fen).unwrap();
        assert!(matches!(tb.probe(&start), Ok(Value::Win(_))), "{fen}");
        let mut game = Game::new(start);
        while !game.is_over() && game.ply() < 40 {
            let pos = *game.position();
            let request = PoolRequest::new(PerGame::Russian(game.clone()), 0.05);
            let reply = rt.block_on(pool.search(request)).unwrap();
            let m = reply.best;
            assert!(pos.legal_moves().contains(&m), "{fen}");
            if damka::egtb::pieces_on_board(&pos) <= 3 {
                let kept = tb
                    .probe(&pos.play(&m))
                    .unwrap()
                    .back(m.is_capture() || m.promotes());
                let best = tb.rank_moves(&pos).unwrap()[0].1;
                assert_eq!(preference(kept), preference(best), "{}", game.ply());
                checked += 1;
            }
            game.play(m).unwrap();
        }
        assert_eq!(
            game.result().map(|e| e.outcome),
            Some(damka::variant::Outcome::Win(damka::core::Color::White)),
            "{fen}"
        );
    }
    assert!(checked >= 6, "{checked}");
    let _ = std::fs::remove_dir_all(&dir);
}
