//! The weights file of a [`Net`] (written by the trainer, read by `--eval-file`, compiled in
//! from `src/data/nets/`). Little-endian:
//!
//! | bytes | field                                                               |
//! |-------|---------------------------------------------------------------------|
//! | 8     | magic `DAMKAPAT`                                                    |
//! | 4     | format version, u32 = 3 (version 2, generations 1 and 2, has no network: read too) |
//! | 1     | game: 0 Russian, 1 Turkish; then 3 zero bytes                       |
//! | 32    | name, ASCII, padded with zero bytes                                 |
//! | 4     | number of windows, u32: the game's, or 0 (a net without region patterns) |
//! | ...   | pattern weights, then king weights, material, hand-written evaluation: i16 pairs (opening, ending) |
//! | 4     | hidden units of the network, u32: 0 (none), 64 or 128              |
//! | ...   | if any: first-layer weights (input-major), biases (i16), output weights (i16 pairs) |
//! | 4     | FNV-1a hash (32 bits) of every byte before it                       |

use super::network::{Network, HIDDEN_SIZES, INPUTS};
use super::pattern::{windows, Net, KING_WEIGHTS, MATERIAL_WEIGHTS, PATTERNS};
use crate::core::Variant;

const MAGIC: &[u8; 8] = b"DAMKAPAT";
const VERSION: u32 = 3;
const NAME_BYTES: usize = 32;

fn fnv(bytes: &[u8]) -> u32 {
    let mut h = 0x811c_9dc5u32;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The file's bytes.
pub fn to_bytes(net: &Net) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(MAGIC);
    v.extend_from_slice(&VERSION.to_le_bytes());
    v.push(net.variant.code());
    v.extend_from_slice(&[0; 3]);
    let mut name = [0u8; NAME_BYTES];
    for (d, s) in name.iter_mut().zip(net.name.bytes()) {
        *d = s;
    }
    v.extend_from_slice(&name);
    v.extend_from_slice(&((net.patterns.len() / PATTERNS) as u32).to_le_bytes());
    for p in net
        .patterns
        .iter()
        .chain(&net.kings)
        .chain(&net.material)
        .chain([&net.classic])
    {
        v.extend_from_slice(&p[0].to_le_bytes());
        v.extend_from_slice(&p[1].to_le_bytes());
    }
    match &net.network {
        None => v.extend_from_slice(&0u32.to_le_bytes()),
        Some(n) => {
            v.extend_from_slice(&(n.hidden() as u32).to_le_bytes());
            // The file keeps each unit's (opening, ending) pair together.
            let [open, end] = n.out();
            let pairs = open.iter().zip(end).flat_map(|(o, e)| [o, e]);
            for x in n.w1().iter().chain(n.b1()).chain(pairs) {
                v.extend_from_slice(&x.to_le_bytes());
            }
        }
    }
    let h = fnv(&v);
    v.extend_from_slice(&h.to_le_bytes());
    v
}

/// The network's hidden units and its bytes (with the count) for a version-3 count.
fn hidden_of(count: usize) -> Result<(usize, usize), String> {
    match count {
        0 => Ok((0, 4)),
        h if HIDDEN_SIZES.contains(&h) => Ok((h, 4 + 2 * (INPUTS * h + 3 * h))),
        h => Err(format!(
            "a network of {h} hidden units (this build reads {HIDDEN_SIZES:?})"
        )),
    }
}

