//! Shared by the end-of-game tests of both games (`game_russian`, `game_turkish`): games from
//! a FEN, moves played by their text, and the results expected.

use damka::game::Game;
use damka::variant::{EndRule, GameEnd, Notation, Outcome, Position};

/// The game starting at `fen`.
pub fn game<P: Position>(fen: &str) -> Game<P> {
    Game::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays `moves` (algebraic or Hub), each of which must be legal.
pub fn play<P: Position>(g: &mut Game<P>, moves: &[&str]) {
    for m in moves {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {}: {e}", g.position().to_fen()));
    }
}

/// A result: `outcome` by `rule`.
pub fn end(outcome: Outcome, rule: EndRule) -> Option<GameEnd> {
    Some(GameEnd { outcome, rule })
}

/// A draw by `rule`.
pub fn draw(rule: EndRule) -> Option<GameEnd> {
    end(Outcome::Draw, rule)
}

/// Plays `moves` from `fen`: the game must go on before the first and end with `result`
/// after the last. Returns the game.
pub fn ends_after<P: Position>(fen: &str, moves: &[&str], result: Option<GameEnd>) -> Game<P> {
    let mut g = game::<P>(fen);
    assert_eq!(g.result(), None, "{fen}");
    play(&mut g, moves);
    assert_eq!(g.result(), result, "{fen} {moves:?}");
    g
}
