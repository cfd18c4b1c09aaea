//! The engine pool: a fixed number of search threads, each owning one [`Engine`] (the library
//! facade), fed by a bounded queue. A request that finds the queue full is refused at once
//! (the page says the engine is busy) instead of starting a thread or waiting without bound.

use crossbeam_channel::{bounded, Receiver, Sender, TrySendError};
use damka::core::{score_text, Score, ScoreStyle, Variant};
use damka::engine::{Engine, GoMode, Limits};
use std::sync::{Arc, Mutex};
use std::thread;
use tokio::sync::oneshot;

/// Strength levels, as the engine's `skill` option counts them (10 is full strength).
pub const SKILL_LEVELS: std::ops::RangeInclusive<u8> = 1..=10;
/// Full strength: hints and the evaluation bar always use it.
pub const FULL_SKILL: u8 = 10;

/// One search to run.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The game.
    pub variant: Variant,
    /// Its start position (FEN).
    pub start: String,
    /// The moves played from it, in Hub numbers.
    pub moves: Vec<String>,
    /// Time for the move, seconds.
    pub movetime: f64,
    /// Strength level ([`SKILL_LEVELS`]), handed to the engine's `skill` option.
    pub skill: u8,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchReply {
    /// The move, in Hub numbers.
    pub best: String,
    /// Score for the side to move, centi-men.
    pub score: Score,
    /// The score in words (`+0.35`, `win in 7 plies`).
    pub score_text: String,
    /// Depth completed.
    pub depth: u32,
    /// The principal variation, in Hub numbers, starting with the move.
    pub pv: Vec<String>,
    /// The `skill` value the engine searched with (`None`: the engine has no such option).
    pub skill: Option<String>,
}

/// Why a request was not served.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolError {
    /// Every search thread is busy and the queue is full.
    Busy,
    /// The engine refused the request (bad position, no legal move ...).
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

struct Job {
    request: SearchRequest,
    reply: oneshot::Sender<Result<SearchReply, PoolError>>,
}

/// The search threads and their queue.
pub struct Pool {
    queue: Sender<Job>,
    threads: usize,
    skill_option: bool,
}

impl Pool {
    /// Starts `threads` search threads (at least one), each with a `hash_mb` table; at most
    /// `queue` requests wait beyond those being searched.
    pub fn new(threads: usize, hash_mb: usize, queue: usize) -> Pool {
        let threads = threads.max(1);
        let (tx, rx) = bounded::<Job>(queue.max(1));
        let mut skill_option = false;
        for i in 0..threads {
            let mut engine = Engine::new(Variant::Russian);
            engine.set_hash_mb(hash_mb);
            skill_option = engine.options().iter().any(|o| o.name == "skill");
            let rx = rx.clone();
            thread::Builder::new()
                .name(format!("damka-web-search-{i}"))
                .spawn(move || worker(rx, engine))
                .expect("the search threads start with the server");
        }
        Pool {
            queue: tx,
            threads,
            skill_option,
        }
    }

    /// Number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Whether the engine has the `skill` option (strength levels).
    pub fn has_skill(&self) -> bool {
        self.skill_option
    }

    /// Queues a search; the answer comes on the returned channel.
    pub fn submit(
        &self,
        request: SearchRequest,
    ) -> Result<oneshot::Receiver<Result<SearchReply, PoolError>>, PoolError> {
        let (tx, rx) = oneshot::channel();
        match self.queue.try_send(Job { request, reply: tx }) {
            Ok(()) => Ok(rx),
            Err(TrySendError::Full(_)) | Err(TrySendError::Disconnected(_)) => Err(PoolError::Busy),
        }
    }

    /// Queues a search and waits for it.
    pub async fn search(&self, request: SearchRequest) -> Result<SearchReply, PoolError> {
        let rx = self.submit(request)?;
        rx.await
            .unwrap_or_else(|_| Err(PoolError::Engine("the search thread stopped".into())))
    }
}

