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
//! (its layout: [`super::manifest_codec`]), named by its content and written
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

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use tantivy::schema::{Field, INDEXED, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions};

use super::scan::SessionMeta;
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

/// What the index covers, in a file its commit names.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub next_key: u64,
    pub files: BTreeMap<String, FileEntry>,
}

/// What a commit's payload says: the format, and the manifest file.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Committed {
    pub format: u32,
    pub manifest: String,
}

/// How manifest files are named: this, the first 16 hex digits of the
/// SHA-256 of their content, `.bin` (`.json` before format 5).
const MANIFEST_PREFIX: &str = "manifest-";

impl Manifest {
    /// Writes the manifest beside the index in `dir` (atomically, under a
    /// name its content gives), and returns what the commit's payload says.
    pub(super) fn save(&self, dir: &Path) -> crate::error::Result<Committed> {
        use sha2::{Digest, Sha256};
        let bytes = super::manifest_codec::encode(self);
        let hash: String = Sha256::digest(&bytes).iter().take(8).map(|b| format!("{b:02x}")).collect();
        let name = format!("{MANIFEST_PREFIX}{hash}.bin");
        crate::jsonl::atomic_write(&dir.join(&name), &bytes)?;
        Ok(Committed { format: self.format, manifest: name })
    }

    /// The manifest a commit's payload names, if it is there and of this
    /// format.
    pub(super) fn load(dir: &Path, payload: &str) -> Option<Manifest> {
        let committed = serde_json::from_str::<Committed>(payload).ok()?;
        let name = committed.manifest;
        if committed.format != FORMAT || !name.starts_with(MANIFEST_PREFIX) || name.contains(['/', '\\']) {
            return None;
        }
        let manifest = super::manifest_codec::decode(&std::fs::read(dir.join(name)).ok()?)?;
        (manifest.format == FORMAT).then_some(manifest)
    }

    /// Removes the manifest files beside the index other than the one
    /// `committed` names: left over from earlier commits, or from a write
    /// that did not commit. Best effort: one left behind costs only space.
    pub(super) fn remove_others(dir: &Path, committed: &Committed) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let ours = name.ends_with(".bin") || name.ends_with(".json");
            if name.starts_with(MANIFEST_PREFIX) && ours && name != committed.manifest {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recall::Quiet;
    use crate::recall::build::write;
    use crate::recall::listing::list_sessions;
    use crate::recall::open_index::OpenIndex;

    fn manifests(dir: &Path) -> Vec<String> {
        let names = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned());
        let mut names: Vec<String> = names.filter(|n| n.starts_with(MANIFEST_PREFIX)).collect();
        names.sort();
        names
    }

    #[test]
    fn each_commit_names_its_manifest_and_the_ones_it_replaced_are_removed() {
        let (_dir, store) = crate::store::temp_store();
        let dir = index_dir(&store);
        let session = |id: &str, text: &str| {
            let meta = serde_json::json!({"type": "session", "v": 1, "id": id, "title": id,
                "created_at": "2026-11-01T10:00:00Z"});
            let turn = serde_json::json!({"type": "message", "role": "user", "text": text,
                "ts": "2026-11-01T10:01:00Z", "id": "m1"});
            std::fs::write(store.session_path(id), format!("{meta}\n{turn}\n")).unwrap();
        };
        session("2026-11-01-a", "refund retries");
        write(&dir, &list_sessions(&store).unwrap(), false, &mut Quiet).unwrap();
        let first = manifests(&dir);
        assert_eq!(first.len(), 1, "{first:?}");
        // A manifest that no commit names: left over by a write that died
        // before committing.
        let stray = dir.join(format!("{MANIFEST_PREFIX}0123456789abcdef.json"));
        std::fs::write(&stray, "{}").unwrap();

        session("2026-11-02-b", "cache postgres");
        write(&dir, &list_sessions(&store).unwrap(), false, &mut Quiet).unwrap();
        let second = manifests(&dir);
        assert_eq!(second.len(), 1, "{second:?}");
        assert_ne!(second, first, "the manifest changed with what the index covers");
        let index = OpenIndex::open(&dir).expect("the index opens");
        assert_eq!(index.manifest.files.keys().collect::<Vec<_>>(), ["2026-11-01-a", "2026-11-02-b"]);

        // Without the manifest its commit names, the index is not used: it
        // is rebuilt, not trusted.
        std::fs::remove_file(dir.join(&second[0])).unwrap();
        assert!(OpenIndex::open(&dir).is_none());
        write(&dir, &list_sessions(&store).unwrap(), false, &mut Quiet).unwrap();
        assert_eq!(OpenIndex::open(&dir).expect("rebuilt").manifest.files.len(), 2);
    }
}
