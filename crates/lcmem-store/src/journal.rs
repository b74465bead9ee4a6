//! The journal: one line per sealed session, append-only.
//!
//! Besides the entry a seal writes, the journal holds small events that
//! change a session's standing after the fact (pin, unpin, archive), so that
//! current standing can be read from the journal alone without opening every
//! session file.
//!
//! A session that grew after it was sealed (a resumed agent session) is
//! sealed again: its new `sealed` line is a *revision* that covers the whole
//! session and becomes the current entry; the earlier ones stay in the file
//! as history ([`Journal::earlier`]), searchable but never in the digest.
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
use crate::jsonl;
use crate::lock::WriteLock;
use crate::session::{Line, Session, Status};
use crate::store::Store;

/// What a session amounted to (an extractor decides it, the journal keeps it); drives how much weight it gets in the digest.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Work released, merged or deployed.
    Shipped,
    /// A bug fixed.
    Fixed,
    /// Work done that is not (yet) shipped.
    Progress,
    /// An attempt given up.
    Abandoned,
    /// Questions and answers, no change made: a thin line at most.
    Question,
}

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
    /// How many message and tool lines of the session the entry covers
    /// ([`work_lines`]); absent in entries written before revisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub covers: Option<usize>,
    /// Why a model lane's answer was not used and the offline lane wrote
    /// this entry instead (`openai:qwen2.5-coder: timed out after 60 s`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
    /// What the seal spent on a model lane; absent for the offline lane.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
}

/// What one seal spent on a model lane (every request it made, including
/// ones whose answer was refused and fell back to the offline lane).
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Cost {
    /// The lane and model that were asked, e.g. `openai:qwen2.5-coder`.
    pub asked: String,
    pub requests: u32,
    pub tokens_in: u64,
    pub tokens_out: u64,
    /// Estimated US dollars, from the price table (0 for a local endpoint).
    pub usd: f64,
    /// Wall time spent waiting on the lane, in milliseconds.
    pub ms: u64,
    /// How the price was found: `table`, `settings`, `reported` (the lane
    /// said what it cost), `local` or `default` (an unknown model, priced
    /// high on purpose so that the daily cap still holds).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priced_by: String,
}

impl Cost {
    /// Adds `other`'s spend to this one.
    pub fn add(&mut self, other: &Cost) {
        if self.asked.is_empty() {
            self.asked.clone_from(&other.asked);
            self.priced_by.clone_from(&other.priced_by);
        }
        self.requests += other.requests;
        self.tokens_in += other.tokens_in;
        self.tokens_out += other.tokens_out;
        self.usd += other.usd;
        self.ms += other.ms;
    }
}

impl Entry {
    /// Whether `session` holds work this entry does not cover, so that it
    /// is due a revision: more message and tool lines than the entry
    /// counted, or, for an entry that did not count them, a message or tool
    /// line later than its last activity. Status lines never count: pinning
    /// or closing a sealed session is not new work.
    pub fn outgrown_by(&self, session: &Session) -> bool {
        match self.covers {
            Some(covered) => work_lines(session) > covered,
            None => work(session).filter_map(Line::ts).any(|ts| ts > self.last_active),
        }
    }

    /// Whether this entry, read after `earlier` for the same session, is a
    /// revision of it rather than a duplicate: it covers more (the test
    /// [`Entry::outgrown_by`] applied when the revision was sealed), or it
    /// covers the same lines and another lane wrote it, where the earlier
    /// one was the rules' alone (a model lane reading the session again).
    fn revises(&self, earlier: &Entry) -> bool {
        let reread = self.extractor != earlier.extractor && self.fallback.is_none() && earlier.fallback.is_none();
        match (self.covers, earlier.covers) {
            (Some(now), Some(before)) => now > before || (now == before && reread),
            _ => self.last_active > earlier.last_active || (self.last_active == earlier.last_active && reread),
        }
    }
}

/// The lines of a session that are its work: messages and tool actions.
fn work(session: &Session) -> impl Iterator<Item = &Line> {
    session.events.iter().map(|e| &e.value).filter(|l| matches!(l, Line::Message { .. } | Line::Tool { .. }))
}

/// How many message and tool lines `session` holds: what an entry sealed
/// now covers.
pub fn work_lines(session: &Session) -> usize {
    work(session).count()
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
// A record lives only while its line is read or written, one at a time:
// boxing the sealed entry would save nothing worth an allocation per line.
#[allow(clippy::large_enum_variant)]
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
    /// digest longer. Written by journals of before `used.jsonl` (see
    /// [`used`]), read still; new marks go to that file.
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
    /// Which revision of the session's entry this is, from 1; the earlier
    /// ones are in [`Journal::earlier`].
    pub revision: usize,
    /// The kind its own `sealed` line gave, before any later archive event
    /// (a revision falls back to it: an archive for inactivity ends when the
    /// session is resumed).
    pub sealed_kind: SealKind,
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
    /// Sealed sessions in the order they were first sealed, each at its
    /// current revision.
    pub entries: Vec<Current>,
    /// Revisions that a later one replaced, in the order they were replaced,
    /// each as it stood then: history, for recall.
    pub earlier: Vec<Current>,
    /// Pin state of sessions not sealed yet: applied when they are.
    pub pending_pins: HashMap<String, bool>,
    /// How many `used` lines the file holds: a journal written before
    /// `used.jsonl` existed, whose marks the next use moves ([`used::migrate`]).
    pub old_use_marks: usize,
    pub diagnostics: Vec<Diagnostic>,
    /// Where each sealed session is in `entries`.
    index: HashMap<String, usize>,
}

