//! The match: scheduling games over concurrent slots (each slot owns its own engine
//! processes, so a process plays one game at a time), collecting results, statistics, the
//! SPRT stop, PDN output and the final report.

use crate::game::{opening_game, play_game, FailureReport, GameRecord, GameSettings, PlayedGame};
use crate::hub::{EngineSpec, HubEngine};
use crate::openings::{parse_openings, Opening};
use crate::pdn::{write_game, PdnInfo};
use crate::stats::Sprt;
use crate::tally::Tally;
use damka::core::{Color, Rng, Variant};
use damka::dispatch::{dispatch, GameTask};
use damka::eval::Evaluate;
use damka::game::pdn::today;
use damka::variant::{Outcome, Perft, Position};
use std::fs::OpenOptions;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The game played.
    pub variant: Variant,
    /// The engines; the first is measured against the others.
    pub engines: Vec<EngineSpec>,
    /// Per-game settings.
    pub settings: GameSettings,
    /// Number of games (default: every opening twice against every opponent).
    pub games: Option<usize>,
    /// Games played at once.
    pub concurrency: usize,
    /// The opening file's text, if any.
    pub openings: Option<String>,
    /// Shuffle the openings with this seed.
    pub shuffle: Option<u64>,
    /// Where to append the PDN of every game.
    pub pdn: Option<PathBuf>,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    /// Event name for the PDN.
    pub event: String,
}

/// Runs the match and prints its report; returns the exit status (0 done, 2 bad input or an
/// engine that cannot start).
pub fn run(cfg: &MatchConfig) -> i32 {
    struct Run<'a>(&'a MatchConfig);
    impl GameTask for Run<'_> {
        type Output = i32;
        fn run<P: Evaluate + Perft>(self) -> i32 {
            run_generic::<P>(self.0)
        }
    }
    dispatch(cfg.variant, Run(cfg))
}

/// Which engines play game `g`, and with which opening: game pairs share an opening and an
/// opponent, with colours swapped; pairs go round the opponents, then the openings.
pub fn schedule(g: usize, others: usize, openings: usize) -> (usize, usize, usize) {
    let pair = g / 2;
    let opp = 1 + pair % others;
    let opening = (pair / others) % openings;
    if g.is_multiple_of(2) {
        (0, opp, opening)
    } else {
        (opp, 0, opening)
    }
}

/// Fisher-Yates driven by the library's seeded [`Rng`], so a seed gives the same order
/// everywhere. The index is drawn by `% (i + 1)` rather than [`Rng::shuffle`]'s multiply-shift
/// so that every seed keeps the order it had before the tool used the library's generator (the
/// match commands in `docs/performance.md` name seeds).
pub fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

/// The record of a game lost by an engine that could not be (re)started.
fn start_failure<P: Position>(
    opening: &Opening<P>,
    failed: usize,
    other: usize,
    failed_is_white: bool,
    f: crate::hub::Failure,
) -> PlayedGame<P> {
    let side = if failed_is_white {
        Color::White
    } else {
        Color::Black
    };
    let (white, black) = if failed_is_white {
        (failed, other)
    } else {
        (other, failed)
    };
    PlayedGame {
        record: GameRecord {
            white,
            black,
            outcome: Outcome::Win(side.opposite()),
            reason: f.kind.to_string(),
            failure: Some(FailureReport {
                side,
                failure: f,
                last_lines: Vec::new(),
            }),
            pdn: String::new(),
        },
        game: opening_game(opening),
    }
}

/// One process of each engine, by engine index; `None` where none is running.
type Pool = Vec<Option<HubEngine>>;

fn run_generic<P: Position>(cfg: &MatchConfig) -> i32 {
    match prepare::<P>(cfg).and_then(|(openings, pool)| play_match(cfg, &openings, pool)) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("damka-match: {e}");
            2
        }
    }
}

