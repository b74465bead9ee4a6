//! Taking in a transcript an agent wrote: import it into its project's store
//! and, when the session is over, seal it. The hook (`lcmem hook`) and the
//! watcher (`lcmem watch`) both end a session this way.

use std::path::Path;

use jiff::Timestamp;
use lcmem::Store;
use lcmem::diagnostic::Diagnostic;
use lcmem::extract::offline::OfflineExtractor;
use lcmem::import::{Format, Report};
use lcmem::seal::SealOutcome;
use lcmem::store::ImportOutcome;

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
/// session it became and lets the digest consolidate when due. The search
/// index is refreshed when anything changed; its failure is not fatal (the
/// index is a cache, recall scans what it lacks).
pub fn ingest(store: &Store, format: Format, transcript: &Path, seal: bool, now: Timestamp) -> lcmem::Result<Ingested> {
    store.ensure_enabled()?;
    let report = lcmem::import::import_file(store, Some(format), transcript)?;
    finish(store, report, seal, now)
}

/// The rest of [`ingest`] for a transcript already imported into `store`.
pub fn finish(store: &Store, report: Report, seal: bool, now: Timestamp) -> lcmem::Result<Ingested> {
    let sealed = match (&report.outcome, seal) {
        (Some(outcome), true) => Some(lcmem::seal::seal(store, outcome.id(), None, &OfflineExtractor, now)?),
        _ => None,
    };
    if matches!(sealed, Some(SealOutcome::Sealed { .. })) {
        lcmem::digest::consolidate_if_due(store, now)?;
    }
    let ingested = Ingested { outcome: report.outcome, sealed, diagnostics: report.diagnostics };
    if ingested.changed() {
        let _ = lcmem::recall::refresh_index(store, &mut lcmem::recall::Quiet);
    }
    Ok(ingested)
}
