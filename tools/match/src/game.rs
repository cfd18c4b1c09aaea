//! One game between two engine processes, generic over the game played: every move is
//! checked against the library's legal moves, clocks are kept by the tool, and the game ends
//! by the rules, by adjudication, or by an engine's failure.

use crate::hub::{Failure, FailureKind, HubEngine};
use crate::openings::Opening;
use crate::tc::{Clock, Spent, TimeControl};
use damka::core::Color;
use damka::game::Game;
use damka::variant::{Notation, Outcome, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Adjudication by the engines' own scores (men, side to move's view); off when `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Adjudication {
    /// Resign: (score, moves): after both engines agreed for `moves` moves each that one side
    /// is at least `score` ahead, it wins.
    pub resign: Option<(f64, u32)>,
    /// Draw: (score, moves, from ply): after both engines reported |score| <= `score` for
    /// `moves` moves each, from ply `from ply` on, the game is drawn.
    pub draw: Option<(f64, u32, u32)>,
}

impl Adjudication {
    /// Parses `score=S,moves=N` for resign.
    pub fn parse_resign(s: &str) -> Result<(f64, u32), String> {
        let kv = parse_kv(s, &["score", "moves"])?;
        let score = kv[0].ok_or("resign needs score=")?;
        let moves = kv[1].unwrap_or(3.0);
        if score <= 0.0 || moves < 1.0 {
            return Err("resign needs score > 0 and moves >= 1".into());
        }
        Ok((score, moves as u32))
    }

    /// Parses `score=S,moves=N,after=PLY` for draw.
    pub fn parse_draw(s: &str) -> Result<(f64, u32, u32), String> {
        let kv = parse_kv(s, &["score", "moves", "after"])?;
        let score = kv[0].ok_or("draw needs score=")?;
        let moves = kv[1].unwrap_or(8.0);
        let after = kv[2].unwrap_or(40.0);
        if score < 0.0 || moves < 1.0 || after < 0.0 {
            return Err("draw needs score >= 0, moves >= 1, after >= 0".into());
        }
        Ok((score, moves as u32, after as u32))
    }
}

fn parse_kv(s: &str, keys: &[&str]) -> Result<Vec<Option<f64>>, String> {
    let mut out = vec![None; keys.len()];
    for part in s.split([',', ' ']).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| format!("expected key=value, not {part:?}"))?;
        let i = keys
            .iter()
            .position(|x| *x == k.trim())
            .ok_or_else(|| format!("unknown key {k:?} (expected {})", keys.join(", ")))?;
        let v: f64 = v
            .trim()
            .parse()
            .map_err(|_| format!("bad number in {part:?}"))?;
        if !v.is_finite() {
            return Err(format!("bad number in {part:?}"));
        }
        out[i] = Some(v);
    }
    Ok(out)
}

/// Settings shared by every game of a match.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The time control.
    pub tc: TimeControl,
    /// How far (seconds) an engine may overstep its time before it loses.
    pub margin: f64,
    /// How long to wait for a move under depth or node limits, and for handshakes.
    pub timeout: Duration,
    /// Adjudication (off by default).
    pub adjudication: Adjudication,
    /// Plies after which a game is adjudicated a draw (0: never).
    pub max_plies: usize,
}

/// An engine's failure that decided a game, with its last lines.
#[derive(Clone, Debug)]
pub struct FailureReport {
    /// The side whose engine failed.
    pub side: Color,
    /// What happened.
    pub failure: Failure,
    /// The last lines of its conversation.
    pub last_lines: Vec<String>,
}

/// A finished game, as the match needs it.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// White's engine index.
    pub white: usize,
    /// Black's engine index.
    pub black: usize,
    /// The result.
    pub outcome: Outcome,
    /// Why the game ended, in words.
    pub reason: String,
    /// The failure, if one decided the game.
    pub failure: Option<FailureReport>,
    /// The game as PDN (filled in by the caller that knows the round and the names).
    pub pdn: String,
}

/// A finished game with its moves.
pub struct PlayedGame<P: Position> {
    /// Result and reasons.
    pub record: GameRecord,
    /// The game from its initial position (the opening's), opening moves included.
    pub game: Game<P>,
}

/// The game of an opening before the engines move.
pub fn opening_game<P: Position>(opening: &Opening<P>) -> Game<P> {
    let mut g = Game::new(opening.start);
    for m in &opening.moves {
        g.play_unchecked(*m);
    }
    g
}

/// Scores seen for adjudication: consecutive moves per side meeting each condition.
#[derive(Default)]
struct AdjState {
    winning: [u32; 2],
    losing: [u32; 2],
    drawish: [u32; 2],
}

/// Plays one game. `engines[0]` plays White. Returns `None` if `stop` was raised first.
pub fn play_game<P: Position>(
    opening: &Opening<P>,
    engines: [&mut HubEngine; 2],
    names: [&str; 2],
    indices: [usize; 2],
    set: &GameSettings,
    stop: &AtomicBool,
) -> Option<PlayedGame<P>> {
    let [white, black] = engines;
    let mut engines = [white, black];
    let start_hub = opening.start.to_hub();
    let mut game = opening_game(opening);
    let mut hub_moves: Vec<String> = game.move_texts_hub();
    let mut clocks = [
        Clock::new(set.tc, set.margin),
        Clock::new(set.tc, set.margin),
    ];
    let mut adj = AdjState::default();
    let finish = |game: Game<P>, outcome: Outcome, reason: String, failure| PlayedGame {
        record: GameRecord {
            white: indices[0],
            black: indices[1],
            outcome,
            reason,
            failure,
            pdn: String::new(),
        },
        game,
    };
    for (i, e) in engines.iter_mut().enumerate() {
        if let Err(f) = e.new_game(set.timeout) {
            let side = if i == 0 { Color::White } else { Color::Black };
            let (o, r, fr) = fail(side, names, f, e, set, true);
            return Some(finish(game, o, r, Some(fr)));
        }
    }
    loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(end) = game.result() {
            return Some(finish(game, end.outcome, end.rule.to_string(), None));
        }
        if set.max_plies > 0 && game.ply() >= set.max_plies {
            let reason = format!("adjudicated: {} plies", set.max_plies);
            return Some(finish(game, Outcome::Draw, reason, None));
        }
        let pos = *game.position();
        let side = pos.side_to_move();
        let si = side.index();
        let mut levels = vec![clocks[si].level()];
        levels.extend(engines[si].spec.levels.iter().cloned());
        let deadline = clocks[si].deadline(set.timeout);
        let reply = match engines[si].think(&start_hub, &hub_moves, &levels, Some(deadline)) {
            Ok(r) => r,
            Err(mut f) => {
                if f.kind == FailureKind::Timeout {
                    if clocks[si].is_timed() {
                        f = Failure::new(
                            FailureKind::TimeLoss,
                            format!("no move within {:.3}s", deadline.as_secs_f64()),
                        );
                    } else {
                        f.detail = format!("no move within {:.1}s", deadline.as_secs_f64());
                    }
                }
                let (o, r, fr) = fail(side, names, f, engines[si], set, true);
                return Some(finish(game, o, r, Some(fr)));
            }
        };
        // The referee: the reply must name exactly one legal move of this position.
        let mv = match pos.parse_move(&reply.mv) {
            Ok(m) => m,
            Err(err) => {
                let f = Failure::new(
                    FailureKind::Illegal,
                    format!("{:?} in {}: {err}", reply.mv, pos.to_fen()),
                );
                let (o, r, fr) = fail(side, names, f, engines[si], set, false);
                return Some(finish(game, o, r, Some(fr)));
            }
        };
        if let Spent::Over(x) = clocks[si].spend(reply.elapsed) {
            let f = Failure::new(
                FailureKind::TimeLoss,
                format!(
                    "took {:.3}s, {x:.3}s over its time",
                    reply.elapsed.as_secs_f64()
                ),
            );
            let (o, r, fr) = fail(side, names, f, engines[si], set, false);
            return Some(finish(game, o, r, Some(fr)));
        }
        hub_moves.push(pos.move_to_hub(&mv));
        game.play_unchecked(mv);
        if let Some((outcome, reason)) =
            adjudicate(&mut adj, &set.adjudication, si, reply.score, game.ply())
        {
            // A game the rules have already ended is not adjudicated.
            if game.result().is_none() {
                return Some(finish(game, outcome, reason, None));
            }
        }
    }
}

/// Updates the adjudication counters with the score `score` just reported by side `si`.
fn adjudicate(
    st: &mut AdjState,
    adj: &Adjudication,
    si: usize,
    score: Option<f64>,
    ply: usize,
) -> Option<(Outcome, String)> {
    let bump = |c: &mut u32, cond: bool| *c = if cond { *c + 1 } else { 0 };
    if let Some((r, n)) = adj.resign {
        bump(&mut st.winning[si], score.is_some_and(|s| s >= r));
        bump(&mut st.losing[si], score.is_some_and(|s| s <= -r));
        for (w, l) in [(0usize, 1usize), (1, 0)] {
            if st.winning[w] >= n && st.losing[l] >= n {
                let c = if w == 0 { Color::White } else { Color::Black };
                return Some((
                    Outcome::Win(c),
                    format!("adjudicated: both engines scored it {r} or more for {n} moves"),
                ));
            }
        }
    }
    if let Some((d, n, after)) = adj.draw {
        bump(&mut st.drawish[si], score.is_some_and(|s| s.abs() <= d));
        if ply >= after as usize && st.drawish[0] >= n && st.drawish[1] >= n {
            return Some((
                Outcome::Draw,
                format!("adjudicated draw: both engines within {d} for {n} moves"),
            ));
        }
    }
    None
}

/// The result when `side`'s engine failed: a loss, its reason, and the report with its last
/// lines. A failed engine that may still be busy (`waiting`: it owed an answer it has not
/// given) is stopped or killed, and one that talked nonsense is killed, so the next game
/// starts with an engine in a known state.
fn fail(
    side: Color,
    names: [&str; 2],
    f: Failure,
    e: &mut HubEngine,
    set: &GameSettings,
    waiting: bool,
) -> (Outcome, String, FailureReport) {
    let last_lines = e.last_lines(10);
    match f.kind {
        FailureKind::Malformed | FailureKind::Error | FailureKind::Crash => e.kill(),
        FailureKind::Timeout | FailureKind::TimeLoss if waiting && !e.is_dead() => {
            // A slow engine may still answer `stop`; a hung one is killed by `recover`.
            e.recover(Duration::from_secs(1).min(set.timeout));
        }
        _ => {}
    }
    let reason = format!("{} {}", names[side.index()], f.kind);
    (
        Outcome::Win(side.opposite()),
        reason,
        FailureReport {
            side,
            failure: f,
            last_lines,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_adjudication() {
        assert_eq!(
            Adjudication::parse_resign("score=3,moves=4").unwrap(),
            (3.0, 4)
        );
        assert_eq!(Adjudication::parse_resign("score=2").unwrap(), (2.0, 3));
        assert!(Adjudication::parse_resign("moves=2").is_err());
        assert!(Adjudication::parse_resign("score=2,foo=1").is_err());
        assert_eq!(
            Adjudication::parse_draw("score=0.1 moves=5 after=30").unwrap(),
            (0.1, 5, 30)
        );
    }

    #[test]
    fn resign_needs_both_engines() {
        let adj = Adjudication {
            resign: Some((3.0, 2)),
            draw: None,
        };
        let mut st = AdjState::default();
        // White claims a win, Black agrees it is lost, twice each.
        assert!(adjudicate(&mut st, &adj, 0, Some(4.0), 1).is_none());
        assert!(adjudicate(&mut st, &adj, 1, Some(-5.0), 2).is_none());
        assert!(adjudicate(&mut st, &adj, 0, Some(3.5), 3).is_none());
        let r = adjudicate(&mut st, &adj, 1, Some(-3.0), 4).unwrap();
        assert_eq!(r.0, Outcome::Win(Color::White));
        // Disagreement resets.
        let mut st = AdjState::default();
        for ply in 0..10 {
            assert!(adjudicate(&mut st, &adj, ply % 2, Some(4.0), ply).is_none());
        }
    }

    #[test]
    fn draw_waits_for_the_ply() {
        let adj = Adjudication {
            resign: None,
            draw: Some((0.1, 2, 6)),
        };
        let mut st = AdjState::default();
        for ply in 1..6 {
            assert!(adjudicate(&mut st, &adj, ply % 2, Some(0.0), ply).is_none());
        }
        assert_eq!(
            adjudicate(&mut st, &adj, 0, Some(0.05), 6).unwrap().0,
            Outcome::Draw
        );
    }
}
