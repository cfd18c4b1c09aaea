//! Local games (against the engine, hot seat) are saved in the database file and read back by
//! a server started again on it; only the browser holding the game's owner secret moves in it.

use crate::server_support;

use damka_web::local::service::{NewGame, NOT_OWNER};
use server_support::{config, db_path, mv};

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

/// A change that cannot be saved is answered as a failure (503, "could not save") and not
/// made: before, a full disk or a database file removed while the server ran acknowledged
/// every game and move (201, 200) and kept none. Always on SQLite (the file is removed).
#[tokio::test]
async fn a_change_that_cannot_be_saved_is_refused_and_says_so() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use tower::ServiceExt;
    let db = db_path("removed");
    let mut sqlite = damka_web::Config::new(1, 1);
    sqlite.db = db.clone();
    let (app, router) = damka_web::serve(&sqlite).unwrap();
    let hot_seat = NewGame {
        opponent: Some("human".into()),
        ..NewGame::default()
    };
    let view = app.new_game(&hot_seat).unwrap();
    let token = view.token.clone().unwrap();
    app.play(&view.id, &mv("c3-d4", Some(&token))).unwrap();
    let mut watcher = app.subscribe(&view.id).unwrap();
    std::fs::remove_file(&db).unwrap();
    let refused = app.play(&view.id, &mv("f6-g5", Some(&token))).unwrap_err();
    assert!(refused.to_string().contains("could not save"), "{refused}");
    assert!(refused.to_string().contains("removed"), "{refused}");
    // Not made: the game is as last saved, and its page hears so (after the move it drew),
    // under a newer version, which it takes.
    let moves = app.view(&view.id).unwrap().board.moves.len();
    assert_eq!(moves, 1);
    let states: Vec<serde_json::Value> = std::iter::from_fn(|| watcher.try_recv().ok())
        .map(|m| serde_json::from_str(&m).unwrap())
        .collect();
    let last = &states.last().expect("the watchers hear the game put back")["game"];
    assert_eq!(last["moves"].as_array().unwrap().len(), 1);
    assert!(last["version"].as_u64() > states[0]["game"]["version"].as_u64());
    let post = |uri: &str, body: &str| {
        Request::post(uri)
            .header("content-type", "application/json")
            .header("x-game-token", token.as_str())
            .body(Body::from(body.to_string()))
            .unwrap()
    };
    let moved = router
        .clone()
        .oneshot(post(
            &format!("/api/games/{}/move", view.id),
            r#"{"move": "f6-g5"}"#,
        ))
        .await
        .unwrap();
    assert_eq!(moved.status(), StatusCode::SERVICE_UNAVAILABLE);
    let started = router
        .oneshot(post("/api/games", r#"{"opponent": "human"}"#))
        .await
        .unwrap();
    assert_eq!(started.status(), StatusCode::SERVICE_UNAVAILABLE);
    let body = axum::body::to_bytes(started.into_body(), 1 << 16)
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&body).contains("could not save"));
}
