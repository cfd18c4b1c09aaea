//! The network term in floats: forward pass, gradients, Adam, and the conversion to and from
//! the engine's integers ([`damka::eval::network`]).

use damka::core::Rng;
use damka::eval::network::{Network, INPUTS, MAX_HIDDEN, QA};
use damka::eval::pattern::SCALE;

/// Float weights of the network: first layer in units of a hidden unit's range (1 = full
/// output), output weights in centi-men, (opening, ending) interleaved.
#[derive(Clone)]
pub struct Floats {
    /// Hidden units (one of the engine's `HIDDEN_SIZES`).
    pub hidden: usize,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub out: Vec<f32>,
}

/// Adam's decay rates of the first and second moments, and its denominator guard.
const ADAM_B1: f64 = 0.9;
const ADAM_B2: f64 = 0.999;
const ADAM_EPS: f64 = 1e-8;

/// Adam's bias corrections after `t` steps (`1 - b1^t`, `1 - b2^t`).
pub fn adam_corrections(t: i32) -> (f64, f64) {
    (1.0 - ADAM_B1.powi(t), 1.0 - ADAM_B2.powi(t))
}

/// One Adam update of one weight with gradient `gr`, step size `lr` and the step's
/// [`adam_corrections`]; the network's and the linear terms' optimisers share it.
#[inline]
pub fn adam_update(w: &mut f32, m: &mut f32, v: &mut f32, gr: f64, lr: f64, c: (f64, f64)) {
    *m = (ADAM_B1 * *m as f64 + (1.0 - ADAM_B1) * gr) as f32;
    *v = (ADAM_B2 * *v as f64 + (1.0 - ADAM_B2) * gr * gr) as f32;
    let step = lr * (*m as f64 / c.0) / ((*v as f64 / c.1).sqrt() + ADAM_EPS);
    *w -= step as f32;
}

impl Floats {
    /// Every weight zero.
    fn zeros(hidden: usize) -> Floats {
        Floats {
            hidden,
            w1: vec![0.0; INPUTS * hidden],
            b1: vec![0.0; hidden],
            out: vec![0.0; 2 * hidden],
        }
    }

    /// Random first layer (seeded), biases at half range, output weights zero: the network
    /// starts by adding nothing, so training starts from the linear model's loss.
    pub fn initial(seed: u64, hidden: usize) -> Floats {
        let mut f = Floats::zeros(hidden);
        f.randomize_units(seed, 0);
        f
    }

    /// Units `from..` get a random first layer (seeded) and biases at half range, their
    /// output weights zero. The generator runs over every weight, kept or not, so that a new
    /// network (`from` 0) gets the same weights as before widening existed: the generation-4
    /// commands still give their files byte for byte.
    fn randomize_units(&mut self, seed: u64, from: usize) {
        let mut rng = Rng::new(seed ^ 0x6E65_7477_6F72_6B21);
        let h = self.hidden;
        for i in 0..INPUTS {
            for j in 0..h {
                let w = (rng.unit() as f32 - 0.5) * 0.2;
                if j >= from {
                    self.w1[i * h + j] = w;
                }
            }
        }
        for j in from..h {
            self.b1[j] = 0.5;
            self.out[2 * j] = 0.0;
            self.out[2 * j + 1] = 0.0;
        }
    }

    /// The floats of `n` with at least `hidden` units: when `n` has fewer, its units are kept
    /// ([`Network::widened`]) and the new ones start as in [`Floats::initial`] (adding nothing
    /// until trained), so that a trained network gets more capacity without losing what it
    /// knows.
    pub fn of_widened(n: &Network, hidden: usize, seed: u64) -> Floats {
        if n.hidden() >= hidden {
            return Floats::of(n);
        }
        let mut f = Floats::of(&n.widened(hidden));
        f.randomize_units(seed, n.hidden());
        f
    }

    /// The floats of an integer network (the inverse of [`Floats::quantize`]).
    pub fn of(n: &Network) -> Floats {
        let q = QA as f32;
        Floats {
            hidden: n.hidden(),
            w1: n.w1().iter().map(|&w| w as f32 / q).collect(),
            b1: n.b1().iter().map(|&w| w as f32 / q).collect(),
            out: n.out()[0]
                .iter()
                .zip(&n.out()[1])
                .flat_map(|(&o, &e)| [o, e].map(|w| w as f32 / SCALE as f32))
                .collect(),
        }
    }

