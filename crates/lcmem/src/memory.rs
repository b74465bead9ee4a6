//! [`Memory`], the front door to the engine: what a front-end (the `lcmem`
//! command, the MCP server, the local page) asks of a project's memory, each
//! as one call that runs the whole of it. A front-end parses, makes one of
//! these calls and prints what comes back; it assembles no pipeline steps.
//!
//! A `Memory` is opened once per command with the project's store, or kept
//! by a server for its lifetime; it keeps recall's searchers (this project's
//! and those of the other projects a recall asked) warm between calls.

use std::path::Path;

use jiff::Timestamp;

use crate::catch_up::{CaughtUp, Look};
use crate::diagnostic::Diagnostic;
use crate::digest::Digest;
use crate::error::{Error, Result};
use crate::import::{Format, Named, Taken};
use crate::journal::SealKind;
use crate::recall::{Across, AcrossAnswer, HitKind, IndexReport, Progress, Projects, Query, Searcher};
use crate::seal::SealOutcome;
use crate::store::{ImportOutcome, Store};
use crate::team::Shared;
use crate::team::agents_file::{self, AgentsFile, BlockOutcome};

/// A project's memory, as the front-ends reach it.
pub struct Memory {
    store: Store,
    searchers: Across,
}

/// How much of a recall's ranking an answer shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Padding {
    /// Every hit the ranking kept (the command and the page: a person scans).
    Kept,
    /// Hits scoring under this share of the best are dropped (the MCP
    /// server: a model reads every line it is given).
    DroppedUnder(f64),
}

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

/// Which sessions a seal closes.
#[derive(Debug, Clone, Copy)]
pub enum ToSeal<'a> {
    /// These sessions, by id or unique prefix: sealed now, quiet or not.
    Named(&'a [String]),
    /// Every session not sealed yet, and every one that went on since it
    /// was sealed, whose transcript has been quiet for `memory.quiet_secs`.
    AllQuiet,
}

/// What a seal did.
#[derive(Debug)]
pub struct SealRun {
    /// After the seals: the consolidation, the caches, what was forgotten meanwhile.
    pub sealed: crate::ingest::Sealed,
    /// Sessions [`ToSeal::AllQuiet`] left because their transcript changed
    /// less than `quiet` ago.
    pub still_going: Vec<String>,
    pub quiet: std::time::Duration,
}

/// What a catch-up did.
#[derive(Debug)]
pub struct CatchUpRun {
    /// Each transcript taken in, and its seal: the one that ended first, then
    /// each that went quiet.
    pub done: Vec<CaughtUp>,
    /// The sessions the rules sealed now, read again by the model lane the
    /// settings choose (none with the offline lane).
    pub refined: Vec<(String, Result<SealOutcome>)>,
    /// Why the semantic cache could not take in what came (a cache: recall
    /// matches the new turns by their words meanwhile).
    pub embed_error: Option<Error>,
}

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

/// What sharing this project's confirmed conventions did.
#[derive(Debug)]
pub struct ShareRun {
    /// What `.lcmem/team.md` got.
    pub shared: Shared,
    pub blocks: Blocks,
}

/// What each agents file named got, and MEMORY.md after it.
#[derive(Debug)]
pub struct Blocks {
    /// Each file's block: written, already up to date, or taken out.
    pub files: Vec<(AgentsFile, BlockOutcome)>,
    /// Why MEMORY.md could not be brought up to date afterwards.
    pub consolidate_error: Option<Error>,
}

/// A recall as the front door answers it.
pub struct Recalled {
    /// The hits, best first, and each project's own answer (its coverage,
    /// what could not be read).
    pub answer: AcrossAnswer,
    /// How many of this project's sessions were marked as used again (they
    /// keep their place in the digest longer), or why they could not be.
    /// The hits are the answer either way; each front-end says a failure
    /// its own way.
    pub marked: Result<usize>,
}

impl Memory {
    /// The memory of `store`'s project, for one command: this project's
    /// searcher may bring its index up to date; another project's only reads
    /// (recall never writes into another project's store).
    pub fn open(store: Store) -> Memory {
        let searchers = Across::new(Searcher::new(store.clone()), |s| Searcher::new(s).read_only());
        Memory { store, searchers }
    }

    /// The memory of `store`'s project, kept open by a server: every searcher
    /// only reads (the writes a server makes refresh the caches themselves)
    /// and stays warm between calls.
    pub fn serve(store: Store) -> Memory {
        let warm = |store| Searcher::new(store).read_only().long_lived();
        let searchers = Across::new(warm(store.clone()), warm);
        Memory { store, searchers }
    }

    pub fn store(&self) -> &Store {
        &self.store
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
        self.store.ensure_enabled()?;
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
        let caches = taken_in.then(|| crate::ingest::refresh_caches(&self.store, progress));
        crate::import::record_run(&self.store, added.clone(), now)?;
        Ok(Imported { added, failed, caches })
    }

    /// The project slugs `which` names, or why it names none that exist.
    pub fn projects(&self, which: &Projects) -> Result<Vec<String>> {
        self.searchers.resolve(which)
    }

