//! The derived index: a tantivy index of every turn of every session file,
//! in `cache/recall-v1/`.
//!
//! The index stores terms with their frequencies and positions, and per turn a
//! few fast fields (session key, turn number, line, byte offset, length,
//! time, role); no text. Scores are not tantivy's: recall reads the postings
//! and computes its own statistics ([`super::rank`]), so that a file the
//! index does not cover can be scanned and ranked on exactly the same terms.
//!
//! What the index covers is recorded in the commit itself (tantivy's commit
//! payload): for every session file, the size and modification time it had
//! when indexed, its key, counts, and its header. A file whose size or time
//! differs, or that the payload does not list, is stale: recall scans it and
//! ignores whatever the index holds for it. Because the payload is written in
//! the same atomic commit as the segments, the two never disagree, even after
//! a crash.
//!
//! Each file is added as one batch, so its turns are contiguous and in order
//! inside one segment (merges keep that order): neighbours in a session are
//! neighbours in the postings.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use tantivy::index::SegmentReader;
use tantivy::schema::{Field, INDEXED, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions};
use tantivy::{Index, Term};

use super::postings::Columns;
use super::scan::SessionMeta;
use crate::error::{Error, IoContext, Result};
use crate::store::Store;

pub use super::build::{IndexReport, rebuild_index, refresh_index};

/// The index folder's name under `cache/`. The version changes whenever the
/// analysis or the schema does, so an old index is simply ignored.
pub const DIR_NAME: &str = "recall-v1";
/// The name the analyser is registered under when the index is written.
pub(super) const TOKENIZER: &str = "lcmem";
/// Bumped with any change to tokenisation: an index written by another
/// analysis is rebuilt, never mixed.
pub(super) const FORMAT: u32 = 3;
/// Memory for tantivy's indexing arenas, per thread.
pub(super) const ARENA_BYTES: usize = 32 * 1024 * 1024;

/// What the index covers, stored in its commit.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub next_key: u64,
    pub files: BTreeMap<String, FileEntry>,
}

/// One indexed session file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileEntry {
    /// The `sid` of its documents: never reused, so a leftover document of a
    /// replaced file can never pass for the new one.
    pub key: u64,
    pub size: u64,
    /// Modification time in nanoseconds since the epoch.
    pub mtime: u128,
    pub docs: u64,
    pub tokens: u64,
    pub meta: SessionMeta,
}

/// A session file as it is on disk now.
#[derive(Debug, Clone)]
pub struct SessionFile {
    pub id: String,
    pub path: PathBuf,
    pub size: u64,
    pub mtime: u128,
}

impl SessionFile {
    /// Whether the index's entry describes the file as it is now.
    pub fn matches(&self, entry: &FileEntry) -> bool {
        entry.size == self.size && entry.mtime == self.mtime
    }
}

/// The session id a folder entry's name stands for, if it is a session file.
pub(super) fn session_id(name: &std::ffi::OsStr) -> Option<&str> {
    let id = name.to_str()?.strip_suffix(".jsonl")?;
    crate::session::validate_id(id).is_ok().then_some(id)
}

impl SessionFile {
    /// A session file from its metadata, taken without following links (as a
    /// folder listing gives it); `None` when it is not a regular file.
    pub(super) fn from_metadata(id: &str, path: PathBuf, meta: &std::fs::Metadata) -> Option<SessionFile> {
        if !meta.is_file() {
            return None;
        }
        let mtime =
            meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_nanos());
        Some(SessionFile { id: id.to_string(), path, size: meta.len(), mtime })
    }
}

/// Lists the store's session files with their size and modification time.
pub fn list_sessions(store: &Store) -> Result<Vec<SessionFile>> {
    let dir = store.dir();
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).at(dir),
    };
    let mut named = Vec::new();
    for entry in entries {
        let entry = entry.at(dir)?;
        let name = entry.file_name();
        if let Some(id) = session_id(&name) {
            named.push((id.to_string(), entry));
        }
    }
    // One stat per file (relative to the open folder) is what a full listing
    // costs; on a large store two threads halve it.
    let stat = |chunk: &[(String, std::fs::DirEntry)]| -> Vec<SessionFile> {
        chunk
            .iter()
            .filter_map(|(id, entry)| SessionFile::from_metadata(id, entry.path(), &entry.metadata().ok()?))
            .collect()
    };
    let mut files = if named.len() < 2_000 {
        stat(&named)
    } else {
        let (a, b) = named.split_at(named.len() / 2);
        std::thread::scope(|scope| {
            let other = scope.spawn(|| stat(b));
            let mut files = stat(a);
            files.extend(other.join().expect("stat does not panic"));
            files
        })
    };
    files.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(files)
}

