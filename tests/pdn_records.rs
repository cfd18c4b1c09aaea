//! PDN records: writing, reading back (round trips for both games), reading what other tools
//! write (comments, variations, move numbers, numeric moves, result styles) and clear errors.

use damka::core::{Color, Variant};
use damka::game::pdn::{detect_variant, read_all, result_text};
use damka::game::{Game, Record};
use damka::variant::{Notation, Outcome, Position, RussianPosition, TurkishPosition};

/// A small deterministic generator, so the "random" games are the same on every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n
    }
}

fn random_game<P: Position>(start: P, plies: usize, seed: u64) -> Game<P> {
    let mut rng = Lcg(seed);
    let mut g = Game::new(start);
    while g.ply() < plies && g.result().is_none() {
        let moves = g.legal_moves();
        g.play(moves[rng.next(moves.len())]).unwrap();
    }
    g
}

fn round_trip<P: Position>(g: Game<P>) {
    let mut rec = Record::new(g);
    rec.set_tag("Event", "round \"trip\" \\ test");
    rec.set_tag("White", "damka");
    rec.set_tag("Black", "Human");
    rec.set_tag("Annotator", "tests");
    let text = rec.to_pdn();
    let back = Record::<P>::from_pdn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(back.game, rec.game, "{text}");
    assert_eq!(back.result, rec.result, "{text}");
    for name in ["Event", "White", "Black", "Annotator"] {
        assert_eq!(back.tag(name), rec.tag(name), "{name}");
    }
    assert_eq!(
        back.to_pdn(),
        text,
        "writing what was read gives the same text"
    );
}

#[test]
fn russian_games_round_trip() {
    for seed in 1..=12 {
        round_trip(random_game(RussianPosition::start(), 200, seed));
    }
}

#[test]
fn turkish_games_round_trip() {
    for seed in 1..=6 {
        round_trip(random_game(TurkishPosition::start(), 300, seed));
    }
}

#[test]
fn games_from_a_position_round_trip_with_black_to_move() {
    let start = RussianPosition::from_fen("B:WKc1,a3,e3,g3:Bb6,d6,Kh8").unwrap();
    let g = random_game(start, 40, 7);
    let rec = Record::new(g.clone());
    let text = rec.to_pdn();
    assert!(text.contains("[FEN \"B:"), "{text}");
    assert!(text.contains("\n1... "), "{text}");
    round_trip(g);
    let start = TurkishPosition::from_fen("B:WKa1,b3,c3:Bf6,Kh8").unwrap();
    round_trip(random_game(start, 40, 8));
}

#[test]
fn written_tags_and_moves() {
    let mut g = Game::<RussianPosition>::from_start();
    for m in ["c3-d4", "f6-g5", "g3-f4"] {
        g.play_text(m).unwrap();
    }
    let mut rec = Record::new(g);
    rec.set_tag("White", "A");
    let text = rec.to_pdn();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "[Event \"?\"]");
    assert!(lines.contains(&"[White \"A\"]"));
    assert!(lines.contains(&"[Result \"*\"]"));
    assert!(lines.contains(&"[GameType \"25\"]"));
    assert!(!text.contains("[FEN"), "no FEN from the initial position");
    assert!(text.contains("1. c3-d4 f6-g5 2. g3-f4 *"), "{text}");

    let mut g = Game::<TurkishPosition>::from_start();
    g.play_text("a3-a4").unwrap();
    let text = Record::new(g).to_pdn();
    assert!(text.contains("[GameType \"30\"]"), "{text}");
    assert_eq!(detect_variant(&text), Some(Variant::Turkish));
}

#[test]
fn finished_games_carry_result_and_rule() {
    let mut g = Game::<RussianPosition>::from_fen("W:Wc3:Bd4").unwrap();
    g.play_text("c3:e5").unwrap();
    let rec = Record::new(g);
    assert_eq!(rec.result, Some(Outcome::Win(Color::White)));
    let text = rec.to_pdn();
    assert!(text.contains("[Result \"2-0\"]"), "{text}");
    assert!(
        text.contains("1. c3:e5 {White wins (no legal move)} 2-0"),
        "{text}"
    );
    assert_eq!(result_text(Some(Outcome::Draw)), "1-1");
}

