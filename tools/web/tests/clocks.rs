//! Clocks in local games (against the engine, hot seat): kept by the server, the side to
//! move's running, the increment added after a move, a flag that ends the game though nobody
//! asks, the engine playing by its clock, and the clocks saved with the game: back after a
//! restart with the time they had at the stop, in a database file of any age.

use crate::server_support;

use damka_web::local::service::NewGame;
use damka_web::local::store::GameView;
use serde_json::json;
use server_support::{config, db_path, mv, send, wait_for};
use std::time::Duration;

/// A hot-seat game with `time` seconds each and `increment` a move: its view and secret.
fn hot_seat(app: &damka_web::app::App, time: f64, increment: f64) -> (GameView, String) {
    let form = NewGame {
        opponent: Some("human".into()),
        time: Some(time),
        increment: Some(increment),
        ..NewGame::default()
    };
    let view = app.new_game(&form).unwrap();
    let token = view.token.clone().unwrap();
    (view, token)
}

fn clocks(view: &GameView) -> [i64; 2] {
    view.clocks.expect("a game with clocks shows them")
}

#[tokio::test]
async fn the_side_to_move_uses_its_time_and_gains_the_increment() {
    let (app, _) = damka_web::build(1, 1);
    let (view, token) = hot_seat(&app, 60.0, 2.0);
    assert_eq!(view.time, Some([60.0, 2.0]));
    assert_eq!(
        (clocks(&view), view.running),
        ([60_000, 60_000], Some("white"))
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let [before, black] = clocks(&app.view(&view.id).unwrap());
    assert!(before <= 59_710, "{before}");
    assert_eq!(black, 60_000, "Black's clock waits");
    let (after, _) = app.play(&view.id, &mv("c3-d4", Some(&token))).unwrap();
    let [white, black] = clocks(&after);
    // The increment, less the little time between the two readings.
    assert!(
        (before + 1_000..=before + 2_000).contains(&white),
        "{before} {white}"
    );
    assert_eq!((black, after.running), (60_000, Some("black")));
    // A take-back: the time used stays used, the clock of the side to move again runs.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (back, _) = app.undo(&view.id, Some(&token)).unwrap();
    let [white, black] = clocks(&back);
    assert!(
        white <= before + 2_000 && black <= 59_810,
        "{white} {black}"
    );
    assert_eq!(back.running, Some("white"));
    // Without a clock a game has none; a clock outside the rooms' range is refused.
    let plain = app.new_game(&NewGame::default()).unwrap();
    assert_eq!(
        (plain.clocks, plain.time, plain.running),
        (None, None, None)
    );
    for (time, increment) in [(0.5, 0.0), (60.0, -1.0), (60.0, 601.0), (f64::NAN, 0.0)] {
        let form = NewGame {
            time: Some(time),
            increment: Some(increment),
            ..NewGame::default()
        };
        assert!(app.new_game(&form).is_err(), "{time}+{increment}");
    }
}

#[tokio::test]
async fn a_flag_ends_the_game_and_every_watcher_hears_it() {
    let (url, _app, _server) = server_support::serve(damka_web::Config::new(1, 1)).await;
    let mut ws = server_support::connect(&url).await;
    let new = json!({"type": "new", "opponent": "human", "time": 1, "increment": 0});
    send(&mut ws, new).await;
    let owner = wait_for(&mut ws, "owner", |_| true).await;
    let state = wait_for(&mut ws, "state", |_| true).await;
    // White's clock runs from the start: the state may come a few milliseconds later.
    let white = state["game"]["clocks"][0].as_i64().unwrap();
    assert!((900..=1000).contains(&white), "{white}");
    assert_eq!(state["game"]["clocks"][1], 1000);
    assert_eq!(state["game"]["running"], "white");
    // Nothing is sent: the server's own timer ends the game.
    let over = wait_for(&mut ws, "state", |v| v["game"]["status"]["over"] == true).await;
    let game = &over["game"];
    assert_eq!(game["status"]["text"], "Black wins (White's time ran out)");
    assert_eq!(game["status"]["result"], "0-2");
    assert_eq!(game["clocks"], json!([0, 1000]));
    assert_eq!(
        (game["running"].is_null(), game["can_move"].as_bool()),
        (true, Some(false))
    );
    assert_eq!(game["legal"], json!([]));
    let id = game["id"].as_str().unwrap();
    let token = owner["token"].as_str().unwrap();
    let play = json!({"type": "move", "game": id, "move": "c3-d4", "token": token});
    send(&mut ws, play).await;
    let refused = wait_for(&mut ws, "error", |_| true).await;
    let text = refused["message"].as_str().unwrap();
    assert!(text.contains("White's time ran out"), "{text}");
}

#[tokio::test]
async fn the_engine_plays_by_its_clock_and_never_flags() {
    let (app, _) = damka_web::build(1, 1);
    let form = NewGame {
        color: Some("black".into()),
        time: Some(3.0),
        increment: Some(0.0),
        // Without the clock it would think for 5 s a move, more than its whole clock.
        movetime: Some(5.0),
        ..NewGame::default()
    };
    let view = app.new_game(&form).unwrap();
    let token = view.token.clone().unwrap();
    let mut engine_clock = 3_000;
    for round in 0..6 {
        if let Some(done) = app.kick(&view.id).unwrap() {
            done.await.unwrap();
        }
        let now = app.view(&view.id).unwrap();
        assert!(
            !now.board.status.over,
            "round {round}: {:?}",
            now.board.status
        );
        assert_eq!(now.board.moves.len(), 2 * round + 1, "the engine moved");
        let white = clocks(&now)[0];
        assert!(white > 0 && white <= engine_clock, "round {round}: {white}");
        engine_clock = white;
        let reply = now.board.legal[0].text.clone();
        let (_, done) = app.play(&view.id, &mv(&reply, Some(&token))).unwrap();
        done.expect("the engine replies").await.unwrap();
    }
    assert!(
        engine_clock > 1_000,
        "the engine kept time in hand: {engine_clock}"
    );
}

#[tokio::test]
async fn the_clocks_come_back_after_a_restart_without_the_time_it_was_down() {
    let db = db_path("clocks-restart");
    let (id, token, at_stop) = {
        let (app, _) = damka_web::serve(&config(&db)).unwrap();
        let (view, token) = hot_seat(&app, 60.0, 0.0);
        app.play(&view.id, &mv("c3-d4", Some(&token))).unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
        // A clean stop: the clocks stop where they are.
        app.save_clocks();
        let at_stop = clocks(&app.view(&view.id).unwrap());
        (view.id, token, at_stop)
    };
    assert!(at_stop[1] <= 59_710, "Black's time ran: {at_stop:?}");
    // Down for a while: that time counts against nobody.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let (app, _) = damka_web::serve(&config(&db)).unwrap();
    let back = app.view(&id).unwrap();
    let [white, black] = clocks(&back);
    assert_eq!(white, at_stop[0]);
    assert!(
        (at_stop[1] - black).abs() <= 60,
        "{black} against {at_stop:?}"
    );
    assert_eq!(back.running, Some("black"));
    // And it runs again.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(clocks(&app.view(&id).unwrap())[1] <= black - 150);
    app.play(&id, &mv("f6-g5", Some(&token))).unwrap();
    assert_eq!(app.view(&id).unwrap().running, Some("white"));
}

#[tokio::test]
async fn a_database_written_before_the_clocks_is_upgraded() {
    let db = db_path("clocks-upgrade");
    {
        // The games table as the server wrote it before clocks, with one game in it.
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute_batch(
            "CREATE TABLE games (id TEXT PRIMARY KEY, variant TEXT NOT NULL,
                 start_fen TEXT NOT NULL, moves TEXT NOT NULL, opponent TEXT NOT NULL,
                 human TEXT NOT NULL, skill INTEGER NOT NULL, movetime REAL NOT NULL,
                 token TEXT, version INTEGER NOT NULL, updated INTEGER NOT NULL);",
        )
        .unwrap();
        let start = damka_web::game::PageGame::new(damka::core::Variant::Russian, None).unwrap();
        conn.execute(
            "INSERT INTO games VALUES ('g1-old', 'russian', ?1, 'c3-d4', 'human', 'white', 10,
                 1.0, NULL, 1, 0)",
            [start.start_fen()],
        )
        .unwrap();
    }
    let (app, _) = damka_web::serve(&config(&db)).unwrap();
    let old = app.view("g1-old").unwrap();
    assert_eq!(old.board.moves.len(), 1);
    assert_eq!((old.clocks, old.running), (None, None));
    let (view, _) = hot_seat(&app, 180.0, 2.0);
    drop(app);
    let (app, _) = damka_web::serve(&config(&db)).unwrap();
    let back = app.view(&view.id).unwrap();
    assert_eq!(back.time, Some([180.0, 2.0]));
    assert_eq!(back.running, Some("white"));
}

