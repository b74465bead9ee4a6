//! Forgetting a session everywhere: the memory files, the digest and its
//! history. See [`crate::facts::forget_session`] for the memory files.

use jiff::Timestamp;

use crate::digest;
use crate::error::{IoContext, Result};
use crate::facts::{self, ForgetReport};
use crate::jsonl;
use crate::store::Store;

/// Removes a session's whole contribution, then rewrites MEMORY.md without
/// it and drops every history snapshot that mentions it, so that nothing of
/// the session is left on disk.
pub fn forget(store: &Store, session: &str, now: Timestamp) -> Result<ForgetReport> {
    let mut report = facts::forget_session(store, session)?;
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
