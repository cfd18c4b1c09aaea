//! The server's API: HTTP requests through the router in memory, WebSocket messages against a
//! real server on a free port. Bad input of every kind gets a clear error and the server
//! goes on serving.

use crate::server_support;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures_util::SinkExt;
use http_body_util::BodyExt;
use serde_json::{json, Value};
use server_support::{next, send, wait_for};
use tokio_tungstenite::tungstenite::Message;
use tower::ServiceExt;

fn router() -> axum::Router {
    let mut config = damka_web::Config::new(1, 1);
    config.db = server_support::pg::test_db(&config.db);
    damka_web::serve(&config).unwrap().1
}

/// The owner secrets of the games the tests started, by game id: `call` sends a game's own
/// with every request about it, as the page that started it does.
static TOKENS: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

fn token_for(uri: &str) -> Option<String> {
    let id = uri.strip_prefix("/api/games/")?.split('/').next()?;
    let tokens = TOKENS.lock().unwrap();
    tokens.iter().find(|(g, _)| g == id).map(|(_, t)| t.clone())
}

async fn call(app: &axum::Router, method: &str, uri: &str, body: &str) -> (StatusCode, String) {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("content-type", "application/json");
    if let Some(t) = token_for(uri) {
        req = req.header(damka_web::transport::http::TOKEN_HEADER, t);
    }
    let req = req.body(Body::from(body.to_string())).unwrap();
    let resp = app.clone().oneshot(req).await.unwrap();
    let status = resp.status();
    let bytes = resp.into_body().collect().await.unwrap().to_bytes();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if uri == "/api/games" && status == StatusCode::CREATED {
        let v: Value = serde_json::from_str(&text).unwrap();
        let token = v["token"]
            .as_str()
            .expect("a new game's answer has its owner's token");
        let id = v["id"].as_str().unwrap();
        TOKENS.lock().unwrap().push((id.into(), token.into()));
    }
    (status, text)
}

async fn call_json(app: &axum::Router, method: &str, uri: &str, body: &str) -> (StatusCode, Value) {
    let (status, text) = call(app, method, uri, body).await;
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"));
    (status, v)
}

fn error_of(v: &Value) -> &str {
    v["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {v}"))
}

#[tokio::test]
async fn page_and_assets_are_served() {
    let app = router();
    let (s, html) = call(&app, "GET", "/", "").await;
    assert_eq!(s, StatusCode::OK);
    for needle in [
        "id=\"new-game\"",
        "id=\"moves\"",
        "id=\"status\"",
        "data-action=\"start\"",
        "data-action=\"hint\"",
        "data-action=\"undo\"",
        "data-action=\"flip\"",
        "data-action=\"pdn\"",
        "name=\"skill\"",
    ] {
        assert!(html.contains(needle), "page lacks {needle}");
    }
    for f in ["board.js", "app.js", "style.css", "favicon.svg"] {
        let (s, body) = call(&app, "GET", &format!("/assets/{f}"), "").await;
        assert_eq!(s, StatusCode::OK, "{f}");
        assert!(!body.is_empty());
    }
    let (s, _) = call(&app, "GET", "/assets/missing.js", "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = call_json(&app, "GET", "/api/info", "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["skill_levels"].as_array().unwrap().len(), 10);
}

