//! Forgetting a session everywhere, in one place: its file, its journal
//! lines, the facts it alone supported and its observations of others, the
//! torn-line sidecars and leftover temporary files that hold it, the derived
//! cache, MEMORY.md and its history. Each memory file is rewritten by the
//! module that owns it, and the whole operation runs under the project's
//! write lock, so that no import, seal or index build can interleave.
//!
//! Matching is exact: a session is named by its id in a JSON field
//! (`session_id`, `source_session`), by a citation at the end of a MEMORY.md
//! line, or as an id of a history snapshot's state; a damaged line goes only
//! if a field names the session or one of its facts ([`jsonl::holds_field`]),
//! never because the id appears in its text. Forgetting `s1` never touches
//! `s10`, nor text that merely contains `s1`; an id that names no session is
//! refused. A tombstone ([`crate::tombstone`]) keeps the session forgotten.

use std::path::{Path, PathBuf};

use jiff::Timestamp;

use crate::digest::{self, DigestState, PINNED_END, PINNED_START};
use crate::error::{Error, IoContext, Result};
use crate::facts;
use crate::import;
use crate::journal;
use crate::jsonl;
use crate::jsonl::TEMP_PREFIX;
use crate::lock::WriteLock;
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
    /// Lines removed from the journal's and facts log's `.torn` sidecars.
    pub other_lines_removed: usize,
    /// Whole files removed because they held the session: its own `.torn`
    /// sidecar, leftover temporary files of killed writers.
    pub files_removed: Vec<PathBuf>,
    /// Lines citing the session dropped from MEMORY.md when it could not be
    /// consolidated (pinned blocks are the user's and are kept).
    pub memory_lines_removed: usize,
    pub cache_cleared: bool,
    /// MEMORY.md history snapshots that cited the session.
    pub history_entries_removed: usize,
}

/// The session `query` names, for forget: a stored session's full id, else
/// an id the journal or the facts log still holds (its file may be gone
/// already). Nothing else: not a prefix, not a near id. Those are refused
/// with the ids that look like `query` ([`Error::NotExactSession`]).
pub fn resolve(store: &Store, query: &str) -> Result<String> {
    let ids = store.session_ids()?;
    let exact = ids.iter().any(|id| id == query);
    if exact || crate::session::validate_id(query).is_ok() && known_in_memory(store, query)? {
        return Ok(query.to_string());
    }
    Err(Error::NotExactSession { query: query.to_string(), near: near_ids(&ids, query) })
}

