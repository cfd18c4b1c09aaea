//! Games played on this server without a room: against the engine at a chosen strength or a
//! friend on the same device, and the engine's analysis and review of any game.
//!
//! [`store`] holds the games and their watchers, [`service`] is their operations whatever the
//! transport, [`pool`] runs the engine's searches in a queue, [`analysis`] answers the
//! analysis board and game reviews.

pub mod analysis;
pub mod pool;
pub mod service;
pub mod store;
