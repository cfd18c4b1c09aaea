//! `damka play` driven through stdin, as a user would: whole short games, bad input, undo,
//! flip, save, and end of input.

use crate::play_support;
use crate::process_support;
use play_support::{run, run_ok, says};

#[test]
fn a_short_human_game_with_mistakes_undo_and_save() {
    let file = process_support::temp_path("play-short.pdn");
    let input = format!(
        "hello\nc3-b2\nz9-a1\nmoves\nc3-d4\nundo\nundo\nc3-d4\nflip\nf6-e5\nd4-c5\nd4:f6\nf6-e7\nsave {}\nquit\n",
        file.display()
    );
    let humans = "--white human --black human";
    let out = run_ok(&format!("{humans} --fen W:Wc3,g3:Bf6 --ascii"), &input);
    says(
        &out,
        &[
            // Bad input gets a message and a new prompt.
            "\"hello\"",
            "illegal move c3-b2",
            "bad move syntax",
            "legal moves (4): c3-b4 c3-d4 g3-f4 g3-h4",
            "took back c3-d4",
            "nothing to undo",
            // A capture is compulsory: d4-c5 is refused, d4:f6 ends the game.
            "illegal move d4-c5: a capture is compulsory (d4:f6)",
            "White plays d4:f6",
            "Game over: White wins (no legal move).",
            "the game is over",
            "saved the game to",
            // The board: coordinates, ASCII pieces, Black at the bottom after flip.
            "    a b c d e f g h",
            "    h g f e d c b a",
            "Last move: c3-d4",
        ],
    );
    let pdn = std::fs::read_to_string(&file).unwrap();
    let tags = ["[Result \"2-0\"]", "[FEN \"W:Wc3,g3:Bf6\"]"];
    says(&pdn, &[tags[0], tags[1], "1. c3-d4 f6-e5 2. d4:f6"]);
    let rec = damka::game::Record::<damka::variant::RussianPosition>::from_pdn(&pdn).unwrap();
    assert_eq!(rec.game.move_texts(), ["c3-d4", "f6-e5", "d4:f6"]);

    // Load it back in a new session and go on from the end of it: undo the last capture.
    let script = format!(
        "load {}\nundo\nfen\nload /nonexistent.pdn\n",
        file.display()
    );
    let out = run_ok(&format!("{humans} --ascii"), &script);
    says(&out, &["3 moves played", "took back d4:f6", "W:Wg3,d4:Be5"]);
    says(&out, &["could not read /nonexistent.pdn"]);
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_turkish_game_in_unicode() {
    let options = "--variant turkish --black human --fen W:WKd1:Bd5,h7";
    let out = run_ok(options, "d1-d2\nd1xd6\n");
    says(&out, &["⛁", "⛂", "illegal move d1-d2"]);
    says(
        &out,
        &["Game over: White wins (lone king against lone man)."],
    );
}

#[test]
fn end_of_input_exits_cleanly() {
    let (code, out) = run("--black human", "");
    assert_eq!(code, 0);
    says(&out, &["White to move (1)> "]);
    let (code, _) = run("--black human", "c3-d4\nf6-g5\n");
    assert_eq!(code, 0);
}

#[test]
fn a_bad_start_position_is_refused() {
    let (code, out) = run("--fen W:Wz9", "");
    assert_eq!(code, 2);
    says(&out, &["bad position"]);
}

#[test]
fn bad_save_path_is_a_message_not_a_crash() {
    let input = "save /nonexistent-dir/x/y.pdn\nsave\nc3-d4\nquit\n";
    let out = run_ok("--black human", input);
    says(
        &out,
        &["could not save", "usage: save FILE", "White plays c3-d4"],
    );
}
