//! User control over facts, and physical removal (delete, forget).

use std::collections::HashSet;

use jiff::Timestamp;
use serde_json::Value;

use super::{ConflictJudge, Event, Fact, Fold, fact_id, reconcile};
use crate::error::{Error, Result};
use crate::jsonl;
use crate::lock::WriteLock;
use crate::scrub;
use crate::store::Store;

/// What a user can do to a fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Confirm,
    Pin,
    Unpin,
    NotTrue,
    Restore,
    Edit(String),
    Delete,
}

/// Finds a fact by id or unique id prefix.
fn resolve<'a>(fold: &'a Fold, query: &str) -> Result<&'a Fact> {
    if let Some(f) = fold.get(query) {
        return Ok(f);
    }
    let matches = fold.find_prefix(query);
    match matches.as_slice() {
        [one] => Ok(one),
        [] => Err(Error::Invalid(format!("no fact has id {query:?}; `lcmem facts --all` lists them"))),
        many => Err(Error::Invalid(format!(
            "{query:?} matches {} facts ({}); give more of the id",
            many.len(),
            many.iter().map(|f| f.id.as_str()).collect::<Vec<_>>().join(", ")
        ))),
    }
}

/// Applies a user action to fact `query` and returns the fact's id. Edits and
/// restores are reconciled with the other facts, so a user's correction can
/// supersede what it corrects.
pub fn apply(store: &Store, query: &str, action: Action, judge: &dyn ConflictJudge, now: Timestamp) -> Result<String> {
    let lock = store.lock()?;
    let fold = Fold::read(&store.facts_path())?;
    let fact = resolve(&fold, query)?;
    let id = fact.id.clone();
    if fact.deleted && action != Action::Delete {
        return Err(Error::Invalid(format!("fact {id} was deleted and its text is gone from disk")));
    }
    let event = match action {
        Action::Confirm => Event::Confirm { fact: id.clone(), at: now },
        Action::Pin => Event::Pin { fact: id.clone(), at: now },
        Action::Unpin => Event::Unpin { fact: id.clone(), at: now },
        Action::NotTrue => Event::NotTrue { fact: id.clone(), at: now },
        Action::Restore => Event::Restore { fact: id.clone(), at: now },
        Action::Edit(text) => {
            let text = text.trim().to_string();
            if text.is_empty() {
                return Err(Error::Invalid("the new text is empty; to remove a fact use `lcmem facts delete`".into()));
            }
            Event::Edit { fact: id.clone(), text, at: now }
        }
        Action::Delete => {
            delete_locked(store, &lock, &id, now)?;
            return Ok(id);
        }
    };
    let reconciles = matches!(event, Event::Edit { .. } | Event::Confirm { .. });
    // A restore is the user's decision: it is not undone by the next
    // reconciliation. If what replaced the fact still stands, the two are
    // listed as a conflict for the user to settle.
    let restored_against = match &event {
        Event::Restore { .. } => fact.superseded_by.as_ref().and_then(|by| fold.get(by)).filter(|f| f.is_active()),
        _ => None,
    };
    let mut events = vec![event];
    if let Some(by) = restored_against {
        events.push(Event::Conflict {
            fact: id.clone(),
            with: by.id.clone(),
            at: now,
            reason: "restored by the user while the fact that replaced it still stands".into(),
        });
    }
    store.append_memory(&lock, &store.facts_path(), &events)?;
    if reconciles {
        append_reconciled(store, &lock, std::slice::from_ref(&id), judge, now)?;
    }
    Ok(id)
}

/// Adds a user's own fact (confirmed) and returns its id.
pub fn add(store: &Store, text: &str, judge: &dyn ConflictJudge, now: Timestamp) -> Result<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Error::Invalid("a fact needs some text".into()));
    }
    let lock = store.lock()?;
    let clean = scrub::scrub_text(store.guards(), text);
    let id = fact_id(&clean);
    store.append_memory(&lock, &store.facts_path(), &[Event::Add { fact: id.clone(), text: clean, at: now }])?;
    append_reconciled(store, &lock, std::slice::from_ref(&id), judge, now)?;
    Ok(id)
}