    /// Seals the sessions `which` names (`kind` overrides each session's own
    /// closing status), handing each outcome to `each` with the lines of the
    /// session that could not be read; then consolidates MEMORY.md when due
    /// and refreshes the caches.
    pub fn seal(
        &self,
        which: ToSeal<'_>,
        kind: Option<SealKind>,
        now: Timestamp,
        progress: &mut dyn Progress,
        each: &mut dyn FnMut(&str, &[Diagnostic], &SealOutcome),
    ) -> Result<SealRun> {
        let quiet = self.store.ensure_enabled()?.quiet();
        let (ids, still_going) = match which {
            ToSeal::Named(asked) => {
                let ids = asked.iter().map(|q| self.store.resolve_session(q)).collect::<Result<Vec<_>>>()?;
                (ids, Vec::new())
            }
            // A session whose transcript is still being written is not over:
            // it is left for when it is quiet; naming it seals it now.
            ToSeal::AllQuiet => {
                let going = crate::catch_up::still_going(&self.store, quiet);
                let (going, ids): (Vec<String>, Vec<String>) =
                    crate::ingest::unsealed(&self.store)?.into_iter().partition(|id| going.contains_key(id));
                (ids, going)
            }
        };
        let sealed = crate::ingest::seal_sessions(&self.store, &ids, kind, now, progress, each)?;
        Ok(SealRun { sealed, still_going, quiet })
    }

    /// Seals what ended: first `ended` (the transcript a SessionEnd handed
    /// over, in its agent's format; read once it is still), then every
    /// transcript `look` finds quiet. One catch-up runs at a time per project
    /// (a session start waits a little for it); the model lane reads again
    /// what the rules sealed once the digest has it, and with an embedding
    /// model what came in is embedded here, so that no recall waits for it.
    /// Memory switched off: [`Error::MemoryOff`], and nothing is read.
    pub fn catch_up(&self, ended: Option<(Format, &Path)>, look: &Look, now: Timestamp) -> Result<CatchUpRun> {
        let running = crate::catch_up::running(&self.store)?;
        let mut done = Vec::new();
        if let Some((format, transcript)) = ended {
            crate::catch_up::wait_until_still(transcript);
            let rules = Some(&crate::extract::offline::OfflineExtractor as &dyn crate::extract::Extractor);
            let result = crate::ingest::ingest(&self.store, format, transcript, rules, now);
            done.push(CaughtUp { transcript: transcript.to_path_buf(), session: String::new(), result });
        }
        done.extend(crate::catch_up::catch_up(&self.store, look, now)?);
        // What the rules sealed is in the digest now: a session start need
        // not wait for a model lane to read it again.
        drop(running);
        let sealed: Vec<String> = done.iter().filter_map(sealed_now).collect();
        let refined = crate::ingest::refine(&self.store, &sealed, now)?;
        let changed = done.iter().any(|c| c.result.as_ref().is_ok_and(crate::ingest::Ingested::changed));
        let embed_error =
            if changed { crate::recall::semantic::embed(&self.store, &mut crate::recall::Quiet).err() } else { None };
        Ok(CatchUpRun { done, refined, embed_error })
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

    /// Shares this project's confirmed conventions with the team as `by`:
    /// `.lcmem/team.md`, then the lcmem block of each agents file of `blocks`;
    /// then MEMORY.md, whose team items changed, is consolidated.
    pub fn share(&self, by: &str, blocks: &[AgentsFile], now: Timestamp) -> Result<ShareRun> {
        self.store.ensure_enabled()?;
        let shared = crate::team::share(&self.store, by, now)?;
        let files = blocks.iter().map(|&f| Ok((f, agents_file::keep(&self.store, f, now)?))).collect::<Result<_>>()?;
        let consolidate_error = crate::digest::consolidate(&self.store, now).err();
        Ok(ShareRun { shared, blocks: Blocks { files, consolidate_error } })
    }

    /// Takes the lcmem block out of each agents file of `blocks`; then
    /// consolidates MEMORY.md.
    pub fn unshare(&self, blocks: &[AgentsFile], now: Timestamp) -> Result<Blocks> {
        self.store.ensure_enabled()?;
        let files =
            blocks.iter().map(|&f| Ok((f, agents_file::remove(&self.store, f, now)?))).collect::<Result<_>>()?;
        let consolidate_error = crate::digest::consolidate(&self.store, now).err();
        Ok(Blocks { files, consolidate_error })
    }

    /// Searches the memory of the projects `which` names; drops what
    /// `padding` says is padding; then marks this project's sessions among
    /// the hits (journal entries and turns; a fact is no session's) as used
    /// at `now`.
    pub fn recall(
        &mut self,
        query: &Query,
        which: &Projects,
        padding: Padding,
        now: Timestamp,
        progress: &mut dyn Progress,
    ) -> Result<Recalled> {
        let mut answer = self.searchers.search(query, which, progress)?;
        if let Padding::DroppedUnder(share) = padding {
            let best = answer.hits.iter().map(|h| h.hit.score).fold(0.0_f64, f64::max);
            answer.hits.retain(|h| h.hit.score >= best * share);
        }
        let this = &self.store.project().slug;
        let used: Vec<String> = answer
            .hits
            .iter()
            .filter(|h| h.project == *this && h.hit.kind != HitKind::Fact)
            .map(|h| h.hit.session.clone())
            .collect();
        let marked = crate::seal::record_use(&self.store, &used, now);
        Ok(Recalled { answer, marked })
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

/// The session a catch-up sealed (or sealed again), if it did.
fn sealed_now(caught: &CaughtUp) -> Option<String> {
    let done = caught.result.as_ref().ok()?;
    let sealed = done.sealed.as_ref().filter(|s| s.wrote())?;
    Some(sealed.entry().session_id.clone())
}
