//! The page's local games: the views damka-web sends for a game (start board, board now, legal moves with
//! their paths, the move list, the result), computed here from the same code (the `damka-page`
//! crate, which damka-web uses too), so a page served as static files plays by the same rules
//! and draws the same data without a server.

use serde_json::{json, Value};

use damka::core::Variant;
use damka_page::review::ReviewRequest;
use damka_page::PageGame;

/// The game described by `request` and its view, as JSON: `{"error": ...}` when it fails.
/// `request` is three lines: the start position as FEN (empty: the usual start), the moves
/// played in Hub notation separated by spaces, and optionally a move to play now:
/// `text <move>` (algebraic or Hub) or `path <square> <square>...` (start, then landings).
pub fn view(variant: Variant, request: &str) -> Value {
    match build(variant, request) {
        Ok(v) => v,
        Err(e) => json!({ "error": e }),
    }
}

/// The review of a game from the verdicts a search gave (the request is
/// [`damka_page::review::ReviewRequest`] as JSON), as JSON: `{"error": ...}` when it fails.
pub fn review(variant: Variant, request: &str) -> Value {
    let done = serde_json::from_str::<ReviewRequest>(request)
        .map_err(|e| format!("bad review request: {e}"))
        .and_then(|req| PageGame::of_request(variant, &req)?.review(&req));
    match done {
        Ok(v) => serde_json::to_value(v).unwrap_or_else(|e| json!({ "error": e.to_string() })),
        Err(e) => json!({ "error": e }),
    }
}

/// The board editor's check of a set-up position (FEN): `{"fen": ...}` or `{"error": ...}`.
pub fn setup(variant: Variant, fen: &str) -> Value {
    match damka_page::review::check_setup(variant, fen) {
        Ok(fen) => json!({ "fen": fen }),
        Err(e) => json!({ "error": e }),
    }
}

fn build(variant: Variant, request: &str) -> Result<Value, String> {
    let mut lines = request.split('\n');
    let fen = lines.next().unwrap_or("");
    let mut game = PageGame::new(variant, Some(fen))?;
    let g = game.view_mut();
    for m in lines.next().unwrap_or("").split_ascii_whitespace() {
        g.play_text(m)?;
    }
    let played = match lines.next().map(str::trim).unwrap_or("") {
        "" => None,
        m => {
            if let Some(text) = m.strip_prefix("text ") {
                g.play_text(text.trim())?;
            } else if let Some(path) = m.strip_prefix("path ") {
                let squares: Vec<String> =
                    path.split_ascii_whitespace().map(String::from).collect();
                g.play_path(&squares)?;
            } else {
                return Err(format!("bad move request {m:?}"));
            }
            g.history().last().map(|mv| mv.hub.clone())
        }
    };
    Ok(json!({
        "variant": variant.name(),
        "side": if g.side_to_move() == damka::core::Color::White { "white" } else { "black" },
        "playable": g.playable(),
        "start": g.start_board(),
        "board": g.board(),
        "moves": g.played(),
        "legal": g.legal(),
        "status": g.status(),
        "fen": g.fen(),
        "start_fen": g.start_fen(),
        "hub_moves": g.hub_moves(),
        "played": played,
        "pdn": g.pdn(&[]),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_by_text_or_path_is_played_and_the_view_follows() {
        let v = view(Variant::Russian, "\n\ntext c3-d4");
        assert_eq!(v["moves"].as_array().unwrap().len(), 1);
        assert_eq!(v["side"], "black");
        let hub = v["played"].as_str().unwrap().to_string();
        let again = view(Variant::Russian, &format!("\n{hub}\npath f6 g5"));
        assert_eq!(again["moves"].as_array().unwrap().len(), 2);
        assert_ne!(again["board"], again["start"]);
        assert_eq!(again["status"]["over"], false);
    }

    #[test]
    fn reviews_and_set_ups_answer_json() {
        let req = r#"{"moves":["c3-d4"],"verdicts":[{"score":0,"best":"e3-f4"},{"score":100}]}"#;
        let v = review(Variant::Russian, req);
        assert_eq!(v["moves"][0]["mark"], "??", "{v}");
        assert!(v["pdn"].as_str().unwrap().contains("[%eval -1.00]"));
        assert!(review(Variant::Russian, "{")["error"].is_string());
        assert!(
            review(Variant::Russian, r#"{"moves":["c3-c4"],"verdicts":[]}"#)["error"].is_string()
        );
        assert!(setup(Variant::Russian, "W:Wc3:Bd6")["fen"].is_string());
        assert!(setup(Variant::Russian, "W:Wh8:Bd6")["error"].is_string());
    }

    #[test]
    fn bad_requests_are_errors_not_panics() {
        for request in [
            "x\n",
            "\nc3-d4 c3-d4",
            "\n\npath z9",
            "\n\nfly away",
            "W:Wc3:Bd4,f6\n\ntext c3-d4",
        ] {
            assert!(
                view(Variant::Russian, request)["error"].is_string(),
                "{request:?}"
            );
        }
    }
}
