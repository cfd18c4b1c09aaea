//! Match statistics: Elo difference with a 95% confidence interval (from the trinomial
//! win/draw/loss counts, or from the pentanomial counts of game pairs played with colours
//! swapped, which removes the opening's bias from the variance), the likelihood of superiority,
//! and the generalized sequential probability ratio test (GSPRT) on logistic Elo, computed
//! the way fishtest does (maximum-likelihood outcome distributions under each hypothesis).

/// z such that a standard normal variable is within +-z with 95% probability.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The expected score (0..1) of a player `elo` points stronger.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that gives an expected score `p` (infinite at 0 and 1).
pub fn elo_from_score(p: f64) -> f64 {
    if p <= 0.0 {
        f64::NEG_INFINITY
    } else if p >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / p - 1.0).log10()
    }
}

/// The error function (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7: plenty
/// for a percentage shown with one decimal).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    sign * y
}

/// Game results of one side: wins, draws, losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// Adds another count.
    pub fn add(&mut self, o: &Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

/// Counts of game pairs by their total points for one side: 0, 1/2, 1, 3/2, 2.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Number of pairs.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Records a pair scoring `points` (0, 0.5, ..., 2).
    pub fn add_pair(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[i] += 1;
    }
}

/// Mean and variance of one sample (a game, or a pair's points / 2) from outcome frequencies.
fn mean_var(values: &[f64], counts: &[u64]) -> Option<(f64, f64, f64)> {
    let n: u64 = counts.iter().sum();
    if n == 0 {
        return None;
    }
    let n = n as f64;
    let mean = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| v * c as f64)
        .sum::<f64>()
        / n;
    let var = values
        .iter()
        .zip(counts)
        .map(|(v, &c)| c as f64 * (v - mean).powi(2))
        .sum::<f64>()
        / n;
    Some((mean, var, n))
}

/// An Elo estimate with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The Elo difference.
    pub elo: f64,
    /// Half the width of the 95% interval, in Elo.
    pub error: f64,
    /// The mean score per game (0..1).
    pub score: f64,
}

fn estimate(mean: f64, var: f64, n: f64) -> EloEstimate {
    let se = (var / n).sqrt();
    let lo = elo_from_score(mean - Z95 * se);
    let hi = elo_from_score(mean + Z95 * se);
    EloEstimate {
        elo: elo_from_score(mean),
        error: (hi - lo) / 2.0,
        score: mean,
    }
}

/// Elo from win/draw/loss counts, games taken as independent.
pub fn elo_trinomial(r: &Wdl) -> Option<EloEstimate> {
    let (m, v, n) = mean_var(&[1.0, 0.5, 0.0], &[r.wins, r.draws, r.losses])?;
    Some(estimate(m, v, n))
}

/// Elo from pair counts (each pair one sample scoring points / 2).
pub fn elo_pentanomial(p: &Pentanomial) -> Option<EloEstimate> {
    let (m, v, n) = mean_var(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.0)?;
    Some(estimate(m, v, n))
}

/// Likelihood of superiority: the probability that the side is the stronger, from its wins
/// and losses (draws carry no information about it).
pub fn los(r: &Wdl) -> f64 {
    let decisive = (r.wins + r.losses) as f64;
    if decisive == 0.0 {
        return 0.5;
    }
    0.5 * (1.0 + erf((r.wins as f64 - r.losses as f64) / (2.0 * decisive).sqrt()))
}

/// The distribution over `values` of largest likelihood for `counts` among those with mean
/// `s`: p_i = f_i / (1 + t (x_i - s)) with f the observed frequencies and t the root of
/// sum p_i (x_i - s) = 0, found by bisection (the sum falls as t grows). Needs every count
/// positive and min(values) < s < max(values).
fn mle_with_mean(values: &[f64], counts: &[f64], s: f64) -> Vec<f64> {
    let n: f64 = counts.iter().sum();
    let f: Vec<f64> = counts.iter().map(|c| c / n).collect();
    let xmax = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let xmin = values.iter().cloned().fold(f64::INFINITY, f64::min);
    // Every denominator must stay positive.
    let (mut lo, mut hi) = (-1.0 / (xmax - s), 1.0 / (s - xmin));
    lo += 1e-12 * lo.abs();
    hi -= 1e-12 * hi.abs();
    let g = |t: f64| -> f64 {
        f.iter()
            .zip(values)
            .map(|(fi, x)| fi * (x - s) / (1.0 + t * (x - s)))
            .sum()
    };
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if g(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let t = 0.5 * (lo + hi);
    f.iter()
        .zip(values)
        .map(|(fi, x)| fi / (1.0 + t * (x - s)))
        .collect()
}

/// What a sequential test concluded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// H0 accepted: the gain is at most elo0.
    H0,
    /// H1 accepted: the gain is at least elo1.
    H1,
}