    /// Rounds to the engine's integers.
    pub fn quantize(&self) -> Network {
        let r = |x: f32, s: f32| (x as f64 * s as f64).round().clamp(-32767.0, 32767.0) as i16;
        let q = QA as f32;
        let out = [0, 1].map(|k| {
            self.out
                .chunks_exact(2)
                .map(|p| r(p[k], SCALE as f32))
                .collect()
        });
        let w1 = self.w1.iter().map(|&w| r(w, q)).collect();
        let b1 = self.b1.iter().map(|&w| r(w, q)).collect();
        // The float network has the lengths of its `hidden` (made by `initial` or `of`).
        Network::new(self.hidden, w1, b1, out).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The term's score (centi-men) for these inputs at opening share `ph`; `pre` receives
    /// every unit's input before the clamp (for [`Floats::backward`]).
    pub fn forward(&self, inputs: &[u16], ph: f32, pre: &mut [f32; MAX_HIDDEN]) -> f64 {
        let h = self.hidden;
        let pre = &mut pre[..h];
        pre.copy_from_slice(&self.b1);
        for &i in inputs {
            let row = &self.w1[i as usize * h..(i as usize + 1) * h];
            for (a, w) in pre.iter_mut().zip(row) {
                *a += w;
            }
        }
        let mut y = 0.0f32;
        for (j, a) in pre.iter().enumerate() {
            let h = a.clamp(0.0, 1.0);
            y += h * (ph * self.out[2 * j] + (1.0 - ph) * self.out[2 * j + 1]);
        }
        y as f64
    }

    /// Adds `g` times the gradient of [`Floats::forward`]'s score to `grad`.
    pub fn backward(
        &self,
        inputs: &[u16],
        ph: f32,
        g: f32,
        pre: &[f32; MAX_HIDDEN],
        grad: &mut Floats,
    ) {
        let hidden = self.hidden;
        let mut dpre = [0f32; MAX_HIDDEN];
        let dpre = &mut dpre[..hidden];
        for (j, a) in pre[..hidden].iter().enumerate() {
            let h = a.clamp(0.0, 1.0);
            grad.out[2 * j] += g * ph * h;
            grad.out[2 * j + 1] += g * (1.0 - ph) * h;
            if *a > 0.0 && *a < 1.0 {
                dpre[j] = g * (ph * self.out[2 * j] + (1.0 - ph) * self.out[2 * j + 1]);
            }
        }
        for (b, d) in grad.b1.iter_mut().zip(dpre.iter()) {
            *b += d;
        }
        for &i in inputs {
            let row = &mut grad.w1[i as usize * hidden..(i as usize + 1) * hidden];
            for (w, d) in row.iter_mut().zip(dpre.iter()) {
                *w += d;
            }
        }
    }

    fn parts_mut(&mut self) -> [&mut Vec<f32>; 3] {
        [&mut self.w1, &mut self.b1, &mut self.out]
    }

    fn zero(&mut self) {
        for p in self.parts_mut() {
            p.fill(0.0);
        }
    }
}

/// Adam over every network weight (dense: the first layer's rows of absent inputs get a zero
/// gradient and decay their moments like any other).
pub struct Adam {
    m: Floats,
    v: Floats,
    /// The batch's gradient, summed over its positions.
    pub grad: Floats,
    t: i32,
}

impl Adam {
    pub fn new(hidden: usize) -> Adam {
        Adam {
            m: Floats::zeros(hidden),
            v: Floats::zeros(hidden),
            grad: Floats::zeros(hidden),
            t: 0,
        }
    }

