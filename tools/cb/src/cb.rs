//! The CheckerBoard engine API (`cb_interface.h`, protocol version 2), game type 25
//! (Russian): `getmove`, `enginecommand`, `islegal` and `enginename`, all `__stdcall`.

use crate::board::{CbMove, Diagram, Side, Sq};
use crate::ffi::{guard, read_cstr, write_cstr};
use crate::link::{self, score_plies, Budget, Ending, Mode, Progress};
use crate::moves;
use std::ffi::{c_char, c_int};

/// `getmove` results (`cb_interface.h`).
pub const CB_DRAW: c_int = 0;
/// The engine wins.
pub const CB_WIN: c_int = 1;
/// The engine loses.
pub const CB_LOSS: c_int = 2;
/// Not known.
pub const CB_UNKNOWN: c_int = 3;

/// CheckerBoard's game type for Russian draughts.
pub const GT_RUSSIAN: i32 = 25;
/// The CheckerBoard protocol version spoken.
pub const PROTOCOL_VERSION: i32 = 2;
/// Size of `enginecommand`'s reply buffer.
pub const REPLY_SIZE: usize = 1024;
/// What `getmove` writes into its status string at most (older GUIs give 255 bytes).
const STATUS_SIZE: usize = 255;
/// Longest command read (a `set gamehist` line can be long).
const COMMAND_MAX: usize = 1 << 16;
/// The help file `help` names (shipped beside the DLL).
pub const HELP_FILE: &str = "damka_cb.htm";

/// Where `getmove`'s `info` keeps the Fischer clock's mode (bit 1 is `CB_EXACT_TIME`).
const CB_INCR_TIME_SHIFT: c_int = 2;

/// The game history `set gamehist` gave, for repetitions and the Russian draw counters.
#[derive(Clone, Debug, Default)]
pub struct GameHist {
    /// Start position, damka FEN.
    pub start: String,
    /// Moves from it, damka text.
    pub moves: Vec<String>,
    /// The position after them, canonical FEN, to match `getmove`'s board against.
    pub last: String,
}

/// Settings of the CheckerBoard side.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// From the last `set gamehist`.
    pub hist: Option<GameHist>,
    /// The `set book` level (0 off, 1-3 on).
    pub book_level: Option<i32>,
}

/// Reads a `getmove`/`islegal` board.
///
/// # Safety
/// `board` is NULL or points to 64 readable `int`s.
unsafe fn read_board(board: *const c_int, color: c_int) -> Result<Diagram, String> {
    if board.is_null() {
        return Err("no board (NULL)".into());
    }
    let side = Side::from_cb(color).ok_or(format!("colour {color} is neither 1 nor 2"))?;
    let mut cells = [0i32; 64];
    for (i, c) in cells.iter_mut().enumerate() {
        // SAFETY: the caller promises 64 readable ints.
        *c = unsafe { *board.add(i) };
    }
    Diagram::from_cb_array(&cells, side)
}

/// Time for `getmove`: the Fischer clock packed in `info`/`moreinfo` when it is on, else
/// `maxtime` (exactly, or as the average the API asks for; both become a fixed move time).
pub fn budget(maxtime: f64, info: c_int, moreinfo: c_int) -> Budget {
    let mode = (info >> CB_INCR_TIME_SHIFT) & 3;
    if mode != 0 {
        let unit = [0.001, 0.01, 0.1][(mode - 1) as usize];
        let m = moreinfo as u32;
        return Budget {
            time: Some(f64::from(m >> 16) * unit),
            inc: f64::from(m & 0xffff) * unit,
            ..Budget::default()
        };
    }
    // `maxtime` is the average time per move, or with CB_EXACT_TIME the exact one; a fixed
    // move time serves both.
    let t = if maxtime.is_finite() && maxtime > 0.0 {
        maxtime.min(1.0e6)
    } else {
        0.01
    };
    Budget {
        movetime: Some(t),
        ..Budget::default()
    }
}

/// The status line while thinking.
fn status_line(p: &Progress) -> String {
    let score = match score_plies(p.score) {
        Some(n) if n > 0 => format!("win in {n}"),
        Some(n) => format!("loss in {}", -n),
        None => format!("{:+.2}", f64::from(p.score) / 100.0),
    };
    format!(
        "damka: depth {} score {} nodes {} {:.0} kN/s pv {}",
        p.depth,
        score,
        p.nodes,
        p.nps / 1000.0,
        p.pv.join(" ")
    )
}

