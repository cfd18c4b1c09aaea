//! The endgame databases in a build without them (no `egtb` feature): [`Tablebase`] has no
//! value, so opening one always fails with the reason and nothing probes. The names and
//! signatures are those of the real `probe` module.

use super::index::Signature;
use super::Value;
use crate::core::Variant;
use crate::variant::Position;
use std::fmt;
use std::path::Path;

/// Why a probe gave no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// No table of this signature.
    Missing(Signature),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing(s) => write!(f, "no table for {s}"),
        }
    }
}

/// Databases that cannot exist in this build.
pub enum Tablebase {}

impl Tablebase {
    /// Always fails: this build has no endgame databases.
    pub fn open(_dir: &Path, _variant: Variant, _cache_mib: usize) -> Result<Tablebase, String> {
        Err("this build has no endgame databases".into())
    }

    /// Never called (there is no value).
    pub fn max_pieces(&self) -> u32 {
        match *self {}
    }

    /// Never called (there is no value).
    pub fn describe(&self) -> String {
        match *self {}
    }

    /// Never called (there is no value).
    pub fn hits(&self) -> u64 {
        match *self {}
    }

    /// Never called (there is no value).
    pub fn take_messages(&self) -> Vec<String> {
        match *self {}
    }

    /// Never called (there is no value).
    pub fn probe<P: Position>(&self, _pos: &P) -> Result<Value, ProbeError> {
        match *self {}
    }

    /// Never called (there is no value).
    pub fn rank_moves<P: Position>(&self, _pos: &P) -> Result<Vec<(P::Move, Value)>, ProbeError> {
        match *self {}
    }
}

pub use super::preference;
