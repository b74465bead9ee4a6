//! The index's manifest: what it covers (every session file indexed, with
//! its size, time, key, counts and header), the file beside the segments
//! that holds it (`manifest-HASH.bin`, named by its content, which the
//! commit's payload names), and that file's bytes.
//!
//! Every fresh `lcmem recall` reads the manifest whole: on a year of
//! sessions it lists 10,000 files, and as JSON (2.4 MB, a timestamp to parse
//! per file) reading it was a fifth of the process. It is a cache like the
//! segments beside it, so it is kept in a plain binary layout instead,
//! little-endian throughout:
//!
//! ```text
//! "LCMF" format:u32 next_key:u64 files:u64
//! per file, in id order:
//!   id:str key:u64 size:u64 mtime:u128 docs:u64 tokens:u64
//!   title:str created_at:i128 (nanoseconds) closing:u8 pinned:u8
//! str = length:u32 then UTF-8 bytes; closing: 0 none, 1 done, 2 archived,
//! 3 pinned, 4 unpinned
//! ```
//!
//! Anything that does not read back whole (short, damaged, another format)
//! is no manifest: the index is then not used, and the next write rebuilds
//! it.

use std::collections::BTreeMap;
use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use super::scan::SessionMeta;
use super::schema::FORMAT;
use crate::session::Status;

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
        let bytes = encode(self);
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
        let manifest = decode(&std::fs::read(dir.join(name)).ok()?)?;
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

const MAGIC: &[u8; 4] = b"LCMF";

/// The manifest as bytes.
pub(super) fn encode(manifest: &Manifest) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + manifest.files.len() * 160);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&manifest.format.to_le_bytes());
    out.extend_from_slice(&manifest.next_key.to_le_bytes());
    out.extend_from_slice(&(manifest.files.len() as u64).to_le_bytes());
    let text = |out: &mut Vec<u8>, s: &str| {
        out.extend_from_slice(&(s.len() as u32).to_le_bytes());
        out.extend_from_slice(s.as_bytes());
    };
    for (id, e) in &manifest.files {
        text(&mut out, id);
        for n in [e.key, e.size] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        out.extend_from_slice(&e.mtime.to_le_bytes());
        for n in [e.docs, e.tokens] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        text(&mut out, &e.meta.title);
        out.extend_from_slice(&e.meta.created_at.as_nanosecond().to_le_bytes());
        out.push(status_code(e.meta.closing));
        out.push(u8::from(e.meta.pinned));
    }
    out
}

/// The manifest these bytes hold; `None` unless they read back whole.
pub(super) fn decode(bytes: &[u8]) -> Option<Manifest> {
    let mut r = Reader { bytes };
    if r.take(4)? != MAGIC {
        return None;
    }
    let format = u32::from_le_bytes(r.array()?);
    let next_key = r.u64()?;
    let count = r.u64()?;
    // Collected first and built in one go: the files are in id order, which
    // the map builds from without a search per file.
    let mut files = Vec::with_capacity(count.min(1 << 20) as usize);
    for _ in 0..count {
        let id = r.text()?;
        let (key, size) = (r.u64()?, r.u64()?);
        let mtime = u128::from_le_bytes(r.array()?);
        let (docs, tokens) = (r.u64()?, r.u64()?);
        let title = r.text()?;
        let created_at = Timestamp::from_nanosecond(i128::from_le_bytes(r.array()?)).ok()?;
        let closing = status_of(r.take(1)?[0])?;
        let pinned = match r.take(1)?[0] {
            0 => false,
            1 => true,
            _ => return None,
        };
        let meta = SessionMeta { title, created_at, closing, pinned };
        files.push((id, FileEntry { key, size, mtime, docs, tokens, meta }));
    }
    let files = BTreeMap::from_iter(files);
    r.bytes.is_empty().then_some(Manifest { format, next_key, files })
}

fn status_code(status: Option<Status>) -> u8 {
    match status {
        None => 0,
        Some(Status::Done) => 1,
        Some(Status::Archived) => 2,
        Some(Status::Pinned) => 3,
        Some(Status::Unpinned) => 4,
    }
}

