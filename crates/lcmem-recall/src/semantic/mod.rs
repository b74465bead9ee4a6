//! The semantic lane: sentence embeddings of every turn, journal entry and
//! fact, compared with the query's own embedding, and fused with the
//! lexical ranking by a blend of their scores (see [`Fusion`] and
//! `docs/recall.md`). It is on only
//! when `recall.model` names a model folder (or a searcher is given one);
//! without it, recall is lexical and exactly as it always was.
//!
//! - [`model`]: the encoder (candle's BERT, the model folder's tokenizer);
//! - [`cache`]: the vectors, a derived cache under `cache/semantic-v1/`;
//! - `embed`: building that cache, outside queries;
//! - `status`: how far a build is, for another process to read;
//! - `install`: `lcmem model install DIR`, a model folder copied into the store root;
//! - `fetch`: `lcmem model install` with no folder, the pinned model fetched and checked;
//! - this module: the lane a searcher keeps warm, its ranking and the fusion.

pub mod cache;
mod embed;
mod fetch;
mod install;
pub mod model;
mod status;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::corpus::Corpus;
use super::fusion::{Blend, Fusion};
use super::kind::HitKind;
use super::listing::SessionFile;
use super::memory_index::{Memory, MemoryStamp, Source};
use super::rank::{Loc, NO_SESSION, Tuning, Unit};
use super::scan::TurnRole;
use crate::error::Result;
use crate::store::Store;
use cache::{SessionRows, Vectors};
use model::Encoder;

pub use cache::{DIR_NAME, Refreshed};
pub use embed::{EmbedReport, embed, embed_with};
pub use fetch::{DEFAULT_MODEL, FetchProgress, Fetched, Pinned, PinnedFile, fetch};
pub use install::{MODELS_DIR, install};
pub use model::MODEL_FILES;
pub use status::{BuildProgress, EmbedState, embed_state, is_building};

/// Where the semantic cache of a store lives.
pub fn cache_dir(store: &Store) -> PathBuf {
    cache::cache_dir(&store.cache_dir())
}

/// The lane as a warm searcher keeps it: the model, and the vectors as the
/// cache on disk last held them. A query never embeds anything but itself:
/// the cache is built by [`embed()`], outside queries.
pub(super) struct Lane {
    encoder: Encoder,
    vectors: Vectors,
    /// What the cache on disk was when `vectors` were read from it.
    loaded: Option<(u64, std::time::SystemTime)>,
    /// The memory state `memory_rows` were found for, and the cache reading.
    fresh: Option<(MemoryStamp, Option<(u64, std::time::SystemTime)>)>,
    /// The journal entries and facts that have a vector: where each is, and its row.
    memory_rows: Vec<(Source, u32)>,
}

/// How much of a query the semantic lane saw.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq)]
pub struct SemanticCoverage {
    /// Turns of the store's sessions that have a vector, as they are now.
    pub turns_embedded: u64,
    /// Turns the index or the cache know of.
    pub turns: u64,
}

impl SemanticCoverage {
    /// The share of turns embedded, as a whole percentage rounded down (100
    /// only when every turn is embedded).
    pub fn percent(&self) -> u64 {
        (self.turns_embedded * 100).checked_div(self.turns).unwrap_or(100)
    }
}

impl Lane {
    /// Loads the model in `dir` and the store's cache of its vectors.
    pub fn open(store: &Store, dir: &Path) -> Result<Lane> {
        let encoder = Encoder::load(dir)?;
        let folder = cache_dir(store);
        let loaded = cache::stamp(&folder);
        let vectors = Vectors::load(&folder, &encoder);
        Ok(Lane { encoder, vectors, loaded, fresh: None, memory_rows: Vec::new() })
    }

    /// Takes up what a builder wrote to the cache since it was read, and
    /// finds the vectors of the journal entries and facts as they are now.
    /// Embeds nothing.
    pub fn sync(&mut self, store: &Store, memory: &Memory, stamp: MemoryStamp) {
        let folder = cache_dir(store);
        let on_disk = cache::stamp(&folder);
        if on_disk != self.loaded {
            self.vectors = Vectors::load(&folder, &self.encoder);
            self.loaded = on_disk;
        }
        if self.fresh == Some((stamp, self.loaded)) {
            return;
        }
        let rows = memory.analyzed.units.iter().filter_map(|&s| Some((s, self.vectors.row_of(&memory.text(s))?)));
        self.memory_rows = rows.collect();
        debug_assert!(self.memory_rows.is_sorted_by_key(|(s, _)| *s), "memory rows follow Source's order");
        self.fresh = Some((stamp, self.loaded));
    }

