//! The derived index's format: a tantivy index of every turn of every
//! session file, in `cache/recall-v1/`. What it is called and where it lives,
//! its schema, and the manifest its commits carry; opening it is
//! [`super::open_index`], writing it [`super::build`].
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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tantivy::schema::{Field, INDEXED, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions};

use super::scan::SessionMeta;
use crate::error::Error;
use crate::store::Store;

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

/// Where the index of a store lives: `cache/recall-v1/`.
pub fn index_dir(store: &Store) -> PathBuf {
    store.cache_dir().join(DIR_NAME)
}

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