/// A sequential probability ratio test between Elo gains `elo0` (H0) and `elo1` (H1), with
/// false positive rate `alpha` and false negative rate `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl Sprt {
    /// Parses `elo0=0,elo1=10,alpha=0.05,beta=0.05` (commas or spaces; alpha and beta default
    /// to 0.05).
    pub fn parse(s: &str) -> Result<Sprt, String> {
        let mut t = Sprt {
            elo0: f64::NAN,
            elo1: f64::NAN,
            alpha: 0.05,
            beta: 0.05,
        };
        for part in s.split([',', ' ']).filter(|p| !p.is_empty()) {
            let (k, v) = part
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, not {part:?}"))?;
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("bad number in {part:?}"))?;
            match k.trim() {
                "elo0" => t.elo0 = v,
                "elo1" => t.elo1 = v,
                "alpha" => t.alpha = v,
                "beta" => t.beta = v,
                other => return Err(format!("unknown SPRT setting {other:?}")),
            }
        }
        if !t.elo0.is_finite() || !t.elo1.is_finite() {
            return Err("SPRT needs elo0 and elo1".into());
        }
        if t.elo1 <= t.elo0 {
            return Err("SPRT needs elo1 > elo0".into());
        }
        if !(t.alpha > 0.0 && t.alpha < 0.5 && t.beta > 0.0 && t.beta < 0.5) {
            return Err("SPRT alpha and beta must be between 0 and 0.5".into());
        }
        Ok(t)
    }

    /// The (lower, upper) log-likelihood ratio bounds: below accepts H0, above accepts H1.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The generalized log-likelihood ratio of the GSPRT (as fishtest computes it): for each
    /// hypothesis, the outcome distribution of largest likelihood whose mean score is that
    /// hypothesis's expected score; the LLR is the log of the ratio of their likelihoods of
    /// the observed counts.
    ///
    /// Every count is raised to at least 0.001 first (as fishtest does), so every outcome has
    /// some probability and a one-sided match still decides. Unlike the normal approximation
    /// with the sample variance, this does not explode on a handful of games with no spread.
    fn llr(&self, values: &[f64], counts: &[u64]) -> f64 {
        if counts.iter().sum::<u64>() == 0 {
            return 0.0;
        }
        let c: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let p0 = mle_with_mean(values, &c, score_from_elo(self.elo0));
        let p1 = mle_with_mean(values, &c, score_from_elo(self.elo1));
        c.iter()
            .zip(p0.iter().zip(&p1))
            .map(|(k, (a, b))| k * (b / a).ln())
            .sum()
    }

    /// LLR from win/draw/loss counts (the match itself tests game pairs).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn llr_trinomial(&self, r: &Wdl) -> f64 {
        self.llr(&[1.0, 0.5, 0.0], &[r.wins, r.draws, r.losses])
    }

    /// LLR from pair counts.
    pub fn llr_pentanomial(&self, p: &Pentanomial) -> f64 {
        self.llr(&[0.0, 0.25, 0.5, 0.75, 1.0], &p.0)
    }

    /// The decision for a given LLR, if any.
    pub fn decide(&self, llr: f64) -> Option<SprtDecision> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(SprtDecision::H1)
        } else if llr <= lo {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_and_score_are_inverse() {
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        // 0.64 is the textbook expected score of a 100 Elo stronger player (0.6401).
        assert!(close(score_from_elo(100.0), 0.640_065, 1e-6));
        assert!(close(elo_from_score(0.75), 190.848_501_9, 1e-6));
        for e in [-300.0, -12.5, 0.0, 7.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(e)), e, 1e-9));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn erf_matches_tables() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(2.0), 0.995_322_265_0, 2e-7));
        assert!(close(erf(-1.0), -0.842_700_792_9, 2e-7));
    }

    #[test]
    fn trinomial_known_values() {
        // 60 wins, 40 losses: cutechess reports "Elo difference: 70.4 +/- 70.6".
        let r = Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        let e = elo_trinomial(&r).unwrap();
        assert!(close(e.elo, 70.437, 1e-3), "{e:?}");
        assert!(close(e.error, 70.6, 0.05), "{e:?}");
        // LOS = 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))) = 0.5 (1 + erf(sqrt 2)) = Phi(2).
        assert!(close(los(&r), 0.977_250, 1e-6));
        // Equal score: 0 Elo, symmetric interval.
        let r = Wdl {
            wins: 30,
            draws: 40,
            losses: 30,
        };
        let e = elo_trinomial(&r).unwrap();
        assert!(close(e.elo, 0.0, 1e-9));
        // var = 60 * 0.25 / 100 = 0.15; se = sqrt(0.0015) = 0.03873; bound 0.57591 -> 53.16 Elo.
        assert!(close(e.error, 53.16, 0.01), "{e:?}");
        assert!(close(los(&r), 0.5, 1e-9));
        assert!(elo_trinomial(&Wdl::default()).is_none());
    }

    #[test]
    fn pentanomial_known_values() {
        // Every pair 1.5-0.5: mean 0.75 with no variance.
        let p = Pentanomial([0, 0, 0, 10, 0]);
        let e = elo_pentanomial(&p).unwrap();
        assert!(close(e.elo, 190.849, 1e-3));
        assert!(close(e.error, 0.0, 1e-9));
        // Pairs 2, 1, 1, 0: mean 0.5, var 0.125 per pair; se = sqrt(0.125/4) = 0.17678.
        let mut p = Pentanomial::default();
        for pts in [2.0, 1.0, 1.0, 0.0] {
            p.add_pair(pts);
        }
        assert_eq!(p.0, [1, 0, 2, 0, 1]);
        let e = elo_pentanomial(&p).unwrap();
        let hi = elo_from_score(0.5 + Z95 * 0.176_776_695);
        assert!(close(e.error, hi, 1e-4), "{e:?} {hi}");
        // The same 8 games as independent games have a smaller variance estimate.
        let t = elo_trinomial(&Wdl {
            wins: 3,
            draws: 2,
            losses: 3,
        })
        .unwrap();
        assert!(t.error < e.error);
    }

    #[test]
    fn sprt_bounds_and_llr() {
        let s = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.05").unwrap();
        let (lo, hi) = s.bounds();
        // The familiar +-2.94 of fishtest.
        assert!(close(lo, -2.944_438_979, 1e-9));
        assert!(close(hi, 2.944_438_979, 1e-9));
        assert!(Sprt::parse("elo0=5,elo1=0").is_err());
        assert!(Sprt::parse("elo0=0").is_err());
        assert!(Sprt::parse("elo0=0 elo1=5 gamma=1").is_err());
        let d = Sprt::parse("elo0=-5 elo1=5").unwrap();
        assert_eq!(d.alpha, 0.05);
        // Reference values from an independent Python version of fishtest's method.
        let r = Wdl {
            wins: 60,
            draws: 0,
            losses: 40,
        };
        let llr = s.llr_trinomial(&r);
        assert!(close(llr, 0.534_236, 1e-5), "{llr}");
        assert_eq!(s.decide(llr), None);
        // On a large sample it agrees with the normal approximation
        // n (s1 - s0) (2m - s0 - s1) / (2 var) = 0.090774.
        let llr = s.llr_pentanomial(&Pentanomial([100, 300, 500, 320, 110]));
        assert!(close(llr, 0.090_357, 1e-5), "{llr}");
        // One good pair is not enough evidence for anything.
        let wide = Sprt::parse("elo0=0,elo1=50").unwrap();
        let llr = wide.llr_pentanomial(&Pentanomial([0, 0, 0, 1, 0]));
        assert!(close(llr, 0.133_653, 1e-5), "{llr}");
        assert_eq!(wide.decide(llr), None);
        // A one-sided match still decides: 12 pairs won 2-0 against elo1 = 100.
        let t = Sprt::parse("elo0=0,elo1=100").unwrap();
        assert_eq!(
            t.decide(t.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 12]))),
            Some(SprtDecision::H1)
        );
        assert_eq!(
            t.decide(t.llr_pentanomial(&Pentanomial([12, 0, 0, 0, 0]))),
            Some(SprtDecision::H0)
        );
        let llr = s.llr_pentanomial(&Pentanomial([0, 0, 0, 0, 8]));
        assert!(close(llr, 0.227_001, 1e-5), "{llr}");
        let llr = s.llr_pentanomial(&Pentanomial([0, 0, 7, 0, 0]));
        assert!(close(llr, -0.198_563, 1e-5), "{llr}");
        let bad = Wdl {
            wins: 4000,
            draws: 2000,
            losses: 4000,
        };
        let llr = s.llr_trinomial(&bad);
        assert!(close(llr, -5.176_786, 1e-4), "{llr}");
        assert_eq!(s.decide(llr), Some(SprtDecision::H0));
        assert_eq!(s.llr_pentanomial(&Pentanomial::default()), 0.0);
    }
}
