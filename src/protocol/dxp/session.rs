//! One game over a DXP connection, the same for the follower and the initiator: damka thinks
//! on its turn while it keeps reading (a GAMEEND or BACKREQ may come at any time), sends its
//! move, waits for the peer's (never longer than the peer's clock and a grace period), ends the
//! game by the rules with a GAMEEND on its own turn, and acknowledges the peer's GAMEEND.

use super::board::{find_move, move_message};
use super::clock::Clock;
use super::conn::{After, Conn, TICK};
use super::message::{BackCode, EndReason, Message};
use super::wire::{Event, Incoming};
use super::Config;
use crate::core::Color;
use crate::engine::{GameSession, GoMode};
use crate::eval::Evaluate;
use crate::game::Game;
use crate::search::Finished;
use crate::variant::{GameEnd, Notation, Outcome};
use crossbeam_channel::{select, Receiver, Sender};
use std::time::{Duration, Instant};

/// How a game ended, as damka saw it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// Over by the rules (whoever sent the GAMEEND).
    Rules(GameEnd),
    /// The peer ended it with this reason before the rules did.
    PeerEnded(EndReason),
    /// The game's number of moves was reached.
    MoveLimit,
    /// The peer sent an illegal move (damka then ended the game).
    IllegalMove(String),
    /// The peer sent a new GAMEREQ during the game.
    NewRequest,
    /// The connection closed, failed, or the peer went silent.
    Disconnected(String),
}

impl std::fmt::Display for GameOver {
    /// How the game ended, for a person: `White wins (no legal move)`, `the peer resigned`,
    /// `disconnected: connection closed by the peer`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GameOver::Rules(end) => write!(f, "{end}"),
            GameOver::PeerEnded(EndReason::Unknown) => write!(f, "the peer ended it"),
            GameOver::PeerEnded(EndReason::ILose) => write!(f, "the peer resigned"),
            GameOver::PeerEnded(EndReason::Draw) => write!(f, "the peer ended it as a draw"),
            GameOver::PeerEnded(EndReason::IWin) => write!(f, "the peer ended it claiming a win"),
            GameOver::MoveLimit => write!(f, "the game's number of moves reached"),
            GameOver::IllegalMove(why) => write!(f, "the peer's move refused: {why}"),
            GameOver::NewRequest => write!(f, "the peer asked for a new game during it"),
            GameOver::Disconnected(why) => write!(f, "disconnected: {why}"),
        }
    }
}

/// One game played.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// damka's colour.
    pub color: Color,
    /// The start position (Hub position string).
    pub start: String,
    /// The moves in Hub notation.
    pub moves: Vec<String>,
    /// How it ended.
    pub end: GameOver,
    /// Seconds damka had for the game.
    pub clock: f64,
    /// Seconds damka used.
    pub used: f64,
}

/// The GAMEEND reason for `end` seen from `ours`.
pub fn reason_for(end: &GameEnd, ours: Color) -> EndReason {
    match end.outcome {
        Outcome::Draw => EndReason::Draw,
        Outcome::Win(c) if c == ours => EndReason::IWin,
        Outcome::Win(_) => EndReason::ILose,
    }
}

/// What a game needs besides the engine and the connection.
pub struct Seat {
    /// damka's colour.
    pub color: Color,
    /// Seconds each player has.
    pub clock: f64,
    /// The game's number of moves (0: none).
    pub moves: u32,
    /// The stop code of the GAMEENDs damka sends (`true`: no further game wanted).
    pub stop: bool,
    /// Whether a GAMEREQ from the peer may interrupt the game (only the follower takes one).
    pub takes_requests: bool,
    /// When the game started (GAMEACC sent or received): the first mover's clock runs from it.
    pub started: Instant,
}

