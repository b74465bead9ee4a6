//! The journal: one line per sealed session, append-only.
//!
//! Besides the entry a seal writes, the journal holds small events that
//! change a session's standing after the fact (pin, unpin, archive), so that
//! current standing can be read from the journal alone without opening every
//! session file.
//!
//! This module owns `journal.jsonl`: [`append`] is the only way a line is
//! added (through the write boundary, which redacts it), and
//! [`remove_session`] the only rewrite (forget).

use std::collections::HashMap;
use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::extract::Outcome;
use crate::jsonl;
use crate::lock::WriteLock;
use crate::session::Status;
use crate::store::Store;

/// How a session was closed: finished work, or gone cold.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SealKind {
    Done,
    Archived,
}

/// The line a seal appends.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Entry {
    pub session_id: String,
    pub sealed_at: Timestamp,
    pub kind: SealKind,
    pub title: String,
    /// 1 to 3 sentences on what the session achieved.
    pub summary: String,
    pub files: Vec<String>,
    pub decisions: Vec<String>,
    pub pinned: bool,
    pub outcome: Outcome,
    pub created_at: Timestamp,
    pub last_active: Timestamp,
    /// Which extractor wrote the summary, e.g. `offline-v1`.
    pub extractor: String,
}

/// Where a session stands.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SessionStatus {
    /// Not closed yet.
    Open,
    Done,
    Archived,
}

impl SessionStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SessionStatus::Open => "open",
            SessionStatus::Done => "done",
            SessionStatus::Archived => "archived",
        }
    }
}

/// A session's status, whether it is sealed, and whether it is pinned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    pub status: SessionStatus,
    pub sealed: bool,
    pub pinned: bool,
}

/// One line of the journal.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Record {
    Sealed(Entry),
    Pin {
        session_id: String,
        ts: Timestamp,
    },
    Unpin {
        session_id: String,
        ts: Timestamp,
    },
    Archive {
        session_id: String,
        ts: Timestamp,
        reason: String,
    },
    /// The session was useful again (a recall hit): it keeps its place in the
    /// digest longer.
    Used {
        session_id: String,
        ts: Timestamp,
    },
    /// The user rewrote the session's summary (an edited line of MEMORY.md).
    Edit {
        session_id: String,
        summary: String,
        ts: Timestamp,
    },
}

impl Record {
    pub fn session_id(&self) -> &str {
        match self {
            Record::Sealed(e) => &e.session_id,
            Record::Pin { session_id, .. }
            | Record::Unpin { session_id, .. }
            | Record::Archive { session_id, .. }
            | Record::Used { session_id, .. }
            | Record::Edit { session_id, .. } => session_id,
        }
    }
}

/// A sealed session as the journal currently sees it: its entry with the
/// later pin and archive events applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Current {
    pub entry: Entry,
    /// The last time the session was used again (a recall hit), if ever.
    pub last_used: Option<Timestamp>,
    /// The journal line of the entry, for citations.
    pub line: usize,
}

impl Current {
    /// When the session last mattered: its last activity or its last use.
    pub fn last_activity(&self) -> Timestamp {
        self.last_used.map_or(self.entry.last_active, |u| u.max(self.entry.last_active))
    }
}

/// The whole journal, folded.
#[derive(Debug, Default)]
pub struct Journal {
    /// Sealed sessions in the order they were sealed.
    pub entries: Vec<Current>,
    /// Pin state of sessions not sealed yet: applied when they are.
    pub pending_pins: HashMap<String, bool>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where each sealed session is in `entries`.
    index: HashMap<String, usize>,
}

