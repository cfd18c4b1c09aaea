//! Probing: files opened when first needed, one block read and checked per miss, decoded
//! blocks kept in a cache of bounded memory. A missing or damaged table makes a probe fail
//! with a reason (the caller reports it once and plays on); a damaged block is never used.

use super::index::{normalized, Geometry, Indexer, Signature};
use super::store::{self, Header};
use super::Value;
use crate::core::Variant;
use crate::variant::{GameMove, Position};
use rustc_hash::FxHashMap;
use std::collections::VecDeque;
use std::fmt;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex};

/// Why a probe gave no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProbeError {
    /// More pieces than the tables hold, or a side without... no table of this signature.
    Missing(Signature),
    /// The file or a block of it failed its check (or could not be read).
    Damaged(Signature, String),
}

impl fmt::Display for ProbeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProbeError::Missing(s) => write!(f, "no table for {s} ({})", s.stem()),
            ProbeError::Damaged(s, why) => write!(f, "table {s} ({}) is damaged: {why}", s.stem()),
        }
    }
}

struct OpenTable {
    header: Header,
    ix: Indexer,
    file: Mutex<File>,
}

type TableSlot = Result<Arc<OpenTable>, ProbeError>;

struct Cache {
    map: FxHashMap<(Signature, u32), Arc<Vec<u16>>>,
    order: VecDeque<(Signature, u32)>,
    capacity: usize,
}

/// The databases of one game in one directory.
pub struct Tablebase {
    dir: PathBuf,
    variant: Variant,
    max_pieces: u32,
    tables: Mutex<FxHashMap<Signature, TableSlot>>,
    cache: Mutex<Cache>,
    hits: AtomicU64,
    messages: Mutex<Vec<String>>,
}

impl Tablebase {
    /// Opens the tables of `variant` under `dir` (the directory given to `egtb build`, which
    /// holds one folder per game), with a cache of `cache_mib` MiB of decoded blocks. Each file's
    /// header is looked at first (a few bytes): a file of another game, of another table than
    /// its name says, or cut short is left out, and one message (`take_messages`) names them.
    /// Fails when the folder holds no usable table.
    pub fn open(dir: &Path, variant: Variant, cache_mib: usize) -> Result<Tablebase, String> {
        let folder = dir.join(variant.name());
        let entries = std::fs::read_dir(&folder)
            .map_err(|e| format!("cannot read {}: {e}", folder.display()))?;
        let mut max_pieces = 0;
        let mut refused = FxHashMap::default();
        let mut problems = Vec::new();
        // Bounded: a folder of many stray files costs at most this many looks.
        for e in entries.flatten().take(MAX_FILES) {
            let name = e.file_name();
            let name = name.to_string_lossy();
            let Some(sig) = name.strip_suffix(".egtb").and_then(Signature::from_stem) else {
                continue;
            };
            match usable(&e.path(), variant, sig) {
                Ok(()) => max_pieces = max_pieces.max(sig.pieces()),
                Err(why) => {
                    problems.push(format!("{name} {why}"));
                    refused.insert(sig, Err(ProbeError::Damaged(sig, why)));
                }
            }
        }
        problems.sort();
        let left_out = (!problems.is_empty()).then(|| refused_message(&problems));
        if max_pieces == 0 {
            let why = left_out.map_or(String::new(), |l| format!(" ({l})"));
            return Err(format!("no {variant} tables in {}{why}", folder.display()));
        }
        let summary = left_out.map(|l| format!("endgame databases in {}: {l}", folder.display()));
        let block_bytes = store::BLOCK_VALUES as usize * 2 + 64;
        Ok(Tablebase {
            dir: dir.to_path_buf(),
            variant,
            max_pieces,
            tables: Mutex::new(refused),
            cache: Mutex::new(Cache {
                map: FxHashMap::default(),
                order: VecDeque::new(),
                capacity: (cache_mib.max(1) << 20) / block_bytes,
            }),
            hits: AtomicU64::new(0),
            messages: Mutex::new(summary.into_iter().collect()),
        })
    }

    /// What is in use, for the user: `russian tables up to 4 pieces in DIR`.
    pub fn describe(&self) -> String {
        format!(
            "{} tables up to {} pieces in {}",
            self.variant,
            self.max_pieces,
            self.dir.display()
        )
    }

    /// The largest number of pieces of a table present.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The folder the tables were opened from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The game of these tables.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Successful probes so far.
    pub fn hits(&self) -> u64 {
        self.hits.load(Relaxed)
    }

    /// Messages about missing or damaged tables not yet shown (each problem once).
    pub fn take_messages(&self) -> Vec<String> {
        std::mem::take(&mut *self.messages.lock().unwrap_or_else(|e| e.into_inner()))
    }

    fn note(&self, err: &ProbeError) {
        self.messages
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(format!("endgame database: {err}; playing on without it"));
    }