/// Reads `*playnow`, which another thread of the GUI sets.
///
/// # Safety
/// `p` is NULL or points to a readable `int` for the whole call.
unsafe fn play_now(p: *const c_int) -> bool {
    // SAFETY: volatile because the GUI writes it from another thread behind our back.
    !p.is_null() && unsafe { std::ptr::read_volatile(p) } != 0
}

/// CheckerBoard's `getmove`: thinks about `board` with `color` to move and plays the move
/// into `board` and `*move`. Returns `CB_WIN`, `CB_LOSS`, `CB_DRAW` (the game is won, lost or
/// drawn by the rules after the move, or a win or loss is forced) or `CB_UNKNOWN`. A bad
/// board or colour leaves everything as it was, returns `CB_UNKNOWN` and says why in `str`.
///
/// # Safety
/// `board` is NULL or 64 `int`s; `str` NULL or 255 writable bytes; `playnow` NULL or an `int`
/// readable throughout the call; `move` NULL or a writable `CBmove`.
#[no_mangle]
pub unsafe extern "system" fn getmove(
    board: *mut c_int,
    color: c_int,
    maxtime: f64,
    str: *mut c_char,
    playnow: *const c_int,
    info: c_int,
    moreinfo: c_int,
    mv: *mut CbMove,
) -> c_int {
    guard(CB_UNKNOWN, || {
        // SAFETY: as the caller promised for `board`.
        let before = match unsafe { read_board(board, color) } {
            Ok(d) => d,
            Err(e) => {
                // SAFETY: `str` is NULL or 255 bytes.
                unsafe { write_cstr(str, STATUS_SIZE, &format!("damka: bad board: {e}")) };
                return CB_UNKNOWN;
            }
        };
        let mut s = crate::shared();
        let fen = before.to_fen();
        let canonical = match link::canonical_fen(&fen) {
            Ok(f) => f,
            Err(e) => {
                // SAFETY: as above.
                unsafe { write_cstr(str, STATUS_SIZE, &format!("damka: bad board: {e}")) };
                return CB_UNKNOWN;
            }
        };
        let hist = s.cb.hist.clone().filter(|h| h.last == canonical);
        let set = match hist {
            Some(h) => s.brain.set_game(&h.start, &h.moves),
            None => s.brain.set_game(&fen, &[]),
        };
        if let Err(e) = set {
            // SAFETY: as above.
            unsafe { write_cstr(str, STATUS_SIZE, &format!("damka: bad board: {e}")) };
            return CB_UNKNOWN;
        }
        let legal = s.brain.legal();
        if legal.is_empty() {
            // SAFETY: as above.
            unsafe { write_cstr(str, STATUS_SIZE, "damka: no legal move") };
            return CB_LOSS;
        }
        let watch = match s.brain.go(budget(maxtime, info, moreinfo), Mode::Think) {
            Ok(w) => w,
            Err(e) => {
                // SAFETY: as above.
                unsafe { write_cstr(str, STATUS_SIZE, &format!("damka: {e}")) };
                return CB_UNKNOWN;
            }
        };
        let answer = crate::wait_for(
            &mut s.brain,
            &watch,
            // SAFETY: `playnow` is NULL or readable throughout the call.
            || unsafe { play_now(playnow) },
            // SAFETY: `str` is NULL or 255 bytes.
            |p| unsafe { write_cstr(str, STATUS_SIZE, &status_line(p)) },
        );
        // Without an answer (never expected) the first legal move keeps the game going.
        let chosen = answer
            .best
            .as_deref()
            .and_then(|t| moves::find(&legal, t).ok())
            .unwrap_or(&legal[0]);
        let after = moves::apply(chosen, &before);
        if !board.is_null() {
            let cells = after.to_cb_array();
            for (i, c) in cells.iter().enumerate() {
                // SAFETY: `board` has 64 writable ints.
                unsafe { *board.add(i) = *c };
            }
        }
        if !mv.is_null() {
            // SAFETY: `mv` is a writable CBmove.
            unsafe { *mv = moves::cb_move(chosen, &before) };
        }
        // A message about the endgame databases replaces the last status line, once.
        let notes = s.brain.take_notes();
        if !notes.is_empty() {
            // SAFETY: `str` is NULL or 255 bytes.
            unsafe { write_cstr(str, STATUS_SIZE, &format!("damka: {}", notes.join("; "))) };
        }
        let me = before.side;
        match s.brain.ending_after(&chosen.text) {
            Some(Ending::Draw) => CB_DRAW,
            Some(Ending::Win(side)) if side == me => CB_WIN,
            Some(Ending::Win(_)) => CB_LOSS,
            None => match score_plies(answer.score) {
                Some(n) if n > 0 => CB_WIN,
                Some(_) => CB_LOSS,
                None => CB_UNKNOWN,
            },
        }
    })
}

