//! The engine library with endgame databases built into damka's default folder and no command
//! about them: `about` says where they were found, every move of a won ending is the fastest
//! conversion, and a file of the folder cut short is said once, in `getmove`'s status line,
//! and left out. Its own test binary: the default folder comes from `$XDG_DATA_HOME`, set
//! here before the library's engine is made.

use damka::core::{Color, Rng};
use damka::egtb::build::build_all;
use damka::egtb::rules::{under_rules, CountedDraws};
use damka::egtb::{preference, Tablebase, Value};
use damka::variant::{GameMove, Notation, Position, RussianPosition};
use damka_cb::board::CbMove;
use damka_cb::cb::{enginecommand, getmove};
use std::ffi::{c_char, CStr, CString};

const WHITE: i32 = 1;
const BLACK: i32 = 2;
const MAN: i32 = 4;
const KING: i32 = 8;

/// CheckerBoard's board of a position: `board[x][y]` is file 7 - x, rank 7 - y (Russian).
fn cells_of(pos: &RussianPosition) -> [i32; 64] {
    let mut cells = [0; 64];
    for (color, side) in [(Color::White, WHITE), (Color::Black, BLACK)] {
        let p = pos.pieces(color);
        for sq in 0..64 {
            let kind = if p.men >> sq & 1 != 0 {
                MAN
            } else if p.kings >> sq & 1 != 0 {
                KING
            } else {
                continue;
            };
            let (file, rank) = (sq % 8, sq / 8);
            cells[(7 - file) * 8 + (7 - rank)] = side | kind;
        }
    }
    cells
}

fn command(text: &str) -> String {
    let c = CString::new(text).unwrap();
    let mut reply = [0 as c_char; 1024];
    // SAFETY: a NUL-terminated command and a 1024-byte reply buffer.
    unsafe { enginecommand(c.as_ptr(), reply.as_mut_ptr()) };
    // SAFETY: the reply is NUL-terminated within its buffer.
    unsafe { CStr::from_ptr(reply.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// The engine's move in `pos` (as the position after it) and `getmove`'s status line.
fn engine_move(pos: &RussianPosition) -> (RussianPosition, String) {
    let mut cells = cells_of(pos);
    let color = if pos.side_to_move() == Color::White {
        WHITE
    } else {
        BLACK
    };
    let mut status = [0 as c_char; 1024];
    let mut mv = CbMove::default();
    // SAFETY: a 64-int board, a 1024-byte status buffer, no playnow, a CBmove.
    unsafe {
        getmove(
            cells.as_mut_ptr(),
            color,
            0.05,
            status.as_mut_ptr(),
            std::ptr::null(),
            0,
            0,
            &mut mv,
        )
    };
    // SAFETY: NUL-terminated within its buffer.
    let status = unsafe { CStr::from_ptr(status.as_ptr()) }
        .to_string_lossy()
        .into_owned();
    let after = pos
        .legal_moves()
        .iter()
        .map(|m| pos.play(m))
        .find(|next| cells_of(next) == cells)
        .unwrap_or_else(|| panic!("no legal move from {} gives the board", pos.to_fen()));
    (after, status)
}

#[test]
fn default_tables_are_found_and_played_perfectly_and_a_bad_file_is_said_once() {
    let data = std::env::temp_dir().join(format!("damka-cb-tables-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&data);
    std::env::set_var("XDG_DATA_HOME", &data);
    let folder = damka::egtb::default_dir();
    assert!(folder.starts_with(&data));
    build_all::<RussianPosition>(&folder, 3, |_, _, _| {}).unwrap();
    // King against two men: a table the games below never need, cut short.
    let bad = folder.join("russian").join("0120.egtb");
    let f = std::fs::OpenOptions::new().write(true).open(&bad).unwrap();
    f.set_len(f.metadata().unwrap().len() - 5).unwrap();
    let tb = Tablebase::open(&folder, damka::core::Variant::Russian, 8).unwrap();

    assert_eq!(command("set threads 1"), "1");
    let about = command("about");
    assert!(
        about.contains(&format!(
            "russian tables up to 3 pieces in {}",
            folder.display()
        )),
        "{about}"
    );

    // Two kings against a man, won: every move of both sides keeps the best value.
    let mut starts: Vec<RussianPosition> = (0..64)
        // The man never on its crowning rank (the first).
        .flat_map(|a| (0..64).flat_map(move |b| (8..64).map(move |c| (a, b, c))))
        .filter_map(|(a, b, c)| {
            let sq = |s: u32| format!("{}{}", (b'a' + (s % 8) as u8) as char, s / 8 + 1);
            let fen = format!("W:WK{},K{}:B{}", sq(a), sq(b), sq(c));
            RussianPosition::from_fen(&fen).ok()
        })
        .filter(|p| matches!(tb.probe(p), Ok(Value::Win(d)) if d >= 3))
        .collect();
    Rng::new(4).shuffle(&mut starts);
    let mut statuses = Vec::new();
    let mut checked = 0;
    for start in starts.iter().take(3) {
        let mut pos = *start;
        for _ in 0..30 {
            if pos.legal_moves().is_empty() || damka::egtb::pieces_on_board(&pos) < 3 {
                break;
            }
            let stored = tb.probe(&pos).unwrap();
            let fits = under_rules(stored, pos.plies_left(&pos.rule_state_new())) == Some(stored);
            let (after, status) = engine_move(&pos);
            let m = pos
                .legal_moves()
                .into_iter()
                .find(|m| pos.play(m) == after)
                .unwrap();
            if fits {
                let kept = tb
                    .probe(&after)
                    .unwrap()
                    .back(m.is_capture() || m.promotes());
                let best = tb.rank_moves(&pos).unwrap()[0].1;
                assert_eq!(
                    preference(kept),
                    preference(best),
                    "{m:?} in {}",
                    pos.to_fen()
                );
                checked += 1;
            }
            statuses.push(status);
            pos = after;
        }
    }
    assert!(checked >= 6, "{checked} moves checked");
    let said: Vec<&String> = statuses.iter().filter(|s| s.contains("0120")).collect();
    assert_eq!(said.len(), 1, "{statuses:?}");
    assert!(said[0].contains("cut short"), "{said:?}");
    let _ = std::fs::remove_dir_all(&data);
}