/// Everything that can fail before the first game: the openings (read, shuffled, none
/// already over) and one process of each engine, started so that a wrong command fails the
/// match at once instead of forfeiting every game.
fn prepare<P: Position>(cfg: &MatchConfig) -> Result<(Vec<Opening<P>>, Pool), String> {
    if cfg.engines.len() < 2 {
        return Err("need at least two engines (--engine NAME=COMMAND, twice)".into());
    }
    let mut openings: Vec<Opening<P>> = match &cfg.openings {
        None => vec![Opening::standard()],
        Some(text) => match parse_openings::<P>(text) {
            Ok(o) if o.is_empty() => return Err("the opening file has no openings".into()),
            Ok(o) => o,
            Err(e) => return Err(format!("opening file: {e}")),
        },
    };
    if let Some(seed) = cfg.shuffle {
        shuffle(&mut openings, seed);
    }
    for (i, o) in openings.iter().enumerate() {
        if let Some(end) = opening_game(o).result() {
            return Err(format!(
                "opening {} ({}) is already over: {}",
                i + 1,
                o.text,
                end.rule
            ));
        }
    }
    let mut pool = Vec::new();
    for spec in &cfg.engines {
        let e = HubEngine::start(spec, cfg.variant.name(), cfg.settings.timeout)
            .map_err(|f| format!("engine {}: {f}", spec.name))?;
        if !e.declared.iter().any(|d| d == "variant") {
            eprintln!(
                "damka-match: warning: engine {} declares no variant parameter; \
                 it had better play {} already",
                spec.name, cfg.variant
            );
        }
        pool.push(Some(e));
    }
    Ok((openings, pool))
}

/// What every slot shares: the match, its openings and names, the next game to play, the
/// stop flag, and the texts of the PDN headers.
struct Shared<'a, P: Position> {
    cfg: &'a MatchConfig,
    openings: &'a [Opening<P>],
    names: &'a [String],
    total: usize,
    next: AtomicUsize,
    stop: AtomicBool,
    date: String,
    tc_text: String,
}

/// Plays the match over `concurrency` slots (the first one starting with `first_pool`),
/// printing each game as it ends and the report at the end. Fails only when the PDN file
/// cannot be opened.
fn play_match<P: Position>(
    cfg: &MatchConfig,
    openings: &[Opening<P>],
    first_pool: Pool,
) -> Result<(), String> {
    let n = cfg.engines.len();
    let total = cfg.games.unwrap_or(2 * openings.len() * (n - 1));
    let concurrency = cfg.concurrency.clamp(1, total.max(1));
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let opp_desc = if n == 2 {
        names[1].clone()
    } else {
        format!("{} others (gauntlet)", n - 1)
    };
    println!(
        "Match {} vs {}: {} games of {}, {}, {} opening(s), concurrency {}",
        names[0],
        opp_desc,
        total,
        cfg.variant,
        cfg.settings.tc.describe(),
        openings.len(),
        concurrency
    );
    let mut pdn_file = match &cfg.pdn {
        None => None,
        Some(path) => match OpenOptions::new().create(true).append(true).open(path) {
            Ok(f) => Some(f),
            Err(e) => return Err(format!("cannot open {}: {e}", path.display())),
        },
    };
    let shared = Shared {
        cfg,
        openings,
        names: &names,
        total,
        next: AtomicUsize::new(0),
        stop: AtomicBool::new(false),
        date: today(),
        tc_text: cfg.settings.tc.describe(),
    };
    let mut tally = Tally::new(&names, total);
    thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Option<GameRecord>)>();
        let mut pool = Some(first_pool);
        for _ in 0..concurrency {
            let pool = pool
                .take()
                .unwrap_or_else(|| (0..n).map(|_| None).collect());
            let (tx, shared) = (tx.clone(), &shared);
            s.spawn(move || run_slot(shared, pool, &tx));
        }
        drop(tx);
        for (g, rec) in rx {
            let Some(rec) = rec else { continue };
            let (_, _, oi) = schedule(g, n - 1, openings.len());
            tally.add(g, oi, &rec);
            if let Some(file) = pdn_file.as_mut() {
                if let Err(e) = file.write_all(rec.pdn.as_bytes()) {
                    eprintln!("damka-match: cannot write the PDN: {e}");
                }
            }
            if tally.sprt_decides(cfg.sprt.as_ref()) {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    });
    tally.report(cfg.sprt.as_ref());
    Ok(())
}

