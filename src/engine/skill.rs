//! Strength levels for people (`skill`, 1 to 10): a level below full strength searches less
//! (a depth and a node cap) and plays one of its best few root moves (multi-PV lines), drawn
//! at random with weights that fall with the distance from the best score. The engine never
//! blunders at random: a move more than the level's margin below the best is never played,
//! and neither is a move the search sees losing when the best one does not.

use crate::core::{is_decisive, Rng, Score, Variant};
use crate::search::RootLine;

/// Full strength: the search as it is, no cap, no choice.
pub const MAX_SKILL: u8 = 10;
/// The weakest level.
pub const MIN_SKILL: u8 = 1;

/// What a level below [`MAX_SKILL`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillLevel {
    /// Deepest iteration.
    pub depth: u32,
    /// Node budget per move.
    pub nodes: u64,
    /// Root lines searched to choose from.
    pub lines: u32,
    /// Largest loss against the best line's score a chosen move may have, centi-men.
    pub margin: Score,
}

/// Levels 1 to 9, a row a level: Russian, then Turkish. In Russian each level searches
/// deeper or two to three times as many nodes as the one below and allows a smaller margin;
/// level 1 differs from level 2 only by its margin and a smaller node cap (a depth-1 level was
/// over 400 Elo below level 2). The same nodes buy more Elo in Turkish (fewer draws: with the
/// Russian settings its steps were near 300 Elo), so its steps are smaller in nodes, its weak
/// levels lean more on the margin, and its level 1 searches deeper (with level 1 of depth 3
/// the nine steps averaged 200 Elo).
#[rustfmt::skip]
const LEVELS: [[SkillLevel; 2]; 9] = [
    //     Russian                  Turkish
    [level(2, 800, 250),       level(5, 9_000, 190)],
    [level(2, 1_000, 160),     level(6, 16_000, 150)],
    [level(3, 3_000, 120),     level(7, 30_000, 115)],
    [level(4, 8_000, 90),      level(8, 55_000, 85)],
    [level(5, 20_000, 70),     level(9, 100_000, 60)],
    [level(6, 50_000, 50),     level(10, 140_000, 50)],
    [level(8, 120_000, 35),    level(11, 200_000, 40)],
    [level(10, 300_000, 25),   level(13, 400_000, 20)],
    [level(12, 800_000, 15),   level(16, 800_000, 10)],
];

/// Root lines every level below full strength chooses from.
const SKILL_LINES: u32 = 5;

const fn level(depth: u32, nodes: u64, margin: Score) -> SkillLevel {
    SkillLevel {
        depth,
        nodes,
        lines: SKILL_LINES,
        margin,
    }
}

/// The settings of `skill` (1 to 10) in `variant`; `None` at full strength (10, or above).
/// The table is calibrated by matches of each level against the one below
/// (`tools/match/levels.sh`; docs/performance.md, "Strength levels").
pub fn skill_level(skill: u8, variant: Variant) -> Option<SkillLevel> {
    if skill >= MAX_SKILL {
        return None;
    }
    let game = match variant {
        Variant::Russian => 0,
        Variant::Turkish => 1,
    };
    Some(LEVELS[usize::from(skill.max(MIN_SKILL) - 1)][game])
}

/// Chooses a line among `lines` (best first): those within `margin` of the best score, none
/// that is a decisive loss unless all are, each with weight `exp(-3 d / margin)` where `d` is
/// its distance from the best (so a move at the margin is about 20 times less likely than
/// the best). `None` only when `lines` is empty.
pub fn choose<'a, M>(
    lines: &'a [RootLine<M>],
    margin: Score,
    rng: &mut Rng,
) -> Option<&'a RootLine<M>> {
    let best = lines.iter().map(|l| l.score).max()?;
    let losing = |s: Score| is_decisive(s) && s < 0;
    let fits = |l: &&RootLine<M>| {
        let d = best - l.score;
        !l.pv.is_empty() && d <= margin && (losing(best) || !losing(l.score))
    };
    let candidates: Vec<&RootLine<M>> = lines.iter().filter(fits).collect();
    if candidates.is_empty() {
        return lines.iter().find(|l| l.score == best);
    }
    let scale = f64::from(margin.max(1)) / 3.0;
    let weights: Vec<f64> = candidates
        .iter()
        .map(|l| (-f64::from(best - l.score) / scale).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut x = rng.unit() * total;
    for (l, w) in candidates.iter().zip(&weights) {
        if x < *w {
            return Some(l);
        }
        x -= w;
    }
    candidates.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::WIN;

    fn line(score: Score, mv: u8) -> RootLine<u8> {
        RootLine {
            score,
            pv: vec![mv],
        }
    }

    #[test]
    fn levels_grow_stronger_and_ten_is_full_strength() {
        for variant in [Variant::Russian, Variant::Turkish] {
            assert_eq!(skill_level(10, variant), None);
            assert_eq!(skill_level(0, variant), skill_level(1, variant));
            for skill in 1..MAX_SKILL - 1 {
                let (a, b) = (skill_level(skill, variant), skill_level(skill + 1, variant));
                let (a, b) = (a.unwrap(), b.unwrap());
                assert!(
                    a.depth <= b.depth && a.nodes < b.nodes,
                    "{variant:?} {skill}"
                );
                assert!(a.margin > b.margin, "{variant:?} {skill}");
            }
        }
    }

    #[test]
    fn only_near_best_moves_are_chosen_and_the_best_most_often() {
        let lines = [line(50, 1), line(30, 2), line(-20, 3), line(-400, 4)];
        let mut rng = Rng::new(3);
        let mut count = [0u32; 5];
        for _ in 0..3000 {
            let l = choose(&lines, 60, &mut rng).unwrap();
            count[usize::from(l.pv[0])] += 1;
        }
        // 3 is 70 below the best: outside the margin; 4 far outside.
        assert_eq!((count[3], count[4]), (0, 0));
        assert!(count[1] > count[2] && count[2] > 0, "{count:?}");
    }

    #[test]
    fn a_lost_line_is_never_chosen_while_another_is_not_lost() {
        let lines = [line(-10, 1), line(-(WIN - 8), 2)];
        let mut rng = Rng::new(1);
        for _ in 0..200 {
            assert_eq!(choose(&lines, Score::MAX / 4, &mut rng).unwrap().pv[0], 1);
        }
        assert!(choose::<u8>(&[], 50, &mut rng).is_none());
    }
}
