//! `damka play` driven through stdin, as a user would: whole short games, bad input, undo,
//! flip, save, and end of input.

mod play_support;
mod process_support;
use play_support::run;

fn temp_file(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("damka-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn a_short_human_game_with_mistakes_undo_and_save() {
    let file = temp_file("short.pdn");
    let input = format!(
        "hello\nc3-b2\nz9-a1\nmoves\nc3-d4\nundo\nundo\nc3-d4\nflip\nf6-e5\nd4-c5\nd4:f6\nf6-e7\nsave {}\nquit\n",
        file.display()
    );
    let (code, out) = run(
        &[
            "--white",
            "human",
            "--black",
            "human",
            "--fen",
            "W:Wc3,g3:Bf6",
            "--ascii",
        ],
        &input,
    );
    assert_eq!(code, 0, "{out}");
    // Bad input gets a message and a new prompt.
    assert!(out.contains("\"hello\""), "{out}");
    assert!(out.contains("illegal move c3-b2"), "{out}");
    assert!(out.contains("bad move syntax"), "{out}");
    assert!(
        out.contains("legal moves (4): c3-b4 c3-d4 g3-f4 g3-h4"),
        "{out}"
    );
    assert!(out.contains("took back c3-d4"), "{out}");
    assert!(out.contains("nothing to undo"), "{out}");
    // A capture is compulsory: d4-c5 is refused, d4:f6 ends the game.
    assert!(
        out.contains("illegal move d4-c5: a capture is compulsory (d4:f6)"),
        "{out}"
    );
    assert!(out.contains("White plays d4:f6"), "{out}");
    assert!(
        out.contains("Game over: White wins (no legal move)."),
        "{out}"
    );
    assert!(out.contains("the game is over"), "{out}");
    assert!(out.contains("saved the game to"), "{out}");
    // The board: coordinates, ASCII pieces, Black at the bottom after flip.
    assert!(out.contains("    a b c d e f g h"), "{out}");
    assert!(out.contains("    h g f e d c b a"), "{out}");
    assert!(out.contains("Last move: c3-d4"), "{out}");

    let pdn = std::fs::read_to_string(&file).unwrap();
    assert!(pdn.contains("[Result \"2-0\"]"), "{pdn}");
    assert!(pdn.contains("[FEN \"W:Wc3,g3:Bf6\"]"), "{pdn}");
    assert!(pdn.contains("1. c3-d4 f6-e5 2. d4:f6"), "{pdn}");
    let rec = damka::game::Record::<damka::variant::RussianPosition>::from_pdn(&pdn).unwrap();
    assert_eq!(rec.game.move_texts(), ["c3-d4", "f6-e5", "d4:f6"]);

    // Load it back in a new session and go on from the end of it: undo the last capture.
    let (code, out) = run(
        &["--white", "human", "--black", "human", "--ascii"],
        &format!(
            "load {}\nundo\nfen\nload /nonexistent.pdn\n",
            file.display()
        ),
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 moves played"), "{out}");
    assert!(out.contains("took back d4:f6"), "{out}");
    assert!(out.contains("W:Wg3,d4:Be5"), "{out}");
    assert!(out.contains("could not read /nonexistent.pdn"), "{out}");
    let _ = std::fs::remove_file(&file);
}

#[test]
fn a_turkish_game_in_unicode() {
    let (code, out) = run(
        &[
            "--variant",
            "turkish",
            "--black",
            "human",
            "--fen",
            "W:WKd1:Bd5,h7",
        ],
        "d1-d2\nd1xd6\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains('⛁') && out.contains('⛂'), "{out}");
    assert!(out.contains("illegal move d1-d2"), "{out}");
    assert!(
        out.contains("Game over: White wins (lone king against lone man)."),
        "{out}"
    );
}

#[test]
fn end_of_input_exits_cleanly() {
    let (code, out) = run(&["--black", "human"], "");
    assert_eq!(code, 0);
    assert!(out.contains("White to move (1)> "), "{out}");
    let (code, _) = run(&["--black", "human"], "c3-d4\nf6-g5\n");
    assert_eq!(code, 0);
}

#[test]
fn a_bad_start_position_is_refused() {
    let (code, out) = run(&["--fen", "W:Wz9"], "");
    assert_eq!(code, 2);
    assert!(out.contains("bad position"), "{out}");
}

#[test]
fn bad_save_path_is_a_message_not_a_crash() {
    let (code, out) = run(
        &["--black", "human"],
        "save /nonexistent-dir/x/y.pdn\nsave\nc3-d4\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("could not save"), "{out}");
    assert!(out.contains("usage: save FILE"), "{out}");
    assert!(out.contains("White plays c3-d4"), "{out}");
}
