//! The embeddings cache, `cache/semantic-v1/`: one vector per turn, journal
//! entry and fact, made by the model `recall.model` names. Like the index it
//! is only a cache: deleting it costs the time to embed everything again and
//! changes no answer.
//!
//! Two files. `vectors.f32` holds the vectors one after the other (`dim`
//! little-endian floats each). `manifest.json` says which model made them
//! (a model of another identity starts the cache afresh), the content key of
//! every row (a hash of the text the row embeds), and for every session file
//! the size and modification time it had when its turns were embedded, with
//! each turn's place in the file and its row. A session file whose size or
//! time differs is read again; only turns whose text has no row yet are
//! embedded (a session that grew costs its new turns), and rows no longer used
//! are dropped once they are half the file. The vectors are written before
//! the manifest, each atomically: a manifest never names rows that are not
//! there.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::super::build::Progress;
use super::super::listing::SessionFile;
use super::super::scan;
use super::model::Encoder;
use crate::diagnostic::Diagnostic;
use crate::error::Result;

/// The cache folder's name under `cache/`.
pub const DIR_NAME: &str = "semantic-v1";
/// Bumped whenever what a vector means changes (how much of a text is read).
const FORMAT: u32 = 2;
const MANIFEST: &str = "manifest.json";
const VECTORS: &str = "vectors.f32";

/// One embedded turn of a session file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TurnRow {
    pub turn: u32,
    pub line: u32,
    pub offset: u64,
    /// [`scan::TurnRole`]'s code.
    pub role: u64,
    pub ts: i64,
    pub row: u32,
}

/// The embedded turns of one session file, as it was.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SessionRows {
    pub size: u64,
    pub mtime: u128,
    pub turns: Vec<TurnRow>,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct Manifest {
    format: u32,
    model: String,
    dim: usize,
    keys: Vec<u64>,
    sessions: BTreeMap<String, SessionRows>,
}

/// The vectors in memory.
#[derive(Default)]
pub struct Vectors {
    pub dim: usize,
    model: String,
    data: Vec<f32>,
    keys: Vec<u64>,
    by_key: HashMap<u64, u32>,
    pub sessions: BTreeMap<String, SessionRows>,
}

/// What a refresh did, for the benchmark and `--json`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Refreshed {
    /// Texts embedded now.
    pub embedded: usize,
    /// Session files read again.
    pub sessions_read: usize,
}

/// When a long refresh writes what it has so far: after its first chunk
/// (so that even a build stopped early leaves something), then once
/// [`CHECKPOINT_EVERY`] has passed since the last write, and never more than
/// a tenth of the time spent embedding (a write of a large cache rewrites
/// all of it).
struct Checkpoints {
    since: Instant,
    last_write: Duration,
    written: bool,
}

/// The least time between two checkpoints of a refresh.
pub const CHECKPOINT_EVERY: Duration = Duration::from_secs(5);

impl Checkpoints {
    fn new() -> Checkpoints {
        Checkpoints { since: Instant::now(), last_write: Duration::ZERO, written: false }
    }

    fn due(&self) -> bool {
        !self.written || self.since.elapsed() >= CHECKPOINT_EVERY.max(self.last_write * 10)
    }

    fn saving(&mut self, write: impl FnOnce() -> Result<()>) -> Result<()> {
        let started = Instant::now();
        write()?;
        self.last_write = started.elapsed();
        self.since = Instant::now();
        self.written = true;
        Ok(())
    }
}

