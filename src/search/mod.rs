//! Search: iterative deepening PVS with capture resolution, transposition table, time
//! management and Lazy SMP threads. Generic over the game; never names one.
//!
//! - [`Searcher`] owns the search threads ([`pool::ThreadPool`], created once), the shared
//!   transposition table ([`tt::TransTable`]) and each thread's tables (killers, history). It
//!   starts searches ([`Searcher::go`], non-blocking, results through callbacks) and answers
//!   `stop` and `ponder_hit`.
//! - Lazy SMP: every thread runs the same iterative deepening on the same root, sharing only the
//!   transposition table; helpers skip some depths so that they run ahead of the main thread
//!   and fill the table with results it will need. The main thread decides when to stop, and
//!   the deepest result wins.
//! - Every tunable constant lives in [`params`].
//!
//! The rooms: `types` (the public job, limits and results), `control` (flags shared with the
//! threads), `worker` (one thread's state and its per-search reset), `alphabeta` (the search
//! of a node and capture resolution), `ordering` (move ordering, killers, history), `driver`
//! (iterative deepening and the decision to stop) and `searcher` (threads and results).

mod alphabeta;
mod control;
mod crumbs;
mod driver;
mod ordering;
pub mod params;
pub mod pool;
mod searcher;
pub mod time;
pub mod tt;
mod types;
mod worker;

pub use control::Control;
pub use searcher::Searcher;
pub use types::{answer_without_search, Finished, Job, Report, RootLine, SearchLimits};
pub use worker::Worker;
