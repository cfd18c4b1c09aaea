//! The match: scheduling games over concurrent slots (each slot owns its own engine
//! processes, so a process plays one game at a time), collecting results, statistics, the
//! SPRT stop, PDN output and the final report.

use crate::game::{opening_game, play_game, FailureReport, Finished, GameRecord, GameSettings};
use crate::hub::{Engine, EngineSpec};
use crate::openings::{parse_openings, Opening};
use crate::pdn::{write_game, PdnInfo};
use crate::stats::{elo_pentanomial, elo_trinomial, los, Pentanomial, Sprt, SprtDecision, Wdl};
use damka::core::{Color, Rng, Variant};
use damka::game::pdn::{result_text, today};
use damka::variant::{Outcome, Position, RussianPosition, TurkishPosition};
use std::collections::HashMap;
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
    match cfg.variant {
        Variant::Russian => run_generic::<RussianPosition>(cfg),
        Variant::Turkish => run_generic::<TurkishPosition>(cfg),
    }
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
/// README's match commands name seeds).
pub fn shuffle<T>(v: &mut [T], seed: u64) {
    let mut rng = Rng::new(seed);
    for i in (1..v.len()).rev() {
        let j = (rng.next_u64() % (i as u64 + 1)) as usize;
        v.swap(i, j);
    }
}

fn fmt_elo(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else if x > 0.0 {
        "inf".into()
    } else if x < 0.0 {
        "-inf".into()
    } else {
        "nan".into()
    }
}

