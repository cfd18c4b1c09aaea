//! What every operation shares, whatever the transport and whichever the game (local or
//! online): its error ([`ApiError`]), the reading of a colour from a form, random bytes.

use crate::local::pool::PoolError;
use damka::core::Color;

/// A request that could not be served, with a message fit for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApiError {
    /// The request is malformed or asks for something the rules refuse.
    Bad(String),
    /// No game has this id (never had, or dropped).
    UnknownGame(String),
    /// The engine's queue is full.
    Busy,
    /// The request is larger than the server reads.
    TooLarge(usize),
    /// A limit of the server is reached (rooms, spectators, messages per second).
    Limit(String),
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApiError::Bad(m) => f.write_str(m),
            ApiError::UnknownGame(id) => write!(f, "unknown game {id:?}"),
            ApiError::Busy => write!(f, "{}", PoolError::Busy),
            ApiError::TooLarge(max) => write!(f, "message too large (the limit is {max} bytes)"),
            ApiError::Limit(m) => f.write_str(m),
        }
    }
}

impl From<PoolError> for ApiError {
    fn from(e: PoolError) -> ApiError {
        match e {
            PoolError::Busy => ApiError::Busy,
            PoolError::Engine(m) => ApiError::Bad(m),
        }
    }
}

/// A colour from a form: `white` (default), `black` or `random`.
pub fn parse_color(color: Option<&str>) -> Result<Color, ApiError> {
    match color.unwrap_or("white") {
        "white" => Ok(Color::White),
        "black" => Ok(Color::Black),
        "random" => Ok(if random_bytes::<1>()?[0] & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }),
        c => Err(ApiError::Bad(format!(
            "color must be white, black or random, not {c:?}"
        ))),
    }
}

/// `N` random bytes from the system's generator.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], ApiError> {
    let mut b = [0u8; N];
    getrandom::fill(&mut b).map_err(|e| ApiError::Bad(format!("no random numbers: {e}")))?;
    Ok(b)
}

/// The form a secret token (a seat's, a local game's) is kept in, in memory and in the database: its SHA-1 in hex, so that
/// whoever reads the database cannot take a seat with what is written there. The tokens are
/// 128 random bits, which leaves nothing to guess; SHA-1's known weakness is collisions, not
/// finding a token from its hash.
pub fn token_hash(token: &str) -> String {
    use sha1::{Digest, Sha1};
    Sha1::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compares two tokens (or their hashes) in time that does not depend on where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}
