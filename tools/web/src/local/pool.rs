//! The engine pool: a fixed number of search threads fed by a bounded queue. Each thread
//! keeps one typed [`GameSession`] per game (made when first needed), so a request is the
//! library's typed game and comes back as typed moves: no text between the server and the
//! engine, and switching game keeps each game's table. A request that finds the queue full is
//! refused at once (the page says the engine is busy) instead of starting a thread or waiting
//! without bound. The queue is fair between clients ([`queue`]), and every search ends within
//! [`MAX_SEARCH`] seconds, or as soon as nobody waits for its answer.

use crossbeam_channel::RecvTimeoutError;
use damka::core::{score_text, Score, ScoreStyle};
use damka::dispatch::PerGame;
use damka::egtb::endgames::{open_for, Endgames, Opened};
use damka::engine::{GameSession, GoMode, Limits};
use damka::eval::Evaluate;
use damka::game::{AnyGame, Game};
use damka::variant::{Move, Position, RussianPosition, TurkishPosition};
use std::net::IpAddr;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

mod queue;

/// The longest any search runs, seconds (the longest move time a game may ask for): a game
/// with a long clock does not plan a think of many minutes on a thread others share.
pub const MAX_SEARCH: f64 = 30.0;
/// Seconds a search runs before it makes way for a client that used the engine less and
/// waits (it then answers with the best move found so far).
pub const SLICE: f64 = 0.25;
/// How often a running search looks whether it should stop.
const POLL: Duration = Duration::from_millis(10);

/// Strength levels, as [`GameSession::set_skill`] counts them (10 is full strength).
pub const SKILL_LEVELS: std::ops::RangeInclusive<u8> = 1..=10;
/// Full strength: hints and the evaluation bar always use it.
pub const FULL_SKILL: u8 = 10;

/// Seconds of its clock the engine leaves aside for the time between the server's clock and
/// its search (queueing, thread hand-over, the move's reply).
pub const CLOCK_MARGIN: f64 = 0.1;

/// One search to run.
#[derive(Clone, Debug)]
pub struct PoolRequest {
    /// The game: its moves (for repetitions and draw rules) and the position to search.
    pub game: AnyGame,
    /// Time for the move, seconds (without a clock).
    pub movetime: f64,
    /// The engine's clock, seconds: time left and increment per move. When given, the search
    /// plans its time from it instead of `movetime`.
    pub clock: Option<[f64; 2]>,
    /// Strength level ([`SKILL_LEVELS`]).
    pub skill: u8,
    /// Who asked (the address group of [`crate::transport::guard::group`]; `None`: unknown), for the
    /// queue's fairness.
    pub client: Option<IpAddr>,
    /// Set when the answer is no longer wanted (its game changed): the search is dropped from
    /// the queue, or stopped.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Analysis: this many best lines (1 to [`MAX_ANALYSIS_LINES`]), searched as analysis (a
    /// single legal move searched too); 0: a move to play.
    pub lines: u32,
}

impl PoolRequest {
    /// A move to play in `game` at full strength within `movetime` seconds, without a clock,
    /// for a client not told apart, that nothing cancels.
    pub fn new(game: AnyGame, movetime: f64) -> PoolRequest {
        PoolRequest {
            game,
            movetime,
            clock: None,
            skill: FULL_SKILL,
            client: None,
            cancel: None,
            lines: 0,
        }
    }
}

/// Most lines an analysis asks for.
pub const MAX_ANALYSIS_LINES: u32 = 5;

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReply {
    /// The move.
    pub best: Move,
    /// Score for the side to move, centi-men.
    pub score: Score,
    /// The score in words (`+0.35`, `win in 7 plies`).
    pub score_text: String,
    /// Depth completed.
    pub depth: u32,
    /// The principal variation, starting with the move.
    pub pv: Vec<Move>,
    /// The strength level the engine searched with.
    pub skill: u8,
    /// An analysis's lines, best first: score for the side to move and moves (empty for a
    /// move to play).
    pub lines: Vec<(Score, Vec<Move>)>,
}

