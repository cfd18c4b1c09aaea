//! Turkish draughts: see `../shared/rules/turkish.md`.
//!
//! PLACEHOLDER: the Turkish core issue replaces this whole module (position, tables, move
//! generation, notation). Only the type name and the rules hook below are fixed.

pub mod rules;

use super::{GameMove, Pieces, Position, PositionError};
use crate::core::{Color, MoveList, Square, Variant};
use std::fmt;

/// A Turkish move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurkishMove;

impl GameMove for TurkishMove {
    fn from(&self) -> Square {
        unimplemented!()
    }
    fn to(&self) -> Square {
        unimplemented!()
    }
    fn captured(&self) -> u64 {
        unimplemented!()
    }
    fn promotes(&self) -> bool {
        unimplemented!()
    }
}

/// A Turkish position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TurkishPosition;

impl fmt::Display for TurkishPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_fen())
    }
}

impl Position for TurkishPosition {
    type Move = TurkishMove;
    type RuleState = rules::RuleCounters;
    const VARIANT: Variant = Variant::Turkish;
    const PLAYABLE: u64 = 0;
    fn start() -> Self {
        unimplemented!()
    }
    fn from_pieces(_w: Pieces, _b: Pieces, _side: Color) -> Result<Self, PositionError> {
        unimplemented!()
    }
    fn pieces(&self, _c: Color) -> Pieces {
        unimplemented!()
    }
    fn side_to_move(&self) -> Color {
        unimplemented!()
    }
    fn key(&self) -> u64 {
        unimplemented!()
    }
    fn compute_key(&self) -> u64 {
        unimplemented!()
    }
    fn generate(&self, _list: &mut MoveList<Self::Move>) {
        unimplemented!()
    }
    fn has_capture(&self) -> bool {
        unimplemented!()
    }
    fn play(&self, _mv: &Self::Move) -> Self {
        unimplemented!()
    }
    fn is_reversible(&self, _mv: &Self::Move) -> bool {
        unimplemented!()
    }
    fn path(&self, _mv: &Self::Move) -> Vec<Square> {
        unimplemented!()
    }
    fn hub_number(_sq: Square) -> Option<u32> {
        unimplemented!()
    }
    fn hub_square(_n: u32) -> Option<Square> {
        unimplemented!()
    }
    fn rule_state_new(&self) -> Self::RuleState {
        rules::initial(self)
    }
    fn rule_state_after(
        &self,
        s: Self::RuleState,
        mv: &Self::Move,
        next: &Self,
    ) -> Self::RuleState {
        rules::after(self, s, mv, next)
    }
    fn rule_end(&self, s: &Self::RuleState) -> Option<crate::variant::GameEnd> {
        rules::end(self, s)
    }
}
