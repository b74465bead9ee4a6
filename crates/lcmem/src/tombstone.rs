//! Tombstones: what keeps a forgotten session forgotten.
//!
//! [`crate::forget`] leaves one line in `memory/forgotten.jsonl` per session
//! it removed: the session's id and the day it was forgotten, never any of
//! its content. Every writer that would bring the session back checks it
//! under the project's write lock: an import (the hooks, the catch-up, an
//! import of a folder) refuses with [`Error::SessionForgotten`], and so does
//! a seal that read the session before the forget took it away. Only a
//! person importing the transcript by hand lifts it ([`lift`]).

use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::guards::Guards;
use crate::jsonl;
use crate::lock::WriteLock;

/// The file's name, in the store's memory folder (`Store::tombstones_path`).
pub const FILE_NAME: &str = "forgotten.jsonl";

/// One forgotten session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tombstone {
    pub session_id: String,
    /// The day it was forgotten, `YYYY-MM-DD`.
    pub forgotten_on: String,
}

/// The tombstone of `session` in the file at `path`, if it was forgotten and
/// not imported again by hand since (`Store::tombstone`).
pub fn find(path: &Path, session: &str) -> Result<Option<Tombstone>> {
    Ok(jsonl::read(path)?
        .into_iter()
        .filter_map(|l| l.parsed.ok())
        .filter_map(|v| serde_json::from_value::<Tombstone>(v).ok())
        .find(|t| t.session_id == session))
}

/// Refuses a write that would bring `session` back, if it was forgotten.
pub(crate) fn refuse_forgotten(path: &Path, _lock: &WriteLock, session: &str) -> Result<()> {
    match find(path, session)? {
        Some(t) => Err(Error::SessionForgotten { id: t.session_id, on: t.forgotten_on }),
        None => Ok(()),
    }
}

/// Records that `session` was forgotten at `now` (once).
pub(crate) fn bury(guards: &Guards, lock: &WriteLock, path: &Path, session: &str, now: Timestamp) -> Result<()> {
    if find(path, session)?.is_some() {
        return Ok(());
    }
    let stone = Tombstone { session_id: session.to_string(), forgotten_on: crate::dates::day(now) };
    crate::scrub::append_records(guards, lock, path, &[stone])
}

/// Lifts `session`'s tombstone: the person imports it again on purpose.
/// Returns the tombstone lifted, if there was one (`Store::lift_tombstone`).
pub(crate) fn lift(lock: &WriteLock, path: &Path, session: &str) -> Result<Option<Tombstone>> {
    let Some(stone) = find(path, session)? else { return Ok(None) };
    jsonl::rewrite_lines(lock, path, None, |v| v.get("session_id").and_then(|s| s.as_str()) != Some(session))?;
    Ok(Some(stone))
}
