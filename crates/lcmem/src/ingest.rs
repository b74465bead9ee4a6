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
use crate::extract::Extractor;
use crate::extract::offline::OfflineExtractor;
use crate::import::{self, FileReport, Format, Reading};
use crate::journal::{Journal, SealKind};
use crate::recall::{self, IndexReport, Progress};
use crate::seal::{self, SealOutcome};
use crate::store::{ImportOutcome, Store};

/// What taking in one transcript did.
#[derive(Debug)]
pub struct Ingested {
    /// `None` when the transcript held no prompt yet.
    pub outcome: Option<ImportOutcome>,
    /// Set when the session was sealed now, sealed again as a revision (it
    /// grew since), or had been already.
    pub sealed: Option<SealOutcome>,
    /// Lines of the transcript that could not be read, and why.
    pub diagnostics: Vec<Diagnostic>,
    /// How much of the transcript was read ([`ingest`] only).
    pub reading: Option<Reading>,
}

impl Ingested {
    /// Whether anything was written: new lines, or a seal.
    pub fn changed(&self) -> bool {
        self.outcome.as_ref().is_some_and(ImportOutcome::wrote) || self.sealed.as_ref().is_some_and(SealOutcome::wrote)
    }

    /// A one-line account for logs and the watcher's output.
    pub fn describe(&self, transcript: &Path) -> String {
        let imported = match &self.outcome {
            None => {
                let reading = self.reading.as_ref().map(|r| format!("; {}", r.describe())).unwrap_or_default();
                return format!("{}: no user prompt in it yet{reading}", transcript.display());
            }
            Some(ImportOutcome::Added { id }) => format!("added {id}"),
            Some(ImportOutcome::Extended { id, lines }) => format!("extended {id} by {lines} line(s)"),
            Some(ImportOutcome::Reconverted { id, lines }) => {
                format!("reconverted {id} ({lines} line(s), lcmem's status lines kept)")
            }
            Some(ImportOutcome::Unchanged { id }) => format!("{id} unchanged"),
        };
        let sealed = match &self.sealed {
            Some(SealOutcome::Sealed { facts, .. }) => format!(", sealed ({facts} candidate fact(s))"),
            Some(SealOutcome::Revised { facts, revision, .. }) => {
                format!(", sealed again as revision {revision} ({facts} candidate fact(s))")
            }
            Some(SealOutcome::AlreadySealed { .. }) => ", already sealed".to_string(),
            None => String::new(),
        };
        let skipped = match self.diagnostics.len() {
            0 => String::new(),
            n => format!(", {n} malformed line(s) skipped"),
        };
        let reading = self.reading.as_ref().map(|r| format!("; {}", r.describe())).unwrap_or_default();
        format!("{imported}{sealed}{skipped}{reading}")
    }
}

/// Imports a growing `transcript` (in `format`) into `store`, reading only
/// what was appended since the last time ([`import::import_growing`]); with
/// an extractor to `seal` with, seals the session it became and lets the
/// digest consolidate when due. This is the agent hook's path, which must
/// cost what changed: the search index is left alone (it is a cache; recall scans the sessions it
/// lacks and brings it up to date when it runs).
pub fn ingest(
    store: &Store,
    format: Format,
    transcript: &Path,
    seal: Option<&dyn Extractor>,
    now: Timestamp,
) -> Result<Ingested> {
    // Memory switched off: the import's write lock refuses.
    // A transcript that holds no session yet leaves no trace in a project
    // that has no store: no folder, no lock (the client may name one before
    // anything was said, or for a command that is no session at all).
    if !store.dir().exists() {
        let bytes = crate::input::read(transcript)?;
        let converted = import::convert(format, transcript, &bytes);
        if converted.is_empty() {
            return Ok(Ingested { outcome: None, sealed: None, diagnostics: converted.diagnostics, reading: None });
        }
    }
    let report = import::import_growing(store, format, transcript)?;
    settle(store, report, seal, now)
}