/// CheckerBoard's `islegal`: whether `color` may move from square `from` to square `to`
/// (CheckerBoard's numbers) on `board`; if so fills `*move` and returns 1, else 0. When
/// several captures join the same squares the first is taken (a limit of this call; the GUI
/// uses `get movelist` to tell them apart).
///
/// # Safety
/// `board` is NULL or 64 `int`s; `move` NULL or a writable `CBmove`.
#[no_mangle]
pub unsafe extern "system" fn islegal(
    board: *const c_int,
    color: c_int,
    from: c_int,
    to: c_int,
    mv: *mut CbMove,
) -> c_int {
    guard(0, || {
        // SAFETY: as the caller promised.
        let Ok(before) = (unsafe { read_board(board, color) }) else {
            return 0;
        };
        let (Some(f), Some(t)) = (Sq::from_cb_number(from), Sq::from_cb_number(to)) else {
            return 0;
        };
        let Ok(legal) = link::legal_moves(&before.to_fen()) else {
            return 0;
        };
        match legal.iter().find(|m| m.from == f && m.to == t) {
            Some(m) => {
                if !mv.is_null() {
                    // SAFETY: `mv` is a writable CBmove.
                    unsafe { *mv = moves::cb_move(m, &before) };
                }
                1
            }
            None => 0,
        }
    })
}

/// CheckerBoard's `enginename`: writes the engine's name.
///
/// # Safety
/// `str` is NULL or 255 writable bytes.
#[no_mangle]
pub unsafe extern "system" fn enginename(str: *mut c_char) -> c_int {
    guard(0, || {
        // SAFETY: `str` is NULL or 255 bytes.
        unsafe { write_cstr(str, 255, &link::engine_name()) };
        1
    })
}

/// CheckerBoard's `enginecommand`: answers `command` in `reply` (see [`command`]); returns 1
/// when the command was understood and done, 0 otherwise (`?` in `reply` for an unknown
/// command, as the API asks).
///
/// # Safety
/// `command` is NULL or a NUL-terminated string; `reply` NULL or 1024 writable bytes.
#[no_mangle]
pub unsafe extern "system" fn enginecommand(command: *const c_char, reply: *mut c_char) -> c_int {
    guard(0, || {
        // SAFETY: `command` is NULL or NUL-terminated.
        let text = unsafe { read_cstr(command, COMMAND_MAX) }.unwrap_or_default();
        let (ok, answer) = self::command(&text);
        // SAFETY: `reply` is NULL or 1024 bytes.
        unsafe { write_cstr(reply, REPLY_SIZE, &answer) };
        c_int::from(ok)
    })
}

