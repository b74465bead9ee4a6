//! What each `lcmem import` added, so that an import can be taken back as one
//! step (`lcmem import --undo`, which forgets those sessions exactly): the
//! last few runs, one JSON line each, in `cache/imports.jsonl`. It is the one
//! file of the cache that is no derived data: a forget, which clears the
//! cache, keeps it without the forgotten session. Deleting it loses nothing
//! but that step; each session can still be forgotten on its own.

use std::path::PathBuf;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::error::Result;
use crate::jsonl;
use crate::lock::WriteLock;
use crate::store::Store;

/// How many runs are kept.
const KEPT: usize = 20;

/// One import: when it ran, and the sessions it added (not those it only
/// extended or found unchanged).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportRun {
    pub at: Timestamp,
    pub sessions: Vec<String>,
}

fn path(store: &Store) -> PathBuf {
    store.cache_dir().join("imports.jsonl")
}

/// Every run kept, oldest first; a line that cannot be read is left out.
fn runs(store: &Store) -> Result<Vec<ImportRun>> {
    let Some(bytes) = jsonl::read_optional(&path(store))? else { return Ok(Vec::new()) };
    Ok(bytes.split(|&b| b == b'\n').filter_map(|line| serde_json::from_slice(line).ok()).collect())
}

fn write(store: &Store, _lock: &WriteLock, runs: &[ImportRun]) -> Result<()> {
    let file = path(store);
    crate::confine::refuse_links_outside(store.dir(), std::slice::from_ref(&file))?;
    let mut bytes = Vec::new();
    for run in runs.iter().rev().take(KEPT).rev() {
        // Plain data: ids and a time always serialise.
        if let Ok(line) = serde_json::to_vec(run) {
            bytes.extend(line);
            bytes.push(b'\n');
        }
    }
    jsonl::atomic_write(&file, &bytes)
}

/// Records that an import added `sessions` (nothing when it added none).
pub fn record_run(store: &Store, sessions: Vec<String>, at: Timestamp) -> Result<()> {
    if sessions.is_empty() {
        return Ok(());
    }
    let lock = store.lock()?;
    let mut all = runs(store)?;
    all.push(ImportRun { at, sessions });
    write(store, &lock, &all)
}

/// The last import that added sessions, if one is recorded.
pub fn last_run(store: &Store) -> Result<Option<ImportRun>> {
    Ok(runs(store)?.pop())
}

/// The runs kept, with `session` taken out of each (and a run left with no
/// session dropped): what a forget, which clears the cache, writes back.
pub fn without_session(store: &Store, session: &str) -> Result<Vec<ImportRun>> {
    let mut all = runs(store)?;
    for run in &mut all {
        run.sessions.retain(|s| s != session);
    }
    all.retain(|run| !run.sessions.is_empty());
    Ok(all)
}

/// Writes `runs` back, as [`without_session`] gave them.
pub fn put_back(store: &Store, lock: &WriteLock, runs: &[ImportRun]) -> Result<()> {
    if runs.is_empty() {
        return Ok(());
    }
    write(store, lock, runs)
}

/// Drops the record of the last import, once it was taken back.
pub fn drop_last_run(store: &Store) -> Result<()> {
    let lock = store.lock()?;
    let mut all = runs(store)?;
    if all.pop().is_some() {
        write(store, &lock, &all)?;
    }
    Ok(())
}
