//! Taking transcripts in: [`Memory::import`].

use std::path::Path;

use jiff::Timestamp;

use super::Memory;
use crate::error::{Error, Result};
use crate::import::{FileReport, Format, Named, Taken};
use crate::ingest::Ingested;
use crate::recall::{IndexReport, Progress};
use crate::store::ImportOutcome;

/// A file a front-end asks the memory to take in.
#[derive(Debug, Clone, Copy)]
pub struct ToImport<'a> {
    pub path: &'a Path,
    pub format: Format,
    /// Named by hand, or found in a folder: a forgotten session comes back
    /// only when named.
    pub named: Named,
}

/// What an import of files did.
#[derive(Debug)]
pub struct Imported {
    /// The sessions new to the store, in order (what `lcmem import --undo`
    /// takes back).
    pub added: Vec<String>,
    /// Files that could not be imported (each was handed to the caller with
    /// its error).
    pub failed: usize,
    /// The search index and the semantic cache brought up to date after the
    /// files were written, or why not (they are caches: recall reads what
    /// they lack, so this is a warning, never a failure). `None`: no file
    /// was taken in, so nothing was refreshed.
    pub caches: Option<Result<IndexReport>>,
}

/// Whether a transcript taken in from a hook is sealed as well.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    /// A turn ended: what was appended is taken in, the session stays open.
    KeepOpen,
    /// The session ended: it is sealed by the lane the settings choose.
    Seal,
}

impl Memory {
    /// The rest of an import another call already stored (`report`, from
    /// [`super::Home::import_all`]): the session sealed with the lane the
    /// settings choose, MEMORY.md consolidated when due, and the caches
    /// refreshed when anything changed (their failure is not fatal: recall
    /// scans what the index lacks). `lcmem watch`'s path.
    pub fn seal_imported(&self, report: FileReport, now: Timestamp) -> Result<Ingested> {
        self.on()?;
        crate::ingest::finish(&self.store, report, now)
    }

    /// Takes in what a growing `transcript` (in `format`) gained since the
    /// last time, costing only that (the search index is left alone: recall
    /// scans what it lacks); then, as `then` says, seals the session. The
    /// agent hook's path. Memory switched off: [`Error::MemoryOff`].
    pub fn take_in(&self, format: Format, transcript: &Path, then: Then, now: Timestamp) -> Result<Ingested> {
        let lane = match then {
            Then::KeepOpen => None,
            Then::Seal => Some(crate::extract::lane::chosen(&self.store, now)?),
        };
        crate::ingest::ingest(&self.store, format, transcript, lane.as_deref(), now)
    }

    /// Takes `files` into this project's store, in order, each by the rule a
    /// forgotten session follows ([`Named`]), handing each file's outcome to
    /// `each` as it comes. Then brings the caches up to date (with
    /// `progress`) and records what was added, for `lcmem import --undo`.
    /// Memory switched off for the project: [`Error::MemoryOff`], before or
    /// between files; nothing after it is taken in.
    pub fn import<'a>(
        &self,
        files: impl IntoIterator<Item = ToImport<'a>>,
        now: Timestamp,
        progress: &mut dyn Progress,
        each: &mut dyn FnMut(&ToImport<'a>, &Result<Taken>),
    ) -> Result<Imported> {
        self.on()?;
        let (mut added, mut failed, mut taken_in) = (Vec::new(), 0, false);
        for file in files {
            let taken = crate::import::import_named(&self.store, Some(file.format), file.path, file.named);
            each(&file, &taken);
            match taken {
                Ok(taken) => {
                    taken_in = true;
                    if let Some(ImportOutcome::Added { id }) = outcome(taken) {
                        added.push(id);
                    }
                }
                Err(error @ Error::MemoryOff { .. }) => return Err(error),
                Err(_) => failed += 1,
            }
        }
        let caches = taken_in.then(|| self.refresh_caches(progress));
        crate::import::record_run(&self.store, added.clone(), now)?;
        Ok(Imported { added, failed, caches })
    }
}

/// What a file taken in came to: `None` when it was left out (forgotten) or
/// held nothing to import yet.
fn outcome(taken: Taken) -> Option<ImportOutcome> {
    match taken {
        Taken::Imported(report) | Taken::Unforgot { report, .. } => report.outcome,
        Taken::StillForgotten { .. } => None,
    }
}