    fn table<P: Position>(&self, sig: Signature) -> TableSlot {
        let mut tables = self.tables.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = tables.get(&sig) {
            return t.clone();
        }
        let path = super::build::file_of(&self.dir, self.variant, sig);
        let opened = match File::open(&path) {
            Err(_) => Err(ProbeError::Missing(sig)),
            Ok(mut f) => match store::read_header(&mut f) {
                Err(e) => Err(ProbeError::Damaged(sig, e.to_string())),
                Ok(h) if h.sig != sig || h.variant != self.variant => Err(ProbeError::Damaged(
                    sig,
                    "header names another table".into(),
                )),
                Ok(h) => {
                    let ix = Indexer::new(Geometry::of::<P>(), sig);
                    if ix.size() != h.positions {
                        Err(ProbeError::Damaged(sig, "wrong number of positions".into()))
                    } else {
                        Ok(Arc::new(OpenTable {
                            header: h,
                            ix,
                            file: Mutex::new(f),
                        }))
                    }
                }
            },
        };
        if let Err(e) = &opened {
            self.note(e);
        }
        tables.insert(sig, opened.clone());
        opened
    }

    fn block(&self, t: &OpenTable, b: u32) -> Result<Arc<Vec<u16>>, ProbeError> {
        let key = (t.header.sig, b);
        if let Some(v) = self
            .cache
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .map
            .get(&key)
        {
            return Ok(v.clone());
        }
        let raw = {
            let mut f = t.file.lock().unwrap_or_else(|e| e.into_inner());
            store::read_block(&mut f, &t.header, b as usize)
        };
        let mut out = Vec::new();
        let ok = raw.ok().and_then(|raw| {
            store::decode_block(
                &raw,
                store::block_len(&t.header, b as usize),
                t.header.width,
                &t.header.code,
                &mut out,
            )
        });
        if ok.is_none() {
            let err = ProbeError::Damaged(t.header.sig, format!("block {b} fails its check"));
            // Report once, and never read this table again.
            self.note(&err);
            self.tables
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .insert(t.header.sig, Err(err.clone()));
            return Err(err);
        }
        let v = Arc::new(out);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.map.insert(key, v.clone()).is_none() {
            cache.order.push_back(key);
            while cache.order.len() > cache.capacity {
                if let Some(old) = cache.order.pop_front() {
                    cache.map.remove(&old);
                }
            }
        }
        Ok(v)
    }

    /// The value of `pos` for its side to move (under the move rules: see `super::rules` for
    /// the draw rules that count moves).
    pub fn probe<P: Position>(&self, pos: &P) -> Result<Value, ProbeError> {
        debug_assert_eq!(P::VARIANT, self.variant);
        let (me, them) = normalized(pos);
        if me.all() == 0 {
            return Ok(Value::Loss(0));
        }
        let sig = Signature::of(pos);
        if them.all() == 0 || sig.pieces() > self.max_pieces {
            return Err(ProbeError::Missing(sig));
        }
        let t = self.table::<P>(sig)?;
        let i = t.ix.index(me, them);
        let b = (i / t.header.block as u64) as u32;
        let block = self.block(&t, b)?;
        let code = block[(i % t.header.block as u64) as usize];
        let v = Value::from_code(code)
            .ok_or_else(|| ProbeError::Damaged(sig, format!("bad code at {i}")))?;
        self.hits.fetch_add(1, Relaxed);
        Ok(v)
    }

    /// Every legal move with the value it keeps for the side to move, best first: wins by the
    /// fastest conversion, then draws, then losses by the slowest.
    pub fn rank_moves<P: Position>(&self, pos: &P) -> Result<Vec<(P::Move, Value)>, ProbeError> {
        let mut out = Vec::new();
        for m in pos.legal_moves() {
            let child = pos.play(&m);
            let conversion = m.is_capture() || m.promotes();
            let v = self.probe(&child)?.back(conversion);
            out.push((m, v));
        }
        out.sort_by_key(|(_, v)| preference(*v));
        Ok(out)
    }
}

pub use super::preference;

/// Most directory entries [`Tablebase::open`] looks at (the 6-piece Russian set has 155 files).
const MAX_FILES: usize = 4096;

/// Why the file at `path`, named as table `sig` of `variant`, cannot be used, if it cannot.
fn usable(path: &Path, variant: Variant, sig: Signature) -> Result<(), String> {
    match store::check_file(path) {
        Err(e) => Err(format!("is damaged: {e}")),
        Ok((v, _)) if v != variant => Err(format!("is a {v} table")),
        Ok((_, s)) if s != sig => Err(format!("holds table {}", s.stem())),
        Ok(_) => Ok(()),
    }
}

/// The one message about the files left out: the first few named, the rest counted.
fn refused_message(problems: &[String]) -> String {
    const NAMED: usize = 4;
    let mut text = problems[..problems.len().min(NAMED)].join("; ");
    if problems.len() > NAMED {
        text.push_str(&format!("; and {} more", problems.len() - NAMED));
    }
    format!("{} file(s) left out: {text}", problems.len())
}
