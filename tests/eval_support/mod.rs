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
    let mut n = Network::zeros(network::HIDDEN_SIZES[seed.is_multiple_of(2) as usize]);
    for w in n.w1.iter_mut().chain(n.b1.iter_mut()) {
        *w = q(network::QA as u64 / 4);
    }
    for j in 0..n.hidden {
        n.out[0][j] = q(3000);
        n.out[1][j] = q(3000);
    }
    net.network = Some(n);
    net
}

/// [`random_net`] with first-layer weights and biases over the whole `i16` range, so that a
/// unit's sum goes far beyond what an `i16` holds, both ways (the fast loops narrow the sums
/// to `i16` with saturation before the clip: it must clip them as the `i32` sums are clipped).
pub fn extreme_net(variant: Variant, seed: u64) -> Net {
    let mut net = random_net(variant, seed);
    let mut rng = Rng::new(seed + 1000);
    let n = net.network.as_mut().expect("random_net has a network");
    for w in n.w1.iter_mut().chain(n.b1.iter_mut()) {
        *w = (rng.below(65535) as i32 - 32767) as i16;
    }
    net
}
