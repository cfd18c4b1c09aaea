//! The data set, the fit of K, the training loop and the quantisation.

use crate::nn::{adam_corrections, adam_update, Adam, Floats};
use crate::Args;
use damka::core::{Rng, Variant};
use damka::eval::data::ScoredPosition;
use damka::eval::network::{self, MAX_HIDDEN};
use damka::eval::pattern::{self, Net, SCALE};

/// One training position: its features (a range of the set's arrays), phase and targets.
#[derive(Clone, Copy)]
pub struct Sample {
    start: u32,
    len: u8,
    /// The network's inputs: `inputs[in_start..in_start + in_len]`.
    in_start: u32,
    in_len: u8,
    phase: f32,
    /// Game result for the side to move: 1, 0.5 or 0.
    result: f32,
    /// Search score for the side to move, centi-men.
    score: f32,
}

/// One part of the data (training or validation).
#[derive(Default)]
pub struct Part {
    samples: Vec<Sample>,
    feats: Vec<u32>,
    counts: Vec<f32>,
    inputs: Vec<u16>,
    records: Vec<ScoredPosition>,
}

impl Part {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    fn inputs_of(&self, s: &Sample) -> &[u16] {
        &self.inputs[s.in_start as usize..s.in_start as usize + s.in_len as usize]
    }

    fn push(&mut self, r: &ScoredPosition, variant: Variant, buf: &mut Vec<(u32, f32)>) {
        buf.clear();
        let phase = pattern::features(variant, r.white, r.black, r.side, buf);
        let start = self.feats.len() as u32;
        for &(f, c) in buf.iter() {
            self.feats.push(f);
            self.counts.push(c);
        }
        let in_start = self.inputs.len() as u32;
        let (own, opp) = pattern::view(r.white, r.black, r.side);
        network::inputs(own, opp, |i| self.inputs.push(i as u16));
        self.samples.push(Sample {
            start,
            len: buf.len() as u8,
            in_start,
            in_len: (self.inputs.len() - in_start as usize) as u8,
            phase,
            result: (r.result_for_side() as f32 + 1.0) / 2.0,
            score: r.score as f32,
        });
        self.records.push(*r);
    }
}

/// Training and validation parts.
pub struct DataSet {
    pub train: Part,
    pub valid: Part,
    pub skipped: usize,
    pub games: usize,
}

