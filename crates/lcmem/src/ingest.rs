//! The pipeline from a transcript to memory, owned by the engine: import a
//! transcript into its project's store, seal the session when it is over,
//! consolidate MEMORY.md when enough seals are due, and bring the derived
//! caches up to date. The CLI (`lcmem import`, `lcmem seal`), the agent hook
//! and the watcher all end a session through here, so they cannot drift apart.

use std::path::Path;

use jiff::Timestamp;

use crate::diagnostic::Diagnostic;
use crate::digest::{self, ConsolidateReport};
use crate::error::{Error, Result};
use crate::extract::offline::OfflineExtractor;
use crate::import::{self, Format, Report};
use crate::journal::{Journal, SealKind};
use crate::recall::{self, IndexReport, Progress};
use crate::seal::{self, SealOutcome};
use crate::store::{ImportOutcome, Store};

/// What taking in one transcript did.
#[derive(Debug)]
pub struct Ingested {
    /// `None` when the transcript held no prompt yet.
    pub outcome: Option<ImportOutcome>,
    /// Set when the session was sealed now (or had been already).
    pub sealed: Option<SealOutcome>,
    /// Lines of the transcript that could not be read, and why.
    pub diagnostics: Vec<Diagnostic>,
}

impl Ingested {
    /// Whether anything was written: new lines, or a seal.
    pub fn changed(&self) -> bool {
        self.outcome.as_ref().is_some_and(ImportOutcome::wrote)
            || matches!(self.sealed, Some(SealOutcome::Sealed { .. }))
    }

    /// A one-line account for logs and the watcher's output.
    pub fn describe(&self, transcript: &Path) -> String {
        let imported = match &self.outcome {
            None => return format!("{}: no user prompt in it yet", transcript.display()),
            Some(ImportOutcome::Added { id }) => format!("added {id}"),
            Some(ImportOutcome::Extended { id, lines }) => format!("extended {id} by {lines} line(s)"),
            Some(ImportOutcome::Unchanged { id }) => format!("{id} unchanged"),
        };
        let sealed = match &self.sealed {
            Some(SealOutcome::Sealed { facts, .. }) => format!(", sealed ({facts} candidate fact(s))"),
            Some(SealOutcome::AlreadySealed { .. }) => ", already sealed".to_string(),
            None => String::new(),
        };
        let skipped = match self.diagnostics.len() {
            0 => String::new(),
            n => format!(", {n} malformed line(s) skipped"),
        };
        format!("{imported}{sealed}{skipped}")
    }
}

/// Imports `transcript` (in `format`) into `store`; with `seal`, seals the
/// session it became and lets the digest consolidate when due. The derived
/// caches are refreshed when anything changed; their failure is not fatal
/// (the index is a cache, recall scans what it lacks).
pub fn ingest(store: &Store, format: Format, transcript: &Path, seal: bool, now: Timestamp) -> Result<Ingested> {
    store.ensure_enabled()?;
    let report = import::import_file(store, Some(format), transcript)?;
    finish(store, report, seal, now)
}

/// The rest of [`ingest`] for a transcript already imported into `store`.
pub fn finish(store: &Store, report: Report, seal: bool, now: Timestamp) -> Result<Ingested> {
    let sealed = match (&report.outcome, seal) {
        (Some(outcome), true) => Some(seal::seal(store, outcome.id(), None, &OfflineExtractor, now)?),
        _ => None,
    };
    if matches!(sealed, Some(SealOutcome::Sealed { .. })) {
        digest::consolidate_if_due(store, now)?;
    }
    let ingested = Ingested { outcome: report.outcome, sealed, diagnostics: report.diagnostics };
    if ingested.changed() {
        let _ = refresh_caches(store, &mut recall::Quiet);
    }
    Ok(ingested)
}

/// The sessions of `store` not sealed yet, in id order.
pub fn unsealed(store: &Store) -> Result<Vec<String>> {
    let journal = Journal::of(store)?;
    Ok(store.session_ids()?.into_iter().filter(|id| journal.get(id).is_none()).collect())
}

/// What sealing a batch of sessions did after the seals themselves.
#[derive(Debug)]
pub struct Sealed {
    /// Set when MEMORY.md was due and consolidated.
    pub consolidated: Option<ConsolidateReport>,
    /// The derived caches could not be refreshed (recall reads around them).
    pub cache_error: Option<Error>,
}

/// Seals each session of `ids` with the offline extractor (`kind` overrides
/// each session's own closing status), telling `each` about it with the
/// lines of the session that could not be read; then consolidates when due
/// and refreshes the derived caches.
pub fn seal_sessions(
    store: &Store,
    ids: &[String],
    kind: Option<SealKind>,
    now: Timestamp,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&str, &[Diagnostic], &SealOutcome),
) -> Result<Sealed> {
    store.ensure_enabled()?;
    for id in ids {
        let session = store.read_session(id)?;
        let outcome = seal::seal_session(store, &session, kind, &OfflineExtractor, now)?;
        each(id, &session.diagnostics, &outcome);
    }
    let consolidated = digest::consolidate_if_due(store, now)?;
    let cache_error = refresh_caches(store, progress).err();
    Ok(Sealed { consolidated, cache_error })
}

/// Brings the derived caches (the search index) up to date with the files.
pub fn refresh_caches(store: &Store, progress: &mut dyn Progress) -> Result<IndexReport> {
    recall::refresh_index(store, progress)
}
