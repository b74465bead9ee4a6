//! Forgetting a session everywhere, in one place: its file, its journal
//! lines, the facts it alone supported and its observations of others, the
//! torn-line sidecars, the derived cache, MEMORY.md and its history. Each
//! memory file is rewritten by the module that owns it.

use jiff::Timestamp;

use crate::digest;
use crate::error::{IoContext, Result};
use crate::facts;
use crate::journal;
use crate::jsonl;
use crate::store::Store;

/// What `lcmem forget` removed.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ForgetReport {
    pub session: String,
    pub session_file_removed: bool,
    pub journal_lines_removed: usize,
    /// Facts whose only source was the session: removed entirely.
    pub facts_removed: Vec<String>,
    /// Observations removed from facts that other sessions also support.
    pub provenance_removed: usize,
    pub other_lines_removed: usize,
    pub cache_cleared: bool,
    /// MEMORY.md history snapshots that mentioned the session.
    pub history_entries_removed: usize,
}

/// Removes a session's whole contribution, then rewrites MEMORY.md without
/// it and drops every history snapshot that mentions it, so that nothing of
/// the session is left on disk. Physical: the files are rewritten atomically.
pub fn forget(store: &Store, session: &str, now: Timestamp) -> Result<ForgetReport> {
    let mut report = forget_memory_files(store, session)?;
    let memory_md = store.memory_md_path();
    let mentions = |path: &std::path::Path| -> Result<bool> {
        Ok(jsonl::read_optional(path)?.is_some_and(|b| memchr::memmem::find(&b, session.as_bytes()).is_some()))
    };
    if memory_md.exists() && digest::consolidate(store, now).is_err() && mentions(&memory_md)? {
        // Consolidation refused (pinned blocks over the cap): drop the lines
        // that cite the session rather than leave them behind.
        let _lock = store.lock()?;
        let text = String::from_utf8_lossy(&jsonl::read_optional(&memory_md)?.unwrap_or_default()).into_owned();
        let kept: String = text.split_inclusive('\n').filter(|l| !l.contains(session)).collect();
        jsonl::atomic_write(&memory_md, kept.as_bytes())?;
    }
    for entry in digest::history_entries(store)? {
        let state = entry.with_extension("state.json");
        if mentions(&entry)? || mentions(&state)? {
            std::fs::remove_file(&entry).at(&entry)?;
            if state.exists() {
                std::fs::remove_file(&state).at(&state)?;
            }
            report.history_entries_removed += 1;
        }
    }
    let state = digest::state_path(store);
    if mentions(&state)? {
        std::fs::remove_file(&state).at(&state)?;
    }
    Ok(report)
}

/// The session's file, its journal lines, its facts and observations, the
/// sidecars and the cache, under the write lock.
fn forget_memory_files(store: &Store, session: &str) -> Result<ForgetReport> {
    let lock = store.lock()?;
    let mut report = ForgetReport { session: session.to_string(), ..ForgetReport::default() };
    report.journal_lines_removed = journal::remove_session(store, &lock, session)?;
    let facts = facts::log::remove_session(store, &lock, session)?;
    report.facts_removed = facts.facts;
    report.provenance_removed = facts.provenance;

    let file = store.session_path(session);
    if file.exists() {
        std::fs::remove_file(&file).at(&file)?;
        report.session_file_removed = true;
    }
    for sidecar in [jsonl::torn_sidecar(&store.journal_path()), jsonl::torn_sidecar(&store.facts_path())] {
        report.other_lines_removed += jsonl::rewrite_lines(&lock, &sidecar, Some(session), |_| true)?;
    }
    let cache = store.cache_dir();
    if cache.exists() {
        std::fs::remove_dir_all(&cache).at(&cache)?;
        report.cache_cleared = true;
    }
    jsonl::sync_dir(store.dir())?;
    Ok(report)
}