/// One slot: takes the next game until there are none or the match stops, (re)starting its
/// own engine processes as needed, and sends each finished game (with its PDN) on `tx`.
fn run_slot<P: Position>(
    sh: &Shared<'_, P>,
    mut pool: Pool,
    tx: &mpsc::Sender<(usize, Option<GameRecord>)>,
) {
    let cfg = sh.cfg;
    let others = cfg.engines.len() - 1;
    while !sh.stop.load(Ordering::Relaxed) {
        let g = sh.next.fetch_add(1, Ordering::Relaxed);
        if g >= sh.total {
            break;
        }
        let (w, b, oi) = schedule(g, others, sh.openings.len());
        let opening = &sh.openings[oi];
        let finished = match ensure_started(cfg, &mut pool, opening, w, b) {
            Some(lost) => Some(lost),
            None => {
                let (ew, eb) = two_mut(&mut pool, w, b);
                let names = [sh.names[w].as_str(), sh.names[b].as_str()];
                play_game(opening, [ew, eb], names, [w, b], &cfg.settings, &sh.stop)
            }
        };
        // The PDN is written here, where the game's type is known.
        let rec = finished.map(|PlayedGame { mut record, game }| {
            let info = PdnInfo {
                event: &cfg.event,
                round: g + 1,
                date: &sh.date,
                names: [&sh.names[record.white], &sh.names[record.black]],
                variant: cfg.variant,
                time_control: &sh.tc_text,
                opening: &opening.text,
            };
            record.pdn = write_game(&info, &game, &record);
            record
        });
        if tx.send((g, rec)).is_err() {
            break;
        }
    }
    for e in pool.into_iter().flatten() {
        e.quit();
    }
}

/// Starts White's (`w`) and Black's (`b`) engines of the pool if they are not running; the
/// game lost by the first that cannot start, if any.
fn ensure_started<P: Position>(
    cfg: &MatchConfig,
    pool: &mut [Option<HubEngine>],
    opening: &Opening<P>,
    w: usize,
    b: usize,
) -> Option<PlayedGame<P>> {
    for (idx, white) in [(w, true), (b, false)] {
        if pool[idx].as_mut().is_some_and(|e| !e.is_dead()) {
            continue;
        }
        pool[idx] = None;
        match HubEngine::start(&cfg.engines[idx], cfg.variant.name(), cfg.settings.timeout) {
            Ok(e) => pool[idx] = Some(e),
            Err(f) => {
                let other = if white { b } else { w };
                return Some(start_failure(opening, idx, other, white, f));
            }
        }
    }
    None
}

/// Two different engines of a pool, both started.
fn two_mut(pool: &mut [Option<HubEngine>], a: usize, b: usize) -> (&mut HubEngine, &mut HubEngine) {
    assert_ne!(a, b, "an engine never plays itself in one process");
    let (x, y) = if a < b {
        let (l, r) = pool.split_at_mut(b);
        (&mut l[a], &mut r[0])
    } else {
        let (l, r) = pool.split_at_mut(a);
        (&mut r[0], &mut l[b])
    };
    (
        x.as_mut().expect("started above"),
        y.as_mut().expect("started above"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_pairs_swap_colours() {
        // Two engines, three openings.
        let s: Vec<_> = (0..6).map(|g| schedule(g, 1, 3)).collect();
        assert_eq!(
            s,
            vec![
                (0, 1, 0),
                (1, 0, 0),
                (0, 1, 1),
                (1, 0, 1),
                (0, 1, 2),
                (1, 0, 2)
            ]
        );
        // Gauntlet of three opponents: every opponent sees every opening with both colours.
        let s: Vec<_> = (0..12).map(|g| schedule(g, 3, 2)).collect();
        assert_eq!(s[0], (0, 1, 0));
        assert_eq!(s[3], (2, 0, 0));
        assert_eq!(s[5], (3, 0, 0));
        assert_eq!(s[6], (0, 1, 1));
        assert_eq!(s[11], (3, 0, 1));
    }

    #[test]
    fn shuffle_is_a_seeded_permutation() {
        let mut a: Vec<u32> = (0..50).collect();
        let mut b = a.clone();
        shuffle(&mut a, 7);
        shuffle(&mut b, 7);
        assert_eq!(a, b);
        assert_ne!(a, (0..50).collect::<Vec<_>>());
        let mut c = a.clone();
        c.sort();
        assert_eq!(c, (0..50).collect::<Vec<_>>());
        let mut d: Vec<u32> = (0..50).collect();
        shuffle(&mut d, 8);
        assert_ne!(a, d);
        // The order of a seed is part of the tool's interface (the recorded commands name
        // seeds): pinned here to the order of the tool's earlier private generator.
        let mut e: Vec<u32> = (0..8).collect();
        shuffle(&mut e, 5);
        assert_eq!(e, [0, 7, 3, 1, 4, 6, 5, 2]);
    }
}