impl Journal {
    pub fn read(path: &Path) -> Result<Journal> {
        let mut journal = Journal::default();
        let mut index = std::mem::take(&mut journal.index);
        for line in jsonl::read(path)? {
            let value: Value = match line.parsed {
                Ok(v) => v,
                Err(p) => {
                    journal.diagnostics.push(Diagnostic::new(path, line.number, p.to_string()));
                    continue;
                }
            };
            let record: Record = match serde_json::from_value(value) {
                Ok(r) => r,
                Err(e) => {
                    journal.diagnostics.push(Diagnostic::new(
                        path,
                        line.number,
                        format!("not a journal record ({e}); skipped"),
                    ));
                    continue;
                }
            };
            match record {
                Record::Sealed(mut entry) => {
                    if index.contains_key(&entry.session_id) {
                        journal.diagnostics.push(Diagnostic::new(
                            path,
                            line.number,
                            format!("session {} is sealed twice; the first entry is kept", entry.session_id),
                        ));
                        continue;
                    }
                    if let Some(pinned) = journal.pending_pins.remove(&entry.session_id) {
                        entry.pinned = pinned;
                    }
                    index.insert(entry.session_id.clone(), journal.entries.len());
                    journal.entries.push(Current { entry, last_used: None, line: line.number });
                }
                Record::Pin { session_id, .. } => journal.set_pinned(&index, session_id, true),
                Record::Unpin { session_id, .. } => journal.set_pinned(&index, session_id, false),
                Record::Archive { session_id, .. } => {
                    if let Some(&i) = index.get(&session_id) {
                        journal.entries[i].entry.kind = SealKind::Archived;
                    }
                }
                Record::Used { session_id, ts } => {
                    if let Some(&i) = index.get(&session_id) {
                        let used = &mut journal.entries[i].last_used;
                        *used = Some(used.map_or(ts, |u| u.max(ts)));
                    }
                }
                Record::Edit { session_id, summary, .. } => {
                    if let Some(&i) = index.get(&session_id) {
                        journal.entries[i].entry.summary = summary;
                    }
                }
            }
        }
        journal.index = index;
        Ok(journal)
    }

    /// The journal of `store`.
    pub fn of(store: &Store) -> Result<Journal> {
        Journal::read(&store.journal_path())
    }

    fn set_pinned(&mut self, index: &HashMap<String, usize>, session_id: String, pinned: bool) {
        match index.get(&session_id) {
            Some(&i) => self.entries[i].entry.pinned = pinned,
            None => {
                self.pending_pins.insert(session_id, pinned);
            }
        }
    }

    /// Where session `id` stands: from its journal entry once it is sealed,
    /// else from what its own file says (`closing`, `pinned_in_file`) and a
    /// pin recorded before it was sealed. `lcmem sessions` and recall both
    /// show this.
    pub fn standing(&self, id: &str, closing: Option<Status>, pinned_in_file: bool) -> Standing {
        match self.get(id) {
            Some(current) => Standing {
                status: match current.entry.kind {
                    SealKind::Done => SessionStatus::Done,
                    SealKind::Archived => SessionStatus::Archived,
                },
                sealed: true,
                pinned: current.entry.pinned,
            },
            None => Standing {
                status: match closing {
                    Some(Status::Done) => SessionStatus::Done,
                    Some(Status::Archived) => SessionStatus::Archived,
                    _ => SessionStatus::Open,
                },
                sealed: false,
                pinned: self.pending_pins.get(id).copied().unwrap_or(pinned_in_file),
            },
        }
    }

    /// A sealed session's current entry.
    pub fn get(&self, session_id: &str) -> Option<&Current> {
        self.index.get(session_id).map(|&i| &self.entries[i])
    }
}

/// Appends records to `store`'s journal, through the write boundary.
pub fn append(store: &Store, lock: &WriteLock, records: &[Record]) -> Result<()> {
    crate::scrub::append_records(store.guards(), lock, &store.journal_path(), records)
}

/// Removes every line about `session` (parsed lines naming it, and damaged
/// lines holding its id), for forget. Returns how many lines went.
pub(crate) fn remove_session(store: &Store, lock: &WriteLock, session: &str) -> Result<usize> {
    jsonl::rewrite_lines(lock, &store.journal_path(), Some(session), |v| !names_session(v, session))
}

/// Whether a journal or facts line is about `session`.
pub(crate) fn names_session(value: &Value, session: &str) -> bool {
    ["session_id", "source_session"].iter().any(|k| value.get(k).and_then(Value::as_str) == Some(session))
}