#[test]
fn reads_what_other_tools_write() {
    let text = r#"
; a file written by hand
[Event "Club game"]
[GameType "25,W,8,8,A0,0"]
[Result "1/2-1/2"]

1.c3-d4 {the usual} f6-e5 (1... b6-a5 2. d4-c5 (2. e3-f4) d6:b4) 2. d4:f6!? $1
2... g7:e5 3. g3-f4 e5:g3 4. h2:f4 ; end of line comment
% escaped line
1/2-1/2

[Event "second"]
[FEN "W:Wc3:Bd4"]
1. 10x19 2-0
"#;
    let recs = read_all::<RussianPosition>(text).unwrap();
    assert_eq!(recs.len(), 2);
    let r = &recs[0];
    assert_eq!(r.tag("Event"), Some("Club game"));
    assert_eq!(r.result, Some(Outcome::Draw));
    assert_eq!(
        r.game.move_texts(),
        ["c3-d4", "f6-e5", "d4:f6", "g7:e5", "g3-f4", "e5:g3", "h2:f4"]
    );
    let r = &recs[1];
    assert_eq!(r.result, Some(Outcome::Win(Color::White)));
    assert_eq!(r.game.move_texts(), ["c3:e5"]);
    assert!(r.game.is_over());
    // from_pdn takes the first game.
    let first = Record::<RussianPosition>::from_pdn(text).unwrap();
    assert_eq!(first.game, recs[0].game);
}

#[test]
fn captures_by_their_ends_and_results_from_tags() {
    let text = "[Result \"0-1\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5";
    let r = Record::<RussianPosition>::from_pdn(text).unwrap();
    assert_eq!(r.game.ply(), 4);
    assert_eq!(r.result, Some(Outcome::Win(Color::Black)));
}

fn error_of<P: Position>(text: &str) -> (usize, String) {
    match Record::<P>::from_pdn(text) {
        Ok(_) => panic!("{text:?} should not be read"),
        Err(e) => {
            assert!(e.to_string().starts_with("PDN line "), "{e}");
            (e.line, e.message)
        }
    }
}

#[test]
fn bad_files_give_clear_errors() {
    // The text, the line the error names (where it matters), words of the message.
    let russian: [(&str, Option<usize>, &[&str]); 9] = [
        (
            "[Event \"x\"]\n\n1. c3-d4 f6-g5\n2. c3-b4 *",
            Some(4),
            &["move 2", "White", "c3-b4"],
        ),
        (
            "[GameType \"20\"]\n1. 32-28 *",
            Some(1),
            &["GameType", "russian"],
        ),
        ("[Event \"x\"]\n[FEN \"W:Wz9:Bd4\"]\n*", Some(2), &["FEN"]),
        ("1. c3-d4 {unclosed\n\n*", Some(1), &["never closed"]),
        ("[Event \"x\"\n1. c3-d4 *", None, &["]"]),
        // A stray bracket once left the reader in place for ever.
        ("1. c3-d4\n2. ] *", Some(2), &["']'"]),
        ("1. c3-d4 hello *", None, &["hello"]),
        ("   \n", None, &["no game"]),
        ("[Result \"3-0\"]\n*", None, &["Result"]),
    ];
    for (text, line, words) in russian {
        let (at, msg) = error_of::<RussianPosition>(text);
        if let Some(line) = line {
            assert_eq!(at, line, "{text:?}: {msg}");
        }
        assert!(words.iter().all(|w| msg.contains(w)), "{text:?}: {msg}");
    }
    let (_, msg) = error_of::<TurkishPosition>("[GameType \"25\"]\n*");
    assert!(msg.contains("turkish"), "{msg}");
}