/// Up to five stored ids that look like `query`: they start with it, hold
/// it, or are a few edits from it; the closest first.
fn near_ids(ids: &[String], query: &str) -> Vec<String> {
    let q = query.to_lowercase();
    let mut near: Vec<(usize, &String)> = ids
        .iter()
        .filter_map(|id| {
            let lower = id.to_lowercase();
            let distance = edit_distance(&lower, &q);
            (lower.contains(&q) || q.contains(&lower) || distance <= 2.max(q.len() / 4)).then_some((distance, id))
        })
        .collect();
    near.sort();
    near.into_iter().take(5).map(|(_, id)| id.clone()).collect()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// Whether a parsed line of the journal or the facts log names `session`.
fn known_in_memory(store: &Store, session: &str) -> Result<bool> {
    for path in [store.journal_path(), store.facts_path()] {
        if jsonl::read(&path)?.iter().any(|l| l.parsed.as_ref().is_ok_and(|v| journal::names_session(v, session))) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// What forgetting a session would remove, read without writing anything:
/// what a person is shown before confirming.
#[derive(Debug, Default, Clone, PartialEq, serde::Serialize)]
pub struct ForgetPlan {
    pub session: String,
    /// The session's transcript file, when it is still in the store.
    pub session_file: Option<PathBuf>,
    /// Journal lines naming the session (its entries, pins, uses, edits).
    pub journal_lines: usize,
    /// The facts it alone supports, `(id, text)`: removed entirely.
    pub facts_removed: Vec<(String, String)>,
    /// Facts other sessions also support, which lose this session as a source.
    pub facts_losing_a_source: usize,
    /// MEMORY.md lines citing the session.
    pub memory_lines: usize,
    /// MEMORY.md history snapshots citing the session.
    pub history_entries: usize,
}

/// Lists what [`forget`] would remove for `session` (a full id, see
/// [`resolve`]). Reads only.
pub fn plan(store: &Store, session: &str) -> Result<ForgetPlan> {
    crate::session::validate_id(session).map_err(|_| Error::NoSuchSession { query: session.to_string() })?;
    let file = store.session_path(session);
    let journal_lines = jsonl::read(&store.journal_path())?
        .iter()
        .filter(|l| l.parsed.as_ref().is_ok_and(|v| journal::names_session(v, session)))
        .count();
    let fold = facts::Fold::read(&store.facts_path())?;
    let facts_removed: Vec<(String, String)> =
        facts::log::sole_facts(&fold, session).map(|f| (f.id.clone(), f.text.clone())).collect();
    let facts_losing_a_source = fold
        .facts
        .iter()
        .filter(|f| f.sources.iter().any(|s| s.session == session))
        .filter(|f| !facts_removed.iter().any(|(id, _)| *id == f.id))
        .count();
    let memory_lines = match jsonl::read_optional(&store.memory_md_path())? {
        Some(bytes) => String::from_utf8_lossy(&bytes)
            .lines()
            .filter(|l| digest::cited_session(l).as_deref() == Some(session))
            .count(),
        None => 0,
    };
    let mut history_entries = 0;
    for entry in digest::history_entries(store)? {
        history_entries += usize::from(cites(&entry, session)?);
    }
    Ok(ForgetPlan {
        session: session.to_string(),
        session_file: file.exists().then_some(file),
        journal_lines,
        facts_removed,
        facts_losing_a_source,
        memory_lines,
        history_entries,
    })
}

/// Takes back the last `lcmem import` that added sessions: forgets each of
/// them exactly, as [`forget`] does, and drops its record. `None` when no
/// import is recorded. A session already forgotten since is passed over.
pub fn undo_import(store: &Store, now: Timestamp) -> Result<Option<(import::ImportRun, Vec<ForgetReport>)>> {
    let Some(run) = import::last_run(store)? else { return Ok(None) };
    // Its record goes first: each forget below rewrites the others.
    import::drop_last_run(store)?;
    let mut reports = Vec::new();
    for id in &run.sessions {
        if store.tombstone(id)?.is_none() {
            reports.push(forget(store, id, now)?);
        }
    }
    Ok(Some((run, reports)))
}

/// Removes a session's whole contribution, then rewrites MEMORY.md without
/// it and drops every history snapshot that cites it, so that nothing of
/// the session is left on disk. Physical: the files are rewritten
/// atomically. Works whether or not the session's file still exists.
pub fn forget(store: &Store, session: &str, now: Timestamp) -> Result<ForgetReport> {
    crate::session::validate_id(session).map_err(|_| Error::NoSuchSession { query: session.to_string() })?;
    let lock = store.lock()?;
    // First, so that an import or a seal waiting for the lock, or a forget
    // cut short, cannot bring the session back.
    crate::tombstone::bury(store.guards(), &lock, &store.tombstones_path(), session, now)?;
    let mut report = forget_memory_files(store, &lock, session)?;
    let memory_md = store.memory_md_path();
    if memory_md.exists() && digest::consolidate_locked(store, &lock, now).is_err() {
        // Consolidation refused (pinned blocks over the cap): drop the lines
        // that cite the session rather than leave them behind.
        report.memory_lines_removed = drop_citing_lines(&memory_md, session)?;
    }
    for entry in digest::history_entries(store)? {
        let state = entry.with_extension("state.json");
        if cites(&entry, session)? || state_mentions(&state, session, &report.facts_removed)? {
            digest::remove_history_entry(&entry)?;
            report.history_entries_removed += 1;
        }
    }
    let state = digest::state_path(store);
    let pending = state.with_extension("json.next");
    for path in [state, pending] {
        if state_mentions(&path, session, &report.facts_removed)? {
            std::fs::remove_file(&path).at(&path)?;
        }
    }
    jsonl::sync_dir(&store.memory_dir())?;
    Ok(report)
}

/// The session's file, its journal lines, its facts and observations, the
/// sidecars and temporary files holding it, and the cache.
fn forget_memory_files(store: &Store, lock: &WriteLock, session: &str) -> Result<ForgetReport> {
    let mut report = ForgetReport { session: session.to_string(), ..ForgetReport::default() };
    report.journal_lines_removed = journal::remove_session(store, lock, session)?;
    let facts = facts::log::remove_session(store, lock, session)?;
    report.facts_removed = facts.facts;
    report.provenance_removed = facts.provenance;

    let file = store.session_path(session);
    if file.exists() {
        std::fs::remove_file(&file).at(&file)?;
        report.session_file_removed = true;
    }
    let own_sidecar = jsonl::torn_sidecar(&file);
    if own_sidecar.exists() {
        std::fs::remove_file(&own_sidecar).at(&own_sidecar)?;
        report.files_removed.push(own_sidecar);
    }
    // A fragment is the session's when it names it, or one of the facts
    // only it supported (a facts line cut off before its source).
    let facts_removed = &report.facts_removed;
    let owns = |raw: &[u8]| {
        journal::owned_by(raw, session) || facts_removed.iter().any(|id| jsonl::holds_field(raw, "fact", id))
    };
    let keep = |v: &serde_json::Value| {
        !journal::names_session(v, session)
            && !v.get("fact").and_then(|f| f.as_str()).is_some_and(|f| facts_removed.iter().any(|id| id == f))
    };
    let mut other_lines = 0;
    for sidecar in [jsonl::torn_sidecar(&store.journal_path()), jsonl::torn_sidecar(&store.facts_path())] {
        other_lines += jsonl::rewrite_lines(lock, &sidecar, Some(&owns), keep)?;
    }
    report.other_lines_removed = other_lines;
    for dir in [store.dir().to_path_buf(), store.memory_dir(), store.memory_dir().join("history")] {
        report.files_removed.extend(remove_temp_files_holding(&dir, session, &report.facts_removed)?);
    }
    let cache = store.cache_dir();
    if cache.exists() {
        // What each import added is no cache: it is kept, without the session.
        let runs = import::without_session(store, session)?;
        std::fs::remove_dir_all(&cache).at(&cache)?;
        import::put_back(store, lock, &runs)?;
        report.cache_cleared = true;
    }
    jsonl::sync_dir(store.dir())?;
    Ok(report)
}

/// Removes the temporary files in `dir` (left by killed writers: no live
/// writer has one while the lock is held) that hold `session`, or one of
/// the `facts` only it supported (a copy of the facts log cut short).
fn remove_temp_files_holding(dir: &Path, session: &str, facts: &[String]) -> Result<Vec<PathBuf>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Ok(Vec::new()) };
    let mut removed = Vec::new();
    for entry in entries {
        let path = entry.at(dir)?.path();
        let is_temp = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with(TEMP_PREFIX));
        let holds = |b: &[u8]| {
            std::iter::once(session).chain(facts.iter().map(String::as_str)).any(|id| jsonl::contains_id(b, id))
        };
        if is_temp && path.is_file() && jsonl::read_optional(&path)?.is_some_and(|b| holds(&b)) {
            std::fs::remove_file(&path).at(&path)?;
            removed.push(path);
        }
    }
    Ok(removed)
}