/// The rest of an import for a transcript already imported into `store`:
/// the seal, by the lane the settings choose, then the derived caches,
/// refreshed when anything changed; their failure is not fatal (the index is
/// a cache, recall scans what it lacks).
pub fn finish(store: &Store, report: FileReport, now: Timestamp) -> Result<Ingested> {
    let lane = crate::extract::lane::chosen(store, now)?;
    let ingested = settle(store, report, Some(&*lane), now)?;
    if ingested.changed() {
        let _ = refresh_caches(store, &mut recall::Quiet);
    }
    Ok(ingested)
}

/// Seals (with `seal`) and consolidates when due.
fn settle(store: &Store, report: FileReport, seal: Option<&dyn Extractor>, now: Timestamp) -> Result<Ingested> {
    let sealed = match (&report.outcome, seal) {
        (Some(outcome), Some(extractor)) => Some(seal::seal(store, outcome.id(), None, extractor, now)?),
        _ => None,
    };
    if sealed.as_ref().is_some_and(SealOutcome::wrote) {
        digest::consolidate_if_due(store, now)?;
    }
    Ok(Ingested { outcome: report.outcome, sealed, diagnostics: report.diagnostics, reading: report.reading })
}

/// The sessions of `store` not sealed yet, and those that grew since they
/// were sealed (due a revision), in id order. A sealed session whose file
/// cannot be read is left out: sealing it would fail the same way.
pub fn unsealed(store: &Store) -> Result<Vec<String>> {
    let journal = Journal::of(store)?;
    Ok(store
        .session_ids()?
        .into_iter()
        .filter(|id| match journal.get(id) {
            None => true,
            Some(current) => store.read_session(id).is_ok_and(|s| current.entry.outgrown_by(&s)),
        })
        .collect())
}

/// The sessions of `ids` that the rules just sealed, sealed again by the
/// model lane the settings choose ([`seal::refine`]), each with what came
/// of it; then MEMORY.md is consolidated when due. Nothing, with the offline
/// lane. A session that fails does not stop the others.
pub fn refine(store: &Store, ids: &[String], now: Timestamp) -> Result<Vec<(String, Result<SealOutcome>)>> {
    let lane = crate::extract::lane::chosen(store, now)?;
    if ids.is_empty() || lane.name() == OfflineExtractor.name() {
        return Ok(Vec::new());
    }
    let refined: Vec<(String, Result<SealOutcome>)> =
        ids.iter().map(|id| (id.clone(), seal::refine(store, id, &*lane, now))).collect();
    if refined.iter().any(|(_, r)| r.as_ref().is_ok_and(SealOutcome::wrote)) {
        digest::consolidate_if_due(store, now)?;
    }
    Ok(refined)
}

/// What sealing a batch of sessions did after the seals themselves.
#[derive(Debug)]
pub struct Sealed {
    /// Set when MEMORY.md was due and consolidated.
    pub consolidated: Option<ConsolidateReport>,
    /// The derived caches could not be refreshed (recall reads around them).
    pub cache_error: Option<Error>,
    /// Sessions forgotten while this ran: not sealed, and still forgotten.
    pub forgotten: Vec<String>,
}

/// Seals each session of `ids` with the extractor the settings choose (`kind` overrides
/// each session's own closing status), telling `each` about it with the
/// lines of the session that could not be read; then consolidates when due
/// and refreshes the derived caches. Whether memory is on is the caller's
/// to ask first (`Memory::seal`); each seal's write refuses when it is off.
pub fn seal_sessions(
    store: &Store,
    ids: &[String],
    kind: Option<SealKind>,
    now: Timestamp,
    progress: &mut dyn Progress,
    each: &mut dyn FnMut(&str, &[Diagnostic], &SealOutcome),
) -> Result<Sealed> {
    let extractor = crate::extract::lane::chosen(store, now)?;
    let mut forgotten = Vec::new();
    let known = import::known(store);
    for id in ids {
        // A seal judges the whole session: what its transcript gained since
        // the last import comes in first. A session forgotten meanwhile (by
        // another process) is left forgotten, and the others are sealed.
        let read = import::read_to_end(store, &known, id).and_then(|()| store.read_session(id));
        let sealed = read.and_then(|session| {
            seal::seal_session(store, &session, kind, &*extractor, now).map(|outcome| (session, outcome))
        });
        match sealed {
            Ok((session, outcome)) => each(id, &session.diagnostics, &outcome),
            Err(_) if store.tombstone(id)?.is_some() => forgotten.push(id.clone()),
            Err(e) => return Err(e),
        }
    }
    let consolidated = digest::consolidate_if_due(store, now)?;
    let cache_error = refresh_caches(store, progress).err();
    Ok(Sealed { consolidated, cache_error, forgotten })
}