/// What the cache in `dir` is on disk (its manifest's size and time), to
/// tell a warm searcher that another process wrote it.
pub fn stamp(dir: &Path) -> Option<(u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(dir.join(MANIFEST)).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// Writes the vectors as a refresh has them (see [`Vectors::refresh`]).
pub type Save<'a> = &'a mut dyn FnMut(&Vectors) -> Result<()>;

/// A text's content key.
/// Whether the cache in `dir` already holds a vector from the model
/// `identity` (vectors of `dim` floats) for every turn of `files` (each file
/// as it is now) and every text of `memory`, and nothing of a session gone:
/// then a build has nothing to do and need not load the model. Read from the
/// manifest and the size of the vectors' file, as [`Vectors::load`] checks
/// them. Returns how many turns have a vector, when it is up to date.
pub fn up_to_date(dir: &Path, identity: &str, dim: usize, files: &[SessionFile], memory: &[String]) -> Option<usize> {
    let raw = std::fs::read(dir.join(MANIFEST)).ok()?;
    let manifest = serde_json::from_slice::<Manifest>(&raw).ok()?;
    if manifest.format != FORMAT
        || manifest.model != identity
        || manifest.dim != dim
        || manifest.sessions.len() != files.len()
        || std::fs::metadata(dir.join(VECTORS)).map_or(true, |m| m.len() < (manifest.keys.len() * dim * 4) as u64)
    {
        return None;
    }
    let same = |f: &SessionFile| manifest.sessions.get(&f.id).is_some_and(|s| s.size == f.size && s.mtime == f.mtime);
    let keys: HashSet<u64> = manifest.keys.iter().copied().collect();
    let current = files.iter().all(same) && memory.iter().all(|text| keys.contains(&key(text)));
    current.then(|| manifest.sessions.values().map(|s| s.turns.len()).sum())
}

/// The turns that have a vector in the cache in `dir` (0 when there is none
/// or it cannot be read).
pub fn turns_in(dir: &Path) -> usize {
    let Ok(raw) = std::fs::read(dir.join(MANIFEST)) else { return 0 };
    serde_json::from_slice::<Manifest>(&raw).map_or(0, |m| m.sessions.values().map(|s| s.turns.len()).sum())
}

pub fn key(text: &str) -> u64 {
    let digest = Sha256::digest(text.as_bytes());
    u64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}

pub fn cache_dir(cache: &Path) -> PathBuf {
    cache.join(DIR_NAME)
}

impl Vectors {
    /// Reads the cache in `dir`; empty when there is none, or when it was made
    /// by another model, by another format, or is damaged.
    pub fn load(dir: &Path, encoder: &Encoder) -> Vectors {
        let empty = Vectors { dim: encoder.dim(), model: encoder.identity.clone(), ..Vectors::default() };
        let Ok(raw) = std::fs::read(dir.join(MANIFEST)) else { return empty };
        let Ok(manifest) = serde_json::from_slice::<Manifest>(&raw) else { return empty };
        if manifest.format != FORMAT || manifest.model != encoder.identity || manifest.dim != encoder.dim() {
            return empty;
        }
        let Ok(bytes) = std::fs::read(dir.join(VECTORS)) else { return empty };
        if bytes.len() < manifest.keys.len() * manifest.dim * 4 {
            return empty;
        }
        let rows = manifest.keys.len();
        let data: Vec<f32> = bytes[..rows * manifest.dim * 4]
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes(b.try_into().expect("4 bytes")))
            .collect();
        if manifest.sessions.values().flat_map(|s| &s.turns).any(|t| t.row as usize >= rows) {
            return empty;
        }
        let by_key = manifest.keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect();
        Vectors {
            dim: manifest.dim,
            model: manifest.model,
            data,
            keys: manifest.keys,
            by_key,
            sessions: manifest.sessions,
        }
    }

    /// The vector of row `row`.
    pub fn row(&self, row: u32) -> &[f32] {
        let at = row as usize * self.dim;
        &self.data[at..at + self.dim]
    }

    /// The row holding `text`'s vector, if it was embedded.
    pub fn row_of(&self, text: &str) -> Option<u32> {
        self.by_key.get(&key(text)).copied()
    }

    pub fn rows(&self) -> usize {
        self.keys.len()
    }

    /// Brings the vectors up to date with the session files `files` and the
    /// journal and facts texts `memory`: embeds what has no row yet and drops
    /// the sessions that left. Returns what it did; `diagnostics` gets the
    /// session files that cannot be read.
    ///
    /// With `save`, the vectors are handed to it to write at the end and,
    /// on a long refresh, at checkpoints on the way ([`Checkpoints`]): an
    /// interrupted refresh keeps what it embedded up to its last checkpoint,
    /// and the next one embeds only the rest (rows are found by their text).
    pub fn refresh(
        &mut self,
        encoder: &Encoder,
        files: &[SessionFile],
        memory: &[String],
        mut save: Option<Save<'_>>,
        progress: &mut dyn Progress,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> Result<Refreshed> {
        let mut done = Refreshed::default();
        let current: HashSet<&str> = files.iter().map(|f| f.id.as_str()).collect();
        self.sessions.retain(|id, _| current.contains(id.as_str()));
        // Texts to embed, each once, and what to do with their rows.
        let mut wanted: Vec<String> = Vec::new();
        let mut wanted_keys: HashMap<u64, usize> = HashMap::new();
        let mut want = |text: &str, by_key: &HashMap<u64, u32>, wanted: &mut Vec<String>| {
            let k = key(text);
            if !by_key.contains_key(&k) && !wanted_keys.contains_key(&k) {
                wanted_keys.insert(k, wanted.len());
                wanted.push(text.to_string());
            }
            k
        };
        let mut pending: Vec<(String, SessionRows, Vec<u64>)> = Vec::new();
        for file in files {
            if self.sessions.get(&file.id).is_some_and(|s| s.size == file.size && s.mtime == file.mtime) {
                continue;
            }
            let bytes = match std::fs::read(&file.path) {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(crate::error::Error::Io { path: file.path.clone(), source: e }),
            };
            let parsed = match scan::parse_session(&file.path, &bytes) {
                Ok(p) => p,
                Err(e) => {
                    diagnostics.push(Diagnostic::new(&file.path, 0, format!("not embedded: {e}")));
                    continue;
                }
            };
            done.sessions_read += 1;
            let mut keys = Vec::with_capacity(parsed.turns.len());
            let turns = parsed
                .turns
                .iter()
                .map(|t| {
                    keys.push(want(&t.text, &self.by_key, &mut wanted));
                    TurnRow {
                        turn: t.turn,
                        line: t.line as u32,
                        offset: t.offset,
                        role: t.role.code(),
                        ts: t.ts.as_second(),
                        row: 0,
                    }
                })
                .collect();
            pending.push((file.id.clone(), SessionRows { size: file.size, mtime: file.mtime, turns }, keys));
        }
        for text in memory {
            want(text, &self.by_key, &mut wanted);
        }
        if !wanted.is_empty() {
            self.embed(encoder, &wanted, save.as_mut(), progress)?;
            done.embedded = wanted.len();
        }
        for (id, mut rows, keys) in pending {
            for (turn, k) in rows.turns.iter_mut().zip(keys) {
                turn.row = self.by_key[&k];
            }
            self.sessions.insert(id, rows);
        }
        self.compact(memory);
        if let Some(save) = save
            && done != Refreshed::default()
        {
            save(self)?;
        }
        Ok(done)
    }

    /// Embeds `wanted` (each text once) and adds their rows, saving at
    /// checkpoints so that an interrupted build keeps what it embedded.
    fn embed(
        &mut self,
        encoder: &Encoder,
        wanted: &[String],
        mut save: Option<&mut Save<'_>>,
        progress: &mut dyn Progress,
    ) -> Result<()> {
        progress.start("embedding", wanted.len() as u64);
        // Like lengths side by side: the encoder pads a batch to its longest
        // text, and each chunk is sorted again within itself.
        let mut refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
        refs.sort_by_key(|t| t.len());
        let mut checkpoints = Checkpoints::new();
        for chunk in refs.chunks(super::model::BATCH * 8) {
            let vectors = encoder.encode(chunk)?;
            for (text, vector) in chunk.iter().zip(vectors.chunks_exact(self.dim)) {
                let k = key(text);
                self.by_key.insert(k, self.keys.len() as u32);
                self.keys.push(k);
                self.data.extend_from_slice(vector);
            }
            progress.advance(chunk.len() as u64);
            if let Some(save) = save.as_mut()
                && checkpoints.due()
            {
                checkpoints.saving(|| save(self))?;
            }
        }
        progress.finish();
        Ok(())
    }

    /// Drops the rows nothing uses once they are half of all rows.
    fn compact(&mut self, memory: &[String]) {
        let mut used = vec![false; self.keys.len()];
        for t in self.sessions.values().flat_map(|s| &s.turns) {
            used[t.row as usize] = true;
        }
        for text in memory {
            if let Some(r) = self.row_of(text) {
                used[r as usize] = true;
            }
        }
        let unused = used.iter().filter(|u| !**u).count();
        if unused * 2 <= self.keys.len() {
            return;
        }
        let mut moved = vec![u32::MAX; self.keys.len()];
        let (mut data, mut keys) = (Vec::new(), Vec::new());
        for (old, _) in used.iter().enumerate().filter(|(_, u)| **u) {
            moved[old] = keys.len() as u32;
            keys.push(self.keys[old]);
            data.extend_from_slice(self.row(old as u32));
        }
        for t in self.sessions.values_mut().flat_map(|s| &mut s.turns) {
            t.row = moved[t.row as usize];
        }
        self.by_key = keys.iter().enumerate().map(|(i, &k)| (k, i as u32)).collect();
        (self.data, self.keys) = (data, keys);
    }

    /// Writes the cache into `dir`: the vectors, then the manifest.
    pub fn save(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| crate::error::Error::Io { path: dir.to_path_buf(), source: e })?;
        let mut bytes = Vec::with_capacity(self.data.len() * 4);
        for v in &self.data {
            bytes.extend_from_slice(&v.to_le_bytes());
        }
        crate::jsonl::atomic_write(&dir.join(VECTORS), &bytes)?;
        let manifest = Manifest {
            format: FORMAT,
            model: self.model.clone(),
            dim: self.dim,
            keys: self.keys.clone(),
            sessions: self.sessions.clone(),
        };
        let json = serde_json::to_vec(&manifest).expect("a manifest serialises");
        crate::jsonl::atomic_write(&dir.join(MANIFEST), &json)
    }
}
