//! The follower: waits for a GAMEREQ, accepts it (or refuses it with the code that names the
//! reason), plays the game, and waits for the next one, until the peer closes the connection
//! or stays idle too long.

use super::board::position_of;
use super::conn::{After, Conn, TICK};
use super::message::{AccCode, BackCode, GameReq, Message};
use super::session::{GameRecord, Seat, Table};
use super::wire::{Event, Link};
use super::Config;
use crate::engine::GameSession;
use crate::eval::Evaluate;
use crate::game::Game;
use crate::variant::Notation;
use std::time::Instant;

/// Why a GAMEREQ is refused: the code and a sentence for the CHAT that follows.
pub fn check_request<P: Evaluate>(
    req: &GameReq,
    cfg: &Config,
) -> Result<Game<P>, (AccCode, String)> {
    if req.version != super::message::VERSION {
        return Err((
            AccCode::WrongVersion,
            format!(
                "wrong version {:02}: damka speaks DXP version 01",
                req.version
            ),
        ));
    }
    let start = match &req.setup {
        None => P::start(),
        Some(setup) => position_of::<P>(setup).map_err(|e| (AccCode::RefuseGame, e))?,
    };
    if req.minutes > cfg.max_minutes {
        return Err((
            AccCode::RefuseGame,
            format!(
                "{} minutes asked: damka plays games of at most {} minutes",
                req.minutes, cfg.max_minutes
            ),
        ));
    }
    let game = Game::new(start);
    // An empty board, or one side without a move: there is no game to play, only a
    // connection to hold.
    if let Some(end) = game.result() {
        return Err((
            AccCode::RefuseGame,
            format!("the game is over in that position ({end})"),
        ));
    }
    Ok(game)
}

/// Serves one connection as the follower: every game the peer asks for, in a row. Returns
/// the games played; the connection is closed at the end.
pub fn serve_connection<P: Evaluate>(
    session: &mut GameSession<P>,
    link: Link,
    cfg: &Config,
) -> Vec<GameRecord> {
    let mut conn = Conn::start(link, cfg);
    conn.log("connected");
    let mut records = Vec::new();
    let mut pending = None;
    loop {
        let next = pending.take().or_else(|| wait_request(&mut conn, cfg));
        let Some((req, _)) = next else { break };
        let (record, after) = match answer_request::<P>(session, &mut conn, cfg, &req) {
            Some(played) => played,
            None => continue,
        };
        records.push(record);
        match after {
            After::Open => {}
            After::Request(r, at) => pending = Some((r, at)),
            After::Closed => break,
        }
    }
    let unlogged = match conn.unlogged() {
        0 => String::new(),
        n => format!(" ({n} log lines not written)"),
    };
    // Past the log's budget too: one line a connection.
    (cfg.log)(&format!(
        "{}: connection ends after {} game(s){unlogged}",
        conn.peer(),
        records.len()
    ));
    conn.close();
    records
}

/// Answers a GAMEREQ; plays the game if it is accepted.
fn answer_request<P: Evaluate>(
    session: &mut GameSession<P>,
    conn: &mut Conn,
    cfg: &Config,
    req: &GameReq,
) -> Option<(GameRecord, After)> {
    let game = match check_request::<P>(req, cfg) {
        Ok(g) => g,
        Err((code, why)) => {
            conn.log(&format!("game refused: {why}"));
            conn.send(&Message::GameAcc {
                name: cfg.name.clone(),
                code,
            });
            conn.chat(&format!("game refused: {why}"));
            return None;
        }
    };
    conn.send(&Message::GameAcc {
        name: cfg.name.clone(),
        code: AccCode::Accept,
    });
    conn.log(&format!(
        "game accepted from {:?}: damka plays {}, {} min, {} moves, start {}",
        req.name,
        req.follower_color.name(),
        req.minutes,
        req.moves,
        game.start().to_hub()
    ));
    let seat = Seat {
        color: req.follower_color,
        clock: cfg.clock_seconds(req.minutes),
        moves: req.moves,
        stop: false,
        takes_requests: true,
        started: Instant::now(),
    };
    Some(Table::new(session, conn, cfg, game, seat).play())
}

/// Waits for a GAMEREQ between games, answering whatever else comes; `None` when the
/// connection closed, went idle too long, or sent too many bad messages.
fn wait_request(conn: &mut Conn, cfg: &Config) -> Option<(GameReq, Instant)> {
    let deadline = Instant::now() + cfg.idle_timeout;
    let mut last = Instant::now();
    loop {
        if conn.broken().is_some() {
            return None;
        }
        if let Some(why) = conn.must_yield() {
            conn.log(&why);
            return None;
        }
        let now = Instant::now();
        let mut until = deadline;
        if conn.others_wait() {
            until = until.min(last + cfg.busy_idle_timeout);
        }
        if now >= until {
            conn.log(&format!(
                "no game requested for {:.0} s{}",
                now.duration_since(last).as_secs_f64(),
                if until < deadline {
                    " while another connection waited"
                } else {
                    ""
                }
            ));
            return None;
        }
        let Some(ev) = conn.recv((until - now).min(TICK)) else {
            continue;
        };
        last = ev.at;
        match ev.event {
            Event::Message(Message::GameReq(r)) => return Some((r, ev.at)),
            // A late GAMEEND (pydraughts sends one when it quits, even after the game ended):
            // nothing to end, and answering could start a ping-pong with another follower.
            Event::Message(Message::GameEnd { .. }) => {}
            Event::Message(Message::Chat(text)) => {
                conn.noise(&format!("chat of {} characters", text.len()))
            }
            Event::Message(Message::BackReq { .. }) => {
                conn.noise("BACKREQ with no game in progress");
                conn.send(&Message::BackAcc(BackCode::Continue));
                conn.chat("no game in progress");
            }
            Event::Message(m) => {
                let text = format!("unexpected {} with no game in progress (ignored)", m.kind());
                conn.noise(&text);
                conn.chat(&text);
            }
            Event::Bad(e) => {
                if let Some('R') = e.letter {
                    // A malformed GAMEREQ still gets its answer: this game is refused.
                    conn.send(&Message::GameAcc {
                        name: cfg.name.clone(),
                        code: AccCode::RefuseGame,
                    });
                }
                if conn.bad(&e) {
                    return None;
                }
            }
            Event::Closed(why) => {
                conn.log(&why);
                return None;
            }
        }
    }
}