    /// The rows of a session whose file is as it was when they were made.
    fn current_rows<'a>(&'a self, files: &HashMap<&str, &SessionFile>, id: &str) -> Option<&'a SessionRows> {
        let rows = self.vectors.sessions.get(id)?;
        files.get(id).is_some_and(|f| f.size == rows.size && f.mtime == rows.mtime).then_some(rows)
    }

    /// How many of the corpus's turns have a vector.
    pub fn coverage(&self, corpus: &Corpus) -> SemanticCoverage {
        let files: HashMap<&str, &SessionFile> = corpus.files.iter().map(|f| (f.id.as_str(), f)).collect();
        let mut c = SemanticCoverage::default();
        for info in corpus.table.sessions.iter().filter(|s| s.file) {
            match self.current_rows(&files, &info.id) {
                Some(rows) => {
                    c.turns_embedded += rows.turns.len() as u64;
                    c.turns += rows.turns.len() as u64;
                }
                None => c.turns += info.docs,
            }
        }
        c
    }

    /// The query's own vector.
    pub fn ask(&self, text: &str) -> Result<Vec<f32>> {
        self.encoder.encode(&[text])
    }

    fn dot(&self, row: u32, query: &[f32]) -> f32 {
        self.vectors.row(row).iter().zip(query).map(|(a, b)| a * b).sum()
    }

    /// The `depth` units most like `query` that `admit` lets through, best
    /// first, with their cosine similarity.
    pub fn rank(
        &self,
        query: &[f32],
        corpus: &Corpus,
        depth: usize,
        admit: &dyn Fn(&Unit) -> bool,
    ) -> Result<Vec<(Unit, f32)>> {
        let mut scored: Vec<(f32, Unit)> = Vec::new();
        let files: HashMap<&str, &SessionFile> = corpus.files.iter().map(|f| (f.id.as_str(), f)).collect();
        for (ord, info) in corpus.table.sessions.iter().enumerate() {
            // Rows of a file that changed since they were made are not used.
            let Some(rows) = self.current_rows(&files, &info.id) else { continue };
            for t in &rows.turns {
                let unit = Unit {
                    kind: HitKind::Turn,
                    session: ord as u32,
                    turn: t.turn,
                    len: 0,
                    ts: t.ts,
                    phrases: true,
                    loc: Loc::Turn { line: t.line, offset: t.offset, role: TurnRole::from_code(t.role) },
                };
                if admit(&unit) {
                    scored.push((self.dot(t.row, query), unit));
                }
            }
        }
        for &(source, row) in &self.memory_rows {
            let unit = Corpus::memory_unit(&corpus.table, corpus.memory, source, 0, true);
            if admit(&unit) {
                scored.push((self.dot(row, query), unit));
            }
        }
        let by_score = |a: &(f32, Unit), b: &(f32, Unit)| b.0.total_cmp(&a.0);
        if scored.len() > depth {
            scored.select_nth_unstable_by(depth, by_score);
            scored.truncate(depth);
        }
        scored.sort_by(by_score);
        Ok(scored.into_iter().map(|(c, u)| (u, c)).collect())
    }

    /// The row of a journal entry's or a fact's vector. `memory_rows` follows
    /// the analysed units' order, which is `Source`'s.
    fn memory_row(&self, source: Source) -> Option<u32> {
        let at = self.memory_rows.binary_search_by_key(&source, |(s, _)| *s).ok()?;
        Some(self.memory_rows[at].1)
    }

    /// A unit's cosine similarity with `query`, if the unit has a vector.
    pub fn similarity(&self, query: &[f32], corpus: &Corpus, u: &Unit) -> Option<f32> {
        let row = match u.loc {
            Loc::Journal(j) => self.memory_row(Source::Journal(j))?,
            Loc::Fact(f) => self.memory_row(Source::Fact(f))?,
            Loc::Turn { .. } | Loc::Indexed { .. } => {
                let info = corpus.table.sessions.get(u.session as usize)?;
                let rows = self.vectors.sessions.get(&info.id)?;
                let at = rows.turns.binary_search_by_key(&u.turn, |t| t.turn).ok()?;
                rows.turns[at].row
            }
        };
        Some(self.dot(row, query))
    }
}

/// What makes two units of the two lanes the same unit.
fn identity(corpus: &Corpus, u: &Unit) -> (HitKind, u32, u64) {
    match u.loc {
        Loc::Journal(j) => (HitKind::Journal, NO_SESSION, u64::from(j)),
        Loc::Fact(f) => (HitKind::Fact, NO_SESSION, u64::from(f)),
        Loc::Turn { .. } | Loc::Indexed { .. } => (HitKind::Turn, u.session, corpus.line_of(u) as u64),
    }
}

/// Fuses the lexical ranking (best first, with scores) and the semantic one
/// (best first, with cosines) as `tuning.fusion` says. The best `limit`,
/// best first; equal scores keep the lexical order, then the semantic one.
pub(super) fn fuse(
    corpus: &Corpus,
    lane: &Lane,
    query: &[f32],
    lexical: Vec<(Unit, f64)>,
    semantic: Vec<(Unit, f32)>,
    tuning: &Tuning,
    limit: usize,
) -> Vec<(Unit, f64)> {
    let mut fused: Vec<(Unit, f64, usize)> = Vec::with_capacity(lexical.len() + semantic.len());
    let mut at: HashMap<(HitKind, u32, u64), usize> = HashMap::new();
    let blend = tuning.fusion == Fusion::Blend;
    let k = match tuning.fusion {
        Fusion::Ranks(k) => k,
        Fusion::Blend => 0.0,
    };
    let ends = semantic.first().zip(semantic.last()).map(|((_, top), (_, floor))| (*top, *floor));
    let scale = Blend::new(tuning.semantic_weight, lexical.first().map(|(_, s)| *s), ends);
    for (rank, (unit, score)) in lexical.into_iter().enumerate() {
        at.insert(identity(corpus, &unit), fused.len());
        let gain = if blend {
            scale.score(score, lane.similarity(query, corpus, &unit))
        } else {
            1.0 / (k + rank as f64 + 1.0)
        };
        fused.push((unit, gain, fused.len()));
    }
    for (rank, (unit, cos)) in semantic.into_iter().enumerate() {
        let seen = at.get(&identity(corpus, &unit)).copied();
        if blend {
            if seen.is_none() {
                let order = fused.len();
                fused.push((unit, scale.score(0.0, Some(cos)), order));
            }
            continue;
        }
        let gain = tuning.semantic_weight / (k + rank as f64 + 1.0);
        match seen {
            Some(i) => fused[i].1 += gain,
            None => {
                let order = fused.len();
                fused.push((unit, gain, order));
            }
        }
    }
    fused.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
    fused.truncate(limit);
    fused.into_iter().map(|(u, s, _)| (u, s)).collect()
}
