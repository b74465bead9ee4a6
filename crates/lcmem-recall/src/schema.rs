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
//! What the index covers is its manifest: for every session file, the size
//! and modification time it had when indexed, its key, counts, and its
//! header. A file whose size or time differs, or that the manifest does not
//! list, is stale: recall scans it and ignores whatever the index holds for
//! it. The manifest is a file beside the segments, `manifest-HASH.bin`
//! (see [`super::manifest`]), named by its content and written
//! before the commit; the commit's payload names it. So a commit and its
//! manifest never disagree, even after a crash (a manifest no commit names is
//! left over, and removed by the next commit). It is not the payload itself
//! because tantivy parses the payload with the rest of `meta.json`, on every
//! opening: on a large store that was a few hundred kilobytes of escaped
//! JSON, read three times by every fresh `lcmem recall`.
//!
//! Each file is added as one batch, so its turns are contiguous and in order
//! inside one segment (merges keep that order): neighbours in a session are
//! neighbours in the postings.

use std::path::{Path, PathBuf};

use tantivy::schema::{Field, INDEXED, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions};

use crate::error::Error;
use crate::store::Store;

pub use crate::store::RECALL_INDEX_DIR as DIR_NAME;
/// The name the analyser is registered under when the index is written.
pub(super) const TOKENIZER: &str = "lcmem";
/// Bumped with any change to tokenisation or to what is stored: an index
/// written by another analysis or schema is rebuilt, never mixed. 5: turn
/// lengths are kept as tantivy's field norms, which its block-max WAND (the
/// pruned first stage) needs for its bounds.
pub(super) const FORMAT: u32 = 5;
/// Memory for tantivy's indexing arenas, per thread.
pub(super) const ARENA_BYTES: usize = 32 * 1024 * 1024;

/// Where the index of a store lives: `cache/recall-v1/`.
pub fn index_dir(store: &Store) -> PathBuf {
    store.recall_index_dir()
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
        .set_fieldnorms(true)
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
