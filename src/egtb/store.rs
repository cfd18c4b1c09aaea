//! The file format: one file per signature, values in blocks compressed one by one, each block
//! checked by a CRC-32, so that a probe reads and checks exactly one block.
//!
//! ```text
//! header   "DAMKAEGT", version u32, variant u8, signature 4 x u8, width u8 (1 or 2 bytes
//!          per value), block u32 (values per block), positions u64, blocks u32
//! code     common value u16, tokens u32, then (token u32, length u8) per token: the file's
//!          Huffman code (see `super::huffman`)
//! offsets  (blocks + 1) x u64, where each block starts, from the start of the data
//! crc      u32, CRC-32 of all the above
//! data     the blocks; each is a mode byte, its payload, and the CRC-32 of both
//! ```
//! All numbers little-endian. A value is a code: 0 draw, `1 + 2d` a win and `2 + 2d` a loss
//! for the side to move, `d` plies from the conversion (see `super::Value`). Numbers that
//! decode to no position repeat the code before them, which costs nothing in a run.
//!
//! Block modes (the smallest is written): raw codes; runs (code, run length as a varint);
//! a palette of up to 16 codes with 1, 2 or 4 bits per value; the file's Huffman code over
//! values and runs of the common value. `docs/egtb.md` gives the sizes.

use crate::core::Variant;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::huffman::Code;
use super::index::Signature;

const MAGIC: &[u8; 8] = b"DAMKAEGT";
const VERSION: u32 = 2;
const HEADER_LEN: usize = 8 + 4 + 1 + 4 + 1 + 4 + 8 + 4;

/// Values per block: 4096, so a miss reads one small block and decodes at most 8 KiB while the
/// offset table stays under 1 % of a file (`docs/egtb.md`, "Files").
pub const BLOCK_VALUES: u32 = 4096;

/// The code of a number that is no position, before it is written.
pub const NO_POSITION: u16 = u16::MAX;

const CRC_TABLE: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 != 0 {
                0xedb8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
};

/// CRC-32 (IEEE 802.3, as in zip and PNG).
pub fn crc32(data: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in data {
        c = CRC_TABLE[((c ^ b as u32) & 0xff) as usize] ^ (c >> 8);
    }
    !c
}

/// The fixed part of a file, read when it is opened.
#[derive(Clone, Debug)]
pub struct Header {
    /// Game of the file.
    pub variant: Variant,
    /// Signature of the file.
    pub sig: Signature,
    /// Bytes per value (1 or 2).
    pub width: u8,
    /// Values per block.
    pub block: u32,
    /// Number of indices.
    pub positions: u64,
    /// Where each block starts in the data, plus the end.
    pub offsets: Vec<u64>,
    /// Where the data starts in the file.
    pub data_start: u64,
    /// The file's entropy code.
    pub code: Code,
}

