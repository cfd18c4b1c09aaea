//! The library's integration tests as one test binary: each file of `tests/` is a module
//! here (its own doc comment says what it covers), and the support folders are shared by
//! them. One binary compiles the engine's generic code once and links once, where a binary
//! per file did both 44 times; filter by file with its module name,
//! `cargo test -p damka --test integration hub_session::`.

mod dxp_support;
mod egtb_support;
mod eval_support;
mod game_support;
mod hub_support;
mod play_support;
mod process_support;
mod search_support;

mod book;
mod capture_paths;
mod datagen;
mod doc_examples;
mod dxp_hostile;
mod dxp_initiator;
mod dxp_loopback;
mod dxp_messages;
mod dxp_session;
mod egtb;
mod egtb_engine;
mod egtb_front_ends;
mod engine_threads;
mod eval_select;
mod game_russian;
mod game_search_rules;
mod game_turkish;
mod hash_memory;
mod hub_engine;
mod hub_feed;
mod hub_files;
mod hub_fuzz;
mod hub_numbering;
mod hub_round_trip;
mod hub_session;
mod incremental_eval;
mod learned_eval;
mod move_in_time;
mod multipv;
mod null_move;
mod pdn_records;
mod perft;
mod perft_cli;
mod play_engine;
mod play_terminal;
mod review_cli;
mod russian_reference;
mod russian_rules;
mod search;
mod skill;
mod start_defaults;
mod text_fuzz;
mod turkish_movegen;
mod turkish_notation;
