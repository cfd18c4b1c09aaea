//! Whole games through the exported CheckerBoard functions, every move checked by damka's own
//! move generator on a board this test reads itself (CheckerBoard's `board[x][y]` is file
//! 7 - x, rank 7 - y for Russian), and bad input that must be refused without a crash.

use damka::game::Game;
use damka::variant::{GameMove, Notation, Outcome, Position, RussianPosition};
use damka_cb::board::CbMove;
use damka_cb::cb::{enginecommand, getmove, islegal, CB_DRAW, CB_LOSS, CB_UNKNOWN};
use std::ffi::{c_char, CString};
use std::sync::Mutex;

const WHITE: i32 = 1;
const BLACK: i32 = 2;
const MAN: i32 = 4;
const KING: i32 = 8;

/// The position of a CheckerBoard array, read here without the library's help.
fn position(cells: &[i32; 64], color: i32) -> RussianPosition {
    let mut w = Vec::new();
    let mut b = Vec::new();
    for x in 0..8 {
        for y in 0..8 {
            let c = cells[x * 8 + y];
            if c == 0 {
                continue;
            }
            let name = format!(
                "{}{}{}",
                if c & KING != 0 { "K" } else { "" },
                (b'a' + 7 - x as u8) as char,
                8 - y
            );
            if c & WHITE != 0 {
                w.push(name);
            } else {
                b.push(name);
            }
        }
    }
    let side = if color == WHITE { "W" } else { "B" };
    RussianPosition::from_fen(&format!("{side}:W{}:B{}", w.join(","), b.join(",")))
        .expect("a board the engine wrote is a position")
}

fn start() -> [i32; 64] {
    let mut cells = [0; 64];
    for x in 0..8 {
        for y in 0..8 {
            if (x + y) % 2 == 0 {
                if y <= 2 {
                    cells[x * 8 + y] = BLACK | MAN;
                } else if y >= 5 {
                    cells[x * 8 + y] = WHITE | MAN;
                }
            }
        }
    }
    cells
}

fn command(text: &str) -> (i32, String) {
    let c = CString::new(text).unwrap();
    let mut reply = [0 as c_char; 1024];
    // SAFETY: a NUL-terminated command and a 1024-byte reply buffer.
    let r = unsafe { enginecommand(c.as_ptr(), reply.as_mut_ptr()) };
    // SAFETY: the reply is NUL-terminated within its buffer.
    let s = unsafe { std::ffi::CStr::from_ptr(reply.as_ptr()) };
    (r, s.to_string_lossy().into_owned())
}

/// The library keeps one engine and one game history for the process: tests that use them
/// take turns.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

#[test]
fn games_through_getmove_are_legal_and_end() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    assert_eq!(command("set threads 1").0, 1);
    for game_no in 0..2 {
        let mut cells = start();
        let mut color = WHITE;
        let mut ended = false;
        let mut game: Game<RussianPosition> = Game::from_start();
        for ply in 0..600 {
            let pos = position(&cells, color);
            assert_eq!(&pos, game.position());
            if let Some(end) = game.result() {
                println!("game {game_no} ends after {ply} plies: {end}");
                ended = true;
                break;
            }
            let legal = pos.legal_moves();
            // The history, so the engine knows repetitions and the draw counters
            // (algebraic moves here; the C test sends CheckerBoard's numbers).
            let hist = format!(
                "set gamehist W:W21-32:B1-12 {}",
                game.move_texts().join(" ")
            );
            assert_eq!(command(&hist).0, 1, "{hist}");
            let mut after = cells;
            let mut mv = CbMove::default();
            let mut status = [0 as c_char; 1024];
            // SAFETY: a 64-int board, a 1024-byte status buffer, no playnow, a CBmove.
            let r = unsafe {
                getmove(
                    after.as_mut_ptr(),
                    color,
                    0.01,
                    status.as_mut_ptr(),
                    std::ptr::null(),
                    0,
                    0,
                    &mut mv,
                )
            };
            let next = position(&after, if color == WHITE { BLACK } else { WHITE });
            let played: Vec<_> = legal.iter().filter(|m| pos.play(m) == next).collect();
            assert_eq!(
                played.len(),
                1,
                "game {game_no} ply {ply}: the board after getmove is no legal move from {}",
                pos.to_fen()
            );
            assert_eq!(mv.jumps as u32, played[0].capture_count());
            game.play(*played[0]).unwrap();
            color = if color == WHITE { BLACK } else { WHITE };
            cells = after;
            // getmove says draw exactly when the rules do.
            let drawn = matches!(game.result(), Some(e) if e.outcome == Outcome::Draw);
            assert_eq!(
                r == CB_DRAW,
                drawn,
                "game {game_no} ply {ply}: getmove returned {r}"
            );
        }
        assert!(ended, "game {game_no} did not end in 600 plies");
    }
}

