//! What recall used: `memory/used.jsonl`, a file of its own.
//!
//! A session recall returns is useful again, and keeps its place in the
//! digest longer ([`super::Current::last_used`]). Those marks change with
//! every recall, so they stay out of `journal.jsonl`, which changes only when
//! a session is sealed or its standing changes: the journal diffs cleanly
//! in a repository. This file holds one line per session recall ever used,
//! `{"session_id": …, "last_used": …}`, sorted by id and rewritten whole
//! (atomically) when a use is noted, so it stays as small as the store's
//! count of sessions.
//!
//! Journals written before this file existed hold `{"type": "used"}` lines;
//! they are still read, and the first use noted under the write lock moves
//! them here ([`migrate`]): the marks are written here first, then the
//! journal is rewritten without them, each step atomic, so a crash between
//! the two leaves a mark in both places, which reads the same.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::jsonl;
use crate::lock::WriteLock;

/// The file's name, beside the journal.
pub const FILE_NAME: &str = "used.jsonl";

/// Where the marks of the journal at `journal` are kept.
pub fn path_beside(journal: &Path) -> PathBuf {
    journal.with_file_name(FILE_NAME)
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Mark {
    session_id: String,
    last_used: Timestamp,
}

/// The file as read: the last use of each session, and the lines that are
/// not marks (kept as they are when the file is rewritten).
#[derive(Debug, Default)]
pub(crate) struct Marks {
    pub last_used: BTreeMap<String, Timestamp>,
    damaged: Vec<Vec<u8>>,
    pub diagnostics: Vec<Diagnostic>,
}

impl Marks {
    pub(crate) fn read(path: &Path) -> Result<Marks> {
        let mut marks = Marks::default();
        let Some(bytes) = jsonl::read_optional(path)? else { return Ok(marks) };
        for (i, raw) in bytes.split(|&b| b == b'\n').enumerate() {
            if raw.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match serde_json::from_slice::<Mark>(raw) {
                Ok(mark) => marks.note(mark.session_id, mark.last_used),
                Err(e) => {
                    marks.diagnostics.push(Diagnostic::new(
                        path,
                        i + 1,
                        format!("not a use mark ({e}); kept as it is"),
                    ));
                    marks.damaged.push(raw.to_vec());
                }
            }
        }
        Ok(marks)
    }

    fn note(&mut self, session: String, at: Timestamp) {
        let last = self.last_used.entry(session).or_insert(at);
        *last = (*last).max(at);
    }

    fn write(&self, path: &Path) -> Result<()> {
        let mut out = Vec::new();
        for (session_id, &last_used) in &self.last_used {
            let line =
                serde_json::to_string(&Mark { session_id: session_id.clone(), last_used }).expect("a mark serialises");
            out.extend_from_slice(line.as_bytes());
            out.push(b'\n');
        }
        for raw in &self.damaged {
            out.extend_from_slice(raw);
            out.push(b'\n');
        }
        jsonl::atomic_write(path, &out)
    }
}

/// Notes that `sessions` were used at `now`, under the write lock; the file
/// is rewritten only when a mark moves.
pub fn note(_lock: &WriteLock, path: &Path, sessions: &[&str], now: Timestamp) -> Result<()> {
    let mut marks = Marks::read(path)?;
    let before = marks.last_used.clone();
    for session in sessions {
        marks.note((*session).to_string(), now);
    }
    if marks.last_used != before {
        marks.write(path)?;
    }
    Ok(())
}

/// Moves the `used` lines of an older journal into the marks file (see the
/// module's notes). Returns how many lines moved.
pub fn migrate(lock: &WriteLock, journal: &Path) -> Result<usize> {
    let Some(bytes) = jsonl::read_optional(journal)? else { return Ok(0) };
    let mut moved = Vec::new();
    for line in jsonl::read_from(bytes.as_slice(), journal)? {
        let Ok(value) = line.parsed else { continue };
        if value.get("type").and_then(Value::as_str) != Some("used") {
            continue;
        }
        let session = value.get("session_id").and_then(Value::as_str);
        let at = value.get("ts").and_then(Value::as_str).and_then(|t| t.parse::<Timestamp>().ok());
        if let (Some(session), Some(at)) = (session, at) {
            moved.push((session.to_string(), at));
        }
    }
    if moved.is_empty() {
        return Ok(0);
    }
    let path = path_beside(journal);
    let mut marks = Marks::read(&path)?;
    for (session, at) in moved {
        marks.note(session, at);
    }
    marks.write(&path)?;
    let is_mark = |v: &Value| {
        v.get("type").and_then(Value::as_str) == Some("used")
            && v.get("session_id").and_then(Value::as_str).is_some()
            && v.get("ts").and_then(Value::as_str).is_some_and(|t| t.parse::<Timestamp>().is_ok())
    };
    jsonl::rewrite_lines(lock, journal, None, |v| !is_mark(v))
}

/// Removes `session`'s mark (and any damaged line holding its id), for
/// forget. Returns how many lines went.
pub fn remove_session(lock: &WriteLock, journal: &Path, session: &str) -> Result<usize> {
    jsonl::rewrite_lines(lock, &path_beside(journal), Some(&|raw| super::owned_by(raw, session)), |v| {
        !super::names_session(v, session)
    })
}
