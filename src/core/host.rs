//! What the engine needs from the machine it runs on beyond computing: a clock, the wall time
//! and, on a host without threads, a moment now and then to let the host do other work.
//!
//! Natively these are the standard library's. WebAssembly without a system
//! (`wasm32-unknown-unknown`, the browser build in `tools/wasm`) has no clock and no threads in
//! its standard library: there the page's script gives them as imported functions (module
//! `env`): `damka_now_ms() -> f64`, milliseconds since 1970 (fractions allowed, never going
//! back), and `damka_yield()`, which returns after the host has handled its pending events
//! (the worker suspends the search with Asyncify, lets a `stop` message in, and resumes it).

use std::time::Duration;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod imports {
    #[link(wasm_import_module = "env")]
    extern "C" {
        pub fn damka_now_ms() -> f64;
        pub fn damka_yield();
    }
}

/// A point in time for measuring durations: [`std::time::Instant`] natively, the host's clock
/// on WebAssembly (where `Instant::now` would panic).
#[derive(Clone, Copy, Debug)]
pub struct Instant {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    at: std::time::Instant,
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    ms: f64,
}

impl Instant {
    /// Now.
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn now() -> Instant {
        Instant {
            at: std::time::Instant::now(),
        }
    }

    /// Now.
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub fn now() -> Instant {
        Instant { ms: now_ms() }
    }

    /// Time since `self` (zero if the clock went back).
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    pub fn elapsed(&self) -> Duration {
        self.at.elapsed()
    }

    /// Time since `self` (zero if the clock went back).
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    pub fn elapsed(&self) -> Duration {
        Duration::from_secs_f64(((now_ms() - self.ms) / 1000.0).max(0.0))
    }
}

/// Time since 1970-01-01 UTC (zero if the clock is set before it).
pub fn since_epoch() -> Duration {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        Duration::from_secs_f64((now_ms() / 1000.0).max(0.0))
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default()
    }
}

/// A number that differs between processes started at the same time (the process id; 0 where
/// there are no processes).
pub fn process_id() -> u32 {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        0
    }
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        std::process::id()
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
fn now_ms() -> f64 {
    // SAFETY: an imported function without arguments that returns a number; the worker
    // script always provides it.
    let t = unsafe { imports::damka_now_ms() };
    if t.is_finite() {
        t
    } else {
        0.0
    }
}

/// Whether the engine runs where a search cannot run beside the session on a thread of its
/// own: it runs on the caller's thread and calls [`pause`] now and then.
pub const SINGLE_THREADED: bool = cfg!(all(target_arch = "wasm32", target_os = "unknown"));

/// Lets the host handle its pending events (a `stop` that arrived during a search) on a host
/// without threads; does nothing natively, where the session has a thread of its own.
#[inline]
pub fn pause() {
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    // SAFETY: an imported function without arguments or result; the worker script provides it.
    unsafe {
        imports::damka_yield()
    }
}