/// Whether a MEMORY.md (or a history snapshot of it) has a line citing `session`.
fn cites(path: &Path, session: &str) -> Result<bool> {
    let Some(bytes) = jsonl::read_optional(path)? else { return Ok(false) };
    let text = String::from_utf8_lossy(&bytes);
    Ok(text.lines().any(|l| digest::cited_session(l).as_deref() == Some(session)))
}

/// Whether a digest state names `session` (or a line of one of `facts`); a
/// state that does not parse, whether it holds the id as a whole token.
fn state_mentions(path: &Path, session: &str, facts: &[String]) -> Result<bool> {
    let Some(bytes) = jsonl::read_optional(path)? else { return Ok(false) };
    Ok(match serde_json::from_slice::<DigestState>(&bytes) {
        Ok(state) => state.mentions(session, facts),
        Err(_) => jsonl::contains_id(&bytes, session),
    })
}

/// Drops the lines of MEMORY.md outside pinned blocks that cite `session`.
fn drop_citing_lines(path: &Path, session: &str) -> Result<usize> {
    let text = String::from_utf8_lossy(&jsonl::read_optional(path)?.unwrap_or_default()).into_owned();
    let (mut kept, mut removed, mut pinned) = (String::with_capacity(text.len()), 0, false);
    for line in text.split_inclusive('\n') {
        match line.trim() {
            PINNED_START => pinned = true,
            PINNED_END => pinned = false,
            _ if !pinned && digest::cited_session(line).as_deref() == Some(session) => {
                removed += 1;
                continue;
            }
            _ => {}
        }
        kept.push_str(line);
    }
    if removed > 0 {
        jsonl::atomic_write(path, kept.as_bytes())?;
    }
    Ok(removed)
}