/// Brings the derived caches up to date with the files: the search index,
/// then, when `recall.model` names a model, the semantic cache (only what is
/// new is embedded; a build already running in another process is left to
/// it). Both are tried; the first failure is returned.
pub fn refresh_caches(store: &Store, progress: &mut dyn Progress) -> Result<IndexReport> {
    let index = recall::refresh_index(store, progress);
    let embedded = recall::semantic::embed(store, progress);
    let report = index?;
    embedded?;
    Ok(report)
}

#[cfg(test)]
mod tests {
    use lcmem_test_support::SessionFile;

    use super::*;
    use crate::facts::Fold;
    use crate::journal::{self, Record};

    fn ts(s: &str) -> Timestamp {
        s.parse().unwrap()
    }

    /// Stores session `s1` holding `turns` rounds of work (imported again as it grows).
    fn store_turns(store: &Store, turns: usize) {
        let mut file = SessionFile::new("s1", "2026-11-01T09:00:00Z").title("Parser work");
        for n in 1..=turns {
            let at = format!("2026-11-0{n}T10:00:00Z");
            file = file
                .message("user", &format!("Fix bug {n} in the parser."), &at)
                .tool("Edit", &[format!("src/parser_{n}.rs")], &at)
                .message("assistant", &format!("Fixed bug {n}. The parser uses a recursive descent design."), &at);
        }
        store.import_bytes(Path::new("s1.jsonl"), file.bytes()).unwrap();
    }

    fn seal_now(store: &Store, kind: Option<SealKind>) -> SealOutcome {
        seal::seal(store, "s1", kind, &OfflineExtractor, ts("2026-11-30T00:00:00Z")).unwrap()
    }

    #[test]
    fn a_revision_closes_as_the_one_before_was_sealed_and_facts_count_the_session_once() {
        let (_dir, store) = crate::store::temp_store();
        store_turns(&store, 1);
        assert!(matches!(seal_now(&store, Some(SealKind::Archived)), SealOutcome::Sealed { .. }));
        assert!(unsealed(&store).unwrap().is_empty());
        store_turns(&store, 2);
        assert_eq!(unsealed(&store).unwrap(), ["s1"], "grown: due a revision");
        let SealOutcome::Revised { entry, revision: 2, .. } = seal_now(&store, None) else { panic!("not revised") };
        assert_eq!(entry.kind, SealKind::Archived, "as the revision before");
        assert_eq!(entry.covers, Some(6));

        // Sealed done, then archived for inactivity; resumed: done again.
        store_turns(&store, 3);
        assert!(matches!(seal_now(&store, Some(SealKind::Done)), SealOutcome::Revised { revision: 3, .. }));
        let lock = store.lock().unwrap();
        let archive = Record::Archive { session_id: "s1".into(), ts: ts("2026-11-30T00:00:00Z"), reason: "x".into() };
        journal::append(&store, &lock, &[archive]).unwrap();
        drop(lock);
        assert_eq!(Journal::of(&store).unwrap().get("s1").unwrap().entry.kind, SealKind::Archived);
        assert!(matches!(seal_now(&store, None), SealOutcome::AlreadySealed { .. }), "an archive event is no work");
        store_turns(&store, 4);
        let SealOutcome::Revised { entry, .. } = seal_now(&store, None) else { panic!("not revised") };
        assert_eq!(entry.kind, SealKind::Done, "as its last seal, not the archive for inactivity");

        // Each revision observed the facts again; the fold counts the session once.
        let fold = Fold::read(&store.facts_path()).unwrap();
        let fact = fold.facts.iter().find(|f| f.text.contains("recursive descent")).expect("the fact");
        assert_eq!(fact.sources.iter().filter(|s| s.session == "s1").count(), 1);
        assert_eq!(fact.independent_sources(), 1);
        let journal = Journal::of(&store).unwrap();
        assert_eq!((journal.entries.len(), journal.earlier.len()), (1, 3));
    }
}
