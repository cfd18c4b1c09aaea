//! How requests reach the operations and answers leave them: [`http`] (the pages and the
//! JSON API), [`ws`] (the WebSocket), [`guard`] (limits per connection and per client),
//! [`assets`] (the page's files, compiled in) and [`api`] (the error and the form readings
//! every operation shares).

pub mod api;
pub mod assets;
pub mod guard;
pub mod http;
pub mod ws;