/// The record of a game lost by an engine that could not be (re)started.
fn start_failure<P: Position>(
    opening: &Opening<P>,
    failed: usize,
    other: usize,
    failed_is_white: bool,
    f: crate::hub::Failure,
) -> Finished<P> {
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
    Finished {
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

fn run_generic<P: Position>(cfg: &MatchConfig) -> i32 {
    let n = cfg.engines.len();
    if n < 2 {
        eprintln!("damka-match: need at least two engines (--engine NAME=COMMAND, twice)");
        return 2;
    }
    let openings: Vec<Opening<P>> = match &cfg.openings {
        None => vec![Opening::standard()],
        Some(text) => match parse_openings::<P>(text) {
            Ok(o) if o.is_empty() => {
                eprintln!("damka-match: the opening file has no openings");
                return 2;
            }
            Ok(o) => o,
            Err(e) => {
                eprintln!("damka-match: opening file: {e}");
                return 2;
            }
        },
    };
    let mut openings = openings;
    if let Some(seed) = cfg.shuffle {
        shuffle(&mut openings, seed);
    }
    for (i, o) in openings.iter().enumerate() {
        if let Some(end) = opening_game(o).result() {
            eprintln!(
                "damka-match: opening {} ({}) is already over: {}",
                i + 1,
                o.text,
                end.rule
            );
            return 2;
        }
    }
    let others = n - 1;
    let total = cfg.games.unwrap_or(2 * openings.len() * others);
    let concurrency = cfg.concurrency.clamp(1, total.max(1));
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();

    // Start one process of each engine first, so a wrong command fails the match at once
    // instead of forfeiting every game.
    let mut first_pool: Vec<Option<Engine>> = Vec::new();
    for spec in &cfg.engines {
        match Engine::start(spec, cfg.variant.name(), cfg.settings.timeout) {
            Ok(e) => {
                if !e.declared.iter().any(|d| d == "variant") {
                    eprintln!(
                        "damka-match: warning: engine {} declares no variant parameter; \
                         it had better play {} already",
                        spec.name, cfg.variant
                    );
                }
                first_pool.push(Some(e))
            }
            Err(f) => {
                eprintln!("damka-match: engine {}: {f}", spec.name);
                return 2;
            }
        }
    }
    let mut pools: Vec<Vec<Option<Engine>>> = vec![first_pool];
    for _ in 1..concurrency {
        pools.push((0..n).map(|_| None).collect());
    }

    let opp_desc = if n == 2 {
        names[1].clone()
    } else {
        format!("{} others (gauntlet)", others)
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
            Err(e) => {
                eprintln!("damka-match: cannot open {}: {e}", path.display());
                return 2;
            }
        },
    };

    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let date = today();
    let tc_text = cfg.settings.tc.describe();
    let mut per_opp: Vec<Wdl> = vec![Wdl::default(); n];
    let mut total_wdl = Wdl::default();
    let mut penta = Pentanomial::default();
    let mut halves: HashMap<usize, f64> = HashMap::new();
    let mut finished = 0usize;
    let mut decision: Option<(SprtDecision, f64)> = None;
    let mut failures = 0usize;

    thread::scope(|s| {
        let (tx, rx) = mpsc::channel::<(usize, Option<GameRecord>)>();
        for pool in pools.drain(..) {
            let tx = tx.clone();
            let (next, stop, openings, names) = (&next, &stop, &openings, &names);
            let (date, tc_text) = (date.as_str(), tc_text.as_str());
            s.spawn(move || {
                let mut pool = pool;
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= total {
                        break;
                    }
                    let (w, b, oi) = schedule(g, others, openings.len());
                    let opening = &openings[oi];
                    let mut start_fail = None;
                    for (idx, white) in [(w, true), (b, false)] {
                        let alive = pool[idx].as_mut().is_some_and(|e| !e.is_dead());
                        if !alive {
                            pool[idx] = None;
                            match Engine::start(
                                &cfg.engines[idx],
                                cfg.variant.name(),
                                cfg.settings.timeout,
                            ) {
                                Ok(e) => pool[idx] = Some(e),
                                Err(f) => {
                                    let other = if white { b } else { w };
                                    start_fail = Some(start_failure(opening, idx, other, white, f));
                                    break;
                                }
                            }
                        }
                    }
                    let finished = match start_fail {
                        Some(r) => Some(r),
                        None => {
                            let (ew, eb) = two_mut(&mut pool, w, b);
                            play_game(
                                opening,
                                [ew, eb],
                                [&names[w], &names[b]],
                                [w, b],
                                &cfg.settings,
                                stop,
                            )
                        }
                    };
                    // The PDN is written here, where the game's type is known.
                    let rec = finished.map(|Finished { mut record, game }| {
                        let info = PdnInfo {
                            event: &cfg.event,
                            round: g + 1,
                            date,
                            names: [&names[record.white], &names[record.black]],
                            variant: cfg.variant,
                            time_control: tc_text,
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
            });
        }
        drop(tx);
        for (g, rec) in rx {
            let Some(rec) = rec else { continue };
            finished += 1;
            let (_, _, oi) = schedule(g, others, openings.len());
            let opp = if rec.white == 0 { rec.black } else { rec.white };
            let first_color = if rec.white == 0 {
                Color::White
            } else {
                Color::Black
            };
            let r = match rec.outcome {
                Outcome::Draw => Wdl {
                    draws: 1,
                    ..Wdl::default()
                },
                Outcome::Win(c) if c == first_color => Wdl {
                    wins: 1,
                    ..Wdl::default()
                },
                Outcome::Win(_) => Wdl {
                    losses: 1,
                    ..Wdl::default()
                },
            };
            per_opp[opp].add(&r);
            total_wdl.add(&r);
            let pair = g / 2;
            match halves.remove(&pair) {
                Some(other) => penta.add_pair(other + r.points()),
                None => {
                    halves.insert(pair, r.points());
                }
            }
            println!(
                "Game {}/{} {} vs {}, opening {}: {} ({}); {} +{} ={} -{}, score {}/{}",
                g + 1,
                total,
                names[rec.white],
                names[rec.black],
                oi + 1,
                result_text(Some(rec.outcome)),
                rec.reason,
                names[0],
                total_wdl.wins,
                total_wdl.draws,
                total_wdl.losses,
                total_wdl.points(),
                total_wdl.games()
            );
            if let Some(f) = &rec.failure {
                failures += 1;
                let who = if f.side == Color::White {
                    rec.white
                } else {
                    rec.black
                };
                println!("  {} {}", names[who], f.failure);
                if !f.last_lines.is_empty() {
                    println!("  last lines of {}:", names[who]);
                    for l in &f.last_lines {
                        println!("    {l}");
                    }
                }
            }
            if let Some(file) = pdn_file.as_mut() {
                if let Err(e) = file.write_all(rec.pdn.as_bytes()) {
                    eprintln!("damka-match: cannot write the PDN: {e}");
                }
            }
            if let (Some(t), None) = (&cfg.sprt, decision) {
                let llr = t.llr_pentanomial(&penta);
                if let Some(d) = t.decide(llr) {
                    decision = Some((d, llr));
                    println!("SPRT decided ({d:?}) after {finished} games; stopping");
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });

    // The report.
    println!();
    println!(
        "{:<20} {:>6} {:>6} {:>6} {:>6} {:>8} {:>7}",
        "Opponent", "games", "wins", "draws", "losses", "points", "score"
    );
    for (i, r) in per_opp.iter().enumerate().skip(1) {
        let pct = if r.games() > 0 {
            100.0 * r.points() / r.games() as f64
        } else {
            0.0
        };
        println!(
            "{:<20} {:>6} {:>6} {:>6} {:>6} {:>8} {:>6.1}%",
            names[i],
            r.games(),
            r.wins,
            r.draws,
            r.losses,
            r.points(),
            pct
        );
    }
    println!("(wins, draws, losses and points are {}'s)", names[0]);
    if failures > 0 {
        println!("{failures} game(s) decided by an engine failure (see above)");
    }
    // Pentanomial when every finished game belongs to a finished pair (colours balanced);
    // trinomial otherwise (e.g. an odd number of games, or an SPRT stop mid-pair).
    let pent_ok = penta.pairs() > 0 && halves.is_empty();
    let est = if pent_ok {
        elo_pentanomial(&penta)
    } else {
        elo_trinomial(&total_wdl)
    };
    let (elo, error) = match est {
        Some(e) if e.elo.is_finite() => (e.elo, e.error),
        Some(e) => (e.elo, f64::INFINITY),
        None => (0.0, f64::INFINITY),
    };
    println!(
        "Elo difference: {} +/- {} (95%, {}), LOS: {:.1}%",
        fmt_elo(elo),
        fmt_elo(error),
        if pent_ok {
            format!("pentanomial over {} pairs", penta.pairs())
        } else {
            "trinomial".to_string()
        },
        100.0 * los(&total_wdl)
    );
    if penta.pairs() > 0 {
        let p = penta.0;
        println!(
            "Pairs by points (0, 0.5, 1, 1.5, 2): {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        );
    }
    if let Some(t) = &cfg.sprt {
        let (lo, hi) = t.bounds();
        let llr = decision.map_or_else(|| t.llr_pentanomial(&penta), |d| d.1);
        let verdict = match decision {
            Some((SprtDecision::H1, _)) => "H1 accepted",
            Some((SprtDecision::H0, _)) => "H0 accepted",
            None => "no decision",
        };
        println!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{:.2}, {:.2}] {}",
            t.elo0, t.elo1, t.alpha, t.beta, llr, lo, hi, verdict
        );
    }
    println!(
        "elo={} error={} games={} score={}",
        fmt_elo(elo),
        fmt_elo(error),
        total_wdl.games(),
        total_wdl.points()
    );
    0
}

/// Two different engines of a pool, both started.
fn two_mut(pool: &mut [Option<Engine>], a: usize, b: usize) -> (&mut Engine, &mut Engine) {
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
        // The order of a seed is part of the tool's interface (the README's commands name
        // seeds): pinned here to the order of the tool's earlier private generator.
        let mut e: Vec<u32> = (0..8).collect();
        shuffle(&mut e, 5);
        assert_eq!(e, [0, 7, 3, 1, 4, 6, 5, 2]);
    }
}
