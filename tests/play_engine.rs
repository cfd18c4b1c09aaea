//! `damka play` against the engine, driven through stdin: hints, engine replies, undo back to
//! the human's turn, and engine-against-engine games played to their end.

use crate::play_support;
use crate::process_support;
use play_support::{run_ok, says};

#[test]
fn human_against_the_engine_with_hint_and_undo() {
    let file = process_support::temp_path("play-engine.pdn");
    let save = format!("save {}", file.display());
    let input = format!("hint\nc3-e5\nc3-d4\nundo\nmoves\ng3-h4\n{save}\nquit\n");
    let out = run_ok("--depth 3 --ascii", &input);
    says(
        &out,
        &[
            "hint: ",
            "score ",
            "illegal move c3-e5",
            "White plays c3-d4",
        ],
    );
    assert_eq!(out.matches("Black (engine) plays").count(), 2, "{out}");
    // Undo takes back the engine's reply and the human's move: White to move again.
    says(&out, &["took back c3-d4 ", "legal moves (7): "]);
    let pdn = std::fs::read_to_string(&file).unwrap();
    let rec = damka::game::Record::<damka::variant::RussianPosition>::from_pdn(&pdn).unwrap();
    assert_eq!(rec.game.ply(), 2);
    assert_eq!(rec.game.move_texts()[0], "g3-h4");
    says(&pdn, &["[Black \"damka\"]"]);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn engine_against_engine_plays_to_the_end() {
    // King and man against a king: drawn by 7.2.8 at the latest after a few moves.
    let engines = "--white engine --black engine";
    let out = run_ok(&format!("{engines} --depth 3 --fen W:WKc1,h2:BKf8"), "");
    says(&out, &["White (engine) plays", "Game over: "]);
    // Turkish: a king and a man against two men; the king side wins.
    let turkish = format!("--variant turkish {engines} --depth 4 --fen W:WKa1,b3:Bh6,g6");
    let out = run_ok(&turkish, "");
    says(&out, &["Game over: White wins"]);
}

#[test]
fn engine_plays_white_and_hint_after_the_end_is_refused() {
    // The engine (White) takes the last black man at once.
    let options = "--white engine --black human --depth 2 --fen W:Wc3,g3:Bd4";
    let out = run_ok(options, "hint\nquit\n");
    let over = "Game over: White wins (no legal move).";
    says(
        &out,
        &["White (engine) plays c3:e5", over, "the game is over"],
    );
}