/// The status a code stands for (`Some(None)`: none), `None` for no code.
fn status_of(code: u8) -> Option<Option<Status>> {
    Some(match code {
        0 => None,
        1 => Some(Status::Done),
        2 => Some(Status::Archived),
        3 => Some(Status::Pinned),
        4 => Some(Status::Unpinned),
        _ => return None,
    })
}

/// Reads the layout front to back; every read is bounds-checked.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        if self.bytes.len() < n {
            return None;
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Some(head)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        self.take(N)?.try_into().ok()
    }

    fn u64(&mut self) -> Option<u64> {
        self.array().map(u64::from_le_bytes)
    }

    fn text(&mut self) -> Option<String> {
        let len = u32::from_le_bytes(self.array()?) as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Quiet;
    use crate::build::{Existing, write};
    use crate::listing::list_sessions;
    use crate::open_index::OpenIndex;
    use crate::schema::index_dir;

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
        write(&dir, &list_sessions(&store).unwrap(), Existing::Update, &mut Quiet).unwrap();
        let first = manifests(&dir);
        assert_eq!(first.len(), 1, "{first:?}");
        // A manifest that no commit names: left over by a write that died
        // before committing.
        let stray = dir.join(format!("{MANIFEST_PREFIX}0123456789abcdef.json"));
        std::fs::write(&stray, "{}").unwrap();

        session("2026-11-02-b", "cache postgres");
        write(&dir, &list_sessions(&store).unwrap(), Existing::Update, &mut Quiet).unwrap();
        let second = manifests(&dir);
        assert_eq!(second.len(), 1, "{second:?}");
        assert_ne!(second, first, "the manifest changed with what the index covers");
        let index = OpenIndex::open(&dir).expect("the index opens");
        assert_eq!(index.manifest.files.keys().collect::<Vec<_>>(), ["2026-11-01-a", "2026-11-02-b"]);

        // Without the manifest its commit names, the index is not used: it
        // is rebuilt, not trusted.
        std::fs::remove_file(dir.join(&second[0])).unwrap();
        assert!(OpenIndex::open(&dir).is_none());
        write(&dir, &list_sessions(&store).unwrap(), Existing::Update, &mut Quiet).unwrap();
        assert_eq!(OpenIndex::open(&dir).expect("rebuilt").manifest.files.len(), 2);
    }

    fn entry(key: u64, title: &str, closing: Option<Status>, pinned: bool) -> FileEntry {
        let created_at: Timestamp = "2026-11-03T09:15:30.123456789Z".parse().unwrap();
        let meta = SessionMeta { title: title.into(), created_at, closing, pinned };
        FileEntry { key, size: 151_516, mtime: 1_796_515_055_275_666_214, docs: 119, tokens: 21_467, meta }
    }

    #[test]
    fn a_manifest_reads_back_as_written_and_damage_is_no_manifest() {
        let mut files = BTreeMap::new();
        files.insert("2026-11-03-a".to_string(), entry(0, "Sign the “idempotent” request", None, false));
        files.insert("2026-11-04-b".to_string(), entry(7, "", Some(Status::Archived), true));
        files.insert("2026-11-05-c".to_string(), entry(9, "done", Some(Status::Done), false));
        let manifest = Manifest { format: 5, next_key: 10, files };
        let bytes = encode(&manifest);
        let back = decode(&bytes).expect("reads back");
        assert_eq!((back.format, back.next_key), (5, 10));
        let json = |m: &Manifest| serde_json::to_string(&m.files).unwrap();
        assert_eq!(json(&back), json(&manifest));
        // Cut anywhere, or with a byte more, it is not a manifest.
        for cut in [0, 3, 4, 20, bytes.len() / 2, bytes.len() - 1] {
            assert!(decode(&bytes[..cut]).is_none(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_none());
        let mut bad_status = bytes.clone();
        let at = bad_status.len() - 2;
        bad_status[at] = 9;
        assert!(decode(&bad_status).is_none());
    }
}