fn worker(rx: Receiver<Job>, mut engine: Engine) {
    for job in rx {
        let out = run(&mut engine, &job.request);
        // The asker may have gone (a closed page): nothing to do then.
        let _ = job.reply.send(out);
    }
}

/// Sets the engine's `skill` option when it has one; returns the value it then reports.
fn apply_skill(engine: &mut Engine, skill: u8) -> Result<Option<String>, PoolError> {
    if !engine.options().iter().any(|o| o.name == "skill") {
        return Ok(None);
    }
    let level = skill.clamp(*SKILL_LEVELS.start(), *SKILL_LEVELS.end());
    engine
        .set_option("skill", &level.to_string())
        .map_err(|e| PoolError::Engine(e.to_string()))?;
    Ok(engine
        .options()
        .into_iter()
        .find(|o| o.name == "skill")
        .map(|o| o.value))
}

fn run(engine: &mut Engine, r: &SearchRequest) -> Result<SearchReply, PoolError> {
    let err = |e: damka::engine::EngineError| PoolError::Engine(e.to_string());
    engine
        .set_option("variant", r.variant.name())
        .map_err(err)?;
    let moves: Vec<&str> = r.moves.iter().map(String::as_str).collect();
    engine.set_position(&r.start, &moves).map_err(err)?;
    let skill = apply_skill(engine, r.skill)?;
    let limits = Limits {
        movetime: Some(r.movetime.clamp(0.01, 60.0)),
        ..Limits::default()
    };
    let last_pv = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = last_pv.clone();
    let out = engine
        .search_blocking(
            limits,
            GoMode::Think,
            Box::new(move |info| {
                if let Ok(mut pv) = sink.lock() {
                    *pv = info.pv.iter().map(|m| m.hub.clone()).collect();
                }
            }),
        )
        .map_err(err)?;
    let best = out.best.ok_or(PoolError::Engine("no legal move".into()))?;
    let mut pv = last_pv.lock().map(|p| p.clone()).unwrap_or_default();
    if pv.first() != Some(&best.hub) {
        pv = vec![best.hub.clone()];
        pv.extend(out.ponder.map(|p| p.hub));
    }
    Ok(SearchReply {
        best: best.hub,
        score: out.score,
        score_text: score_text(out.score, ScoreStyle::Words),
        depth: out.depth,
        pv,
        skill,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(moves: &[&str]) -> SearchRequest {
        SearchRequest {
            variant: Variant::Russian,
            start: "W:Wc3:Bd4,f6".into(),
            moves: moves.iter().map(|s| s.to_string()).collect(),
            movetime: 0.05,
            skill: FULL_SKILL,
        }
    }

    #[tokio::test]
    async fn finds_the_only_capture_and_refuses_bad_input() {
        let pool = Pool::new(1, 1, 4);
        let r = pool.search(request(&[])).await.unwrap();
        assert!(r.best.starts_with("10x28x"), "{}", r.best);
        assert_eq!(r.pv[0], r.best);
        let bad = pool.search(request(&["a1-b2"])).await;
        assert!(matches!(bad, Err(PoolError::Engine(_))), "{bad:?}");
        // The thread goes on after an error.
        assert!(pool.search(request(&[])).await.is_ok());
    }

    #[tokio::test]
    async fn the_strength_level_reaches_the_engine() {
        let pool = Pool::new(1, 1, 4);
        for level in [3, 10] {
            let mut r = request(&[]);
            r.skill = level;
            let reply = pool.search(r).await.unwrap();
            // The engine reports the level it searched with, once it has the option.
            let expected = pool.has_skill().then(|| level.to_string());
            assert_eq!(reply.skill, expected);
        }
    }

    #[tokio::test]
    async fn a_full_queue_is_refused() {
        let pool = Pool::new(1, 1, 1);
        let mut long = request(&[]);
        long.start = "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32".into();
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
