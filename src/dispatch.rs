//! The one place where the game chosen at run time (a [`Variant`]) becomes a type: everything
//! above the evaluation that works for either game is written once as a [`GameTask`], generic
//! over the position type, and run by [`dispatch`]. Below it nothing is dispatched: search,
//! perft and evaluation are monomorphized per game.

use crate::core::Variant;
use crate::eval::data::RecordRules;
use crate::eval::Evaluate;
use crate::variant::{Perft, RussianPosition, TurkishPosition};

/// Work written once for every game.
pub trait GameTask {
    /// What the work returns.
    type Output;
    /// Runs the work for the game whose positions are `P` (an implementation may ask for less):
    /// searched and evaluated, counted by perft, and written as training records with the
    /// game's rule counters.
    fn run<P: Evaluate + Perft + RecordRules>(self) -> Self::Output;
}

/// Runs `task` for `variant`'s position type.
pub fn dispatch<T: GameTask>(variant: Variant, task: T) -> T::Output {
    match variant {
        Variant::Russian => task.run::<RussianPosition>(),
        Variant::Turkish => task.run::<TurkishPosition>(),
    }
}

/// A value for whichever game is chosen at run time, typed per game: `R` for Russian, `T` for
/// Turkish (for example a game session or a game record of each). [`per_game!`](crate::per_game)
/// runs one piece of generic code on it, whichever game it holds.
#[derive(Clone, Debug)]
pub enum PerGame<R, T> {
    /// Russian draughts.
    Russian(R),
    /// Turkish draughts.
    Turkish(T),
}

/// Runs `$body` with `$x` bound to the value inside a [`PerGame`](crate::dispatch::PerGame)
/// (or a reference to it, for a `&PerGame` or `&mut PerGame`), whichever game it holds: the
/// body is written once and compiled for each game.
#[macro_export]
macro_rules! per_game {
    ($value:expr, $x:ident => $body:expr) => {
        match $value {
            $crate::dispatch::PerGame::Russian($x) => $body,
            $crate::dispatch::PerGame::Turkish($x) => $body,
        }
    };
}
