//! Perft: counting the leaves of the move tree, generic over the game (monomorphized per
//! [`Position`] type, so Russian and Turkish share this code with no dispatch per node).
//!
//! Leaves are bulk-counted: at the last ply the driver asks [`Position::count_moves`] instead
//! of playing each move. Positions with no legal move count 0 at any depth above 0.

use crate::core::text::parse_lines;
use crate::core::{Color, MoveList};
use crate::variant::{GameMove, Notation, Perft, Position};
use rayon::prelude::*;

/// Leaves of the move tree of `pos` at `depth` plies.
pub fn perft<P: Perft>(pos: &P, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves() as u64,
        _ => {
            #[cfg(target_arch = "x86_64")]
            {
                if fast_features() {
                    // SAFETY: the CPU has every feature `perft_fast` is compiled for (checked
                    // just above).
                    return unsafe { perft_fast(pos, depth) };
                }
            }
            perft_plain(pos, depth)
        }
    }
}

/// The body of the perft recursion for `depth >= 2`: the last ply is counted in the loop of
/// the ply above it, which saves a call and a move-list frame per counted position.
macro_rules! perft_body {
    ($pos:expr, $depth:expr, $recurse:ident) => {{
        if $depth == 2 {
            $pos.count_moves_after_each()
        } else {
            let mut list = MoveList::new();
            $pos.generate(&mut list);
            let mut n = 0;
            for mv in list.iter() {
                n += $recurse(&$pos.play_no_key(mv), $depth - 1);
            }
            n
        }
    }};
}

/// [`perft`] for `depth >= 2`, portable build.
fn perft_plain<P: Perft>(pos: &P, depth: u32) -> u64 {
    perft_body!(pos, depth, perft_plain)
}

/// Whether the CPU has the instructions [`perft_fast`] is compiled for.
#[cfg(target_arch = "x86_64")]
fn fast_features() -> bool {
    std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("bmi1")
        && std::arch::is_x86_feature_detected!("bmi2")
        && std::arch::is_x86_feature_detected!("lzcnt")
}

/// [`perft`] for `depth >= 2`, compiled for the popcnt, BMI1/2 and lzcnt instructions, chosen
/// at run time: the default build targets every x86-64, whose software popcount costs a dozen
/// instructions in each bulk count, and the BMI forms (`andn`, `blsr`, `tzcnt`, `shlx`) save
/// about 5% of the instructions of the move generator, which is inlined here and so gets
/// them too.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,bmi1,bmi2,lzcnt")]
fn perft_fast<P: Perft>(pos: &P, depth: u32) -> u64 {
    perft_body!(pos, depth, perft_fast)
}

/// Like [`perft`], but checks at every node that the incremental key equals the key computed
/// from scratch, that `count_moves` agrees with `generate`, and that no move is generated
/// twice. Slow; for tests. Returns an error naming the first position that fails.
pub fn perft_checked<P: Perft>(pos: &P, depth: u32) -> Result<u64, String> {
    if pos.key() != pos.compute_key() {
        return Err(format!(
            "incremental key differs from recomputed key in {pos}"
        ));
    }
    if depth == 0 {
        return Ok(1);
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    if pos.count_moves() != list.len() {
        return Err(format!(
            "count_moves {} but generate {} in {pos}",
            pos.count_moves(),
            list.len()
        ));
    }
    let after_each: u64 = list.iter().map(|m| pos.play(m).count_moves() as u64).sum();
    if pos.count_moves_after_each() != after_each {
        return Err(format!(
            "count_moves_after_each {} but {after_each} from the moves in {pos}",
            pos.count_moves_after_each()
        ));
    }
    if pos.has_capture() != list.iter().any(|m| m.is_capture()) {
        return Err(format!("has_capture disagrees with generate in {pos}"));
    }
    for (i, a) in list.iter().enumerate() {
        if list[i + 1..].contains(a) {
            return Err(format!("move {a:?} generated twice in {pos}"));
        }
    }
    let mut n = 0;
    for mv in list.iter() {
        let next = pos.play(mv);
        let fast = pos.play_no_key(mv);
        if fast.side_to_move() != next.side_to_move()
            || fast.pieces(Color::White) != next.pieces(Color::White)
            || fast.pieces(Color::Black) != next.pieces(Color::Black)
        {
            return Err(format!("play_no_key differs from play for {mv:?} in {pos}"));
        }
        n += perft_checked(&next, depth - 1)?;
    }
    Ok(n)
}

/// Leaves below each root move, in generation order.
pub fn divide<P: Perft>(pos: &P, depth: u32) -> Vec<(P::Move, u64)> {
    let mut list = MoveList::new();
    pos.generate(&mut list);
    list.iter()
        .map(|mv| {
            let n = if depth <= 1 {
                1
            } else {
                perft(&pos.play(mv), depth - 1)
            };
            (*mv, n)
        })
        .collect()
}

/// [`perft`] on `threads` threads: the tree is expanded a few plies until there are enough
/// subtrees to balance, and those are counted in parallel (rayon). `threads <= 1` is plain
/// [`perft`].
pub fn perft_parallel<P: Perft>(pos: &P, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth <= 2 {
        return perft(pos, depth);
    }
    // Expand breadth-first until there are many more subtrees than threads.
    let mut frontier = vec![*pos];
    let mut left = depth;
    while left > 2 && frontier.len() < threads * 64 {
        let mut next = Vec::with_capacity(frontier.len() * 8);
        for p in &frontier {
            let mut list = MoveList::new();
            p.generate(&mut list);
            next.extend(list.iter().map(|m| p.play(m)));
        }
        frontier = next;
        left -= 1;
    }
    let count = |frontier: &Vec<P>| frontier.par_iter().map(|p| perft(p, left)).sum::<u64>();
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(|| count(&frontier)),
        Err(_) => frontier.iter().map(|p| perft(p, left)).sum(),
    }
}

