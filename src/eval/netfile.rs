//! The weights file of a [`Net`] (written by the trainer, read by `--eval-file`, compiled in
//! from `src/eval/nets/`). Little-endian:
//!
//! | bytes | field                                                               |
//! |-------|---------------------------------------------------------------------|
//! | 8     | magic `DAMKAPAT`                                                    |
//! | 4     | format version, u32 = 2                                              |
//! | 1     | game: 0 Russian, 1 Turkish; then 3 zero bytes                       |
//! | 32    | name, ASCII, padded with zero bytes                                 |
//! | 4     | number of windows, u32 (must be the game's)                         |
//! | ...   | pattern weights, then king weights, material, hand-written evaluation: i16 pairs (opening, ending) |
//! | 4     | FNV-1a hash (32 bits) of every byte before it                       |

use super::pattern::{windows, Net, KING_WEIGHTS, MATERIAL_WEIGHTS, PATTERNS};
use crate::core::Variant;

const MAGIC: &[u8; 8] = b"DAMKAPAT";
const VERSION: u32 = 2;
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
    v.push(match net.variant {
        Variant::Russian => 0,
        Variant::Turkish => 1,
    });
    v.extend_from_slice(&[0; 3]);
    let mut name = [0u8; NAME_BYTES];
    for (d, s) in name.iter_mut().zip(net.name.bytes()) {
        *d = s;
    }
    v.extend_from_slice(&name);
    v.extend_from_slice(&(windows(net.variant).len() as u32).to_le_bytes());
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
    let h = fnv(&v);
    v.extend_from_slice(&h.to_le_bytes());
    v
}

/// Reads a net; the error says what is wrong.
pub fn from_bytes(b: &[u8]) -> Result<Net, String> {
    let head = 8 + 4 + 4 + NAME_BYTES + 4;
    if b.len() < head + 4 || &b[..8] != MAGIC {
        return Err("not a damka pattern weights file (no DAMKAPAT header)".into());
    }
    let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    if u32_at(8) != VERSION {
        return Err(format!(
            "weights format version {} (expected {VERSION})",
            u32_at(8)
        ));
    }
    let variant = match b[12] {
        0 => Variant::Russian,
        1 => Variant::Turkish,
        g => return Err(format!("unknown game code {g}")),
    };
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
    let nw = windows(variant).len();
    if u32_at(16 + NAME_BYTES) as usize != nw {
        return Err(format!(
            "{} windows, but {} has {nw}",
            u32_at(16 + NAME_BYTES),
            variant.name()
        ));
    }
    let pairs = nw * PATTERNS + KING_WEIGHTS + MATERIAL_WEIGHTS + 1;
    let want = head + pairs * 4 + 4;
    if b.len() != want {
        return Err(format!("{} bytes, expected {want}", b.len()));
    }
    if fnv(&b[..want - 4]) != u32_at(want - 4) {
        return Err("checksum mismatch (file damaged)".into());
    }
    let mut it = b[head..want - 4].chunks_exact(4).map(|c| {
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
    })
}

/// Reads a net from a file.
pub fn load(path: &std::path::Path) -> Result<Net, String> {
    let b = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    from_bytes(&b).map_err(|e| format!("{}: {e}", path.display()))
}