/// A move and its take-back leave the clocks where they were: before, the increment stayed
/// with every take-back, and a loop of them grew a 60 s clock past 250 s.
#[tokio::test]
async fn a_take_back_gives_back_only_what_the_move_took() {
    let (app, _) = damka_web::build(1, 1);
    let (view, token) = hot_seat(&app, 60.0, 10.0);
    for _ in 0..10 {
        app.play(&view.id, &mv("c3-d4", Some(&token))).unwrap();
        app.undo(&view.id, Some(&token)).unwrap();
    }
    let [white, black] = clocks(&app.view(&view.id).unwrap());
    assert!((55_000..=60_000).contains(&white), "{white}");
    // Black's turn in progress when each take-back came stays used: a few milliseconds, not
    // the 10 s increments of the moves taken back.
    assert!((59_000..=60_000).contains(&black), "{black}");
    // A move's cost comes back, not more: Black thinks, moves, and takes it back.
    app.play(&view.id, &mv("c3-d4", Some(&token))).unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    app.play(&view.id, &mv("f6-e5", Some(&token))).unwrap();
    let (back, _) = app.undo(&view.id, Some(&token)).unwrap();
    let [_, black] = clocks(&back);
    assert!((59_000..=60_000).contains(&black), "{black}");
}

/// Against the engine a take-back gives the engine back the time its move took: a loop of
/// moves and take-backs drained the engine's clock while the person's stayed.
#[tokio::test]
async fn a_take_back_gives_the_engine_its_time_back() {
    let (app, _) = damka_web::build(1, 1);
    let form = NewGame {
        time: Some(3.0),
        increment: Some(0.0),
        ..NewGame::default()
    };
    let view = app.new_game(&form).unwrap();
    let token = view.token.clone().unwrap();
    for _ in 0..3 {
        let (_, done) = app.play(&view.id, &mv("c3-d4", Some(&token))).unwrap();
        done.expect("the engine replies").await.unwrap();
        let moved = app.view(&view.id).unwrap();
        assert_eq!(moved.board.moves.len(), 2);
        assert!(clocks(&moved)[1] < 3_000, "the engine used time");
        let (back, _) = app.undo(&view.id, Some(&token)).unwrap();
        assert_eq!(back.board.moves.len(), 0);
        assert_eq!(clocks(&back)[1], 3_000, "the engine's clock is whole again");
    }
}
