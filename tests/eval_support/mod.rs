//! What the tests of the learned evaluation share: nets with random weights.

use damka::core::{Rng, Variant};
use damka::eval::network::{self, Network};
use damka::eval::pattern::Net;

/// A net with random weights (large enough that every term matters); its network has 64
/// hidden units for an odd seed and 128 for an even one.
pub fn random_net(variant: Variant, seed: u64) -> Net {
    let mut rng = Rng::new(seed);
    let mut r = || (rng.below(4001) as i32 - 2000) as i16;
    let mut net = Net::zeros(variant, "random-test");
    for p in net.patterns.iter_mut().chain(net.kings.iter_mut()) {
        *p = [r(), r()];
    }
    for m in net.material.iter_mut() {
        *m = [r(), r()];
    }
    net.classic = [r(), r()];
    // First-layer weights about a quarter of a unit's range, so that units are cut off at
    // both ends on many positions (both sides of the clamp are exercised).
    let mut q = |span: u64| (rng.below(2 * span + 1) as i64 - span as i64) as i16;
    let hidden = network::HIDDEN_SIZES[seed.is_multiple_of(2) as usize];
    let w1 = (0..network::INPUTS * hidden)
        .map(|_| q(network::QA as u64 / 4))
        .collect();
    let b1 = (0..hidden).map(|_| q(network::QA as u64 / 4)).collect();
    // Each unit's (opening, ending) pair drawn together.
    let (open, end) = (0..hidden).map(|_| (q(3000), q(3000))).unzip();
    net.network = Some(Network::new(hidden, w1, b1, [open, end]).unwrap());
    // Sums small enough for 16 bits, as a net read from a file has them.
    let net = net.bounded();
    assert!(net.network.as_ref().unwrap().narrow().is_some());
    net
}

/// `net` with its network's first-layer weights and biases replaced by those `layer` makes
/// from the network (the output weights kept), given its game's 16-bit sums where they fit
/// ([`Net::bounded`]).
fn with_first_layer(mut net: Net, layer: impl FnOnce(&Network) -> (Vec<i16>, Vec<i16>)) -> Net {
    let n = net.network.take().expect("a net with a network");
    let (w1, b1) = layer(&n);
    net.network = Some(Network::new(n.hidden(), w1, b1, n.out().clone()).unwrap());
    net.bounded()
}

/// [`random_net`] with first-layer weights and biases over the whole `i16` range, so that a
/// unit's sum goes far beyond what an `i16` holds, both ways (the fast loops narrow the sums
/// to `i16` with saturation before the clip: it must clip them as the `i32` sums are clipped).
pub fn extreme_net(variant: Variant, seed: u64) -> Net {
    let mut rng = Rng::new(seed + 1000);
    let mut any = || (rng.below(65535) as i32 - 32767) as i16;
    // Far too wide for 16-bit sums: the search keeps them in `i32`.
    let net = with_first_layer(random_net(variant, seed), |n| {
        let w1 = n.w1().iter().map(|_| any()).collect();
        (w1, n.b1().iter().map(|_| any()).collect())
    });
    assert!(net.network.as_ref().unwrap().narrow().is_none());
    net
}

/// [`extreme_net`] with each unit's first-layer weights and bias scaled down until the unit
/// just fits the 16-bit sums ([`Network::bounded`] for the game): the units' sums over the
/// game's positions span almost all of the 65,536 values a 16-bit sum holds, so the kept
/// sums wrap around as rows are added and taken off, and only exact wrapping arithmetic
/// gives the right scores.
pub fn edge_net(variant: Variant, seed: u64) -> Net {
    let net = with_first_layer(extreme_net(variant, seed), |n| {
        let h = n.hidden();
        // Unit `j`'s weights and bias, scaled by `num / 4096`, written into `w1` and `b1`.
        let put = |w1: &mut [i16], b1: &mut [i16], j: usize, num: i64| {
            for i in 0..network::INPUTS {
                w1[i * h + j] = (n.w1()[i * h + j] as i64 * num / 4096) as i16;
            }
            b1[j] = (n.b1()[j] as i64 * num / 4096) as i16;
        };
        // The largest scale at which unit `j` alone fits, found by halving the interval.
        let fits = |j: usize, num: i64| {
            let (mut w1, mut b1) = (vec![0; network::INPUTS * h], vec![0; h]);
            put(&mut w1, &mut b1, j, num);
            let mut one = Net::zeros(variant, "one-unit");
            one.network = Some(Network::new(h, w1, b1, n.out().clone()).unwrap());
            one.bounded().network.unwrap().narrow().is_some()
        };
        let (mut w1, mut b1) = (vec![0; network::INPUTS * h], vec![0; h]);
        for j in 0..h {
            let (mut lo, mut hi) = (0i64, 4096i64);
            while hi - lo > 1 {
                let mid = (lo + hi) / 2;
                if fits(j, mid) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            put(&mut w1, &mut b1, j, lo);
        }
        (w1, b1)
    });
    assert!(net.network.as_ref().unwrap().narrow().is_some());
    net
}

/// [`random_net`] with one unit that is cut off on every position: a bias of -32,768 and
/// first-layer weights of -1,400 for every piece of either side, so that its sums lie far
/// below 0 (down to -66,368 with 12 pieces a side). Its 16-bit form would need to take off
/// more than a `u16` holds; the net must still give the unit 0 everywhere.
pub fn cut_off_net(variant: Variant, seed: u64) -> Net {
    with_first_layer(random_net(variant, seed), |n| {
        let mut w1 = n.w1().to_vec();
        for i in 0..network::INPUTS {
            w1[i * n.hidden()] = -1400;
        }
        let mut b1 = n.b1().to_vec();
        b1[0] = i16::MIN;
        (w1, b1)
    })
}
