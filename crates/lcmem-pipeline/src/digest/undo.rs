//! Undoing a consolidation: the previous MEMORY.md and its state come back
//! from history, and what the undone consolidation wrote to the facts log
//! and the journal from hand edits ([`UndoLog`]) is taken back, so that a
//! line pasted into MEMORY.md and undone leaves no fact behind.

use std::path::PathBuf;

use jiff::Timestamp;

use super::state::{self, UndoLog};
use crate::error::{Error, Result};
use crate::facts::{self, Event, Fold};
use crate::journal::{self, Record};
use crate::jsonl;
use crate::lock::WriteLock;
use crate::store::Store;

/// Restores the previous MEMORY.md (and the state that describes it) from
/// history, after taking back the hand edits the current file's
/// consolidation recorded. Returns the history entry restored.
pub fn undo(store: &Store, now: Timestamp) -> Result<PathBuf> {
    let lock = store.lock()?;
    let entries = state::history_entries(store)?;
    let last = entries.last().ok_or(Error::NoHistory)?;
    if let Some(current) = state::read_state(&state::state_path(store))? {
        take_back(store, &lock, &current.undo, now)?;
    }
    let bytes = jsonl::read_optional(last)?.unwrap_or_default();
    let saved_state = last.with_extension("state.json");
    match jsonl::read_optional(&saved_state)? {
        Some(state) => jsonl::atomic_write(&state::state_path(store), &state)?,
        None => {
            let path = state::state_path(store);
            if path.exists() {
                std::fs::remove_file(&path).map_err(|source| Error::Io { path: path.clone(), source })?;
            }
        }
    }
    jsonl::atomic_write(&store.memory_md_path(), &bytes)?;
    state::remove_entry(last)?;
    Ok(last.clone())
}

/// Compensating events: added facts deleted (physically, as `facts delete`
/// does), edited facts and summaries worded back, unpinned sessions pinned.
fn take_back(store: &Store, lock: &WriteLock, log: &UndoLog, now: Timestamp) -> Result<()> {
    if log.is_empty() {
        return Ok(());
    }
    let fold = Fold::read(&store.facts_path())?;
    for id in &log.added_facts {
        if fold.get(id).is_some_and(|f| !f.deleted) {
            facts::log::remove_fact(store, lock, id, now)?;
        }
    }
    let edits: Vec<Event> = log
        .edited_facts
        .iter()
        .filter(|(id, _)| !log.added_facts.contains(id))
        .map(|(id, text)| Event::Edit { fact: id.clone(), text: text.clone(), at: now })
        .collect();
    facts::append(store, lock, &edits)?;
    let records: Vec<Record> = log
        .edited_summaries
        .iter()
        .map(|(session, summary)| Record::Edit { session_id: session.clone(), summary: summary.clone(), ts: now })
        .chain(log.unpinned.iter().map(|session| Record::Pin { session_id: session.clone(), ts: now }))
        .collect();
    journal::append(store, lock, &records)
}