/// `getmove` with 10 ms and NULL for every optional pointer (status, time info, move).
fn quick_getmove(cells: *mut i32, color: i32) -> i32 {
    // SAFETY: `cells` is NULL or a valid 64-cell board owned by the caller (getmove refuses
    // NULL before reading); the optional pointers are NULL, which the API allows.
    unsafe {
        getmove(
            cells,
            color,
            0.01,
            std::ptr::null_mut(),
            std::ptr::null(),
            0,
            0,
            std::ptr::null_mut(),
        )
    }
}

#[test]
fn bad_input_is_refused_without_a_crash() {
    let _turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut status = [0 as c_char; 1024];
    let mut mv = CbMove::default();
    // A man on a light square.
    let mut cells = start();
    cells[1] = WHITE | MAN;
    let before = cells;
    // SAFETY: valid buffers throughout.
    let r = unsafe {
        getmove(
            cells.as_mut_ptr(),
            WHITE,
            0.01,
            status.as_mut_ptr(),
            std::ptr::null(),
            0,
            0,
            &mut mv,
        )
    };
    assert_eq!(r, CB_UNKNOWN);
    assert_eq!(cells, before);
    // An impossible piece code.
    let mut cells = start();
    cells[0] = 3;
    let r = quick_getmove(cells.as_mut_ptr(), WHITE);
    assert_eq!(r, CB_UNKNOWN);
    let mut cells = start();
    // An impossible colour.
    let r = quick_getmove(cells.as_mut_ptr(), 9);
    assert_eq!(r, CB_UNKNOWN);
    // A NULL board is refused before anything is read.
    let r = quick_getmove(std::ptr::null_mut(), WHITE);
    assert_eq!(r, CB_UNKNOWN);
    // No piece of the side to move: a loss.
    let mut cells = [0; 64];
    cells[7 * 8 + 1] = BLACK | MAN;
    let r = quick_getmove(cells.as_mut_ptr(), WHITE);
    assert_eq!(r, CB_LOSS);
    // islegal on NULL and on nonsense squares.
    let cells = start();
    // SAFETY: NULL board; then a valid board with squares out of range.
    unsafe {
        assert_eq!(islegal(std::ptr::null(), WHITE, 22, 18, &mut mv), 0);
        assert_eq!(islegal(cells.as_ptr(), WHITE, -4, 1000, &mut mv), 0);
        assert_eq!(
            islegal(cells.as_ptr(), WHITE, 22, 18, std::ptr::null_mut()),
            1
        );
    }
    // SAFETY: NULL command and reply are allowed.
    unsafe {
        assert_eq!(enginecommand(std::ptr::null(), std::ptr::null_mut()), 0);
    }
    assert_eq!(command("get nonsense"), (0, "?".to_string()));
    assert_eq!(command("set gamehist W:W21-32:B1-12 22-15").0, 0);
    assert_eq!(command("get movelist W:W99").0, 0);
}
