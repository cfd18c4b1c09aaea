//! A plain forward solver for the endgame database tests. It shares nothing with the builder
//! but the move generator and the game's own end rules: it lists positions by brute force,
//! links each to its successors, and decides them level by level from the successors' values
//! (a win at distance `n` has a successor lost at `n - 1`, or a conversion into a lost
//! position when `n = 1`; a loss at `n` has every successor won, the slowest at `n - 1`).

use damka::core::Color;
use damka::egtb::Value;
use damka::variant::{GameMove, Outcome, Pieces, Position};
use rustc_hash::FxHashMap as HashMap;

/// Every position with 2..=`max` pieces, each side at least one, both sides to move, whose
/// material `(white men, white kings, black men, black kings)` passes `keep`. Men stand only
/// where a game can put them: never on their crowning rank and, in Turkish, never on their own
/// first rank (men do not move backwards there).
pub fn positions<P: Position>(max: u32, keep: impl Fn([u32; 4]) -> bool) -> Vec<P> {
    let squares: Vec<u8> = (0..64)
        .filter(|&s| P::PLAYABLE & (1u64 << s) != 0)
        .collect();
    let turkish = P::PLAYABLE == u64::MAX;
    let mut out = Vec::new();
    let mut chosen = Vec::new();
    for k in 2..=max {
        choose(&squares, 0, k as usize, &mut chosen, &mut |sq: &[u8]| {
            for kinds in 0..4usize.pow(k) {
                let (mut w, mut b) = (Pieces::default(), Pieces::default());
                let mut ks = kinds;
                let mut bad = false;
                for &s in sq {
                    let bit = 1u64 << s;
                    let rank = s / 8;
                    match ks % 4 {
                        0 => {
                            w.men |= bit;
                            bad |= rank == 7 || (turkish && rank == 0);
                        }
                        1 => w.kings |= bit,
                        2 => {
                            b.men |= bit;
                            bad |= rank == 0 || (turkish && rank == 7);
                        }
                        _ => b.kings |= bit,
                    }
                    ks /= 4;
                }
                let counts = [
                    w.men.count_ones(),
                    w.kings.count_ones(),
                    b.men.count_ones(),
                    b.kings.count_ones(),
                ];
                if bad || w.all() == 0 || b.all() == 0 || !keep(counts) {
                    continue;
                }
                for side in [Color::White, Color::Black] {
                    if let Ok(p) = P::from_pieces(w, b, side) {
                        out.push(p);
                    }
                }
            }
        });
    }
    out
}

fn choose(squares: &[u8], from: usize, k: usize, chosen: &mut Vec<u8>, f: &mut impl FnMut(&[u8])) {
    if chosen.len() == k {
        f(chosen);
        return;
    }
    for i in from..squares.len() {
        chosen.push(squares[i]);
        choose(squares, i + 1, k, chosen, f);
        chosen.pop();
    }
}

/// The values of every position in `all` (which must hold every successor of each of its
/// positions that has pieces on both sides).
pub fn solve<P: Position>(all: &[P]) -> HashMap<P, Value> {
    let mut at: HashMap<P, usize> = HashMap::default();
    at.reserve(all.len());
    at.extend(all.iter().enumerate().map(|(i, p)| (*p, i)));
    // Successors: Some(index) or None for "the side to move has no pieces" (lost), with
    // whether the move converts.
    let mut succ: Vec<Vec<(Option<usize>, bool)>> = Vec::with_capacity(all.len());
    let mut value: Vec<Option<Value>> = vec![None; all.len()];
    for (i, p) in all.iter().enumerate() {
        if let Some(end) = p.rule_end(&p.rule_state_new()) {
            value[i] = Some(match end.outcome {
                Outcome::Draw => Value::Draw,
                Outcome::Win(c) if c == p.side_to_move() => Value::Win(0),
                Outcome::Win(_) => Value::Loss(0),
            });
            succ.push(Vec::new());
            continue;
        }
        let list = p
            .legal_moves()
            .iter()
            .map(|m| {
                let c = p.play(m);
                let idx = if c.pieces(c.side_to_move()).all() == 0 {
                    None
                } else {
                    Some(*at.get(&c).expect("successor listed"))
                };
                (idx, m.is_capture() || m.promotes())
            })
            .collect::<Vec<_>>();
        if list.is_empty() {
            value[i] = Some(Value::Loss(0));
        }
        succ.push(list);
    }
    let backed = |v: Value, conv: bool| -> Value {
        let d = |x: u16| if conv { 1 } else { x + 1 };
        match v {
            Value::Win(x) => Value::Loss(d(x)),
            Value::Loss(x) => Value::Win(d(x)),
            Value::Draw => Value::Draw,
        }
    };
    // Classes by material: a conversion leaves its class for one with fewer pieces or fewer
    // men, solved before, so inside a class only quiet moves link positions.
    let class = |p: &P| {
        let (w, b) = (p.pieces(Color::White), p.pieces(Color::Black));
        (
            (w.all() | b.all()).count_ones(),
            (w.men | b.men).count_ones(),
        )
    };
    let mut classes: Vec<(u32, u32)> = all.iter().map(class).collect();
    classes.sort_unstable();
    classes.dedup();
    for c in classes {
        let members: Vec<usize> = (0..all.len()).filter(|&i| class(&all[i]) == c).collect();
        let mut n = 1u16;
        loop {
            let mut decided = Vec::new();
            for &i in &members {
                if value[i].is_some() {
                    continue;
                }
                let mut all_known = true;
                let mut worst_loss = 0u16;
                let mut all_lose = true;
                let mut win_now = false;
                for &(j, conv) in &succ[i] {
                    let v = match j {
                        None => Some(Value::Loss(0)),
                        Some(j) => value[j],
                    };
                    match v.map(|v| backed(v, conv)) {
                        None => {
                            all_known = false;
                            all_lose = false;
                        }
                        Some(Value::Win(d)) => {
                            win_now |= d == n;
                            all_lose = false;
                        }
                        Some(Value::Loss(d)) => worst_loss = worst_loss.max(d),
                        Some(Value::Draw) => all_lose = false,
                    }
                }
                if win_now {
                    decided.push((i, Value::Win(n)));
                } else if all_known && all_lose && worst_loss == n {
                    decided.push((i, Value::Loss(n)));
                }
            }
            if decided.is_empty() && n > 1 {
                break;
            }
            for (i, v) in decided {
                value[i] = Some(v);
            }
            n += 1;
        }
        // What this class left undecided is drawn (later classes read it as such).
        for &i in &members {
            value[i].get_or_insert(Value::Draw);
        }
    }
    all.iter()
        .zip(value)
        .map(|(p, v)| (*p, v.unwrap_or(Value::Draw)))
        .collect()
}

/// A fresh folder under the system's temporary folder.
pub fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("damka-egtb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
