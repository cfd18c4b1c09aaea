//! The initiator: asks the follower for each game of a match with a GAMEREQ, plays the games
//! one after the other on one connection, and says with the last GAMEEND that no further game
//! is wanted.

use super::board::setup_of;
use super::conn::{After, Conn};
use super::message::{AccCode, GameReq, Message};
use super::session::{GameRecord, Seat, Table};
use super::wire::{Event, Link};
use super::Config;
use crate::core::Color;
use crate::engine::GameSession;
use crate::eval::Evaluate;
use crate::game::Game;
use std::time::Instant;

/// The games to ask for.
#[derive(Clone, Debug)]
pub struct Match<P> {
    /// How many games.
    pub games: u32,
    /// Minutes per player per game (0: less than a minute, see [`Config::zero_minute_clock`]).
    pub minutes: u32,
    /// Moves per game (0: no limit).
    pub moves: u32,
    /// damka's colour in every game; `None` alternates, White first.
    pub color: Option<Color>,
    /// The start position of every game.
    pub start: P,
}

/// Plays the match over `link`; returns the games played, and an error when the match could
/// not be completed (refused, connection lost).
pub fn play_games<P: Evaluate>(
    session: &mut GameSession<P>,
    link: Link,
    cfg: &Config,
    m: &Match<P>,
) -> (Vec<GameRecord>, Result<(), String>) {
    let mut conn = Conn::start(link, cfg);
    let mut records = Vec::new();
    let mut outcome = Ok(());
    for i in 0..m.games {
        let color = m.color.unwrap_or(if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        });
        conn.send(&Message::GameReq(GameReq {
            version: super::message::VERSION,
            name: cfg.name.clone(),
            follower_color: color.opposite(),
            minutes: m.minutes,
            moves: m.moves,
            setup: Some(setup_of(&m.start)),
        }));
        let started = match wait_accept(&mut conn, cfg) {
            Ok(at) => at,
            Err(e) => {
                outcome = Err(format!("game {}: {e}", i + 1));
                break;
            }
        };
        let seat = Seat {
            color,
            clock: cfg.clock_seconds(m.minutes),
            moves: m.moves,
            stop: i + 1 == m.games,
            takes_requests: false,
            started,
        };
        let (record, after) = Table::new(session, &mut conn, cfg, Game::new(m.start), seat).play();
        records.push(record);
        if after == After::Closed && i + 1 < m.games {
            outcome = Err(format!("connection lost after game {}", i + 1));
            break;
        }
    }
    conn.close();
    (records, outcome)
}

/// Waits for the GAMEACC; returns its arrival time, or why the game cannot be played.
fn wait_accept(conn: &mut Conn, cfg: &Config) -> Result<Instant, String> {
    let deadline = Instant::now() + cfg.reply_timeout;
    loop {
        if let Some(why) = conn.broken() {
            return Err(why.to_string());
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let ev = conn
            .recv(left)
            .ok_or_else(|| "no answer to GAMEREQ".to_string())?;
        match ev.event {
            Event::Message(Message::GameAcc { name, code }) => {
                return match code {
                    AccCode::Accept => {
                        conn.log(&format!("game accepted by {name:?}"));
                        Ok(ev.at)
                    }
                    AccCode::WrongVersion => Err(format!(
                        "{name:?} refused the game: it does not speak this version of DXP"
                    )),
                    AccCode::RefuseGame => Err(format!("{name:?} refused this game")),
                    AccCode::RefuseAll => Err(format!("{name:?} refuses every game")),
                };
            }
            Event::Message(Message::Chat(text)) => {
                conn.noise(&format!("chat of {} characters", text.len()))
            }
            Event::Message(m) => conn.noise(&format!("unexpected {} before GAMEACC", m.kind())),
            Event::Bad(e) => {
                if conn.bad(&e) {
                    return Err("too many bad messages".into());
                }
            }
            Event::Closed(why) => return Err(why),
        }
    }
}
