//! The pool's queue, fair between clients: the next search is that of the client
//! (address group) that used the engine least lately, and a search that has had its slice
//! makes way when a client that used the engine less waits. One client with long searches
//! (a game of three hours, thirty seconds a move, a flood of hints) so takes its turn like any
//! other instead of holding the threads while everyone waits.

use super::QueuedSearch;
use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

/// Half-life of a client's engine time used, seconds: what it used a minute ago counts half.
const USE_HALF_LIFE: f64 = 60.0;

/// Clients remembered; beyond, those that used the engine least are forgotten.
const MAX_CLIENTS: usize = 10_000;

/// The waiting searches and the engine time each client used.
pub(super) struct Fair {
    state: Mutex<State>,
    ready: Condvar,
    capacity: usize,
}

#[derive(Default)]
struct State {
    waiting: VecDeque<QueuedSearch>,
    /// Searches running per client.
    running: HashMap<Option<IpAddr>, usize>,
    /// Engine seconds used per client, decayed, as of the instant given.
    used: HashMap<Option<IpAddr>, (f64, Instant)>,
    /// The pool is gone: its threads end.
    closed: bool,
}

impl QueuedSearch {
    /// Nobody waits for its answer any more: its page is gone, or its game changed.
    pub(super) fn abandoned(&self) -> bool {
        self.reply.is_closed()
            || self
                .request
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

impl State {
    fn usage(&self, client: Option<IpAddr>, now: Instant) -> f64 {
        self.used.get(&client).map_or(0.0, |(s, at)| {
            s * 0.5f64.powf(now.duration_since(*at).as_secs_f64() / USE_HALF_LIFE)
        })
    }

    fn running(&self, client: Option<IpAddr>) -> usize {
        self.running.get(&client).copied().unwrap_or(0)
    }

    /// The next search to run: fewest running for its client, then least used, then oldest.
    fn pick(&self, now: Instant) -> Option<usize> {
        (0..self.waiting.len()).min_by(|&a, &b| {
            let key = |i: usize| {
                let c = self.waiting[i].request.client;
                (self.running(c), self.usage(c, now))
            };
            let (ka, kb) = (key(a), key(b));
            ka.0.cmp(&kb.0).then(ka.1.total_cmp(&kb.1)).then(a.cmp(&b))
        })
    }
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    // The state stays usable whatever a panicking holder left: counts and a queue.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Fair {
    /// A queue of at most `capacity` waiting searches.
    pub(super) fn new(capacity: usize) -> Fair {
        Fair {
            state: Mutex::default(),
            ready: Condvar::new(),
            capacity: capacity.max(1),
        }
    }

    /// Queues `job`; false when the queue is full (searches nobody waits for do not count:
    /// they are dropped first).
    pub(super) fn push(&self, job: QueuedSearch) -> bool {
        let mut s = lock(&self.state);
        s.waiting.retain(|j| !j.abandoned());
        if s.waiting.len() >= self.capacity {
            return false;
        }
        s.waiting.push_back(job);
        drop(s);
        self.ready.notify_one();
        true
    }

    /// Waits for the next search to run (see [`State::pick`]), counted as running for its
    /// client until [`Fair::done`]; `None` once the pool is gone.
    pub(super) fn take(&self) -> Option<QueuedSearch> {
        let mut s = lock(&self.state);
        loop {
            if s.closed {
                return None;
            }
            s.waiting.retain(|j| !j.abandoned());
            if let Some(i) = s.pick(Instant::now()) {
                if let Some(job) = s.waiting.remove(i) {
                    *s.running.entry(job.request.client).or_default() += 1;
                    return Some(job);
                }
            }
            s = self.ready.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Ends the threads waiting in [`Fair::take`].
    pub(super) fn close(&self) {
        lock(&self.state).closed = true;
        self.ready.notify_all();
    }

    /// A search for `client` ended after `seconds`.
    pub(super) fn done(&self, client: Option<IpAddr>, seconds: f64) {
        let mut s = lock(&self.state);
        let now = Instant::now();
        if let Some(n) = s.running.get_mut(&client) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                s.running.remove(&client);
            }
        }
        let total = s.usage(client, now) + seconds;
        if s.used.len() >= MAX_CLIENTS {
            s.used.retain(|_, (u, _)| *u > 1.0);
        }
        s.used.insert(client, (total, now));
    }

    /// Whether a search for `client` that has run `elapsed` seconds should stop now (and
    /// answer with what it found): a client with nothing running that used the engine less
    /// is waiting.
    pub(super) fn should_yield(&self, client: Option<IpAddr>, elapsed: f64) -> bool {
        let s = lock(&self.state);
        let now = Instant::now();
        let mine = s.usage(client, now) + elapsed;
        s.waiting.iter().any(|j| {
            let c = j.request.client;
            c != client && !j.abandoned() && s.running(c) == 0 && s.usage(c, now) < mine
        })
    }
}