/// [`divide`] with each root move's subtree counted on `threads` threads ([`perft_parallel`]);
/// the root moves themselves are taken one after another.
pub fn divide_parallel<P: Perft>(pos: &P, depth: u32, threads: usize) -> Vec<(P::Move, u64)> {
    if threads <= 1 {
        return divide(pos, depth);
    }
    let mut list = MoveList::new();
    pos.generate(&mut list);
    let moves = list.to_vec();
    let per_move = |mv: &P::Move| {
        let n = if depth <= 1 {
            1
        } else {
            perft_parallel(&pos.play(mv), depth - 1, threads)
        };
        (*mv, n)
    };
    moves.iter().map(per_move).collect()
}

/// One position of a perft EPD file with its expected counts.
#[derive(Clone, Debug)]
pub struct EpdEntry<P: Position> {
    /// The position text as written in the file.
    pub fen: String,
    /// The position.
    pub position: P,
    /// `(depth, expected leaves)`, in file order.
    pub counts: Vec<(u32, u64)>,
}

/// Parses a perft EPD file: one position a line, `FEN ;D1 n ;D2 n ...`; `#` starts a comment
/// line, blank lines are skipped. The error names the line.
pub fn parse_epd<P: Position>(text: &str) -> Result<Vec<EpdEntry<P>>, String> {
    parse_lines(text, |line| -> Result<EpdEntry<P>, String> {
        let mut fields = line.split(';');
        let fen = fields.next().unwrap_or("").trim().to_string();
        let position = P::from_fen(&fen).map_err(|e| e.to_string())?;
        let mut counts = Vec::new();
        for f in fields {
            let f = f.trim();
            if f.is_empty() {
                continue;
            }
            let bad = || format!("bad field {f:?} (expected D<depth> <count>)");
            let rest = f.strip_prefix('D').ok_or_else(bad)?;
            let (d, n) = rest.split_once(char::is_whitespace).ok_or_else(bad)?;
            let d: u32 = d.trim().parse().map_err(|_| bad())?;
            let n: u64 = n.trim().parse().map_err(|_| bad())?;
            counts.push((d, n));
        }
        Ok(EpdEntry {
            fen,
            position,
            counts,
        })
    })
}

/// The outcome of one (position, depth) check of an EPD file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpdCheck {
    /// The position text.
    pub fen: String,
    /// Depth checked.
    pub depth: u32,
    /// Count from the file.
    pub expected: u64,
    /// Count computed.
    pub got: u64,
}

impl EpdCheck {
    /// Whether the counts agree.
    pub fn ok(&self) -> bool {
        self.expected == self.got
    }
}

/// Checks every (position, depth) of `entries` whose expected count is at most `max_nodes`,
/// calling `report` after each check (so a command line can print as it goes).
pub fn check_epd<P: Perft>(
    entries: &[EpdEntry<P>],
    max_nodes: u64,
    threads: usize,
    mut report: impl FnMut(&EpdCheck),
) -> Vec<EpdCheck> {
    let mut out = Vec::new();
    for e in entries {
        for &(depth, expected) in &e.counts {
            if expected > max_nodes {
                continue;
            }
            let got = perft_parallel(&e.position, depth, threads);
            let c = EpdCheck {
                fen: e.fen.clone(),
                depth,
                expected,
                got,
            };
            report(&c);
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::RussianPosition;

    /// The portable recursion (what a CPU without popcnt or BMI runs) counts what the
    /// run-time-selected one counts, on positions with kings, crowning and long captures.
    #[test]
    fn portable_build_counts_the_same() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/russian.epd");
        let text = std::fs::read_to_string(path).expect("tests/data/russian.epd is readable");
        let entries = parse_epd::<RussianPosition>(&text).expect("the EPD file parses");
        let mut checked = 0;
        for e in &entries {
            for &(depth, expected) in &e.counts {
                if depth >= 2 && expected <= 200_000 {
                    assert_eq!(
                        perft_plain(&e.position, depth),
                        expected,
                        "{} D{depth}",
                        e.fen
                    );
                    assert_eq!(perft(&e.position, depth), expected, "{} D{depth}", e.fen);
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "only {checked} counts checked");
    }
}