/// Why a request was not served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolError {
    /// Every search thread is busy and the queue is full.
    Busy,
    /// The engine refused the request (no legal move ...).
    Engine(String),
}

impl std::fmt::Display for PoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolError::Busy => f.write_str("the engine is busy, try again in a moment"),
            PoolError::Engine(m) => write!(f, "engine: {m}"),
        }
    }
}

/// A request waiting for a search thread, with where its answer goes.
struct QueuedSearch {
    request: PoolRequest,
    reply: oneshot::Sender<Result<SearchReply, PoolError>>,
}

/// The search threads and their queue.
pub struct Pool {
    queue: Arc<queue::Fair>,
    threads: usize,
}

/// Endgame databases of both games, opened once and shared by every search thread (so the
/// server has one cache of decoded blocks, not one per thread).
#[derive(Clone, Default)]
pub struct SharedEndgames {
    russian: Option<Opened<RussianPosition>>,
    turkish: Option<Opened<TurkishPosition>>,
}

impl SharedEndgames {
    /// The tables of both games in `dir` (as `damka egtb build --dir` wrote them) with a
    /// cache of `cache_mb` MiB each, and a message for each game whose tables did not open
    /// (that game is played without them).
    pub fn open(dir: &Path, cache_mb: usize) -> (SharedEndgames, Vec<String>) {
        fn one<P: Position>(
            dir: &Path,
            cache_mb: usize,
            messages: &mut Vec<String>,
        ) -> Option<Opened<P>> {
            let opened = open_for::<P>(dir, cache_mb)
                .map_err(|e| messages.push(format!("endgame databases not used: {e}")))
                .ok()?;
            // Files of the folder left out (another game's, cut short), said once at start.
            messages.extend(opened.0.take_messages());
            Some(opened)
        }
        let mut messages = Vec::new();
        let russian = one(dir, cache_mb, &mut messages);
        let turkish = one(dir, cache_mb, &mut messages);
        (SharedEndgames { russian, turkish }, messages)
    }

    /// What is in use, one line per game with tables ("russian tables up to 5 pieces in DIR").
    pub fn describe(&self) -> Vec<String> {
        [
            self.russian.as_ref().map(|(t, _)| t),
            self.turkish.as_ref().map(|(t, _)| t),
        ]
        .into_iter()
        .flatten()
        .map(|t| t.describe())
        .collect()
    }

    /// Messages of both games' tables not yet said (a block that failed its check).
    pub fn take_messages(&self) -> Vec<String> {
        let ru = self.russian.as_ref().map(|(t, _)| t.take_messages());
        let tu = self.turkish.as_ref().map(|(t, _)| t.take_messages());
        ru.into_iter().chain(tu).flatten().collect()
    }

    /// Successful probes so far, both games together.
    pub fn hits(&self) -> u64 {
        let russian = self.russian.as_ref().map_or(0, |(t, _)| t.hits());
        russian + self.turkish.as_ref().map_or(0, |(t, _)| t.hits())
    }
}

impl Pool {
    /// Starts `threads` search threads (at least one), each with a `hash_mb` table per game;
    /// at most `queue` requests wait beyond those being searched. No endgame databases.
    pub fn new(threads: usize, hash_mb: usize, queue: usize) -> Pool {
        Pool::with_endgames(threads, hash_mb, queue, SharedEndgames::default())
    }

