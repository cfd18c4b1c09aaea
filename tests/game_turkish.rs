//! Turkish end-of-game rules through `Game`: no legal move, threefold repetition, one piece
//! against one piece.

use damka::core::Color;
use damka::game::Game;
use damka::variant::{EndRule, GameEnd, Notation, Outcome, TurkishPosition};

type G = Game<TurkishPosition>;

fn game(fen: &str) -> G {
    G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(g: &mut G, moves: &[&str]) {
    for m in moves {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.position().to_fen()));
    }
}

fn end(outcome: Outcome, rule: EndRule) -> Option<GameEnd> {
    Some(GameEnd { outcome, rule })
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
        assert_eq!(
            game(fen).result(),
            end(Outcome::Draw, EndRule::OnePieceEach),
            "{fen}"
        );
    }
}

#[test]
fn capture_down_to_king_against_man() {
    // Two black men against a king: no rule yet; the king takes one and wins by the rule.
    let mut g = game("W:WKd1:Bd5,h7");
    assert_eq!(g.result(), None);
    play(&mut g, &["d1xd6"]);
    assert_eq!(
        g.result(),
        end(Outcome::Win(Color::White), EndRule::LoneKingAgainstMan)
    );
}

#[test]
fn no_pieces_left_loses() {
    let mut g = game("W:Wd4,e2:Bd5");
    play(&mut g, &["d4xd6"]);
    assert_eq!(
        g.result(),
        end(Outcome::Win(Color::White), EndRule::NoLegalMove)
    );
}

#[test]
fn threefold_repetition() {
    let mut g = game("W:WKa1,d3:BKh8,c6");
    let cycle = ["a1-b1", "h8-g8", "b1-a1", "g8-h8"];
    play(&mut g, &cycle);
    play(&mut g, &cycle[..3]);
    assert_eq!(g.result(), None);
    play(&mut g, &cycle[3..]);
    assert_eq!(g.result(), end(Outcome::Draw, EndRule::Repetition));
}

#[test]
fn start_position_goes_on() {
    let g = G::from_start();
    assert_eq!(g.result(), None);
    assert_eq!(g.legal_moves().len(), 8);
}
