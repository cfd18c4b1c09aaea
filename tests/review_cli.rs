//! `damka review GAME.pdn`: the marked moves and summary it prints, the PDN it writes, and
//! its messages on bad input (short and at once, whatever the file).

use crate::process_support;

use damka::game::Record;
use damka::variant::{RussianPosition, TurkishPosition};
use std::path::Path;

/// `damka review INPUT --depth DEPTH --out OUT`.
fn review(input: &Path, depth: &str, out: &str) -> process_support::Out {
    let args = [
        "review",
        input.to_str().unwrap(),
        "--depth",
        depth,
        "--out",
        out,
    ];
    process_support::run(env!("CARGO_BIN_EXE_damka"), &args, &[])
}

/// White's 2. e3-f4 gives two men away to g5:e3:c5.
const RUSSIAN_BLUNDER: &str = "[White \"Ann\"]\n[Black \"Bob\"]\n[GameType \"25\"]\n\n\
     1. c3-d4 f6-g5 2. e3-f4 g5:e3:c5 3. b2-c3 *\n";

#[test]
fn a_planted_blunder_is_marked_with_the_better_move_and_every_move_gets_an_eval() {
    let input = process_support::temp_path("blunder.pdn");
    let output = process_support::temp_path("blunder-out.pdn");
    std::fs::write(&input, RUSSIAN_BLUNDER).unwrap();
    let out = review(&input, "6", output.to_str().unwrap());
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let marked: Vec<&str> = out
        .lines()
        .into_iter()
        .filter(|l| l.contains("better"))
        .collect();
    assert_eq!(marked.len(), 1, "{}", out.stdout);
    assert!(
        marked[0].trim_start().starts_with("2. e3-f4??"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("White: 3 moves, inaccuracies 0, mistakes 0, blunders 1,"),
        "{}",
        out.stdout
    );
    assert!(out
        .stdout
        .contains("Black: 2 moves, inaccuracies 0, mistakes 0, blunders 0,"));
    let written = std::fs::read_to_string(&output).unwrap();
    assert_eq!(written.matches("[%eval ").count(), 5, "{written}");
    assert!(written.contains("e3-f4??"), "{written}");
    let back = Record::<RussianPosition>::from_pdn(&written).unwrap();
    let plain = Record::<RussianPosition>::from_pdn(RUSSIAN_BLUNDER).unwrap();
    assert_eq!(
        back.game, plain.game,
        "the reviewed PDN reads back as the game"
    );
    assert_eq!(back.tag("White"), Some("Ann"));
}

#[test]
fn a_turkish_game_is_reviewed_and_can_go_to_standard_output() {
    let input = process_support::temp_path("turkish.pdn");
    std::fs::write(
        &input,
        "[GameType \"30\"]\n\n1. d3-d4 a6-a5 2. h3-h4 a5-a4 3. a3xa5 *\n",
    )
    .unwrap();
    let out = review(&input, "4", "-");
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let pdn = &out.stdout[out.stdout.find("[Event").expect("the PDN follows")..];
    assert_eq!(pdn.matches("[%eval ").count(), 5, "{pdn}");
    assert!(Record::<TurkishPosition>::from_pdn(pdn).is_ok());
}

#[test]
fn bad_input_gets_a_message_and_nothing_is_written() {
    let illegal = process_support::temp_path("illegal.pdn");
    std::fs::write(&illegal, "1. c3-d4 f6-g5 2. c3-b4 *\n").unwrap();
    let out_path = process_support::temp_path("illegal-out.pdn");
    let missing = process_support::temp_path("missing.pdn");
    let empty = process_support::temp_path("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    for input in [&illegal, &missing, &empty] {
        let out = review(input, "2", out_path.to_str().unwrap());
        assert_eq!(out.code, 2, "{input:?}: {}", out.stdout);
        assert!(out.stderr.starts_with("damka review: "), "{}", out.stderr);
        assert!(!out.stderr.contains("panicked"), "{}", out.stderr);
        assert!(!out_path.exists(), "nothing written for {input:?}");
    }
}

/// Files the review must not read whole: a device that never ends, a file over the size of
/// a text file a command reads, a move as long as a file. Each is a short message at once.
#[test]
fn endless_huge_and_long_word_inputs_are_refused_with_a_short_message() {
    let out_path = process_support::temp_path("huge-out.pdn");
    let huge = process_support::temp_path("huge.pdn");
    // Sparse: its length is read from its metadata, nothing is written to the disk.
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(damka::core::file::MAX_TEXT_FILE_BYTES + 1)
        .unwrap();
    drop(f);
    let long_word = process_support::temp_path("long-word.pdn");
    std::fs::write(&long_word, format!("1. c3-d4 {} *\n", "x".repeat(100_000))).unwrap();
    let devices = Path::new("/dev/zero");
    for (input, said) in [
        (devices, "not a regular file"),
        (huge.as_path(), "and a PDN file has at most 67108864"),
        (long_word.as_path(), "bad move syntax: \"xxxxxxxxxx"),
    ] {
        let out = review(input, "2", out_path.to_str().unwrap());
        assert_eq!(out.code, 2, "{input:?}: {}", out.stdout);
        assert!(out.stderr.contains(said), "{input:?}: {}", out.stderr);
        assert!(out.stderr.len() < 300, "{input:?}: {}", out.stderr.len());
        assert!(!out_path.exists(), "nothing written for {input:?}");
    }
    let _ = std::fs::remove_file(&huge);
    let _ = std::fs::remove_file(&long_word);
}