    /// As [`Pool::new`], the searches using `endgames`.
    pub fn with_endgames(
        threads: usize,
        hash_mb: usize,
        queue: usize,
        endgames: SharedEndgames,
    ) -> Pool {
        let threads = threads.max(1);
        let fair = Arc::new(queue::Fair::new(queue));
        for i in 0..threads {
            let rx = fair.clone();
            let sessions = Sessions {
                hash_mb,
                endgames: endgames.clone(),
                russian: None,
                turkish: None,
            };
            thread::Builder::new()
                .name(format!("damka-web-search-{i}"))
                .spawn(move || worker(rx, sessions))
                .expect("the search threads start with the server");
        }
        Pool {
            queue: fair,
            threads,
        }
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Queues a search; the answer comes on the returned channel.
    pub fn submit(
        &self,
        request: PoolRequest,
    ) -> Result<oneshot::Receiver<Result<SearchReply, PoolError>>, PoolError> {
        let (tx, rx) = oneshot::channel();
        if self.queue.push(QueuedSearch { request, reply: tx }) {
            Ok(rx)
        } else {
            Err(PoolError::Busy)
        }
    }

    /// Queues a search and waits for it.
    pub async fn search(&self, request: PoolRequest) -> Result<SearchReply, PoolError> {
        let rx = self.submit(request)?;
        rx.await
            .unwrap_or_else(|_| Err(PoolError::Engine("the search thread stopped".into())))
    }
}

/// One search thread's sessions, one per game, each made when first needed and kept.
struct Sessions {
    hash_mb: usize,
    endgames: SharedEndgames,
    russian: Option<GameSession<RussianPosition>>,
    turkish: Option<GameSession<TurkishPosition>>,
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.queue.close();
    }
}

fn worker(fair: Arc<queue::Fair>, mut sessions: Sessions) {
    while let Some(job) = fair.take() {
        let started = Instant::now();
        let (hash, r) = (sessions.hash_mb, &job.request);
        // A search stops at the cap, when nobody waits for it, or when its slice is over and
        // a client that used the engine less waits.
        let stop = |t: f64| {
            t >= MAX_SEARCH || job.abandoned() || (t >= SLICE && fair.should_yield(r.client, t))
        };
        let tables = &sessions.endgames;
        let out = match &r.game {
            PerGame::Russian(g) => {
                search_in(&mut sessions.russian, hash, &tables.russian, g, r, &stop)
            }
            PerGame::Turkish(g) => {
                search_in(&mut sessions.turkish, hash, &tables.turkish, g, r, &stop)
            }
        };
        // A table found damaged by this search: said once in the server's log.
        for m in sessions.endgames.take_messages() {
            eprintln!("damka-web: {m}");
        }
        fair.done(r.client, started.elapsed().as_secs_f64());
        // The asker may have gone (a closed page): nothing to do then.
        let _ = job.reply.send(out);
    }
}

/// Searches in the thread's session of game `P`, made on first use: one search thread with
/// a `hash_mb` table and the game's endgame databases, if any.
fn search_in<P: Evaluate<Move = Move>>(
    slot: &mut Option<GameSession<P>>,
    hash_mb: usize,
    endgames: &Option<Opened<P>>,
    game: &Game<P>,
    r: &PoolRequest,
    stop: &dyn Fn(f64) -> bool,
) -> Result<SearchReply, PoolError> {
    let session = slot.get_or_insert_with(|| {
        let mut session = GameSession::new(1, hash_mb);
        let tables: Option<Arc<dyn Endgames<P>>> = endgames.as_ref().map(|(_, e)| e.clone());
        session.searcher_mut().set_endgames(tables);
        session
    });
    search(session, game, r, stop)
}

