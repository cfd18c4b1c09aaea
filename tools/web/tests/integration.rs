//! damka-web's integration tests that share a binary: each file named here is a module (its
//! own doc comment says what it covers), with the helpers of `server_support/`. One binary compiles
//! the server's generic code once and links once. Filter by file with its module name:
//! `cargo test -p damka-web --test integration online::`. The tests that must have a process
//! to themselves are binaries of their own: the load tests (they measure the server's memory
//! and latency), `defaults.rs` (it sets the process's `XDG_DATA_HOME`) and `cluster.rs`
//! (several server processes on a throwaway PostgreSQL, with clocks checked across them).

mod server_support;

mod analysis;
mod api;
mod clocks;
mod hostile;
mod hostile_two;
mod local_games;
mod offline;
mod online;
mod rematch;
mod room;
