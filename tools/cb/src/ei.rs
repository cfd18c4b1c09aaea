//! The Kallisto engine interface (`EI_*`, `__stdcall`), as SiDra and Skifi implement it.
//!
//! Positions come as a string of 33 characters: the 32 dark squares b8, d8, f8, h8, a7, ...,
//! a1, c1, e1, g1 (`w b W B`, `.` empty), then `w` or `b` for the side to move. Moves are
//! `c3d4` (quiet) or `c3:d4:f6:g7` (start, the captured pieces in order, end). The engine keeps
//! the game: `EI_MakeMove` plays the opponent's move, `EI_Think` finds and plays its own.

use crate::board::Diagram;
use crate::ffi::{c_text, guard, read_cstr};
use crate::link::{self, score_plies, Budget, Mode, Progress};
use crate::moves;
use std::ffi::{c_char, c_int, c_void};
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// `PF_SearchInfo`: score, depth, speed, principal variation, current move.
pub type SearchInfo = unsafe extern "system" fn(c_int, c_int, c_int, *const c_char, *const c_char);
/// `PF_SearchInfoEx`: the same as text; the variation is passed by pointer to its pointer.
pub type SearchInfoEx = unsafe extern "system" fn(
    *const c_char,
    *const c_char,
    *const c_char,
    *const *const c_char,
    *const c_char,
);

/// Longest position or move string read.
const TEXT_MAX: usize = 4096;
/// Score the interface gives a win in N plies: 32767 - N.
const EI_WIN: i32 = 32767;

/// Settings of the Kallisto side.
#[derive(Clone, Copy, Debug, Default)]
pub struct Settings {
    /// Minutes per game and increment in ms (`EI_SetTimeControl`).
    pub control: Option<(i32, i32)>,
    /// Own clock in ms (`EI_SetTime`), before each move.
    pub own_ms: Option<i32>,
    /// Progress callback from `EI_Initialization`.
    pub info: Option<SearchInfo>,
    /// Progress callback from `EI_SetSearchInfoEx`.
    pub info_ex: Option<SearchInfoEx>,
}

/// Where `EI_Think` leaves its move: the GUI reads it after the call returns.
static MOVE_TEXT: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// `EI_GetName`'s answer.
static NAME: Mutex<Vec<u8>> = Mutex::new(Vec::new());
/// An empty C string, returned where there is no move.
static EMPTY: [u8; 1] = [0];

/// Keeps `text` in `slot` and returns a pointer to it that stays valid until the slot is
/// written again.
fn keep(slot: &Mutex<Vec<u8>>, text: &str) -> *const c_char {
    let mut g = slot.lock().unwrap_or_else(|e| e.into_inner());
    *g = c_text(text);
    g.as_ptr().cast()
}

/// Time for a move: the clock from `EI_SetTime` with the increment of the time control;
/// without a clock, the time control's own; without either, one second.
fn budget(s: &Settings) -> Budget {
    let inc = s
        .control
        .map_or(0.0, |(_, inc)| f64::from(inc.max(0)) / 1000.0);
    let time = match (s.own_ms, s.control) {
        (Some(ms), _) => Some(f64::from(ms) / 1000.0),
        (None, Some((min, _))) if min > 0 => Some(f64::from(min) * 60.0),
        _ => None,
    };
    match time {
        Some(t) => Budget {
            time: Some(t),
            inc,
            ..Budget::default()
        },
        None => Budget {
            movetime: Some(1.0),
            ..Budget::default()
        },
    }
}

