//! Tombstones: what keeps a forgotten session forgotten, naming nothing.
//!
//! The engine's `forget` leaves one line in `memory/forgotten.jsonl` per session
//! it removed: a keyed hash of the session's id and the day it was
//! forgotten, never the id itself (a dated id such as
//! `2026-11-12-refund-retries` says what the work was) nor any of its
//! content. The key is `memory/forgotten.key`, made on the first forget;
//! without it the hashes cannot be tested against guessed ids. Every writer
//! that would bring the session back checks it under the project's write
//! lock: an import (the hooks, the catch-up, an import of a folder) refuses
//! with [`Error::SessionForgotten`], and so does a seal that read the session
//! before the forget took it away. Only a person importing the transcript by
//! hand lifts it ([`lift`]).
//!
//! Tombstones written before ids were hashed (`{"session_id": …}`) are still
//! honoured, and the next write under the lock rewrites them hashed.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::error::{Error, IoContext, Result};
use crate::guards::Guards;
use crate::jsonl;
use crate::lock::WriteLock;

/// The file's name, in the store's memory folder (`Store::tombstones_path`).
pub const FILE_NAME: &str = "forgotten.jsonl";

/// The key of the hashes, beside the tombstones.
pub const KEY_FILE: &str = "forgotten.key";

/// What a hashed id starts with: the scheme, so another can follow.
const SCHEME: &str = "k1:";

/// One forgotten session, as the file holds it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tombstone {
    /// The keyed hash of the session's id, `k1:` and 64 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The id itself, in a tombstone written before ids were hashed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session_id: Option<String>,
    /// The day it was forgotten, `YYYY-MM-DD`.
    pub forgotten_on: String,
}

fn key_path(path: &Path) -> PathBuf {
    path.with_file_name(KEY_FILE)
}

/// The store's key, if it has one.
fn read_key(path: &Path) -> Result<Option<String>> {
    let key = key_path(path);
    Ok(jsonl::read_optional(&key)?.map(|bytes| String::from_utf8_lossy(&bytes).trim().to_string()))
}

/// The store's key, made (readable by its owner only) if it has none yet.
fn key_or_make(path: &Path) -> Result<String> {
    if let Some(key) = read_key(path)?.filter(|k| !k.is_empty()) {
        return Ok(key);
    }
    let key = crate::random::random_hex();
    let at = key_path(path);
    jsonl::atomic_write(&at, format!("{key}\n").as_bytes())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&at, std::fs::Permissions::from_mode(0o600)).at(&at)?;
    }
    Ok(key)
}

/// The keyed hash a tombstone holds for `session`.
fn hashed(key: &str, session: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(b"lcmem forgotten session\0");
    hash.update(key.as_bytes());
    hash.update(b"\0");
    hash.update(session.as_bytes());
    let hex: String = hash.finalize().iter().map(|b| format!("{b:02x}")).collect();
    format!("{SCHEME}{hex}")
}

impl Tombstone {
    fn is_of(&self, key: Option<&str>, session: &str) -> bool {
        self.session_id.as_deref() == Some(session)
            || key.is_some_and(|key| self.session.as_deref() == Some(hashed(key, session).as_str()))
    }
}

/// The tombstone of `session` in the file at `path`, if it was forgotten and
/// not imported again by hand since (`Store::tombstone`).
pub fn find(path: &Path, session: &str) -> Result<Option<Tombstone>> {
    let stones = read(path)?;
    if stones.is_empty() {
        return Ok(None);
    }
    let key = read_key(path)?;
    Ok(stones.into_iter().find(|t| t.is_of(key.as_deref(), session)))
}

fn read(path: &Path) -> Result<Vec<Tombstone>> {
    Ok(jsonl::read(path)?
        .into_iter()
        .filter_map(|l| l.parsed.ok())
        .filter_map(|v| serde_json::from_value::<Tombstone>(v).ok())
        .collect())
}

/// Refuses a write that would bring `session` back, if it was forgotten.
pub fn refuse_forgotten(path: &Path, lock: &WriteLock, session: &str) -> Result<()> {
    hash_old(path, lock)?;
    match find(path, session)? {
        Some(t) => Err(Error::SessionForgotten { id: session.to_string(), on: t.forgotten_on }),
        None => Ok(()),
    }
}

/// Records that `session` was forgotten at `now` (once).
pub fn bury(guards: &Guards, lock: &WriteLock, path: &Path, session: &str, now: Timestamp) -> Result<()> {
    hash_old(path, lock)?;
    if find(path, session)?.is_some() {
        return Ok(());
    }
    let key = key_or_make(path)?;
    let stone =
        Tombstone { session: Some(hashed(&key, session)), session_id: None, forgotten_on: crate::dates::day(now) };
    crate::scrub::append_records(guards, lock, path, &[stone])
}

/// Lifts `session`'s tombstone: the person imports it again on purpose.
/// Returns the tombstone lifted, if there was one (`Store::lift_tombstone`).
pub(crate) fn lift(lock: &WriteLock, path: &Path, session: &str) -> Result<Option<Tombstone>> {
    hash_old(path, lock)?;
    let Some(stone) = find(path, session)? else { return Ok(None) };
    let key = read_key(path)?;
    jsonl::rewrite_lines(lock, path, None, |v| {
        serde_json::from_value::<Tombstone>(v.clone()).map_or(true, |t| !t.is_of(key.as_deref(), session))
    })?;
    Ok(Some(stone))
}

/// Rewrites, in place and atomically, the tombstones that still name their
/// session in clear, hashed; every other line is kept byte for byte.
fn hash_old(path: &Path, _lock: &WriteLock) -> Result<()> {
    let Some(bytes) = jsonl::read_optional(path)? else { return Ok(()) };
    let old = |body: &[u8]| -> Option<Tombstone> {
        let value: Value = serde_json::from_slice(body).ok()?;
        let stone: Tombstone = serde_json::from_value(value).ok()?;
        stone.session_id.is_some().then_some(stone)
    };
    if !bytes.split(|&b| b == b'\n').any(|body| old(body).is_some()) {
        return Ok(());
    }
    let key = key_or_make(path)?;
    let mut out = Vec::with_capacity(bytes.len());
    for raw in bytes.split_inclusive(|&b| b == b'\n') {
        let body = raw.strip_suffix(b"\n").unwrap_or(raw);
        match old(body) {
            Some(stone) => {
                let id = stone.session_id.unwrap_or_default();
                let new = serde_json::json!({"session": hashed(&key, &id), "forgotten_on": stone.forgotten_on});
                out.extend_from_slice(new.to_string().as_bytes());
            }
            None => out.extend_from_slice(body),
        }
        out.push(b'\n');
    }
    jsonl::atomic_write(path, &out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_depends_on_the_key_and_the_id_and_names_neither() {
        let a = hashed("k-one", "2026-11-12-refund-retries");
        assert!(a.starts_with(SCHEME) && a.len() == SCHEME.len() + 64, "{a}");
        assert!(!a.contains("refund"));
        assert_ne!(a, hashed("k-two", "2026-11-12-refund-retries"));
        assert_ne!(a, hashed("k-one", "2026-11-12-refund-retried"));
        assert_eq!(a, hashed("k-one", "2026-11-12-refund-retries"));
    }
}