/// Re-reads the log, reconciles `touched` and appends the resulting events.
pub(crate) fn append_reconciled(
    store: &Store,
    lock: &WriteLock,
    touched: &[String],
    judge: &dyn ConflictJudge,
    now: Timestamp,
) -> Result<usize> {
    let fold = Fold::read(&store.facts_path())?;
    let events = reconcile(&fold, touched, judge, now);
    store.append_memory(lock, &store.facts_path(), &events)?;
    Ok(events.len())
}

/// Physically deletes a fact: every event about it is removed from the log
/// (the text is gone from disk, not hidden), then a tombstone is appended so
/// its history says it was deleted.
pub fn delete_physically(store: &Store, query: &str, now: Timestamp) -> Result<String> {
    let lock = store.lock()?;
    let fold = Fold::read(&store.facts_path())?;
    let id = resolve(&fold, query)?.id.clone();
    delete_locked(store, &lock, &id, now)?;
    Ok(id)
}

pub(crate) fn delete_locked(store: &Store, lock: &WriteLock, id: &str, now: Timestamp) -> Result<()> {
    let mut doomed: HashSet<String> = HashSet::from([id.to_string()]);
    doomed.extend(edit_aliases(store, id)?);
    jsonl::rewrite_lines(lock, &store.facts_path(), None, |value| !mentions_any(value, &doomed))?;
    store.append_memory(lock, &store.facts_path(), &[Event::Delete { fact: id.to_string(), at: now }])
}

fn edit_aliases(store: &Store, id: &str) -> Result<Vec<String>> {
    let mut aliases = Vec::new();
    for line in jsonl::read(&store.facts_path())? {
        if let Ok(value) = line.parsed
            && let Ok(Event::Edit { fact, text, .. }) = serde_json::from_value::<Event>(value)
            && fact == id
        {
            aliases.push(fact_id(&text));
        }
    }
    Ok(aliases)
}

/// Whether a facts event names any of `ids`, as its fact or its counterpart.
fn mentions_any(value: &Value, ids: &HashSet<String>) -> bool {
    ["fact", "by", "with"].iter().filter_map(|k| value.get(k).and_then(Value::as_str)).any(|v| ids.contains(v))
}

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

/// Removes a session's whole contribution: its file, its journal lines, the
/// facts it alone supported (with every event about them), its observations
/// on facts others support, and any derived cache. Physical: the files are
/// rewritten atomically and nothing of the session stays on disk.
pub fn forget_session(store: &Store, session: &str) -> Result<ForgetReport> {
    let lock = store.lock()?;
    let mut report = ForgetReport { session: session.to_string(), ..ForgetReport::default() };
    let fold = Fold::read(&store.facts_path())?;
    let sole: HashSet<String> = fold
        .facts
        .iter()
        .filter(|f| !f.user_authored && !f.sources.is_empty() && f.sources.iter().all(|s| s.session == session))
        .map(|f| f.id.clone())
        .collect();
    let mut doomed = sole.clone();
    for id in &sole {
        doomed.extend(edit_aliases(store, id)?);
    }
    report.facts_removed = sole.into_iter().collect();
    report.facts_removed.sort();

    let names_session = |value: &Value| {
        ["session_id", "source_session"].iter().any(|k| value.get(k).and_then(Value::as_str) == Some(session))
    };
    report.journal_lines_removed =
        jsonl::rewrite_lines(&lock, &store.journal_path(), Some(session), |v| !names_session(v))?;
    let mut provenance = 0;
    jsonl::rewrite_lines(&lock, &store.facts_path(), Some(session), |v| {
        if mentions_any(v, &doomed) {
            return false;
        }
        if names_session(v) {
            provenance += 1;
            return false;
        }
        true
    })?;
    report.provenance_removed = provenance;

    let file = store.session_path(session);
    if file.exists() {
        std::fs::remove_file(&file).map_err(|source| Error::Io { path: file.clone(), source })?;
        report.session_file_removed = true;
    }
    for sidecar in [jsonl::torn_sidecar(&store.journal_path()), jsonl::torn_sidecar(&store.facts_path())] {
        report.other_lines_removed += jsonl::rewrite_lines(&lock, &sidecar, Some(session), |_| true)?;
    }
    let cache = store.cache_dir();
    if cache.exists() {
        std::fs::remove_dir_all(&cache).map_err(|source| Error::Io { path: cache.clone(), source })?;
        report.cache_cleared = true;
    }
    jsonl::sync_dir(store.dir())?;
    Ok(report)
}
