//! The entropy coder of the table files: one canonical Huffman code per file over tokens, where
//! a token is either a value code or a run of the file's most common code (run lengths in
//! powers of two, the rest in extra bits). Most positions of a table share one value (the
//! order-0 entropy of the 4-piece tables is below half a bit per position), so runs carry most
//! of the gain and the Huffman code the rest.

use std::collections::BinaryHeap;

/// A token: a value code below `RUN`, or `RUN + k` for a run of `2^k ..= 2^(k+1) - 1` copies of
/// the common code (`k` extra bits follow).
pub const RUN: u32 = 1 << 16;
const MAX_LEN: u8 = 24;

/// A canonical Huffman code: each token with its length and code word.
#[derive(Clone, Debug, Default)]
pub struct Code {
    /// The most common value code (the one runs repeat).
    pub common: u16,
    /// (token, length), sorted by length then token: the canonical order.
    pub lengths: Vec<(u32, u8)>,
    words: Vec<u32>,
}

/// Splits a block into tokens with their extra bits `(token, extra, extra_bits)`.
pub fn tokens(codes: &[u16], common: u16, mut f: impl FnMut(u32, u32, u8)) {
    let mut i = 0;
    while i < codes.len() {
        if codes[i] == common {
            let mut j = i;
            while j < codes.len() && codes[j] == common {
                j += 1;
            }
            let run = (j - i) as u32;
            let k = 31 - run.leading_zeros();
            f(RUN + k, run - (1 << k), k as u8);
            i = j;
        } else {
            f(codes[i] as u32, 0, 0);
            i += 1;
        }
    }
}

fn lengths_of(freq: &[(u32, u64)]) -> Vec<(u32, u8)> {
    if freq.len() == 1 {
        return vec![(freq[0].0, 1)];
    }
    let mut scale = 0;
    loop {
        // Heap of (weight, node); nodes above `freq.len()` are merges.
        let mut heap = BinaryHeap::new();
        let mut parent = vec![usize::MAX; 2 * freq.len()];
        for (i, &(_, w)) in freq.iter().enumerate() {
            heap.push(std::cmp::Reverse(((w >> scale).max(1), i)));
        }
        let mut next = freq.len();
        while heap.len() > 1 {
            let std::cmp::Reverse((wa, a)) = heap.pop().unwrap_or_default();
            let std::cmp::Reverse((wb, b)) = heap.pop().unwrap_or_default();
            parent[a] = next;
            parent[b] = next;
            heap.push(std::cmp::Reverse((wa + wb, next)));
            next += 1;
        }
        let depth = |mut i: usize| {
            let mut d = 0u8;
            while parent[i] != usize::MAX {
                i = parent[i];
                d += 1;
            }
            d
        };
        let out: Vec<(u32, u8)> = freq
            .iter()
            .enumerate()
            .map(|(i, &(t, _))| (t, depth(i)))
            .collect();
        if out.iter().all(|&(_, l)| l <= MAX_LEN) {
            return out;
        }
        scale += 1;
    }
}

impl Code {
    /// The code for a table (all its blocks of `block` codes).
    pub fn for_table(codes: &[u16], block: usize) -> Code {
        let mut hist = std::collections::HashMap::<u16, u64>::new();
        for &c in codes {
            *hist.entry(c).or_default() += 1;
        }
        let common = hist
            .iter()
            .max_by_key(|(c, n)| (**n, std::cmp::Reverse(**c)))
            .map_or(0, |(c, _)| *c);
        let mut freq = std::collections::HashMap::<u32, u64>::new();
        for chunk in codes.chunks(block) {
            tokens(chunk, common, |t, _, _| *freq.entry(t).or_default() += 1);
        }
        let mut freq: Vec<(u32, u64)> = freq.into_iter().collect();
        freq.sort_unstable();
        if freq.is_empty() {
            freq.push((0, 1));
        }
        Code::from_lengths(common, lengths_of(&freq))
    }

    /// The code given its lengths (as stored in a file header).
    pub fn from_lengths(common: u16, mut lengths: Vec<(u32, u8)>) -> Code {
        lengths.sort_unstable_by_key(|&(t, l)| (l, t));
        let mut words = Vec::with_capacity(lengths.len());
        let (mut code, mut prev) = (0u32, 0u8);
        for &(_, l) in &lengths {
            code <<= l - prev;
            words.push(code);
            code += 1;
            prev = l;
        }
        Code {
            common,
            lengths,
            words,
        }
    }