/// Searches `game` on `session` as `r` asks (time, strength level).
fn search<P: Evaluate<Move = Move>>(
    session: &mut GameSession<P>,
    game: &Game<P>,
    r: &PoolRequest,
    stop: &dyn Fn(f64) -> bool,
) -> Result<SearchReply, PoolError> {
    session.set_game(game.clone());
    session.set_skill(r.skill.clamp(*SKILL_LEVELS.start(), *SKILL_LEVELS.end()));
    session.set_multipv(r.lines.clamp(1, MAX_ANALYSIS_LINES));
    let mode = if r.lines > 0 {
        GoMode::Analyze
    } else {
        GoMode::Think
    };
    let limits = match r.clock {
        // The time left less a margin for the way to the server's clock and back, which the
        // engine's own planning does not know of: the engine should never lose on time.
        Some([time, inc]) => Limits {
            time: Some((time - CLOCK_MARGIN).max(0.0)),
            inc: inc.max(0.0),
            ..Limits::default()
        },
        None => Limits {
            movetime: Some(r.movetime.clamp(0.01, 60.0)),
            ..Limits::default()
        },
    };
    let (tx, rx) = crossbeam_channel::bounded(1);
    session
        .go(
            &limits,
            mode,
            |_| {},
            move |f| {
                let _ = tx.send(f);
            },
        )
        .map_err(|e| PoolError::Engine(e.to_string()))?;
    let started = Instant::now();
    let mut stopped = false;
    let out = loop {
        match rx.recv_timeout(POLL) {
            Ok(f) => break f,
            Err(RecvTimeoutError::Timeout) => {
                if !stopped && stop(started.elapsed().as_secs_f64()) {
                    session.searcher().stop();
                    stopped = true;
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PoolError::Engine(
                    "the search ended without an answer".into(),
                ))
            }
        }
    };
    session.searcher().wait();
    let best = out.best.ok_or(PoolError::Engine("no legal move".into()))?;
    let pv = if out.pv.first() == Some(&best) {
        out.pv
    } else {
        std::iter::once(best).chain(out.ponder).collect()
    };
    Ok(SearchReply {
        best,
        score: out.score,
        score_text: score_text(out.score, ScoreStyle::Words),
        depth: out.depth,
        pv,
        skill: session.skill(),
        lines: if r.lines > 0 {
            out.lines.into_iter().map(|l| (l.score, l.pv)).collect()
        } else {
            Vec::new()
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::variant::Notation;

    /// Tables given to the pool are probed by its searches, and described for the log.
    #[test]
    fn searches_use_the_endgame_databases() {
        let dir = std::env::temp_dir().join(format!("damka-web-pool-egtb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        damka::egtb::build::build_all::<RussianPosition>(&dir, 3, |_, _, _| {}).unwrap();
        let (endgames, messages) = SharedEndgames::open(&dir, 1);
        // Russian opened; Turkish has no tables there and says so.
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].contains("turkish"), "{messages:?}");
        let described = endgames.describe();
        assert_eq!(described.len(), 1);
        assert!(
            described[0].starts_with("russian tables up to 3 pieces"),
            "{described:?}"
        );
        let pool = Pool::with_endgames(1, 1, 4, endgames.clone());
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let reply = rt
            .block_on(pool.search(request("W:WKc3,Ke1:BKh8", &[])))
            .unwrap();
        assert!(reply.score > 0, "two kings against one: {reply:?}");
        assert!(endgames.hits() > 0, "the search probed no table");
        let _ = std::fs::remove_dir_all(&dir);
    }

    fn request(fen: &str, moves: &[&str]) -> PoolRequest {
        let mut game = Game::<RussianPosition>::from_fen(fen).unwrap();
        for m in moves {
            game.play_text(m).unwrap();
        }
        PoolRequest::new(PerGame::Russian(game), 0.05)
    }

    /// The start position: a search that takes all the time it is given.
    fn start_request() -> PoolRequest {
        request(
            "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32",
            &[],
        )
    }

    fn hub(r: &PoolRequest, mv: &Move) -> String {
        damka::per_game!(&r.game, g => g.position().move_to_hub(mv))
    }

    #[tokio::test]
    async fn finds_the_only_capture_and_refuses_bad_input() {
        let pool = Pool::new(1, 1, 4);
        let req = request("W:Wc3:Bd4,f6", &[]);
        let r = pool.search(req.clone()).await.unwrap();
        assert!(
            hub(&req, &r.best).starts_with("10x28x"),
            "{}",
            hub(&req, &r.best)
        );
        assert_eq!(r.pv[0], r.best);
        // A position without a legal move (a blocked man) is refused.
        let bad = pool.search(request("W:Wa1:Bb2,c3", &[])).await;
        assert!(matches!(bad, Err(PoolError::Engine(_))), "{bad:?}");
        // The thread goes on after an error.
        assert!(pool.search(req).await.is_ok());
    }

    #[tokio::test]
    async fn the_strength_level_reaches_the_engine() {
        let pool = Pool::new(1, 1, 4);
        for level in [3, 10] {
            let mut r = request("W:Wc3:Bd4,f6", &[]);
            r.skill = level;
            let reply = pool.search(r).await.unwrap();
            assert_eq!(reply.skill, level);
        }
    }

    #[tokio::test]
    async fn switching_game_keeps_each_games_session() {
        let pool = Pool::new(1, 1, 4);
        let turkish = PoolRequest::new(PerGame::Turkish(Game::from_start()), 0.05);
        for _ in 0..2 {
            assert!(pool.search(request("W:Wc3:Bd4,f6", &[])).await.is_ok());
            assert!(pool.search(turkish.clone()).await.is_ok());
        }
    }

    #[tokio::test]
    async fn a_clock_limits_the_search() {
        let pool = Pool::new(1, 1, 4);
        let mut r = start_request();
        r.movetime = 30.0;
        r.clock = Some([1.0, 0.0]);
        let t = std::time::Instant::now();
        assert!(pool.search(r).await.is_ok());
        assert!(t.elapsed().as_secs_f64() < 1.0, "{:?}", t.elapsed());
    }

    fn from(mut r: PoolRequest, client: u8, movetime: f64) -> PoolRequest {
        r.client = Some(std::net::IpAddr::from([127, 0, 0, client]));
        r.movetime = movetime;
        r
    }

    /// A client's long search makes way, after its slice, for another client's;
    /// before, the other waited the whole 30 s.
    #[tokio::test]
    async fn a_long_search_makes_way_for_another_client() {
        let pool = Pool::new(1, 1, 4);
        let hog = pool.submit(from(start_request(), 1, 30.0)).unwrap();
        tokio::time::sleep(Duration::from_millis(100)).await;
        let t = Instant::now();
        assert!(pool.search(from(start_request(), 2, 0.05)).await.is_ok());
        assert!(t.elapsed().as_secs_f64() < 2.0, "{:?}", t.elapsed());
        // The hog was answered too, with what it had found.
        assert!(hog.await.unwrap().is_ok());
    }

    /// A search whose answer is no longer wanted stops, and waiting ones leave the
    /// queue: a take-back loop cannot fill it.
    #[tokio::test]
    async fn cancelled_searches_stop_and_leave_the_queue() {
        let pool = Pool::new(1, 1, 2);
        let t = Instant::now();
        for _ in 0..20 {
            let cancel = Arc::new(AtomicBool::new(false));
            let mut r = from(start_request(), 1, 30.0);
            r.cancel = Some(cancel.clone());
            let _rx = pool.submit(r).expect("the queue has room");
            cancel.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        assert!(pool.search(from(start_request(), 1, 0.05)).await.is_ok());
        assert!(t.elapsed().as_secs_f64() < 3.0, "{:?}", t.elapsed());
    }

    #[tokio::test]
    async fn a_full_queue_is_refused() {
        let pool = Pool::new(1, 1, 1);
        let mut long = start_request();
        long.movetime = 0.5;
        let mut busy = false;
        let mut waiting = Vec::new();
        for _ in 0..4 {
            match pool.submit(long.clone()) {
                Ok(rx) => waiting.push(rx),
                Err(e) => {
                    assert_eq!(e, PoolError::Busy);
                    busy = true;
                }
            }
        }
        assert!(
            busy,
            "one thread and a queue of one cannot take four searches"
        );
        for rx in waiting {
            let r = rx.await.unwrap();
            assert!(r.is_ok(), "{r:?}");
        }
    }
}
