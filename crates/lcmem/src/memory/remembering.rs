//! Facts written on a person's word: by the person (added, confirmed,
//! edited, deleted: `lcmem facts` and the page), each followed by MEMORY.md
//! so that the next session has it; or by an agent asked to
//! ([`Memory::remember`], [`Memory::correct`]: the MCP server's tools).

use jiff::Timestamp;

use super::Memory;
use crate::error::Result;
use crate::facts::{Action, Applied, Corrected, Correction, Remembered, SubjectKeyJudge};
use crate::store::Store;

/// Whose a fact a person writes is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// This project's.
    Project,
    /// The person's own, for every project (the person's store beside the
    /// projects'): each project's digest has it from its next session.
    Person,
}

impl Memory {
    fn facts_of(&self, whose: Whose) -> Store {
        match whose {
            Whose::Project => self.store.clone(),
            Whose::Person => Store::person(self.store.home()),
        }
    }

    /// MEMORY.md, when there is one, rewritten so that what a new session
    /// is told follows a person's change at once. Refused only when pinned
    /// blocks alone pass the cap: the change itself stands.
    fn follow_in_digest(&self, now: Timestamp) {
        if self.store.memory_md_path().exists() {
            let _ = crate::digest::consolidate(&self.store, now);
        }
    }

    /// Adds a fact a person wrote: a convention when it reads as one (or
    /// `convention` says so).
    pub fn add_fact(&self, text: &str, whose: Whose, convention: bool, now: Timestamp) -> Result<String> {
        let id = crate::extract::add_fact(&self.facts_of(whose), text, convention, &SubjectKeyJudge, now)?;
        self.follow_in_digest(now);
        Ok(id)
    }

    /// Applies a person's `action` to the fact `asked` (an id or a unique
    /// prefix); says whether it changed anything (nothing is written when
    /// not).
    pub fn act_on_fact(&self, asked: &str, action: Action, whose: Whose, now: Timestamp) -> Result<Applied> {
        let applied = crate::facts::apply_reporting(&self.facts_of(whose), asked, action, &SubjectKeyJudge, now)?;
        if applied.changed {
            self.follow_in_digest(now);
        }
        Ok(applied)
    }

    /// Deletes the fact `asked` physically: its events leave the facts
    /// log, and its lines leave MEMORY.md and every history snapshot.
    pub fn delete_fact(&self, asked: &str, whose: Whose, now: Timestamp) -> Result<String> {
        let id = crate::digest::delete_fact(&self.facts_of(whose), asked, now)?;
        if whose == Whose::Person {
            self.follow_in_digest(now);
        }
        Ok(id)
    }

    /// Keeps `text` as a fact the user asked to be remembered (secrets
    /// redacted, an order withheld until a person confirms it); a fact it
    /// contradicts is judged by its subject key.
    pub fn remember(&self, text: &str, now: Timestamp) -> Result<Remembered> {
        crate::facts::remember(&self.store, text, &SubjectKeyJudge, now)
    }

    /// Marks the fact `asked` (an id or a unique prefix) not true, or
    /// replaces it, on the user's word.
    pub fn correct(&self, asked: &str, correction: Correction, now: Timestamp) -> Result<Corrected> {
        crate::facts::correct(&self.store, asked, correction, &SubjectKeyJudge, now)
    }
}
