//! Analysis and review on the server's engine over the WebSocket (docs/web.md, docs/review.md):
//! the best lines of any position, a game's review with its progress and the planted blunder
//! marked, kept with the server's game, a review started twice, cancelled, or asked with bad
//! input.

use crate::server_support;

use serde_json::{json, Value};
use server_support::{connect, send, wait_for};

/// White's 2. e3-f4 gives two men away to g5:e3:c5.
const BLUNDER: [&str; 4] = ["c3-d4", "f6-g5", "e3-f4", "g5:e3:c5"];

async fn serve() -> String {
    server_support::serve(damka_web::Config::new(1, 1)).await.0
}

fn first_moves(v: &Value) -> Vec<String> {
    v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["moves"][0].as_str().unwrap_or("").to_string())
        .collect()
}

#[tokio::test]
async fn lines_of_any_position() {
    let url = serve().await;
    let mut ws = connect(&url).await;
    send(&mut ws, json!({"type":"analyse","moves":[],"lines":3})).await;
    let start = wait_for(&mut ws, "analysis", |_| true).await;
    assert_eq!(start["lines"].as_array().unwrap().len(), 3, "{start}");
    for l in start["lines"].as_array().unwrap() {
        assert!(l["score"].is_f64(), "{l}");
        assert!(!l["moves"].as_array().unwrap().is_empty(), "{l}");
    }
    send(
        &mut ws,
        json!({"type":"analyse","variant":"turkish","moves":["d3-d4"],"lines":2}),
    )
    .await;
    let after = wait_for(&mut ws, "analysis", |_| true).await;
    assert_eq!(after["ply"], 1);
    assert_eq!(after["lines"].as_array().unwrap().len(), 2, "{after}");
    assert_ne!(first_moves(&start), first_moves(&after));
}

#[tokio::test]
async fn a_review_marks_the_blunder_and_is_kept_with_the_game() {
    let url = serve().await;
    let mut ws = connect(&url).await;
    send(&mut ws, json!({"type":"new","opponent":"human"})).await;
    let token = wait_for(&mut ws, "owner", |_| true).await["token"]
        .as_str()
        .unwrap()
        .to_string();
    let id = wait_for(&mut ws, "state", |_| true).await["game"]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for (i, m) in BLUNDER.iter().enumerate() {
        send(
            &mut ws,
            json!({"type":"move","game":id,"move":m,"token":token}),
        )
        .await;
        wait_for(&mut ws, "state", |v| {
            v["game"]["moves"].as_array().unwrap().len() == i + 1
        })
        .await;
    }
    send(&mut ws, json!({"type":"review","moves":BLUNDER,"game":id})).await;
    let mut progress = Vec::new();
    let review = loop {
        let v = server_support::next(&mut ws).await;
        match v["type"].as_str() {
            Some("review-progress") => progress.push(v["done"].as_u64().unwrap()),
            Some("review") => break v,
            Some("error") => panic!("{v}"),
            _ => {}
        }
    };
    assert_eq!(progress, [1, 2, 3, 4, 5]);
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    assert_eq!(moves[2]["mark"], "??", "{review}");
    assert_eq!(moves[2]["ply"], 3);
    assert_eq!(review["white"]["blunders"], 1);
    assert_eq!(
        review["pdn"].as_str().unwrap().matches("[%eval ").count(),
        4
    );
    // Another page asks for the game's review: the kept one, at once.
    let mut other = connect(&url).await;
    send(
        &mut other,
        json!({"type":"review","moves":BLUNDER,"game":id}),
    )
    .await;
    let v = server_support::next(&mut other).await;
    assert_eq!(v["type"], "review", "{v}");
    assert_eq!(v["moves"], review["moves"]);
}

#[tokio::test]
async fn twice_cancelled_and_bad_input_get_messages() {
    let url = serve().await;
    let mut ws = connect(&url).await;
    let long: Vec<&str> = ["c3-d4"; 2000].to_vec();
    for bad in [
        json!({"type":"review","moves":["c3-d4","c3-d4"]}),
        json!({"type":"review","moves":long}),
        json!({"type":"analyse","variant":"chess"}),
        json!({"type":"analyse","fen":"W:Wz9:Bd6"}),
        json!({"type":"review-cancel"}),
    ] {
        send(&mut ws, bad.clone()).await;
        let e = wait_for(&mut ws, "error", |_| true).await;
        assert!(
            e["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{bad}: {e}"
        );
    }
    let game: Vec<&str> = BLUNDER.to_vec();
    send(&mut ws, json!({"type":"review","moves":game})).await;
    wait_for(&mut ws, "review-progress", |_| true).await;
    send(&mut ws, json!({"type":"review","moves":game})).await;
    let e = wait_for(&mut ws, "error", |_| true).await;
    assert!(
        e["message"].as_str().unwrap().contains("already running"),
        "{e}"
    );
    send(&mut ws, json!({"type":"review-cancel"})).await;
    let e = wait_for(&mut ws, "error", |_| true).await;
    assert!(e["message"].as_str().unwrap().contains("cancelled"), "{e}");
    // A new review runs after the cancelled one.
    send(&mut ws, json!({"type":"review","moves":game})).await;
    let v = wait_for(&mut ws, "review", |_| true).await;
    assert_eq!(v["moves"][2]["mark"], "??");
}