/// Hands an iteration to the GUI's callbacks, on the calling thread.
fn report(s: &Settings, p: &Progress) {
    let (score, score_text) = match score_plies(p.score) {
        Some(n) if n > 0 => (EI_WIN - n, format!("+M{}", (n + 1) / 2)),
        Some(n) => (-(EI_WIN + n), format!("-M{}", (-n + 1) / 2)),
        None => (p.score, format!("{:+.2}", f64::from(p.score) / 100.0)),
    };
    let kns = (p.nps / 1000.0).min(f64::from(i32::MAX)) as i32;
    let pv = c_text(&p.pv.join(" "));
    let current = c_text(p.pv.first().map_or("", String::as_str));
    let depth = i32::try_from(p.depth).unwrap_or(i32::MAX);
    if let Some(f) = s.info_ex {
        let (st, dt, sp) = (
            c_text(&score_text),
            c_text(&depth.to_string()),
            c_text(&kns.to_string()),
        );
        let pv_ptr: *const c_char = pv.as_ptr().cast();
        // SAFETY: a callback the GUI registered with this signature; every pointer is to a
        // NUL-terminated buffer alive for the call.
        unsafe {
            f(
                st.as_ptr().cast(),
                dt.as_ptr().cast(),
                sp.as_ptr().cast(),
                &pv_ptr,
                current.as_ptr().cast(),
            )
        };
    } else if let Some(f) = s.info {
        // SAFETY: as above.
        unsafe {
            f(
                score,
                depth,
                kns,
                pv.as_ptr().cast(),
                current.as_ptr().cast(),
            )
        };
    }
}

/// Searches the current position in `mode` until the budget or `EI_Stop`, reporting to the
/// GUI; returns the chosen move (damka text), if any.
fn search(mode: Mode, budget: Budget) -> Option<String> {
    let mut s = crate::shared();
    let settings = s.ei;
    crate::STOP.store(false, Ordering::SeqCst);
    let watch = s.brain.go(budget, mode).ok()?;
    let answer = crate::wait_for(&mut s.brain, &watch, crate::stop_requested, |p| {
        report(&settings, p)
    });
    answer.best
}

/// Initialises the engine: `si` receives search progress (may be NULL), `mem_lim` is the
/// memory the GUI allows, in MiB, used for the hash table (0 or less: the default).
#[no_mangle]
pub extern "system" fn EI_Initialization(si: Option<SearchInfo>, mem_lim: c_int) {
    guard((), || {
        let mut s = crate::shared();
        s.ei.info = si;
        if mem_lim > 0 {
            // Leave room for the rest of the engine: the table gets at most half.
            let mb = (mem_lim as usize / 2).max(1);
            s.brain.change(|n| n.hash_mb = mb);
        }
    })
}

/// Registers the text form of the progress callback (NULL: none).
#[no_mangle]
pub extern "system" fn EI_SetSearchInfoEx(sie: Option<SearchInfoEx>) {
    guard((), || crate::shared().ei.info_ex = sie)
}

/// A new game from the start position; the table forgets the last one.
#[no_mangle]
pub extern "system" fn EI_NewGame() {
    guard((), || {
        let mut s = crate::shared();
        let start = Diagram::from_kallisto("bbbbbbbbbbbb........wwwwwwwwwwwww")
            .map(|d| d.to_fen())
            .unwrap_or_default();
        let _ = s.brain.set_game(&start, &[]);
        s.brain.new_game();
        s.ei.own_ms = None;
    })
}

/// Sets the position from a position string (see the module's description). A string that
/// is not one (NULL, wrong length, unknown character, a piece that cannot stand there) leaves
/// the position as it was.
///
/// # Safety
/// `pos` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "system" fn EI_SetupBoard(pos: *const c_char) {
    guard((), || {
        // SAFETY: `pos` is NULL or NUL-terminated.
        let Some(text) = (unsafe { read_cstr(pos, TEXT_MAX) }) else {
            return;
        };
        if let Ok(d) = Diagram::from_kallisto(&text) {
            let _ = crate::shared().brain.set_game(&d.to_fen(), &[]);
        }
    })
}

/// Plays the opponent's move (`c3d4`, `c3:d4:f6:g7`; damka's `c3:e5:g7` is read too). An
/// illegal or unreadable move is ignored.
///
/// # Safety
/// `mv` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "system" fn EI_MakeMove(mv: *const c_char) {
    guard((), || {
        // SAFETY: `mv` is NULL or NUL-terminated.
        if let Some(text) = unsafe { read_cstr(mv, TEXT_MAX) } {
            let _ = make_move(&text);
        }
    })
}