/// One `enginecommand`: whether it was understood and done, and the reply.
pub fn command(text: &str) -> (bool, String) {
    let words: Vec<&str> = text.split_whitespace().collect();
    let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
    let arg = |i: usize| lower.get(i).map(String::as_str).unwrap_or("");
    // Everything after the first two words, as sent.
    let rest = || words.get(2..).map(|w| w.join(" ")).unwrap_or_default();
    match (arg(0), arg(1)) {
        ("name", _) => (true, link::engine_name()),
        ("about", _) => (
            true,
            format!(
                "{}\nRussian draughts engine (CheckerBoard game type 25).\n\
                 The same search as the damka program (Hub, DXP).\n\
                 Endgame databases: {}\nGPL-3.0-or-later",
                link::engine_name(),
                crate::shared().brain.egtb_found()
            ),
        ),
        ("help", _) => (true, HELP_FILE.to_string()),
        ("get", "gametype") => (true, GT_RUSSIAN.to_string()),
        ("set", "gametype") => match arg(2).parse::<i32>() {
            Ok(GT_RUSSIAN) => (true, GT_RUSSIAN.to_string()),
            _ => (false, format!("damka plays only Russian ({GT_RUSSIAN})")),
        },
        ("get", "protocolversion") => (true, PROTOCOL_VERSION.to_string()),
        ("get", "hashsize") => (true, crate::shared().brain.hash_mb().to_string()),
        ("set", "hashsize") => match arg(2).parse::<usize>() {
            Ok(mb) if mb >= 1 => {
                let mut s = crate::shared();
                s.brain.change(|n| n.hash_mb = mb);
                (true, s.brain.hash_mb().to_string())
            }
            _ => (
                false,
                format!("hashsize must be a number of MiB, not {:?}", arg(2)),
            ),
        },
        ("get", "book") => {
            let s = crate::shared();
            let level = if s.brain.book() {
                s.cb.book_level.filter(|&l| l > 0).unwrap_or(3)
            } else {
                0
            };
            (true, level.to_string())
        }
        ("set", "book") => match arg(2).parse::<i32>() {
            Ok(level) if (0..=3).contains(&level) => {
                let mut s = crate::shared();
                s.brain.change(|n| n.book = Some(level > 0));
                s.cb.book_level = Some(level);
                (true, level.to_string())
            }
            _ => (false, format!("book must be 0 to 3, not {:?}", arg(2))),
        },
        ("get", "dbpath") => (true, crate::shared().brain.egtb_path().to_string()),
        ("set", "dbpath") => {
            let path = rest();
            let folder = path.trim().to_string();
            let notes = crate::shared().brain.change(|n| n.egtb_path = folder);
            if notes.is_empty() {
                (true, path)
            } else {
                (false, notes.join("; "))
            }
        }
        ("get", "threads") | ("get", "searchthreads") => {
            (true, crate::shared().brain.threads().to_string())
        }
        ("set", "threads") | ("set", "searchthreads") => match arg(2).parse::<usize>() {
            Ok(threads) if threads >= 1 => {
                let mut s = crate::shared();
                s.brain.change(|n| n.threads = threads);
                (true, s.brain.threads().to_string())
            }
            _ => (false, format!("threads must be a number, not {:?}", arg(2))),
        },
        ("get", "movelist") => movelist(&rest()),
        ("set", "gamehist") => gamehist(&rest()),
        _ => (false, "?".to_string()),
    }
}

/// `get movelist <fen>`: `movelist N,` and each legal move (see
/// [`moves::cb_movelist_entry`]); exactly `movelist 0` when there is none.
fn movelist(fen: &str) -> (bool, String) {
    let diagram = match Diagram::from_cb_fen(fen) {
        Ok(d) => d,
        Err(e) => return (false, format!("bad FEN: {e}")),
    };
    let legal = match link::legal_moves(&diagram.to_fen()) {
        Ok(l) => l,
        Err(e) => return (false, format!("bad FEN: {e}")),
    };
    if legal.is_empty() {
        return (true, "movelist 0".to_string());
    }
    let mut out = format!("movelist {},", legal.len());
    for m in &legal {
        out.push_str(&moves::cb_movelist_entry(m, &diagram));
    }
    if out.len() >= REPLY_SIZE {
        // Cut short the list would lie about the moves; say so instead.
        return (false, "movelist too long for the reply".to_string());
    }
    (true, out)
}

/// `set gamehist <fen> <moves>`: the position after the last irreversible move and the
/// reversible moves since, so that repetitions and the Russian draw counters are known.
fn gamehist(text: &str) -> (bool, String) {
    let mut parts = text.split_whitespace();
    let Some(fen) = parts.next() else {
        return (false, "set gamehist needs a FEN".to_string());
    };
    let read = || -> Result<GameHist, String> {
        let start = Diagram::from_cb_fen(fen)?.to_fen();
        let mut now = link::canonical_fen(&start)?;
        let mut diagram = Diagram::from_cb_fen(fen)?;
        let mut played = Vec::new();
        for text in parts {
            let legal = link::legal_moves(&now)?;
            let m = moves::find(&legal, text)?;
            diagram = moves::apply(m, &diagram);
            now = link::canonical_fen(&diagram.to_fen())?;
            played.push(m.text.clone());
        }
        Ok(GameHist {
            start,
            moves: played,
            last: now,
        })
    };
    match read() {
        Ok(h) => {
            let n = h.moves.len();
            crate::shared().cb.hist = Some(h);
            (true, format!("gamehist: {n} moves"))
        }
        Err(e) => {
            crate::shared().cb.hist = None;
            (false, format!("bad gamehist: {e}"))
        }
    }
}
