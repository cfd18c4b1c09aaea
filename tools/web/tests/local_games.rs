//! Local games (against the engine, hot seat) are saved in the database file and read back by
//! a server started again on it; only the browser holding the game's owner secret moves in it.

mod common;

use damka_web::service::{MoveRequest, NewGame, NOT_OWNER};
use damka_web::Config;

fn db_path(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("damka-web-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("games.sqlite3").to_string_lossy().into_owned()
}

fn config(db: &str) -> Config {
    let mut c = Config::new(1, 1);
    c.db = common::pg::test_db(db);
    c
}

fn mv(text: &str, token: Option<&str>) -> MoveRequest {
    MoveRequest {
        text: Some(text.into()),
        path: None,
        token: token.map(str::to_string),
    }
}

/// A server on `db` and a game started there with `form`: the server, the game's id and
/// its owner's secret.
fn started(db: &str, form: NewGame) -> (std::sync::Arc<damka_web::app::App>, String, String) {
    let (app, _) = damka_web::serve(&config(db)).unwrap();
    let view = app.new_game(&form).unwrap();
    let token = view.token.clone().expect("the owner's secret");
    (app, view.id, token)
}

#[tokio::test]
async fn a_hot_seat_game_comes_back_after_a_restart_and_stays_its_owners() {
    let db = db_path("hot-seat");
    let (id, token) = {
        let hot_seat = NewGame {
            opponent: Some("human".into()),
            ..NewGame::default()
        };
        let (app, id, token) = started(&db, hot_seat);
        app.play(&id, &mv("c3-d4", Some(&token))).unwrap();
        app.play(&id, &mv("f6-g5", Some(&token))).unwrap();
        // Not the owner: refused, the game unchanged.
        let refused = app.play(&id, &mv("g3-h4", None)).unwrap_err();
        assert_eq!(refused.to_string(), NOT_OWNER);
        let forged = app.play(&id, &mv("g3-h4", Some(&"0".repeat(32))));
        assert!(forged.is_err());
        assert!(app.undo(&id, None).is_err());
        (id, token)
    };
    // A new server on the same file: the game is read back when asked for.
    let (app, _) = damka_web::serve(&config(&db)).unwrap();
    let view = app.view(&id).unwrap();
    let moves: Vec<&str> = view.board.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["c3-d4", "f6-g5"]);
    assert_eq!(view.opponent, "human");
    assert!(view.token.is_none(), "a view never shows the secret");
    assert!(app.play(&id, &mv("g3-h4", None)).is_err());
    app.play(&id, &mv("g3-h4", Some(&token))).unwrap();
    app.undo(&id, Some(&token)).unwrap();
    assert_eq!(app.view(&id).unwrap().board.moves.len(), 2);
    assert!(app.view("g1-nosuchgame").is_err());
    assert!(app.view("'; DROP TABLE games; --").is_err());
}

#[tokio::test]
async fn a_game_against_the_engine_goes_on_after_a_restart() {
    let db = db_path("engine");
    let (id, token) = {
        let quick = NewGame {
            movetime: Some(0.05),
            skill: Some(3),
            ..NewGame::default()
        };
        let (app, id, token) = started(&db, quick);
        let (_, done) = app.play(&id, &mv("c3-d4", Some(&token))).unwrap();
        done.expect("the engine replies").await.unwrap();
        assert_eq!(app.view(&id).unwrap().board.moves.len(), 2);
        (id, token)
    };
    let (app, _) = damka_web::serve(&config(&db)).unwrap();
    let view = app.view(&id).unwrap();
    assert_eq!(view.board.moves.len(), 2);
    assert_eq!(
        (view.opponent, view.color, view.skill),
        ("engine", "white", 3)
    );
    let legal = view.board.legal[0].text.clone();
    let (_, done) = app.play(&id, &mv(&legal, Some(&token))).unwrap();
    done.expect("the engine replies after the restart")
        .await
        .unwrap();
    assert_eq!(app.view(&id).unwrap().board.moves.len(), 4);
}