    /// One step with the batch's gradient (divided by `batch`), step sizes `lr_hidden` for the
    /// first layer and `lr_out` (centi-men) for the output weights, which are pulled towards 0
    /// by `l2_out`; clears the gradient.
    pub fn step(&mut self, w: &mut Floats, batch: f32, lr_hidden: f64, lr_out: f64, l2_out: f64) {
        self.t += 1;
        let c = adam_corrections(self.t);
        let lrs = [lr_hidden, lr_hidden, lr_out];
        let l2 = [0.0, 0.0, l2_out];
        let ws = w.parts_mut();
        let ms = self.m.parts_mut();
        let vs = self.v.parts_mut();
        let gs = self.grad.parts_mut();
        for (k, (((w, m), v), g)) in ws.into_iter().zip(ms).zip(vs).zip(gs).enumerate() {
            for i in 0..w.len() {
                let gr = g[i] as f64 / batch as f64 + l2[k] * w[i] as f64;
                adam_update(&mut w[i], &mut m[i], &mut v[i], gr, lrs[k], c);
            }
        }
        self.grad.zero();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka::eval::network;
    use damka::variant::Pieces;

    const HIDDEN: usize = 64;

    fn random_floats(seed: u64) -> Floats {
        let mut rng = Rng::new(seed);
        let mut f = Floats::initial(seed, HIDDEN);
        for w in f.w1.iter_mut() {
            *w = (rng.unit() as f32 - 0.5) * 0.6;
        }
        for b in f.b1.iter_mut() {
            *b = rng.unit() as f32;
        }
        for o in f.out.iter_mut() {
            *o = (rng.unit() as f32 - 0.5) * 400.0;
        }
        f
    }

    /// The trainer's float network is the engine's integer network: with the integer weights
    /// as floats the scores agree to the engine's final rounding, and quantising moves the
    /// score by little on average.
    #[test]
    fn float_forward_matches_the_engine_integers() {
        let mut rng = Rng::new(3);
        for seed in 1..=3 {
            let f = random_floats(seed);
            let n = f.quantize();
            let exact = Floats::of(&n);
            assert_eq!(exact.quantize(), n, "quantising floats of a net is exact");
            let mut drift = 0.0;
            for _ in 0..2000 {
                let occupied = rng.next_u64() & rng.next_u64() & rng.next_u64();
                let own_side = rng.next_u64();
                let kings = rng.next_u64() & rng.next_u64();
                let own = Pieces::split(occupied & own_side, kings);
                let opp = Pieces::split(occupied & !own_side, kings);
                let mut ins = Vec::new();
                network::inputs(own, opp, |i| ins.push(i as u16));
                let ph = rng.unit() as f32;
                let mut pre = [0f32; MAX_HIDDEN];
                let y = exact.forward(&ins, ph, &mut pre);
                let (o, e) = n.forward(own, opp);
                let int = (ph as f64 * o as f64 + (1.0 - ph as f64) * e as f64) / SCALE as f64;
                // The engine floors each sum to 1/SCALE centi-man.
                assert!((y - int).abs() < 0.1, "{y} vs {int}");
                drift += (f.forward(&ins, ph, &mut pre) - y).abs();
            }
            assert!(
                drift / 2000.0 < 3.0,
                "mean quantisation error {}",
                drift / 2000.0
            );
        }
    }

    /// The gradient of the forward pass is the derivative of the score (finite differences).
    #[test]
    fn backward_is_the_derivative_of_forward() {
        let f = random_floats(5);
        let ins: Vec<u16> = vec![3, 70, 130, 200, 255, 12];
        let ph = 0.3f32;
        let mut pre = [0f32; MAX_HIDDEN];
        f.forward(&ins, ph, &mut pre);
        let mut grad = Adam::new(HIDDEN).grad;
        f.backward(&ins, ph, 1.0, &pre, &mut grad);
        let score = |g: &Floats| {
            let mut p = [0f32; MAX_HIDDEN];
            g.forward(&ins, ph, &mut p)
        };
        let h = 1e-2f32;
        for (which, i) in [
            (0usize, 70 * HIDDEN + 5),
            (0, 3 * HIDDEN),
            (1, 7),
            (2, 9),
            (2, 10),
        ] {
            let mut up = f.clone();
            let mut down = f.clone();
            up.parts_mut()[which][i] += h;
            down.parts_mut()[which][i] -= h;
            let numeric = (score(&up) - score(&down)) / (2.0 * h as f64);
            let analytic = grad.parts_mut()[which][i] as f64;
            assert!(
                (numeric - analytic).abs() < 0.05 * analytic.abs().max(1.0),
                "weight {which}/{i}: {numeric} vs {analytic}"
            );
        }
    }

    /// A widened network computes the same score until its new units are trained, and its
    /// new units are alive (they get a gradient).
    #[test]
    fn a_widened_network_starts_as_the_narrow_one() {
        let n = random_floats(7).quantize();
        let f = Floats::of(&n);
        let wide = Floats::of_widened(&n, 128, 9);
        assert_eq!(wide.hidden, 128);
        let ins: Vec<u16> = vec![3, 70, 130, 200, 255, 12];
        let (mut p, mut q) = ([0f32; MAX_HIDDEN], [0f32; MAX_HIDDEN]);
        let (a, b) = (
            f.forward(&ins, 0.4, &mut p),
            wide.forward(&ins, 0.4, &mut q),
        );
        assert!((a - b).abs() < 1e-3, "{a} vs {b}");
        let mut grad = Adam::new(128).grad;
        wide.backward(&ins, 0.4, 1.0, &q, &mut grad);
        assert!(grad.out[2 * 64..].iter().any(|&g| g != 0.0));
        let own = Pieces {
            men: 0x0000_0000_0055_AA55,
            kings: 1 << 27,
        };
        let opp = Pieces {
            men: 0xAA55_AA00_0000_0000,
            kings: 1 << 36,
        };
        assert_eq!(n.forward(own, opp), n.widened(128).forward(own, opp));
    }
}
