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

/// Where the memory the engine may use is not known (not Linux, or `/proc` unreadable): the
/// largest hash table granted, MiB.
pub const UNKNOWN_MEMORY_HASH_MB: usize = 4096;

/// The environment variable that says how much memory, MiB, the engine may count on instead
/// of what the machine has free (for a container whose limit `/proc/meminfo` does not show,
/// and for tests).
pub const MEMORY_VAR: &str = "DAMKA_MEMORY_MB";

/// The memory the engine may count on, MiB, and where that figure comes from: `$DAMKA_MEMORY_MB`
/// if set, else the memory available (`MemAvailable` of `/proc/meminfo`) on Linux; `None`
/// elsewhere.
pub fn memory_mb() -> Option<(usize, &'static str)> {
    if let Some(mb) = std::env::var(MEMORY_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
    {
        return Some((mb, MEMORY_VAR));
    }
    #[cfg(target_os = "linux")]
    {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        meminfo_available_mb(&text).map(|mb| (mb, "memory available"))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// `MemAvailable` (else `MemTotal`) of a `/proc/meminfo` text, MiB.
pub fn meminfo_available_mb(text: &str) -> Option<usize> {
    let field = |name: &str| {
        text.lines().find_map(|l| {
            let rest = l.strip_prefix(name)?.strip_prefix(':')?;
            let kb: usize = rest.trim().trim_end_matches("kB").trim().parse().ok()?;
            Some(kb / 1024)
        })
    };
    field("MemAvailable").or_else(|| field("MemTotal"))
}

/// The hash table granted when `asked` MiB are asked for: at most half the memory the engine
/// may count on ([`memory_mb`]), or [`UNKNOWN_MEMORY_HASH_MB`] where that is not known, and
/// at least 1; with the notice that says so when it is less than asked. (The declared maximum,
/// 65,536 MiB, once took 10 GB of a machine that had less free.)
pub fn hash_cap(asked: usize, memory: Option<(usize, &str)>) -> (usize, Option<String>) {
    let (cap, why) = match memory {
        Some((mb, source)) => (mb / 2, format!("half of {mb} MiB, {source}")),
        None => (
            UNKNOWN_MEMORY_HASH_MB,
            "the most granted where the memory is not known".to_string(),
        ),
    };
    let cap = cap.max(1);
    if asked <= cap {
        (asked, None)
    } else {
        let notice = format!("hash: {asked} MiB asked, {cap} MiB granted ({why})");
        (cap, Some(notice))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hash_cap_reads_meminfo_and_halves_it() {
        let text = "MemTotal:       16384000 kB\nMemFree:  100 kB\nMemAvailable:    8192000 kB\n";
        assert_eq!(meminfo_available_mb(text), Some(8000));
        assert_eq!(meminfo_available_mb("MemTotal: 2048 kB\n"), Some(2));
        assert_eq!(meminfo_available_mb("nothing"), None);
        assert_eq!(hash_cap(64, Some((8000, "x"))), (64, None));
        let (mb, notice) = hash_cap(65_536, Some((8000, "memory available")));
        assert_eq!(mb, 4000);
        assert!(notice
            .unwrap()
            .contains("65536 MiB asked, 4000 MiB granted"));
        assert_eq!(hash_cap(65_536, None).0, UNKNOWN_MEMORY_HASH_MB);
        assert_eq!(hash_cap(8, Some((1, "x"))).0, 1);
    }
}