/// One game in progress.
pub struct Table<'a, P: Evaluate> {
    session: &'a mut GameSession<P>,
    conn: &'a mut Conn,
    cfg: &'a Config,
    seat: Seat,
    ours: Clock,
    theirs: Clock,
    done_tx: Sender<Finished<P>>,
    done_rx: Receiver<Finished<P>>,
    searching: bool,
}

/// What one event did to the game.
enum Step {
    Go,
    Over(GameOver, After),
}

impl<'a, P: Evaluate> Table<'a, P> {
    /// A game from `game`'s current position (the session's game is replaced by it).
    pub fn new(
        session: &'a mut GameSession<P>,
        conn: &'a mut Conn,
        cfg: &'a Config,
        game: Game<P>,
        seat: Seat,
    ) -> Table<'a, P> {
        session.searcher_mut().clear();
        session.set_game(game);
        let (done_tx, done_rx) = crossbeam_channel::unbounded();
        let mut ours = Clock::new(seat.clock);
        let mut theirs = Clock::new(seat.clock);
        if session.game().position().side_to_move() == seat.color {
            ours.start(seat.started);
        } else {
            theirs.start(seat.started);
        }
        Table {
            session,
            conn,
            cfg,
            seat,
            ours,
            theirs,
            done_tx,
            done_rx,
            searching: false,
        }
    }

    fn our_turn(&self) -> bool {
        self.session.game().position().side_to_move() == self.seat.color
    }

    /// Plays the game to its end; returns the record and what the connection is ready for.
    pub fn play(mut self) -> (GameRecord, After) {
        let (end, after) = self.run();
        self.stop_search();
        let game = self.session.game();
        let record = GameRecord {
            color: self.seat.color,
            start: game.start().to_hub(),
            moves: game.move_texts_hub(),
            end,
            clock: self.ours.total(),
            used: self.ours.used(Instant::now()),
        };
        self.conn.log(&format!(
            "game over after {} plies: {} (used {:.2} s of {:.0} s)",
            record.moves.len(),
            record.end,
            record.used,
            record.clock
        ));
        (record, after)
    }

    fn run(&mut self) -> (GameOver, After) {
        // When the peer must have sent something by; set again after every event, and not on
        // the ticks that look whether the connection must give way.
        let mut deadline = None;
        loop {
            if let Some(why) = self.conn.broken() {
                return (GameOver::Disconnected(why.to_string()), After::Closed);
            }
            if let Some(why) = self.conn.must_yield() {
                self.conn.log(&why);
                return (GameOver::Disconnected(why), After::Closed);
            }
            if self.our_turn() && !self.searching {
                if let Some(end) = self.session.game().result() {
                    let reason = reason_for(&end, self.seat.color);
                    return self.end_game(reason, GameOver::Rules(end));
                }
                if self.seat.moves > 0 && self.full_moves() >= self.seat.moves as usize {
                    return self.end_game(EndReason::Unknown, GameOver::MoveLimit);
                }
                self.start_search();
            }
            let wait = self.wait_limit();
            let until = *deadline.get_or_insert_with(|| Instant::now() + wait);
            let tick = until.saturating_duration_since(Instant::now()).min(TICK);
            let (done, inbox) = (self.done_rx.clone(), self.conn.inbox().clone());
            let step = select! {
                recv(done) -> f => match f {
                    Ok(f) => self.play_ours(f),
                    Err(_) => Step::Go,
                },
                recv(inbox) -> ev => match ev {
                    Ok(ev) => {
                        self.conn.note(&ev);
                        self.on_event(ev)
                    }
                    Err(_) => Step::Over(
                        GameOver::Disconnected("reader gone".into()),
                        After::Closed,
                    ),
                },
                default(tick) => {
                    if Instant::now() < until {
                        continue;
                    }
                    let why = format!("the peer sent nothing for {:.0} s", wait.as_secs_f64());
                    self.conn.log(&why);
                    Step::Over(GameOver::Disconnected(why), After::Closed)
                }
            };
            deadline = None;
            if let Step::Over(end, after) = step {
                return (end, after);
            }
        }
    }

    /// Full moves played by the side to move so far.
    fn full_moves(&self) -> usize {
        self.session.game().move_number() - 1
    }

    /// How long to wait for the next event: during our search, as long as our clock allows
    /// (the search always ends sooner); otherwise the peer's clock plus the grace period.
    fn wait_limit(&self) -> Duration {
        let now = Instant::now();
        let secs = if self.searching {
            self.ours.remaining(now).max(0.0) + 30.0
        } else {
            self.theirs.remaining(now).max(0.0)
        };
        Duration::from_secs_f64(secs.min(1e6)) + self.cfg.grace
    }

    fn start_search(&mut self) {
        let moves_to_go = (self.seat.moves > 0).then(|| {
            let left = self.seat.moves as usize - self.full_moves().min(self.seat.moves as usize);
            left.max(1) as u32
        });
        let limits = self
            .ours
            .limits(Instant::now(), moves_to_go, self.cfg.movetime);
        let tx = self.done_tx.clone();
        match self.session.go(
            &limits,
            GoMode::Think,
            |_| {},
            move |f| {
                let _ = tx.send(f);
            },
        ) {
            Ok(()) => self.searching = true,
            Err(e) => self.conn.log(&format!("cannot search: {e}")),
        }
    }

    /// Stops a running search and throws its result away.
    fn stop_search(&mut self) {
        if self.searching {
            self.session.stop_and_wait();
            while self.done_rx.try_recv().is_ok() {}
            self.searching = false;
        }
    }

    fn play_ours(&mut self, f: Finished<P>) -> Step {
        self.searching = false;
        let Some(mv) = f.best else {
            return Step::Go;
        };
        let seconds = (self.ours.used(Instant::now()) - self.ours.used_before_move())
            .round()
            .min(9999.0) as u32;
        self.conn.send(&move_message::<P>(&mv, seconds));
        // Stopped after the send: any wait of the outbox is damka's time too.
        let sent = Instant::now();
        let used = self.ours.stop(sent);
        self.conn.log(&format!(
            "thought {used:.3} s (depth {}), {:.3} s left",
            f.depth,
            self.ours.remaining(sent)
        ));
        // A table found damaged by this search: said once in the log.
        for m in self.session.searcher().take_endgame_messages() {
            self.conn.log(&m);
        }
        let mut game = self.session.game().clone();
        game.play_unchecked(mv);
        self.session.set_game(game);
        self.theirs.start(sent);
        Step::Go
    }

    fn on_event(&mut self, ev: Incoming) -> Step {
        match ev.event {
            Event::Message(Message::Move {
                from, to, captured, ..
            }) => self.on_move(ev.at, from, to, &captured),
            Event::Message(Message::GameEnd { reason, .. }) => {
                self.stop_search();
                self.conn.send(&Message::GameEnd {
                    reason: EndReason::Unknown,
                    stop: self.seat.stop,
                });
                let end = match self.session.game().result() {
                    Some(end) => GameOver::Rules(end),
                    None => GameOver::PeerEnded(reason),
                };
                Step::Over(end, After::Open)
            }
            Event::Message(Message::BackReq { move_number, side }) => {
                self.on_backreq(move_number, side);
                Step::Go
            }
            Event::Message(Message::Chat(text)) => {
                // The text is in the log line of the message already.
                self.conn
                    .noise(&format!("chat of {} characters", text.len()));
                Step::Go
            }
            Event::Message(Message::GameReq(req)) if self.seat.takes_requests => {
                self.stop_search();
                self.conn
                    .log("new GAMEREQ during the game: the game is abandoned");
                Step::Over(GameOver::NewRequest, After::Request(req, ev.at))
            }
            Event::Message(m) => {
                let text = format!("unexpected {} during a game (ignored)", m.kind());
                self.conn.noise(&text);
                self.conn.chat(&text);
                Step::Go
            }
            Event::Bad(e) => {
                if self.conn.bad(&e) {
                    let why = "too many bad messages".to_string();
                    Step::Over(GameOver::Disconnected(why), After::Closed)
                } else {
                    Step::Go
                }
            }
            Event::Closed(why) => Step::Over(GameOver::Disconnected(why), After::Closed),
        }
    }

    fn on_move(&mut self, at: Instant, from: u32, to: u32, captured: &[u32]) -> Step {
        if self.our_turn() {
            let text = format!(
                "move out of turn: {} is to move, and that is damka (ignored)",
                self.seat.color.name()
            );
            self.conn.noise(&text);
            self.conn.chat(&text);
            return Step::Go;
        }
        self.theirs.stop(at);
        if let Some(end) = self.session.game().result() {
            // The game was over by the rules after damka's move: it is damka's turn to say so.
            let reason = reason_for(&end, self.seat.color);
            let (over, after) = self.end_game(reason, GameOver::Rules(end));
            return Step::Over(over, after);
        }
        let pos = *self.session.game().position();
        match find_move(&pos, from, to, captured) {
            Ok(mv) => {
                let mut game = self.session.game().clone();
                game.play_unchecked(mv);
                self.session.set_game(game);
                self.ours.start(at);
                Step::Go
            }
            Err(why) => {
                self.conn.log(&why);
                self.conn.chat(&format!("error: {why}; the game ends"));
                let (over, after) = self.end_game(EndReason::Unknown, GameOver::IllegalMove(why));
                Step::Over(over, after)
            }
        }
    }

    /// BACKREQ: back to move `number` with `side` to move (the first move of the game being
    /// 1, whoever starts), answered `K0`, or `K2` when that position is not in the game.
    fn on_backreq(&mut self, number: u32, side: Color) {
        self.stop_search();
        let game = self.session.game();
        let black_first = game.start().side_to_move() == Color::Black;
        let ply = (number as i64 - 1) * 2 + (side == Color::Black) as i64 - black_first as i64;
        if number == 0 || ply < 0 || ply > game.ply() as i64 {
            let text = format!(
                "BACKREQ {number:03}{}: no such position in this game of {} plies",
                super::message::color_letter(side),
                game.ply()
            );
            self.conn.noise(&text);
            self.conn.send(&Message::BackAcc(BackCode::Continue));
            return;
        }
        let mut game = game.clone();
        while game.ply() > ply as usize {
            game.undo();
        }
        self.session.set_game(game);
        self.conn.send(&Message::BackAcc(BackCode::Accept));
        let now = Instant::now();
        self.ours.stop(now);
        self.theirs.stop(now);
        if self.our_turn() {
            self.ours.start(now);
        } else {
            self.theirs.start(now);
        }
    }

    /// Sends damka's GAMEEND and waits for the acknowledgement.
    fn end_game(&mut self, reason: EndReason, over: GameOver) -> (GameOver, After) {
        self.stop_search();
        self.ours.stop(Instant::now());
        self.conn.send(&Message::GameEnd {
            reason,
            stop: self.seat.stop,
        });
        let deadline = Instant::now() + self.cfg.reply_timeout;
        loop {
            if self.conn.broken().is_some() {
                return (over, After::Closed);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(ev) = self.conn.recv(left) else {
                self.conn.log("no acknowledgement of GAMEEND");
                return (over, After::Open);
            };
            match ev.event {
                Event::Message(Message::GameEnd { .. }) => return (over, After::Open),
                Event::Message(Message::GameReq(r)) if self.seat.takes_requests => {
                    return (over, After::Request(r, ev.at))
                }
                Event::Message(Message::BackReq { .. }) => {
                    self.conn.send(&Message::BackAcc(BackCode::Continue))
                }
                Event::Message(_) => {}
                Event::Bad(e) => {
                    if self.conn.bad(&e) {
                        return (over, After::Closed);
                    }
                }
                Event::Closed(_) => return (over, After::Closed),
            }
        }
    }
}