fn push_varint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn read_varint(data: &[u8], pos: &mut usize) -> Option<u32> {
    let mut v = 0u32;
    for shift in (0..35).step_by(7) {
        let b = *data.get(*pos)?;
        *pos += 1;
        v |= ((b & 0x7f) as u32) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

fn encode_raw(codes: &[u16], width: u8) -> Vec<u8> {
    let mut out = vec![0u8];
    for &c in codes {
        out.push(c as u8);
        if width == 2 {
            out.push((c >> 8) as u8);
        }
    }
    out
}

fn encode_runs(codes: &[u16], width: u8) -> Vec<u8> {
    let mut out = vec![1u8];
    let mut i = 0;
    while i < codes.len() {
        let c = codes[i];
        let mut j = i + 1;
        while j < codes.len() && codes[j] == c {
            j += 1;
        }
        out.push(c as u8);
        if width == 2 {
            out.push((c >> 8) as u8);
        }
        push_varint(&mut out, (j - i - 1) as u32);
        i = j;
    }
    out
}

fn encode_palette(codes: &[u16]) -> Option<Vec<u8>> {
    let mut palette: Vec<u16> = Vec::new();
    for &c in codes {
        if !palette.contains(&c) {
            if palette.len() == 16 {
                return None;
            }
            palette.push(c);
        }
    }
    let bits = match palette.len() {
        0..=2 => 1,
        3..=4 => 2,
        _ => 4,
    };
    let mut out = vec![2u8, bits as u8, palette.len() as u8];
    for &p in &palette {
        out.extend_from_slice(&p.to_le_bytes());
    }
    let per_byte = 8 / bits;
    for chunk in codes.chunks(per_byte) {
        let mut byte = 0u8;
        for (k, c) in chunk.iter().enumerate() {
            let slot = palette.iter().position(|p| p == c).unwrap_or(0) as u8;
            byte |= slot << (k * bits);
        }
        out.push(byte);
    }
    Some(out)
}

/// Compresses one block of codes (the smallest of the modes) and appends its CRC.
pub fn encode_block(codes: &[u16], width: u8, code: &Code) -> Vec<u8> {
    let mut best = encode_raw(codes, width);
    let mut huff = vec![3u8];
    if code.encode(codes, &mut huff).is_some() && huff.len() < best.len() {
        best = huff;
    }
    let runs = encode_runs(codes, width);
    if runs.len() < best.len() {
        best = runs;
    }
    if let Some(p) = encode_palette(codes) {
        if p.len() < best.len() {
            best = p;
        }
    }
    let crc = crc32(&best);
    best.extend_from_slice(&crc.to_le_bytes());
    best
}

/// Checks and decodes one block of `n` values into `out` (cleared first). `None` if the
/// checksum or the contents are wrong.
pub fn decode_block(
    block: &[u8],
    n: usize,
    width: u8,
    code: &Code,
    out: &mut Vec<u16>,
) -> Option<()> {
    out.clear();
    if block.len() < 5 {
        return None;
    }
    let (body, crc) = block.split_at(block.len() - 4);
    if crc32(body) != u32::from_le_bytes(crc.try_into().ok()?) {
        return None;
    }
    let data = &body[1..];
    let read_code = |pos: &mut usize| -> Option<u16> {
        let lo = *data.get(*pos)? as u16;
        *pos += 1;
        if width == 2 {
            let hi = *data.get(*pos)? as u16;
            *pos += 1;
            Some(lo | hi << 8)
        } else {
            Some(lo)
        }
    };
    let mut pos = 0;
    match body[0] {
        0 => {
            while out.len() < n {
                out.push(read_code(&mut pos)?);
            }
        }
        1 => {
            while out.len() < n {
                let c = read_code(&mut pos)?;
                let run = read_varint(data, &mut pos)? as usize + 1;
                if out.len() + run > n {
                    return None;
                }
                out.extend(std::iter::repeat_n(c, run));
            }
        }
        2 => {
            let bits = *data.first()? as usize;
            let len = *data.get(1)? as usize;
            if !matches!(bits, 1 | 2 | 4) || len > 16 {
                return None;
            }
            let mut palette = [0u16; 16];
            for (k, p) in palette.iter_mut().take(len).enumerate() {
                let b = data.get(2 + 2 * k..4 + 2 * k)?;
                *p = u16::from_le_bytes([b[0], b[1]]);
            }
            let packed = &data[2 + 2 * len..];
            let per_byte = 8 / bits;
            let mask = (1u8 << bits) - 1;
            for i in 0..n {
                let byte = *packed.get(i / per_byte)?;
                let slot = (byte >> ((i % per_byte) * bits)) & mask;
                out.push(*palette.get(slot as usize)?);
            }
        }
        3 => code.decode(data, n, out)?,
        _ => return None,
    }
    (out.len() == n).then_some(())
}

/// Writes a table: `codes` has one code per index ([`NO_POSITION`] where no position is).
/// Written to a temporary name and renamed, so a file that exists is complete.
pub fn write(path: &Path, variant: Variant, sig: Signature, codes: &[u16]) -> io::Result<u64> {
    let width = if codes.iter().all(|&c| c == NO_POSITION || c < 256) {
        1
    } else {
        2
    };
    // Fill the numbers without a position with the code before them.
    let mut filled = Vec::with_capacity(codes.len());
    let mut prev = 0u16;
    for &c in codes {
        let v = if c == NO_POSITION { prev } else { c };
        filled.push(v);
        prev = v;
    }
    let code = Code::for_table(&filled, BLOCK_VALUES as usize);
    let mut data = Vec::new();
    let mut offsets = vec![0u64];
    for chunk in filled.chunks(BLOCK_VALUES as usize) {
        data.extend_from_slice(&encode_block(chunk, width, &code));
        offsets.push(data.len() as u64);
    }
    let mut head = Vec::with_capacity(HEADER_LEN + 8 * offsets.len() + 4);
    head.extend_from_slice(MAGIC);
    head.extend_from_slice(&VERSION.to_le_bytes());
    head.push(variant.code());
    head.extend_from_slice(&[sig.my_men, sig.my_kings, sig.their_men, sig.their_kings]);
    head.push(width);
    head.extend_from_slice(&BLOCK_VALUES.to_le_bytes());
    head.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    head.extend_from_slice(&((offsets.len() - 1) as u32).to_le_bytes());
    head.extend_from_slice(&code.common.to_le_bytes());
    head.extend_from_slice(&(code.lengths.len() as u32).to_le_bytes());
    for &(t, l) in &code.lengths {
        head.extend_from_slice(&t.to_le_bytes());
        head.push(l);
    }
    for o in &offsets {
        head.extend_from_slice(&o.to_le_bytes());
    }
    let crc = crc32(&head);
    head.extend_from_slice(&crc.to_le_bytes());
    let tmp = path.with_extension("tmp");
    {
        let mut f = File::create(&tmp)?;
        f.write_all(&head)?;
        f.write_all(&data)?;
        f.sync_all()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok((head.len() + data.len()) as u64)
}

fn bad(msg: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.to_string())
}

/// Most values per block a file may declare: decoding a block allocates that many.
const MAX_BLOCK_VALUES: u32 = 1 << 16;

/// Most tokens a file's entropy code may declare.
const MAX_TOKENS: usize = (1 << 16) + 64;

/// The fixed start of a file: its game and signature, what it holds and how long its header
/// is. Read before anything is allocated, so a damaged or foreign file costs a few bytes.
struct Prefix {
    fixed: [u8; HEADER_LEN],
    code_head: [u8; 6],
    variant: Variant,
    sig: Signature,
    width: u8,
    block: u32,
    positions: u64,
    blocks: u64,
    tokens: usize,
}

impl Prefix {
    /// Where the data starts: after the fixed part, the code, the offsets and the CRC.
    fn data_start(&self) -> u64 {
        (HEADER_LEN + 6 + 5 * self.tokens) as u64 + 8 * (self.blocks + 1) + 4
    }
}

fn read_prefix(f: &mut File) -> io::Result<Prefix> {
    f.seek(SeekFrom::Start(0))?;
    let mut h = [0u8; HEADER_LEN];
    f.read_exact(&mut h)
        .map_err(|_| bad("shorter than a table header"))?;
    if &h[0..8] != MAGIC {
        return Err(bad("not a damka endgame database file"));
    }
    if u32::from_le_bytes(h[8..12].try_into().unwrap()) != VERSION {
        return Err(bad("unknown database version"));
    }
    let variant = Variant::from_code(h[12]).ok_or_else(|| bad("unknown variant in header"))?;
    let sig = Signature::new(h[13], h[14], h[15], h[16]);
    let width = h[17];
    let block = u32::from_le_bytes(h[18..22].try_into().unwrap());
    let positions = u64::from_le_bytes(h[22..30].try_into().unwrap());
    let blocks = u32::from_le_bytes(h[30..34].try_into().unwrap()) as u64;
    if !matches!(width, 1 | 2)
        || block == 0
        || block > MAX_BLOCK_VALUES
        || blocks != positions.div_ceil(block as u64)
    {
        return Err(bad("inconsistent header"));
    }
    let mut code_head = [0u8; 6];
    f.read_exact(&mut code_head)
        .map_err(|_| bad("shorter than a table header"))?;
    let tokens = u32::from_le_bytes(code_head[2..6].try_into().unwrap()) as usize;
    if tokens > MAX_TOKENS {
        return Err(bad("inconsistent header"));
    }
    Ok(Prefix {
        fixed: h,
        code_head,
        variant,
        sig,
        width,
        block,
        positions,
        blocks,
        tokens,
    })
}

/// A quick look at a table file without reading its data: the game and signature its header
/// names, after checking that the file is as long as its header says (a file cut short by a
/// failed copy or download is caught here, before any probe).
pub fn check_file(path: &Path) -> io::Result<(Variant, Signature)> {
    let mut f = File::open(path)?;
    let len = f.metadata()?.len();
    let p = read_prefix(&mut f)?;
    let start = p.data_start();
    if len < start {
        return Err(bad(&format!(
            "cut short: {len} bytes, its header alone takes {start}"
        )));
    }
    f.seek(SeekFrom::Start(start - 12))?;
    let mut end = [0u8; 8];
    f.read_exact(&mut end)?;
    let want = start.saturating_add(u64::from_le_bytes(end));
    if len != want {
        return Err(bad(&format!(
            "{len} bytes where its header says {want}{}",
            if len < want { " (cut short)" } else { "" }
        )));
    }
    Ok((p.variant, p.sig))
}

/// Reads and checks the header of an open file: everything it declares is bounded by the
/// file's length before it is allocated, and the data must end where the file ends.
pub fn read_header(f: &mut File) -> io::Result<Header> {
    let len = f.metadata()?.len();
    let p = read_prefix(f)?;
    if len < p.data_start() {
        return Err(bad("cut short: shorter than its header"));
    }
    let (h, code_head, blocks, tokens) = (p.fixed, p.code_head, p.blocks, p.tokens);
    let (variant, sig, width, block, positions) = (p.variant, p.sig, p.width, p.block, p.positions);
    let common = u16::from_le_bytes([code_head[0], code_head[1]]);
    let mut code_bytes = vec![0u8; 5 * tokens];
    f.read_exact(&mut code_bytes)?;
    let mut rest = vec![0u8; 8 * (blocks as usize + 1) + 4];
    f.read_exact(&mut rest)?;
    let (offs, crc) = rest.split_at(rest.len() - 4);
    let mut all = h.to_vec();
    all.extend_from_slice(&code_head);
    all.extend_from_slice(&code_bytes);
    all.extend_from_slice(offs);
    if crc32(&all) != u32::from_le_bytes(crc.try_into().unwrap()) {
        return Err(bad("header checksum mismatch"));
    }
    let offsets: Vec<u64> = offs
        .chunks(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect();
    if offsets.windows(2).any(|w| w[1] < w[0]) {
        return Err(bad("block offsets out of order"));
    }
    let data_start = p.data_start();
    if offsets.last().map(|&end| data_start.saturating_add(end)) != Some(len) {
        return Err(bad(
            "its length is not the one its header gives (cut short?)",
        ));
    }
    // No block is longer than its values written raw, with the mode byte and the CRC.
    let longest = 1 + u64::from(block) * u64::from(width) + 4;
    if offsets.windows(2).any(|w| w[1] - w[0] > longest) {
        return Err(bad("a block longer than a block can be"));
    }
    let lengths = code_bytes
        .chunks(5)
        .map(|c| (u32::from_le_bytes(c[0..4].try_into().unwrap()), c[4]))
        .collect();
    let code = Code::from_lengths(common, lengths);
    if !code.is_valid() {
        return Err(bad("bad entropy code in header"));
    }
    Ok(Header {
        variant,
        sig,
        width,
        block,
        positions,
        offsets,
        data_start,
        code,
    })
}

/// Reads the raw bytes of block `b`.
pub fn read_block(f: &mut File, h: &Header, b: usize) -> io::Result<Vec<u8>> {
    let (start, end) = (h.offsets[b], h.offsets[b + 1]);
    f.seek(SeekFrom::Start(h.data_start + start))?;
    let mut buf = vec![0u8; (end - start) as usize];
    f.read_exact(&mut buf)?;
    Ok(buf)
}

/// The number of values in block `b`.
pub fn block_len(h: &Header, b: usize) -> usize {
    let start = b as u64 * h.block as u64;
    (h.positions - start).min(h.block as u64) as usize
}

/// Reads and checks a whole table (for the builder, when it resumes, and `verify`).
pub fn read_all(path: &Path) -> io::Result<(Header, Vec<u16>)> {
    let mut f = File::open(path)?;
    let h = read_header(&mut f)?;
    let mut codes = Vec::with_capacity(h.positions as usize);
    let mut block = Vec::new();
    for b in 0..h.offsets.len() - 1 {
        let raw = read_block(&mut f, &h, b)?;
        decode_block(&raw, block_len(&h, b), h.width, &h.code, &mut block)
            .ok_or_else(|| bad(&format!("block {b} is damaged")))?;
        codes.extend_from_slice(&block);
    }
    Ok((h, codes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crc_of_a_known_string() {
        assert_eq!(crc32(b"123456789"), 0xcbf4_3926);
    }

    #[test]
    fn every_mode_round_trips() {
        let cases: Vec<Vec<u16>> = vec![
            vec![0; 100],
            (0..100).map(|i| (i % 3) as u16).collect(),
            (0..100).map(|i| (i * 7 % 13) as u16).collect(),
            (0..100).map(|i| (i * 37 % 251) as u16).collect(),
            (0..100).map(|i| (i * 997 % 3001) as u16).collect(),
        ];
        let mut out = Vec::new();
        for codes in cases {
            let width = if codes.iter().any(|&c| c > 255) { 2 } else { 1 };
            for code in [Code::default(), Code::for_table(&codes, 100)] {
                let block = encode_block(&codes, width, &code);
                decode_block(&block, codes.len(), width, &code, &mut out).unwrap();
                assert_eq!(out, codes);
                // Any flipped bit is caught by the checksum.
                for i in 0..block.len() {
                    let mut bad = block.clone();
                    bad[i] ^= 0x10;
                    assert!(decode_block(&bad, codes.len(), width, &code, &mut out).is_none());
                }
            }
        }
    }
}