/// Reads a net, its network given the 16-bit sums of its game where they fit
/// ([`Net::bounded`]); the error says what is wrong.
pub fn from_bytes(b: &[u8]) -> Result<Net, String> {
    let head = 8 + 4 + 4 + NAME_BYTES + 4;
    if b.len() < head + 4 || &b[..8] != MAGIC {
        return Err("not a damka pattern weights file (no DAMKAPAT header)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    let version = u32_at(8);
    if version != 2 && version != VERSION {
        return Err(format!(
            "weights format version {version} (expected 2 or {VERSION})"
        ));
    }
    let variant =
        Variant::from_code(b[12]).ok_or_else(|| format!("unknown game code {}", b[12]))?;
    let name_bytes = &b[16..16 + NAME_BYTES];
    let len = name_bytes
        .iter()
        .position(|&c| c == 0)
        .unwrap_or(NAME_BYTES);
    let name = std::str::from_utf8(&name_bytes[..len])
        .ok()
        .filter(|n| !n.is_empty() && n.bytes().all(|c| c.is_ascii_graphic()))
        .ok_or("the net's name is not printable ASCII")?
        .to_string();
    let game_windows = windows(variant).len();
    let nw = u32_at(16 + NAME_BYTES) as usize;
    if nw != game_windows && nw != 0 {
        return Err(format!(
            "{nw} windows, but {} has {game_windows} (or 0: no patterns)",
            variant.name()
        ));
    }
    let pairs = nw * PATTERNS + KING_WEIGHTS + MATERIAL_WEIGHTS + 1;
    let linear_end = head + pairs * 4;
    let (hidden, net_bytes) = match version {
        2 => (0, 0),
        _ if b.len() < linear_end + 8 => {
            return Err(format!("{} bytes, too short for its weights", b.len()))
        }
        _ => hidden_of(u32_at(linear_end) as usize)?,
    };
    let want = linear_end + net_bytes + 4;
    if b.len() != want {
        return Err(format!("{} bytes, expected {want}", b.len()));
    }
    if fnv(&b[..want - 4]) != u32_at(want - 4) {
        return Err("checksum mismatch (file damaged)".into());
    }
    let network = (hidden != 0).then(|| {
        let mut it = b[linear_end + 4..want - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let w1: Vec<i16> = it.by_ref().take(INPUTS * hidden).collect();
        let b1: Vec<i16> = it.by_ref().take(hidden).collect();
        let (open, end): (Vec<i16>, Vec<i16>) = (0..hidden)
            .map(|_| (it.next().expect("counted"), it.next().expect("counted")))
            .unzip();
        Network::new(hidden, w1, b1, [open, end])
    });
    // The lengths were counted from `hidden` above, which `hidden_of` checked.
    let network = network.transpose()?;
    let mut it = b[head..linear_end].chunks_exact(4).map(|c| {
        [
            i16::from_le_bytes([c[0], c[1]]),
            i16::from_le_bytes([c[2], c[3]]),
        ]
    });
    let patterns: Vec<[i16; 2]> = it.by_ref().take(nw * PATTERNS).collect();
    let kings: Vec<[i16; 2]> = it.by_ref().take(KING_WEIGHTS).collect();
    let mut material = [[0i16; 2]; MATERIAL_WEIGHTS];
    for (m, p) in material.iter_mut().zip(it.by_ref()) {
        *m = p;
    }
    let classic = it.next().expect("counted above");
    Ok(Net {
        name,
        variant,
        patterns,
        kings,
        material,
        classic,
        network,
    }
    .bounded())
}

/// The longest weights file there can be: the game with the most windows and the largest
/// network. A longer file is refused before it is read.
pub fn max_file_bytes() -> usize {
    let head = 8 + 4 + 4 + NAME_BYTES + 4;
    let windows = Variant::ALL
        .iter()
        .map(|&v| windows(v).len())
        .max()
        .unwrap_or(0);
    let pairs = windows * PATTERNS + KING_WEIGHTS + MATERIAL_WEIGHTS + 1;
    let network = HIDDEN_SIZES
        .iter()
        .filter_map(|&h| hidden_of(h).ok())
        .map(|(_, bytes)| bytes)
        .max()
        .unwrap_or(4);
    head + pairs * 4 + network + 4
}

/// Reads a net from a file (a regular file of at most [`max_file_bytes`]).
pub fn load(path: &std::path::Path) -> Result<Net, String> {
    let b = crate::core::file::read_bounded(path, max_file_bytes() as u64, "a weights file")?;
    from_bytes(&b).map_err(|e| format!("{}: {e}", path.display()))
}