impl DataSet {
    /// Splits by game (a game starts where the ply does not follow the previous record's)
    /// and skips positions with a capture pending.
    pub fn build(
        records: &[ScoredPosition],
        variant: Variant,
        seed: u64,
        valid_share: f64,
    ) -> DataSet {
        let mut set = DataSet {
            train: Part::default(),
            valid: Part::default(),
            skipped: 0,
            games: 0,
        };
        let mut buf = Vec::new();
        let mut prev_ply: Option<u16> = None;
        let mut in_valid = false;
        for r in records {
            if prev_ply.is_none_or(|p| r.ply != p.wrapping_add(1)) {
                set.games += 1;
                let mut g = Rng::new(seed ^ (set.games as u64).wrapping_mul(0xA076_1D64_78BD_642F));
                in_valid = g.unit() < valid_share;
            }
            prev_ply = Some(r.ply);
            if r.capture {
                set.skipped += 1;
                continue;
            }
            let part = if in_valid {
                &mut set.valid
            } else {
                &mut set.train
            };
            part.push(r, variant, &mut buf);
        }
        set
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The K (centi-men) for which `sigmoid(score / K)` best predicts the results (least squares,
/// golden-section search on 20..2000).
pub fn fit_k(part: &Part) -> f64 {
    let err = |k: f64| -> f64 {
        part.samples
            .iter()
            .map(|s| {
                let d = sigmoid(s.score as f64 / k) - s.result as f64;
                d * d
            })
            .sum::<f64>()
    };
    let (mut a, mut b) = (20.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if err(c) < err(d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Float weights: `2 * feature_count` values, (opening, ending) interleaved, centi-men.
pub type Weights = Vec<f32>;

/// The linear part's score plus the network's, if there is one (`pre` receives its units'
/// inputs).
fn predict_all(
    w: &[f32],
    nn: Option<&Floats>,
    part: &Part,
    s: &Sample,
    pre: &mut [f32; MAX_HIDDEN],
) -> f64 {
    let lin = predict(w, part, s);
    match nn {
        None => lin,
        Some(n) => lin + n.forward(part.inputs_of(s), s.phase, pre),
    }
}

fn predict(w: &[f32], part: &Part, s: &Sample) -> f64 {
    let mut o = 0.0f64;
    let mut e = 0.0f64;
    let a = s.start as usize;
    for i in a..a + s.len as usize {
        let f = part.feats[i] as usize;
        let c = part.counts[i] as f64;
        o += c * w[2 * f] as f64;
        e += c * w[2 * f + 1] as f64;
    }
    s.phase as f64 * o + (1.0 - s.phase as f64) * e
}

fn target(s: &Sample, k: f64, lambda: f64) -> f64 {
    lambda * s.result as f64 + (1.0 - lambda) * sigmoid(s.score as f64 / k)
}

/// Cross-entropy and squared error of `sigmoid(score / K)` against the targets.
fn losses(score: f64, t: f64, k: f64) -> (f64, f64) {
    let p = sigmoid(score / k).clamp(1e-7, 1.0 - 1e-7);
    let ce = -(t * p.ln() + (1.0 - t) * (1.0 - p).ln());
    (ce, (p - t) * (p - t))
}

fn part_loss(w: &[f32], nn: Option<&Floats>, part: &Part, k: f64, lambda: f64) -> (f64, f64) {
    let (mut ce, mut mse) = (0.0, 0.0);
    let mut pre = [0f32; MAX_HIDDEN];
    for s in &part.samples {
        let score = predict_all(w, nn, part, s, &mut pre);
        let (a, b) = losses(score, target(s, k, lambda), k);
        ce += a;
        mse += b;
    }
    let n = part.len().max(1) as f64;
    (ce / n, mse / n)
}

/// The initial weights: men 100, kings 300 centi-men, everything else 0.
/// With the hand-written evaluation as a feature, it starts at weight 1 (its score as it is)
/// and the material at 0 (it already counts material).
fn initial(variant: Variant, with_classic: bool) -> Weights {
    let n = pattern::feature_count(variant);
    let mut w = vec![0f32; 2 * n];
    if with_classic {
        w[2 * (n - 1)] = 100.0;
        w[2 * (n - 1) + 1] = 100.0;
        return w;
    }
    let m = n - pattern::MATERIAL_WEIGHTS - 1;
    for (i, v) in [100.0, -100.0, 300.0, -300.0].iter().enumerate() {
        w[2 * (m + i)] = *v;
        w[2 * (m + i) + 1] = *v;
    }
    w
}

/// `net` without the hand-written evaluation's term (`--drop-classic`): its weight set to
/// zero, and what it gave for material moved into the material weights (a man 100 centi-men,
/// a king the game's hand-written value, full board for the opening weight and bare board for
/// the ending one). Its other terms are left for the patterns and network to learn.
pub fn drop_classic(net: &mut Net) {
    let (king_opening, king_ending) = match net.variant {
        Variant::Russian => (
            damka::eval::russian::KING_OPENING,
            damka::eval::russian::KING_ENDING,
        ),
        Variant::Turkish => (
            damka::eval::turkish::KING_OPENING,
            damka::eval::turkish::KING_ENDING,
        ),
    };
    // Own man, enemy man, own king, enemy king: centi-men (opening, ending).
    let values = [
        (100, 100),
        (-100, -100),
        (king_opening, king_ending),
        (-king_opening, -king_ending),
    ];
    let [co, ce] = net.classic.map(i32::from);
    for (m, (o, e)) in net.material.iter_mut().zip(values) {
        let clamp = |x: i32| x.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        m[0] = clamp(m[0] as i32 + (o * co).div_euclid(100));
        m[1] = clamp(m[1] as i32 + (e * ce).div_euclid(100));
    }
    net.classic = [0, 0];
}

/// The float weights of an integer net (the inverse of [`quantize`]), to train on from it;
/// the patterns of a net without them are zeros.
pub fn weights_of(net: &Net) -> Weights {
    let mut w = Vec::new();
    let absent = if net.has_patterns() {
        0
    } else {
        pattern::pattern_count(net.variant)
    };
    let pairs = net
        .patterns
        .iter()
        .chain(std::iter::repeat_n(&[0i16; 2], absent))
        .chain(net.kings.iter())
        .chain(net.material.iter())
        .chain(std::iter::once(&net.classic));
    for p in pairs {
        w.push(p[0] as f32 / SCALE as f32);
        w.push(p[1] as f32 / SCALE as f32);
    }
    w
}

/// Trains from `start` (or from [`initial`] weights), with the network `nn` if given, and
/// returns the float weights, printing the losses of each epoch.
pub fn train(
    set: &DataSet,
    args: &Args,
    k: f64,
    start: Option<Weights>,
    mut nn: Option<Floats>,
    patterns: bool,
) -> (Weights, Option<Floats>) {
    let variant = args.variant;
    let mut w = start.unwrap_or_else(|| initial(variant, args.with_classic));
    let mut adam_nn = Adam::new(nn.as_ref().map_or(64, |n| n.hidden));
    let mut pre = [0f32; MAX_HIDDEN];
    let classic_at = 2 * (pattern::feature_count(variant) - 1);
    // Without patterns their weights stay at zero.
    let learned_from = if patterns {
        0
    } else {
        2 * pattern::pattern_count(variant)
    };
    let n = w.len();
    let (mut m, mut v) = (vec![0f32; n], vec![0f32; n]);
    let mut grad = vec![0f32; n];
    let mut stamp = vec![u32::MAX; n];
    let mut touched: Vec<usize> = Vec::new();
    let material_from = 2 * (pattern::feature_count(variant) - pattern::MATERIAL_WEIGHTS - 1);
    let mut t = 0i32;
    let mut order: Vec<u32> = (0..set.train.len() as u32).collect();
    let mut rng = Rng::new(args.seed);
    let mut lr = args.lr;
    let (vce, vmse) = part_loss(&w, nn.as_ref(), &set.valid, k, args.lambda);
    eprintln!("epoch 0: validation loss {vce:.5} mse {vmse:.5}");
    for epoch in 1..=args.epochs {
        rng.shuffle(&mut order);
        let (mut tce, mut tmse) = (0.0f64, 0.0f64);
        for (bi, batch) in order.chunks(args.batch).enumerate() {
            let id = bi as u32;
            touched.clear();
            for &i in batch {
                let s = &set.train.samples[i as usize];
                let score = predict_all(&w, nn.as_ref(), &set.train, s, &mut pre);
                let tg = target(s, k, args.lambda);
                let (a, b) = losses(score, tg, k);
                tce += a;
                tmse += b;
                let g = (sigmoid(score / k) - tg) / k;
                if let Some(n) = &nn {
                    let ins = set.train.inputs_of(s);
                    n.backward(ins, s.phase, g as f32, &pre, &mut adam_nn.grad);
                }
                let ph = s.phase as f64;
                let a0 = s.start as usize;
                for j in a0..a0 + s.len as usize {
                    let f = set.train.feats[j] as usize;
                    let c = set.train.counts[j] as f64;
                    for (h, x) in [(2 * f, ph), (2 * f + 1, 1.0 - ph)] {
                        if stamp[h] != id {
                            stamp[h] = id;
                            grad[h] = 0.0;
                            touched.push(h);
                        }
                        grad[h] += (g * c * x) as f32;
                    }
                }
            }
            t += 1;
            let bs = batch.len() as f64;
            if let Some(n) = &mut nn {
                adam_nn.step(n, bs as f32, args.nn_lr * lr / args.lr, lr, args.nn_l2);
            }
            let corr = adam_corrections(t);
            for &h in &touched {
                if (h >= classic_at && !args.with_classic) || h < learned_from {
                    continue;
                }
                let mut gr = grad[h] as f64 / bs;
                if h < material_from {
                    gr += args.l2 * w[h] as f64;
                }
                adam_update(&mut w[h], &mut m[h], &mut v[h], gr, lr, corr);
            }
            // A new id per batch; wrap far beyond any realistic number of batches.
            if id == u32::MAX - 1 {
                stamp.iter_mut().for_each(|s| *s = u32::MAX);
            }
        }
        let nt = set.train.len().max(1) as f64;
        let (vce, vmse) = part_loss(&w, nn.as_ref(), &set.valid, k, args.lambda);
        eprintln!(
            "epoch {epoch}: training loss {:.5} mse {:.5}, validation loss {vce:.5} mse {vmse:.5} (step {lr:.3})",
            tce / nt,
            tmse / nt
        );
        lr *= args.decay;
    }
    (w, nn)
}

/// Rounds the float weights to the net's integers (1/SCALE centi-men); without `patterns`
/// the net has none (their weights are left out).
pub fn quantize(w: &[f32], variant: Variant, name: &str, patterns: bool) -> Net {
    let q = |x: f32| (x as f64 * SCALE as f64).round().clamp(-32767.0, 32767.0) as i16;
    let pair = |f: usize| [q(w[2 * f]), q(w[2 * f + 1])];
    let mut net = Net::zeros(variant, name);
    let np = pattern::pattern_count(variant);
    for (f, p) in net.patterns.iter_mut().enumerate() {
        *p = pair(f);
    }
    if !patterns {
        net.patterns.clear();
    }
    for (i, p) in net.kings.iter_mut().enumerate() {
        *p = pair(np + i);
    }
    let nk = np + net.kings.len();
    for (i, p) in net.material.iter_mut().enumerate() {
        *p = pair(nk + i);
    }
    net.classic = pair(nk + pattern::MATERIAL_WEIGHTS);
    net
}

/// Losses of the integer net (the engine's own scores) on a part.
pub fn evaluate_net(net: &Net, part: &Part, k: f64, lambda: f64) -> (f64, f64) {
    let (mut ce, mut mse) = (0.0, 0.0);
    for (s, r) in part.samples.iter().zip(&part.records) {
        let score = net.evaluate(r.white, r.black, r.side) as f64;
        let (a, b) = losses(score, target(s, k, lambda), k);
        ce += a;
        mse += b;
    }
    let n = part.len().max(1) as f64;
    (ce / n, mse / n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--init`: a net's weights turned to floats and quantised again are the same net.
    #[test]
    fn weights_of_a_net_quantise_back_to_it() {
        for variant in [Variant::Russian, Variant::Turkish] {
            let mut net = Net::zeros(variant, "t");
            let mut rng = Rng::new(7);
            let mut r = || (rng.next_u64() % 20001) as i16 - 10000;
            for p in net.patterns.iter_mut().chain(net.kings.iter_mut()) {
                *p = [r(), r()];
            }
            for p in net.material.iter_mut() {
                *p = [r(), r()];
            }
            net.classic = [r(), r()];
            let w = weights_of(&net);
            assert_eq!(w.len(), 2 * pattern::feature_count(variant));
            assert_eq!(quantize(&w, variant, "t", true), net);
            // Without patterns: zeros in the floats, none in the net again.
            net.patterns.clear();
            let w = weights_of(&net);
            assert_eq!(w.len(), 2 * pattern::feature_count(variant));
            assert_eq!(quantize(&w, variant, "t", false), net);
        }
    }

    /// `--drop-classic`: a net whose only term is the hand-written one (taken as it is) keeps
    /// its material values in its material weights.
    #[test]
    fn dropping_the_hand_written_term_keeps_its_material() {
        use damka::core::Color;
        use damka::variant::Pieces;
        let cases = [
            (
                Variant::Russian,
                [0u64, 2, 9],
                27u64,
                [54u64, 63],
                (250, 330),
                24,
            ),
            (Variant::Turkish, [8, 9, 10], 30, [48, 49], (280, 400), 32),
        ];
        for (variant, men, king, enemy, (ko, ke), full) in cases {
            let mut net = Net::zeros(variant, "t");
            net.classic = [1600, 1600];
            drop_classic(&mut net);
            assert_eq!(net.classic, [0, 0]);
            let m = [
                [1600, 1600],
                [-1600, -1600],
                [ko * 16, ke * 16],
                [-ko * 16, -ke * 16],
            ];
            assert_eq!(net.material, m.map(|p| p.map(|x| x as i16)));
            let white = Pieces {
                men: men.iter().map(|s| 1u64 << s).sum(),
                kings: 1 << king,
            };
            let black = Pieces {
                men: enemy.iter().map(|s| 1u64 << s).sum(),
                kings: 0,
            };
            // Six pieces: the king's value blended between its opening and ending ones.
            let king_value = (ko * 6 + ke * (full - 6)) / full;
            let expected = 100 + king_value;
            let got = net.evaluate(white, black, Color::White);
            assert!(
                (got - expected).abs() <= 1,
                "{variant:?}: {got} for {expected}"
            );
            let got = net.evaluate(white, black, Color::Black);
            assert!(
                (got + expected).abs() <= 1,
                "{variant:?}: {got} for -{expected}"
            );
        }
    }
}