/// The index's fields.
#[derive(Clone, Copy)]
pub struct Fields {
    pub text: Field,
    pub sid: Field,
    pub turn: Field,
    pub line: Field,
    pub offset: Field,
    pub len: Field,
    pub ts: Field,
    pub role: Field,
}

pub(super) fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let indexing = TextFieldIndexing::default()
        .set_tokenizer(TOKENIZER)
        .set_fieldnorms(false)
        .set_index_option(IndexRecordOption::WithFreqsAndPositions);
    let text = b.add_text_field("text", TextOptions::default().set_indexing_options(indexing));
    let fast = || NumericOptions::default().set_fast();
    let sid = b.add_u64_field("sid", NumericOptions::from(INDEXED).set_fast());
    let fields = Fields {
        text,
        sid,
        turn: b.add_u64_field("turn", fast()),
        line: b.add_u64_field("line", fast()),
        offset: b.add_u64_field("offset", fast()),
        len: b.add_u64_field("len", fast()),
        ts: b.add_i64_field("ts", fast()),
        role: b.add_u64_field("role", fast()),
    };
    (b.build(), fields)
}

pub(super) fn index_error(dir: &Path, e: impl std::fmt::Display) -> Error {
    Error::Io { path: dir.to_path_buf(), source: std::io::Error::other(format!("search index: {e}")) }
}

/// An index opened for reading: the segments of one commit and the manifest
/// committed with them.
pub struct OpenIndex {
    pub manifest: Manifest,
    pub segments: Vec<SegmentReader>,
    /// Each segment's fast fields.
    pub(super) columns: Vec<Columns>,
    pub fields: Fields,
    /// `meta.json` as it was when opened: a change means a new commit.
    stamp: Option<(u64, u128)>,
    dir: PathBuf,
    /// Document frequencies already looked up. Feedback asks for every word
    /// of the best units, one dictionary lookup per segment each, and the
    /// same everyday words come back query after query; the segments never
    /// change while this is open.
    freqs: Mutex<HashMap<String, u64>>,
}

/// Forget the remembered frequencies past this many words.
const FREQS_MAX: usize = 100_000;

fn stamp(dir: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::metadata(dir.join("meta.json")).ok()?;
    let mtime = meta.modified().ok()?.duration_since(std::time::UNIX_EPOCH).ok()?.as_nanos();
    Some((meta.len(), mtime))
}

impl OpenIndex {
    /// Opens the index in `dir`. `None` when there is none, or when it cannot
    /// be used (another format, damaged): recall then scans, and the next
    /// write rebuilds it.
    pub fn open(dir: &Path) -> Option<OpenIndex> {
        if !dir.join("meta.json").is_file() {
            return None;
        }
        // A commit by another process between reading meta.json and opening
        // the segments can remove a merged-away segment: try again once.
        (0..2).find_map(|_| OpenIndex::try_open(dir).ok().flatten())
    }

    fn try_open(dir: &Path) -> tantivy::Result<Option<OpenIndex>> {
        let stamp = stamp(dir);
        let index = Index::open_in_dir(dir)?;
        let metas = index.load_metas()?;
        let Some(manifest) = metas.payload.as_deref().and_then(|p| serde_json::from_str::<Manifest>(p).ok()) else {
            return Ok(None);
        };
        if manifest.format != FORMAT {
            return Ok(None);
        }
        let (expected, fields) = schema();
        if index.schema() != expected {
            return Ok(None);
        }
        let segments = metas
            .segments
            .into_iter()
            .map(|meta| SegmentReader::open(&index.segment(meta)))
            .collect::<tantivy::Result<Vec<_>>>()?;
        let freqs = Mutex::new(HashMap::new());
        let columns = segments.iter().map(Columns::open).collect::<tantivy::Result<Vec<_>>>()?;
        Ok(Some(OpenIndex { manifest, segments, columns, fields, stamp, dir: dir.to_path_buf(), freqs }))
    }

    /// Whether no commit happened since this was opened.
    pub fn is_current(&self) -> bool {
        stamp(&self.dir) == self.stamp
    }

    /// How many documents hold `term`, deleted and stale ones included: an
    /// estimate, good enough to tell a term that is nearly everywhere.
    pub fn doc_freq(&self, term: &str) -> u64 {
        let mut freqs = self.freqs.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&n) = freqs.get(term) {
            return n;
        }
        let key = Term::from_field_text(self.fields.text, term);
        let n = self
            .segments
            .iter()
            .filter_map(|s| s.inverted_index(self.fields.text).ok())
            .filter_map(|i| i.doc_freq(&key).ok())
            .map(u64::from)
            .sum();
        if freqs.len() >= FREQS_MAX {
            freqs.clear();
        }
        freqs.insert(term.to_string(), n);
        n
    }

    /// The index folder.
    pub(super) fn dir(&self) -> &Path {
        &self.dir
    }
}