impl Journal {
    pub fn read(path: &Path) -> Result<Journal> {
        let mut journal = Journal::default();
        let mut index = std::mem::take(&mut journal.index);
        for line in jsonl::read(path)? {
            let number = line.number;
            let value: Value = match line.parsed {
                Ok(v) => v,
                Err(p) => {
                    journal.diagnostics.push(Diagnostic::new(path, number, p.to_string()));
                    continue;
                }
            };
            match serde_json::from_value(value) {
                Ok(record) => journal.apply(&mut index, record, path, number),
                Err(e) => journal.diagnostics.push(Diagnostic::new(
                    path,
                    number,
                    format!("not a journal record ({e}); skipped"),
                )),
            }
        }
        let marks = used::Marks::read(&used::path_beside(path))?;
        for (session, at) in marks.last_used {
            if let Some(&i) = index.get(&session) {
                let used = &mut journal.entries[i].last_used;
                *used = Some(used.map_or(at, |u| u.max(at)));
            }
        }
        journal.diagnostics.extend(marks.diagnostics);
        journal.index = index;
        Ok(journal)
    }

    /// One record of the file at `path` (its line `number`) read into the
    /// journal.
    fn apply(&mut self, index: &mut HashMap<String, usize>, record: Record, path: &Path, number: usize) {
        match record {
            Record::Sealed(entry) => self.add_sealed(index, entry, path, number),
            Record::Pin { session_id, .. } => self.set_pinned(index, session_id, true),
            Record::Unpin { session_id, .. } => self.set_pinned(index, session_id, false),
            Record::Archive { session_id, .. } => {
                if let Some(&i) = index.get(&session_id) {
                    self.entries[i].entry.kind = SealKind::Archived;
                }
            }
            Record::Used { session_id, ts } => {
                self.old_use_marks += 1;
                if let Some(&i) = index.get(&session_id) {
                    let used = &mut self.entries[i].last_used;
                    *used = Some(used.map_or(ts, |u| u.max(ts)));
                }
            }
            Record::Edit { session_id, summary, .. } => {
                if let Some(&i) = index.get(&session_id) {
                    self.entries[i].entry.summary = summary;
                }
            }
        }
    }

    /// A sealed session: new, or a revision of one sealed before (a seal
    /// over the same lines again is reported and the first kept).
    fn add_sealed(&mut self, index: &mut HashMap<String, usize>, mut entry: Entry, path: &Path, number: usize) {
        if let Some(&i) = index.get(&entry.session_id) {
            let current = &mut self.entries[i];
            if !entry.revises(&current.entry) {
                let why = format!(
                    "session {} is sealed twice over the same lines; the first entry is kept",
                    entry.session_id
                );
                self.diagnostics.push(Diagnostic::new(path, number, why));
                return;
            }
            let revision = Current {
                sealed_kind: entry.kind,
                entry,
                last_used: current.last_used,
                line: number,
                revision: current.revision + 1,
            };
            let replaced = std::mem::replace(current, revision);
            self.earlier.push(replaced);
            return;
        }
        if let Some(pinned) = self.pending_pins.remove(&entry.session_id) {
            entry.pinned = pinned;
        }
        index.insert(entry.session_id.clone(), self.entries.len());
        let sealed_kind = entry.kind;
        self.entries.push(Current { entry, last_used: None, line: number, revision: 1, sealed_kind });
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
    /// How many seals the journal holds: sessions sealed, and every
    /// earlier revision of a resealed one.
    pub fn seals(&self) -> usize {
        self.entries.len() + self.earlier.len()
    }

    pub fn get(&self, session_id: &str) -> Option<&Current> {
        self.index.get(session_id).map(|&i| &self.entries[i])
    }

    /// Every revision of every entry: the current ones ([`Journal::entries`])
    /// first, then the earlier ones. [`Journal::revision`] takes a position
    /// in this order.
    pub fn revisions(&self) -> impl Iterator<Item = &Current> {
        self.entries.iter().chain(&self.earlier)
    }

    /// The revision at position `i` of [`Journal::revisions`].
    pub fn revision(&self, i: usize) -> &Current {
        self.entries.get(i).unwrap_or_else(|| &self.earlier[i - self.entries.len()])
    }
}

/// Appends records to `store`'s journal, through the write boundary.
pub fn append(store: &Store, lock: &WriteLock, records: &[Record]) -> Result<()> {
    let path = store.journal_path();
    NAMED.appending(&path, || crate::scrub::append_records(store.guards(), lock, &path, records))
}

/// Removes every line about `session` (parsed lines naming it, and damaged
/// lines holding its id), for forget. Returns how many lines went.
pub fn remove_session(store: &Store, lock: &WriteLock, session: &str) -> Result<usize> {
    let path = store.journal_path();
    let marks = used::remove_session(lock, &path, session)?;
    let lines = jsonl::rewrite_lines(lock, &path, Some(&|raw| owned_by(raw, session)), |v| !names_session(v, session))?;
    Ok(lines + marks)
}

/// Whether a damaged journal or facts line is about `session`: it names it
/// in one of the fields [`names_session`] reads.
pub fn owned_by(raw: &[u8], session: &str) -> bool {
    ["session_id", "source_session"].iter().any(|k| jsonl::holds_field(raw, k, session))
}

/// Whether a journal or facts line is about `session`.
pub fn names_session(value: &Value, session: &str) -> bool {
    ["session_id", "source_session"].iter().any(|k| value.get(k).and_then(Value::as_str) == Some(session))
}

mod named;
#[cfg(test)]
mod tests;
pub mod used;

use named::NAMED;
pub use named::never_named;
