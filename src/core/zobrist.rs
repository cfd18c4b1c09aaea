//! Zobrist key tables, built at compile time from a seed, for every game.

/// One step of the SplitMix64 generator: the next state and its output. A `const fn`, so key
/// tables are built by the compiler and cost nothing at start-up.
pub const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

/// Piece keys `[colour][is king][square]` drawn from SplitMix64 started at `seed`. Each game
/// uses its own seed.
pub const fn piece_keys(seed: u64) -> [[[u64; 64]; 2]; 2] {
    let mut t = [[[0u64; 64]; 2]; 2];
    let mut state = seed;
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 2 {
            let mut sq = 0;
            while sq < 64 {
                let (s, v) = splitmix(state);
                state = s;
                t[c][k][sq] = v;
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}
