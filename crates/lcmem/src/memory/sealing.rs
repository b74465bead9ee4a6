//! Closing sessions: [`Memory::seal`] for the sessions asked, and
//! [`Memory::catch_up`] for those that ended without a word.

use std::path::Path;

use jiff::Timestamp;

use super::Memory;
use crate::catch_up::{CaughtUp, Look};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::import::Format;
use crate::journal::SealKind;
use crate::recall::Progress;
use crate::seal::SealOutcome;

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

impl Memory {
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
        let quiet = self.on()?.quiet();
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

    /// Whether a catch-up is due: memory is on, and a transcript `look`
    /// finds has gone quiet and holds what is not sealed. Cheap enough for
    /// every hook.
    pub fn catch_up_due(&self, look: &Look) -> bool {
        self.store.settings().is_ok_and(|s| s.memory_enabled)
            && crate::catch_up::due(&self.store, look).unwrap_or(false)
    }

    /// Whether a catch-up of this project runs now, in any process.
    pub fn catching_up(&self) -> bool {
        crate::catch_up::is_running(&self.store)
    }

    /// Seals what ended: first `ended` (the transcript a SessionEnd handed
    /// over, in its agent's format; read once it is still), then every
    /// transcript `look` finds quiet. One catch-up runs at a time per project
    /// (a session start waits a little for it); the model lane reads again
    /// what the rules sealed once the digest has it, and with an embedding
    /// model what came in is embedded here, so that no recall waits for it.
    /// Memory switched off: [`Error::MemoryOff`], and nothing is read.
    pub fn catch_up(&self, ended: Option<(Format, &Path)>, look: &Look, now: Timestamp) -> Result<CatchUpRun> {
        self.on()?;
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
        let embed_error = if changed { self.embed_new(&mut crate::recall::Quiet).err() } else { None };
        Ok(CatchUpRun { done, refined, embed_error })
    }
}

/// The session a catch-up sealed (or sealed again), if it did.
fn sealed_now(caught: &CaughtUp) -> Option<String> {
    let done = caught.result.as_ref().ok()?;
    let sealed = done.sealed.as_ref().filter(|s| s.wrote())?;
    Some(sealed.entry().session_id.clone())
}
