//! Turkish end-of-game rules through `Game`: no legal move, threefold repetition, one piece
//! against one piece.

use crate::game_support;

use damka::core::Color;
use damka::game::Game;
use damka::variant::{EndRule, Outcome, TurkishPosition};
use game_support::{draw, end, ends_after, play};

type G = Game<TurkishPosition>;

fn game(fen: &str) -> G {
    game_support::game(fen)
}

#[test]
fn lone_king_against_lone_man_wins_whoever_is_to_move() {
    for fen in ["W:WKd4:Ba7", "B:WKd4:Ba7"] {
        assert_eq!(
            game(fen).result(),
            end(Outcome::Win(Color::White), EndRule::LoneKingAgainstMan),
            "{fen}"
        );
    }
    assert_eq!(
        game("W:Wb2:BKg5").result(),
        end(Outcome::Win(Color::Black), EndRule::LoneKingAgainstMan)
    );
}

#[test]
fn other_one_against_one_is_a_draw() {
    for fen in ["W:Wd4:Ba7", "W:WKd4:BKa7", "B:WKh1:BKa8"] {
        assert_eq!(game(fen).result(), draw(EndRule::OnePieceEach), "{fen}");
    }
}

#[test]
fn capture_down_to_king_against_man() {
    // Two black men against a king: no rule yet; the king takes one and wins by the rule.
    let white_wins = |rule| end(Outcome::Win(Color::White), rule);
    ends_after::<TurkishPosition>(
        "W:WKd1:Bd5,h7",
        &["d1xd6"],
        white_wins(EndRule::LoneKingAgainstMan),
    );
    // No pieces left: no legal move.
    ends_after::<TurkishPosition>("W:Wd4,e2:Bd5", &["d4xd6"], white_wins(EndRule::NoLegalMove));
}

#[test]
fn threefold_repetition() {
    let mut g = game("W:WKa1,d3:BKh8,c6");
    let cycle = ["a1-b1", "h8-g8", "b1-a1", "g8-h8"];
    play(&mut g, &cycle);
    play(&mut g, &cycle[..3]);
    assert_eq!(g.result(), None);
    play(&mut g, &cycle[3..]);
    assert_eq!(g.result(), draw(EndRule::Repetition));
}

#[test]
fn start_position_goes_on() {
    let g = G::from_start();
    assert_eq!(g.result(), None);
    assert_eq!(g.legal_moves().len(), 8);
}
