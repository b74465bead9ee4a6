//! MEMORY.md: the digest a session starts with ([`Memory::session_start`]),
//! as a person reads it, and consolidated; and the memory written out as
//! Markdown or JSON; and a session forgotten.

use std::path::PathBuf;

use jiff::Timestamp;

use super::Memory;
use crate::digest::{ConsolidateReport, Digest};
use crate::error::{Error, Result};
use crate::export::MemorySet;
use crate::forget::{ForgetPlan, ForgetReport};
use crate::import::ImportRun;

/// The digest a session starts with.
#[derive(Debug)]
pub struct SessionStart {
    /// The framed digest; `None` when there is no MEMORY.md yet or memory is
    /// off for the project.
    pub digest: Option<Digest>,
    /// Why MEMORY.md could not be brought up to date first (the digest is
    /// the one it had).
    pub consolidate_error: Option<Error>,
}

/// The digest as a person asks for it.
#[derive(Debug)]
pub enum DigestAnswer {
    Digest(Digest),
    /// Memory is switched off for the project: a new session is told nothing.
    MemoryOff,
    /// No MEMORY.md yet: it is written when the first session is sealed.
    NotYet,
}

impl Memory {
    /// The earlier versions of MEMORY.md kept in `memory/history/`, oldest
    /// first: the last is what an undo of the last consolidation restores.
    pub fn digest_history(&self) -> Result<Vec<PathBuf>> {
        crate::digest::history_entries(&self.store)
    }

    /// The digest a new session is handed. A `git pull` may have brought
    /// the team new items, and the person may have added a fact for every
    /// project: when either changed since MEMORY.md was written, it is
    /// consolidated first, so that this session has them.
    pub fn session_start(&self, now: Timestamp) -> Result<SessionStart> {
        let changed = crate::team::changed(&self.store).unwrap_or(false) || crate::digest::person_changed(&self.store);
        let consolidate_error = if changed { crate::digest::consolidate(&self.store, now).err() } else { None };
        Ok(SessionStart { digest: crate::digest::digest(&self.store)?, consolidate_error })
    }

    /// The digest a new session would be handed now, or why there is none.
    pub fn digest(&self) -> Result<DigestAnswer> {
        Ok(match crate::digest::digest(&self.store)? {
            Some(digest) => DigestAnswer::Digest(digest),
            None if self.on().is_err() => DigestAnswer::MemoryOff,
            None => DigestAnswer::NotYet,
        })
    }

    /// The line that greets a person back after a while away, when there is
    /// one to say.
    pub fn welcome(&self, now: Timestamp) -> Result<Option<String>> {
        crate::digest::welcome(&self.store, now)
    }

    /// Writes MEMORY.md afresh from the journal and the facts (hand edits
    /// taken in); `None` when memory is off for the project.
    pub fn consolidate(&self, now: Timestamp) -> Result<Option<ConsolidateReport>> {
        crate::digest::consolidate(&self.store, now)
    }

    /// Brings back the MEMORY.md the last consolidation replaced; the path
    /// of the copy it came from.
    pub fn undo_consolidate(&self, now: Timestamp) -> Result<PathBuf> {
        crate::digest::undo(&self.store, now)
    }

    /// A session (id or unique prefix) as Markdown.
    pub fn export_session(&self, asked: &str) -> Result<String> {
        crate::export::session_markdown(&self.store, &self.store.resolve_session(asked)?)
    }

    /// The whole memory (digest, journal, facts) as one Markdown document.
    pub fn export_memory(&self, now: Timestamp) -> Result<String> {
        crate::export::memory_markdown(&self.store, now)
    }

    /// The whole memory as data, for `--json`.
    pub fn export_set(&self, now: Timestamp) -> Result<MemorySet> {
        crate::export::memory_set(&self.store, now)
    }

    /// Pins the session `asked` (an id or a unique prefix) in the digest, or
    /// unpins it: `pinned` is the standing it gets.
    pub fn set_pinned(&self, asked: &str, pinned: bool, now: Timestamp) -> Result<String> {
        self.on()?;
        let id = self.store.resolve_session(asked)?;
        crate::seal::set_pinned(&self.store, &id, pinned, now)?;
        Ok(id)
    }

    /// What [`Memory::forget`] would remove for the session whose whole id
    /// is `id`. Reads only.
    pub fn forget_plan(&self, id: &str) -> Result<ForgetPlan> {
        crate::forget::plan(&self.store, id)
    }

    /// Takes back the last `lcmem import` that added sessions, forgetting
    /// each; `None` when no import is recorded.
    pub fn undo_import(&self, now: Timestamp) -> Result<Option<(ImportRun, Vec<ForgetReport>)>> {
        crate::forget::undo_import(&self.store, now)
    }

    /// Forgets the session whose whole id is `asked` (an id that names none
    /// is refused, with the ids close to it): its file, its journal lines,
    /// the facts only it taught, its lines in MEMORY.md, and the caches.
    pub fn forget(&self, asked: &str, now: Timestamp) -> Result<(String, ForgetReport)> {
        let id = crate::forget::resolve(&self.store, asked)?;
        let report = crate::forget::forget(&self.store, &id, now)?;
        Ok((id, report))
    }
}