#[tokio::test]
async fn hot_seat_game_over_http() {
    let app = router();
    let (s, g) = call_json(&app, "POST", "/api/games", r#"{"opponent":"human"}"#).await;
    assert_eq!(s, StatusCode::CREATED);
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(g["legal"].as_array().unwrap().len(), 7);
    assert_eq!(g["status"]["result"], "*");
    // By text, by Hub numbers and by squares.
    let uri = format!("/api/games/{id}/move");
    let (s, g) = call_json(&app, "POST", &uri, r#"{"move":"c3-d4"}"#).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let (s, g) = call_json(&app, "POST", &uri, r#"{"move":"23-19"}"#).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"][1]["text"], "f6-e5");
    // White must capture: d4:f6.
    let legal = g["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 1);
    assert_eq!(legal[0]["captured"], json!(["e5"]));
    let (s, v) = call_json(&app, "POST", &uri, r#"{"move":"a3-b4"}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("illegal move a3-b4"), "{v}");
    let (s, g) = call_json(&app, "POST", &uri, r#"{"path":["d4","f6"]}"#).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    // The start board and the board now, not one a move: the page replays the moves.
    assert_eq!(g["start"].as_str().unwrap().len(), 64);
    assert_eq!(
        &g["board"].as_str().unwrap()[45..46],
        "w",
        "the capture landed on f6"
    );
    assert_eq!(g["moves"][2], json!({"text": "d4:f6", "captured": ["e5"]}));
    assert!(g.get("boards").is_none());
    // Undo in hot seat takes back one ply.
    let (s, g) = call_json(&app, "POST", &format!("/api/games/{id}/undo"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
    let (s, pdn) = call(&app, "GET", &format!("/api/games/{id}/pdn"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        pdn.contains("[GameType \"25\"]") && pdn.contains("1. c3-d4 f6-e5"),
        "{pdn}"
    );
}

#[tokio::test]
async fn a_local_games_clocks_are_in_its_http_views() {
    let app = router();
    let body = r#"{"opponent":"human","time":180,"increment":2}"#;
    let (s, g) = call_json(&app, "POST", "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(
        (&g["time"], &g["running"]),
        (&json!([180.0, 2.0]), &json!("white"))
    );
    let uri = format!("/api/games/{}/move", g["id"].as_str().unwrap());
    let (s, g) = call_json(&app, "POST", &uri, r#"{"move":"c3-d4"}"#).await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["running"], "black");
    assert!(
        g["clocks"][0].as_i64().unwrap() > 180_000,
        "the increment: {g}"
    );
    let (s, v) = call_json(&app, "POST", "/api/games", r#"{"time":0}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("time must be from"), "{v}");
    let (_, g) = call_json(&app, "POST", "/api/games", r#"{"opponent":"human"}"#).await;
    assert!(g["clocks"].is_null() && g["time"].is_null() && g["running"].is_null());
}

#[tokio::test]
async fn against_the_engine_the_reply_comes_with_the_move() {
    let app = router();
    let body = r#"{"variant":"turkish","color":"black","movetime":0.05,"skill":3}"#;
    let (s, g) = call_json(&app, "POST", "/api/games", body).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    // The engine plays White and has moved.
    assert_eq!(g["moves"].as_array().unwrap().len(), 1);
    assert_eq!(g["side"], "black");
    assert_eq!(g["can_move"], true);
    let id = g["id"].as_str().unwrap().to_string();
    let mv = g["legal"][0]["text"].as_str().unwrap().to_string();
    let (s, g) = call_json(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        &json!({ "move": mv }).to_string(),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
    // Undo goes back to the person's turn: two plies.
    let (_, g) = call_json(&app, "POST", &format!("/api/games/{id}/undo"), "").await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 1);
    let (s, h) = call_json(&app, "POST", &format!("/api/games/{id}/hint"), "").await;
    assert_eq!(s, StatusCode::OK, "{h}");
    let hinted = h["move"]["text"].as_str().unwrap();
    assert!(g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["text"] == hinted));
    assert_eq!(h["pv"][0], hinted);
}

#[tokio::test]
async fn engine_requests_wait_in_the_queue() {
    // One search thread, three games where the engine plays White, asked for at once.
    let app = router();
    let body = r#"{"color":"black","movetime":0.05}"#;
    let (a, b, c) = tokio::join!(
        call_json(&app, "POST", "/api/games", body),
        call_json(&app, "POST", "/api/games", body),
        call_json(&app, "POST", "/api/games", body),
    );
    for (s, g) in [a, b, c] {
        assert_eq!(s, StatusCode::CREATED, "{g}");
        assert_eq!(g["moves"].as_array().unwrap().len(), 1, "{g}");
        assert_eq!(g["thinking"], false);
    }
}

#[tokio::test]
async fn bad_http_requests_get_clear_errors() {
    let app = router();
    let (s, v) = call_json(&app, "POST", "/api/games", "{not json").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).starts_with("malformed JSON"), "{v}");
    for (body, word) in [
        (r#"{"variant":"chess"}"#, "unknown variant"),
        (r#"{"skill":11}"#, "skill"),
        (r#"{"movetime":-1}"#, "movetime"),
        (r#"{"color":"green"}"#, "color"),
        (r#"{"opponent":"cat"}"#, "opponent"),
        (r#"{"fen":"W:Wz1"}"#, "FEN"),
        (r#"{"pdn":"1. c3-c4"}"#, "PDN"),
        (r#"{"pdn":"1. c3-d4 ] *"}"#, "']'"),
        (r#"{"colour":"white"}"#, "unknown field"),
    ] {
        let (s, v) = call_json(&app, "POST", "/api/games", body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_of(&v).contains(word), "{body}: {v}");
    }
    let big = format!(r#"{{"pdn":"{}"}}"#, "x".repeat(100_000));
    let (s, v) = call_json(&app, "POST", "/api/games", &big).await;
    assert_eq!(s, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error_of(&v).contains("too large"), "{v}");
    for (m, uri) in [
        ("GET", "/api/games/nope"),
        ("POST", "/api/games/nope/move"),
        ("POST", "/api/games/nope/undo"),
        ("POST", "/api/games/nope/hint"),
        ("GET", "/api/games/nope/pdn"),
    ] {
        let (s, v) = call_json(&app, m, uri, r#"{"move":"c3-d4"}"#).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}");
        assert!(error_of(&v).contains("unknown game"), "{v}");
    }
    let (_, g) = call_json(&app, "POST", "/api/games", r#"{"opponent":"human"}"#).await;
    let id = g["id"].as_str().unwrap();
    let uri = format!("/api/games/{id}/move");
    for body in [
        r#"{"move":"c3-c4"}"#,
        r#"{"move":"zz"}"#,
        r#"{"path":["c3"]}"#,
        r#"{"path":["c3","e5"]}"#,
        r#"{"path":["q9","e5"]}"#,
        r#"{}"#,
        r#"[1,2]"#,
    ] {
        let (s, v) = call_json(&app, "POST", &uri, body).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}");
        error_of(&v);
    }
    let (s, v) = call_json(&app, "POST", &format!("/api/games/{id}/undo"), "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("nothing to take back"));
    // The server goes on: the game is intact and takes a good move.
    let (s, g) = call_json(&app, "POST", &uri, r#"{"move":"c3-d4"}"#).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(g["moves"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn imported_games_and_game_end() {
    let app = router();
    let pdn = "[GameType \"30\"]\n1. d3-d4 d6-d5 *";
    let body = json!({ "pdn": pdn, "opponent": "human" }).to_string();
    let (s, g) = call_json(&app, "POST", "/api/games", &body).await;
    assert_eq!(s, StatusCode::CREATED, "{g}");
    assert_eq!(g["variant"], "turkish");
    assert_eq!(g["moves"].as_array().unwrap().len(), 2);
    // White captures the last black man: the game is over by the rules.
    let body = json!({ "fen": "W:Wc3:Bd4", "opponent": "human" }).to_string();
    let (_, g) = call_json(&app, "POST", "/api/games", &body).await;
    let id = g["id"].as_str().unwrap();
    let (_, g) = call_json(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"move":"c3:e5"}"#,
    )
    .await;
    assert_eq!(g["status"]["over"], true);
    assert_eq!(g["status"]["result"], "2-0");
    assert_eq!(g["status"]["text"], "White wins (no legal move)");
    assert_eq!(g["legal"].as_array().unwrap().len(), 0);
    let (s, v) = call_json(&app, "POST", &format!("/api/games/{id}/hint"), "").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("over"));
}

#[tokio::test]
async fn a_king_capture_is_accepted_by_every_path() {
    let app = router();
    // The king on a1 takes c3 and f6 on one line and may pause on d4 or e5 in between.
    let body = json!({ "fen": "W:WKa1:Bc3,f6,h2", "opponent": "human" }).to_string();
    let (_, g) = call_json(&app, "POST", "/api/games", &body).await;
    let id = g["id"].as_str().unwrap();
    let to_g7: Vec<&Value> = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["path"].as_array().unwrap().last() == Some(&json!("g7")))
        .collect();
    assert_eq!(to_g7.len(), 1, "{g}");
    assert_eq!(to_g7[0]["paths"], json!([["d4", "g7"], ["e5", "g7"]]));
    let (s, g) = call_json(
        &app,
        "POST",
        &format!("/api/games/{id}/move"),
        r#"{"path":["a1","e5","g7"]}"#,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{g}");
    let played = g["moves"][0]["text"].as_str().unwrap();
    assert!(
        played.starts_with("a1:") && played.ends_with(":g7"),
        "{played}"
    );
}

async fn serve() -> String {
    server_support::serve(damka_web::Config::new(1, 1)).await.0
}

#[tokio::test]
async fn websocket_game_against_the_engine() {
    let url = serve().await;
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    send(&mut ws, json!({"type":"new","movetime":0.05,"skill":2})).await;
    let owner = wait_for(&mut ws, "owner", |_| true).await;
    let token = owner["token"].as_str().unwrap().to_string();
    let s = wait_for(&mut ws, "state", |_| true).await;
    let id = s["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(owner["game"], id.as_str());
    assert_eq!(s["game"]["can_move"], true);
    assert!(s["game"].get("token").is_none(), "never in a state");
    send(
        &mut ws,
        json!({"type":"move","game":id,"path":["c3","d4"],"token":token}),
    )
    .await;
    // The engine answers: a state with two moves and the person to move.
    let s = wait_for(&mut ws, "state", |v| {
        v["game"]["moves"].as_array().unwrap().len() == 2 && v["game"]["can_move"] == true
    })
    .await;
    assert_eq!(s["game"]["side"], "white");
    send(&mut ws, json!({"type":"hint","game":id,"purpose":"eval"})).await;
    let h = wait_for(&mut ws, "hint", |_| true).await;
    assert_eq!(h["purpose"], "eval");
    assert!(h["white_score"].is_i64());
    // A second connection watching the same game hears the moves too.
    let (mut watcher, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    send(&mut watcher, json!({"type":"join","game":id})).await;
    wait_for(&mut watcher, "state", |_| true).await;
    // The watcher's link opens the game read-only: its move and undo are refused.
    for refused in [
        json!({"type":"move","game":id,"move":"a3-b4"}),
        json!({"type":"undo","game":id,"token":"0".repeat(32)}),
    ] {
        send(&mut watcher, refused).await;
        let e = wait_for(&mut watcher, "error", |_| true).await;
        assert!(e["message"]
            .as_str()
            .unwrap()
            .contains("belongs to the browser that started it"));
    }
    send(&mut ws, json!({"type":"undo","game":id,"token":token})).await;
    let s = wait_for(&mut watcher, "state", |v| {
        v["game"]["moves"].as_array().unwrap().is_empty()
    })
    .await;
    assert_eq!(s["game"]["can_move"], true);
}

#[tokio::test]
async fn bad_websocket_messages_get_errors_and_the_connection_goes_on() {
    let url = serve().await;
    let (mut ws, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    let bad = [
        "{not json".to_string(),
        r#"{"type":"dance"}"#.to_string(),
        r#"{"type":"move","game":"nope","move":"c3-d4"}"#.to_string(),
        r#"{"type":"join","game":"nope"}"#.to_string(),
        r#"{"type":"new","variant":"chess"}"#.to_string(),
        format!(r#"{{"type":"new","pdn":"{}"}}"#, "x".repeat(70_000)),
    ];
    let words = [
        "malformed",
        "unknown variant",
        "unknown game",
        "unknown game",
        "unknown variant",
        "too large",
    ];
    for (msg, word) in bad.iter().zip(words) {
        ws.send(Message::Text(msg.clone().into())).await.unwrap();
        let v = next(&mut ws).await;
        assert_eq!(v["type"], "error", "{msg:.40}: {v}");
        assert!(
            v["message"].as_str().unwrap().contains(word),
            "{msg:.40}: {v}"
        );
    }
    send(&mut ws, json!({"type":"new","opponent":"human"})).await;
    let owner = wait_for(&mut ws, "owner", |_| true).await;
    let s = wait_for(&mut ws, "state", |_| true).await;
    let id = s["game"]["id"].as_str().unwrap().to_string();
    send(
        &mut ws,
        json!({"type":"move","game":id,"move":"c3-c4","token":owner["token"]}),
    )
    .await;
    let v = wait_for(&mut ws, "error", |_| true).await;
    assert!(v["message"].as_str().unwrap().contains("c3-c4"), "{v}");
    send(&mut ws, json!({"type":"ping"})).await;
    wait_for(&mut ws, "pong", |_| true).await;
    // Beyond the WebSocket layer's limit the connection is closed, but the server goes on.
    let huge = "y".repeat(2 * 1024 * 1024);
    let _ = ws.send(Message::Text(huge.into())).await;
    let (mut again, _) = tokio_tungstenite::connect_async(&url).await.unwrap();
    send(&mut again, json!({"type":"join","game":id})).await;
    let s = wait_for(&mut again, "state", |_| true).await;
    assert_eq!(s["game"]["id"], id.as_str());
}

#[tokio::test]
async fn rooms_lobby_and_room_page_over_http() {
    let app = router();
    let (s, v) = call_json(&app, "POST", "/api/rooms", r#"{"time":60,"color":"black"}"#).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["seat"]["role"], "black");
    assert_eq!(v["seat"]["token"].as_str().unwrap().len(), 32);
    assert_eq!(v["room"]["seats"], json!([false, true]));
    assert_eq!(v["room"]["running"], Value::Null);
    let id = v["room"]["id"].as_str().unwrap().to_string();
    let (s, lobby) = call_json(&app, "GET", "/api/rooms", "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(lobby["open"][0]["id"], id.as_str());
    assert!(lobby["live"].as_array().unwrap().is_empty());
    let (s, r) = call_json(&app, "GET", &format!("/api/rooms/{id}"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(r["opponent"], "online");
    assert!(
        r.get("tokens").is_none() && !r.to_string().contains(v["seat"]["token"].as_str().unwrap())
    );
    let (s, pdn) = call(&app, "GET", &format!("/api/rooms/{id}/pdn"), "").await;
    assert_eq!(s, StatusCode::OK);
    assert!(
        pdn.contains("[TimeControl \"60+3\"]") && pdn.contains("[Result \"*\"]"),
        "{pdn}"
    );
    for (uri, status) in [
        ("/api/rooms/rnope", StatusCode::NOT_FOUND),
        ("/api/rooms/rnope/pdn", StatusCode::NOT_FOUND),
    ] {
        let (s, v) = call_json(&app, "GET", uri, "").await;
        assert_eq!(s, status, "{uri}");
        assert!(error_of(&v).contains("unknown game"));
    }
    let (s, v) = call_json(&app, "POST", "/api/rooms", r#"{"increment":-1}"#).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    assert!(error_of(&v).contains("increment"));
    let (s, html) = call(&app, "GET", &format!("/room/{id}"), "").await;
    assert_eq!(s, StatusCode::OK);
    for needle in [
        "id=\"room-link\"",
        "id=\"clock-white\"",
        "id=\"clock-black\"",
        "id=\"proposals\"",
        "<option value=\"online\">",
        "<option value=\"random\">",
        "data-action=\"resign\"",
        "data-action=\"draw\"",
        "data-action=\"opinion\"",
    ] {
        assert!(html.contains(needle), "room page lacks {needle}");
    }
    let (s, html) = call(&app, "GET", "/lobby", "").await;
    assert_eq!(s, StatusCode::OK);
    assert!(html.contains("id=\"live-rooms\"") && html.contains("/assets/lobby.js"));
}

/// A request for a name the server does not answer to is refused (421): a page of another
/// site whose name was made to point at 127.0.0.1 (DNS rebinding) passed the WebSocket's
/// origin check, its origin being its own name. Addresses and `localhost` always work, and
/// `--allowed-hosts` adds names.
#[tokio::test]
async fn a_request_for_another_host_name_is_misdirected() {
    let status = |app: &axum::Router, host: &'static str| {
        let req = Request::get("/api/info")
            .header("host", host)
            .body(Body::empty())
            .unwrap();
        let app = app.clone();
        async move { app.oneshot(req).await.unwrap().status() }
    };
    let app = router();
    for host in ["evil.example", "evil.example:8080", "damka.example.org"] {
        assert_eq!(
            status(&app, host).await,
            StatusCode::MISDIRECTED_REQUEST,
            "{host}"
        );
    }
    for host in [
        "127.0.0.1:8080",
        "localhost",
        "LOCALHOST:80",
        "[::1]:8080",
        "192.168.1.5",
    ] {
        assert_eq!(status(&app, host).await, StatusCode::OK, "{host}");
    }
    let mut config = damka_web::Config::new(1, 1);
    config.allowed_hosts = vec!["damka.example.org".into()];
    let named = damka_web::serve(&config).unwrap().1;
    assert_eq!(
        status(&named, "damka.example.org:443").await,
        StatusCode::OK
    );
    assert_eq!(
        status(&named, "evil.example").await,
        StatusCode::MISDIRECTED_REQUEST
    );
}