/// Plays `text` in the engine's game; the error says why it was not played.
pub fn make_move(text: &str) -> Result<(), String> {
    let mut s = crate::shared();
    let legal = s.brain.legal();
    let m = moves::find(&legal, text)?;
    s.brain.play(&m.text)
}

/// Thinks within the clock (`EI_SetTime`, `EI_SetTimeControl`) or until `EI_Stop`, plays the
/// move in the engine's game and returns it (`c3:d4:f6:g7`); an empty string when there is no
/// legal move. The text stays valid until the next `EI_Think` or `EI_PonderHit`.
#[no_mangle]
pub extern "system" fn EI_Think() -> *const c_char {
    guard(EMPTY.as_ptr().cast(), || {
        let budget = budget(&crate::shared().ei);
        let best = search(Mode::Think, budget);
        let mut s = crate::shared();
        let legal = s.brain.legal();
        let Some(m) = best.as_deref().and_then(|t| moves::find(&legal, t).ok()) else {
            return keep(&MOVE_TEXT, "");
        };
        let text = moves::kallisto_text(m);
        let _ = s.brain.play(&m.text);
        keep(&MOVE_TEXT, &text)
    })
}

/// Thinks on the opponent's time: searches the current position (the opponent to move) in
/// the background and returns at once, so the table is warm when the opponent's move comes.
/// Any other call stops it.
#[no_mangle]
pub extern "system" fn EI_Ponder() {
    guard((), || {
        let mut s = crate::shared();
        if !s.brain.legal().is_empty() {
            let _ = s.brain.go(Budget::default(), Mode::Analyse);
        }
    })
}

/// The opponent played `mv`: plays it and thinks (as `EI_MakeMove` then `EI_Think`).
///
/// # Safety
/// `mv` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "system" fn EI_PonderHit(mv: *const c_char) -> *const c_char {
    guard(EMPTY.as_ptr().cast(), || {
        // SAFETY: as the caller promised.
        unsafe { EI_MakeMove(mv) };
        EI_Think()
    })
}

/// Ends `EI_Think`, `EI_Analyse` or a background ponder soon; callable from any thread.
#[no_mangle]
pub extern "system" fn EI_Stop() {
    guard((), || {
        crate::STOP.store(true, Ordering::SeqCst);
        // A background ponder has no thread waiting on it: stop it here, unless a search is
        // being waited for (that thread holds the lock and sees the flag).
        if let Ok(g) = crate::try_shared() {
            g.brain.stop();
        }
    })
}

/// Sets the time control: `time` minutes per game, `inc` ms added per move.
#[no_mangle]
pub extern "system" fn EI_SetTimeControl(time: c_int, inc: c_int) {
    guard((), || crate::shared().ei.control = Some((time, inc)))
}

/// Sets the clocks before a move, ms: the engine's own and the opponent's.
#[no_mangle]
pub extern "system" fn EI_SetTime(time: c_int, _otime: c_int) {
    guard((), || crate::shared().ei.own_ms = Some(time.max(0)))
}

/// The engine's name.
#[no_mangle]
pub extern "system" fn EI_GetName() -> *const c_char {
    guard(EMPTY.as_ptr().cast(), || keep(&NAME, &link::engine_name()))
}

/// Before the GUI unloads the library: stops the search and frees the engine's threads and
/// memory (a later call starts a new engine).
#[no_mangle]
pub extern "system" fn EI_OnExit() {
    guard((), crate::release)
}

/// Analyses the current position until `EI_Stop`, reporting through the callbacks; plays
/// nothing.
#[no_mangle]
pub extern "system" fn EI_Analyse() {
    guard((), || {
        if !crate::shared().brain.legal().is_empty() {
            let _ = search(Mode::Analyse, Budget::default());
        }
    })
}

/// The GUI's endgame databases (an `EdAccess` object). damka uses its own (built with `damka
/// egtb build`, found in its default folder), so the GUI's are not used; NULL is fine.
#[no_mangle]
pub extern "system" fn EI_EGDB(_eda: *mut c_void) {}