    /// Whether the lengths form a usable code (a damaged header might not).
    pub fn is_valid(&self) -> bool {
        let kraft: f64 = self
            .lengths
            .iter()
            .map(|&(_, l)| 0.5f64.powi(l as i32))
            .sum();
        !self.lengths.is_empty()
            && self
                .lengths
                .iter()
                .all(|&(_, l)| (1..=MAX_LEN).contains(&l))
            && kraft <= 1.0 + 1e-9
    }

    /// Appends the coded block to `out` (bits first in the most significant position).
    pub fn encode(&self, codes: &[u16], out: &mut Vec<u8>) -> Option<()> {
        let mut w = BitWriter::default();
        let mut ok = true;
        tokens(codes, self.common, |t, extra, bits| {
            match self.lengths.iter().position(|&(x, _)| x == t) {
                Some(i) => w.put(self.words[i], self.lengths[i].1),
                None => ok = false,
            }
            w.put(extra, bits);
        });
        out.extend_from_slice(&w.finish());
        ok.then_some(())
    }

    /// Decodes `n` codes from `data`.
    pub fn decode(&self, data: &[u8], n: usize, out: &mut Vec<u16>) -> Option<()> {
        let mut r = BitReader { data, pos: 0 };
        while out.len() < n {
            let (mut code, mut len, mut i) = (0u32, 0u8, 0usize);
            let token = loop {
                code = code << 1 | r.bit()?;
                len += 1;
                while i < self.lengths.len() && self.lengths[i].1 < len {
                    i += 1;
                }
                // Canonical: the words of one length are consecutive.
                let first = i;
                while i < self.lengths.len() && self.lengths[i].1 == len {
                    if self.words[i] == code {
                        break;
                    }
                    i += 1;
                }
                if i < self.lengths.len() && self.lengths[i].1 == len {
                    break self.lengths[i].0;
                }
                i = first;
                if len >= MAX_LEN {
                    return None;
                }
            };
            if token >= RUN {
                let k = (token - RUN) as u8;
                let run = (1usize << k) + r.bits(k)? as usize;
                if out.len() + run > n {
                    return None;
                }
                out.extend(std::iter::repeat_n(self.common, run));
            } else {
                out.push(token as u16);
            }
        }
        Some(())
    }
}

#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    n: u8,
}

impl BitWriter {
    fn put(&mut self, v: u32, bits: u8) {
        if bits == 0 {
            return;
        }
        self.acc = self.acc << bits | (v as u64 & ((1u64 << bits) - 1));
        self.n += bits;
        while self.n >= 8 {
            self.n -= 8;
            self.bytes.push((self.acc >> self.n) as u8);
        }
    }
    fn finish(mut self) -> Vec<u8> {
        if self.n > 0 {
            self.bytes.push((self.acc << (8 - self.n)) as u8);
        }
        self.bytes
    }
}

struct BitReader<'a> {
    data: &'a [u8],
    pos: usize,
}

impl BitReader<'_> {
    fn bit(&mut self) -> Option<u32> {
        let b = *self.data.get(self.pos / 8)?;
        let v = (b >> (7 - self.pos % 8)) & 1;
        self.pos += 1;
        Some(v as u32)
    }
    fn bits(&mut self, k: u8) -> Option<u32> {
        let mut v = 0;
        for _ in 0..k {
            v = v << 1 | self.bit()?;
        }
        Some(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip() {
        let codes: Vec<u16> = (0..5000u32)
            .map(|i| {
                if i % 7 == 0 || i % 11 == 0 {
                    (i % 5) as u16 + 1
                } else {
                    0
                }
            })
            .collect();
        let code = Code::for_table(&codes, 1000);
        assert!(code.is_valid());
        for chunk in codes.chunks(1000) {
            let mut bytes = Vec::new();
            code.encode(chunk, &mut bytes).unwrap();
            let mut out = Vec::new();
            code.decode(&bytes, chunk.len(), &mut out).unwrap();
            assert_eq!(out, chunk);
        }
    }
}
