//! damka as an engine library (`damka_cb.dll`, `libdamka_cb.so`) for the draughts GUIs that
//! load engines as DLLs: the **CheckerBoard API** ([`cb`]: `getmove`, `enginecommand`,
//! `islegal`, `enginename`, game type 25, Russian) and the **Kallisto engine interface**
//! ([`ei`]: the `EI_*` functions of SiDra and Skifi).
//!
//! Both are thin adapters over damka's engine facade, the one the Hub protocol uses: the
//! search, the move generator and the rules are damka's ([`link`] is the only module that
//! touches the library). Every export runs inside [`ffi::guard`], so no panic reaches the
//! host, and reads what the host hands over with bounds: a bad board, piece code, NULL
//! pointer or illegal move gets an error value or text, never a crash. See `docs/gui.md`.

pub mod board;
pub mod cb;
pub mod ei;
pub mod ffi;
pub mod link;
pub mod moves;

use link::{Answer, Brain, Progress, Watch};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Everything the library keeps between calls: one engine, shared by both interfaces (a GUI
/// uses one of them), and each interface's settings.
pub(crate) struct Shared {
    pub brain: Brain,
    pub cb: cb::Settings,
    pub ei: ei::Settings,
}

static SHARED: Mutex<Option<Shared>> = Mutex::new(None);

/// The shared state, created on first use (never in the loader's lock, so no thread starts
/// while Windows holds it). A panic in an earlier call leaves the lock poisoned; the state
/// itself is still whole (every change is a single assignment), so it is used on.
pub(crate) fn shared() -> SharedGuard {
    let mut g = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if g.is_none() {
        *g = Some(Shared {
            brain: Brain::new(),
            cb: cb::Settings::default(),
            ei: ei::Settings::default(),
        });
    }
    SharedGuard(g)
}

/// The shared state if it exists and no other call holds it (for `EI_Stop`, which must not
/// wait for a search to end).
pub(crate) fn try_shared() -> Result<SharedGuard, ()> {
    let g = match SHARED.try_lock() {
        Ok(g) => g,
        Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
        Err(std::sync::TryLockError::WouldBlock) => return Err(()),
    };
    if g.is_some() {
        Ok(SharedGuard(g))
    } else {
        Err(())
    }
}

/// The shared state, locked.
pub(crate) struct SharedGuard(MutexGuard<'static, Option<Shared>>);

impl std::ops::Deref for SharedGuard {
    type Target = Shared;
    fn deref(&self) -> &Shared {
        self.0.as_ref().expect("created by shared()")
    }
}

impl std::ops::DerefMut for SharedGuard {
    fn deref_mut(&mut self) -> &mut Shared {
        self.0.as_mut().expect("created by shared()")
    }
}

/// Drops the engine (its threads and table), for `EI_OnExit`: the next call starts afresh.
pub(crate) fn release() {
    let mut g = SHARED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = g.as_mut() {
        s.brain.halt();
    }
    *g = None;
}

/// A stop asked for from another thread (`EI_Stop`), seen by the thread that waits for the
/// search.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

/// Waits on the calling thread for the search `watch` belongs to: asks it to stop as soon as
/// `stop_now()` says so, hands each new iteration to `on_progress` (on this thread, so GUI
/// callbacks run on the GUI's own thread), and returns the answer.
pub(crate) fn wait_for(
    brain: &mut Brain,
    watch: &Arc<Mutex<Watch>>,
    mut stop_now: impl FnMut() -> bool,
    mut on_progress: impl FnMut(&Progress),
) -> Answer {
    let mut seen = 0;
    let mut stopped = false;
    let mut idle_since: Option<Instant> = None;
    loop {
        let (answer, progress) = {
            let w = watch.lock().unwrap_or_else(|e| e.into_inner());
            let p = (w.serial != seen).then(|| (w.serial, w.progress.clone()));
            (w.answer.clone(), p)
        };
        if let Some((serial, Some(p))) = progress {
            seen = serial;
            on_progress(&p);
        }
        if let Some(a) = answer {
            return a;
        }
        if !stopped && stop_now() {
            brain.stop();
            stopped = true;
        }
        // The answer comes by callback just after the search ends; if it never came (it
        // cannot, short of a bug), do not wait forever.
        if !brain.is_searching() {
            let since = *idle_since.get_or_insert_with(Instant::now);
            if since.elapsed() > Duration::from_secs(2) {
                return Answer::default();
            }
        }
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Whether [`STOP`] is set.
pub(crate) fn stop_requested() -> bool {
    STOP.load(Ordering::SeqCst)
}
