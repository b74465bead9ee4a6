//! Building the semantic cache, outside any query: `lcmem model install`,
//! `lcmem index rebuild` and every command that writes sessions or memory
//! (import, seal, catch-up, `watch`, the MCP server's writes) embed what has
//! no vector yet. A query only reads the cache ([`super::Lane::sync`]); the
//! turns it does not cover are found by words alone.
//!
//! One builder at a time per store, under a lock of its own beside the cache
//! (not the project's write lock: a first build can take hours, and seals
//! must go on meanwhile). A second builder finds the lock held and leaves the
//! work to the first. A build writes what it has at checkpoints, so an
//! interrupted one (Ctrl-C, a killed process) is resumed by the next, which
//! embeds only what is still missing.

use std::path::Path;
use std::time::Instant;

use serde::Serialize;

use super::super::build::Progress;
use super::super::listing::list_sessions;
use super::super::memory_index::{Memory, MemoryFiles};
use super::cache::{self, Vectors};
use super::model::Encoder;
use super::status::{Reporter, lock_path};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::lock::WriteLock;
use crate::store::Store;

/// What bringing the semantic cache up to date did.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
pub struct EmbedReport {
    /// Texts embedded now (turns, journal entries, facts).
    pub embedded: usize,
    /// Session files read for their turns.
    pub sessions_read: usize,
    /// Turns with a vector afterwards.
    pub turns: usize,
    /// Seconds spent, model load included.
    pub seconds: f64,
    /// Another process was building the cache: this one left it to it.
    pub busy: bool,
    /// The cache was cleared while this build ran (a session was forgotten):
    /// what it embedded was dropped, not written.
    pub cleared: bool,
    /// Session files that could not be read (not embedded; recall reports
    /// them too).
    #[serde(skip)]
    pub diagnostics: Vec<Diagnostic>,
}

impl EmbedReport {
    /// Texts embedded a second.
    pub fn rate(&self) -> f64 {
        if self.seconds > 0.0 { self.embedded as f64 / self.seconds } else { 0.0 }
    }
}

/// Brings the cache up to date with the model `recall.model` names; `None`
/// when no model is set. Memory switched off for the project: nothing. The
/// cache is written under a lock of its own, not the project's write lock,
/// so this asks whether memory is on itself.
pub fn embed(store: &Store, progress: &mut dyn Progress) -> Result<Option<EmbedReport>> {
    if store.ensure_enabled().is_err() {
        return Ok(None);
    }
    let Some(model) = store.settings()?.recall_model else { return Ok(None) };
    embed_with(store, &store.home().join(model), progress).map(Some)
}

/// Brings the cache up to date with the model in `dir`: embeds every turn,
/// journal entry and fact that has no vector, writing as it goes.
/// While it embeds, it reports how far it is for other processes to read
/// ([`super::embed_state`]).
pub fn embed_with(store: &Store, dir: &Path, progress: &mut dyn Progress) -> Result<EmbedReport> {
    let started = Instant::now();
    let Some(lock) = WriteLock::try_acquire(&lock_path(store))? else {
        return Ok(EmbedReport { busy: true, ..EmbedReport::default() });
    };
    let mut reporter = Reporter::new(store, progress);
    let built = build(store, dir, &lock, &mut reporter, started);
    match &built {
        Ok(_) => reporter.ended(),
        Err(e) => reporter.failed(e),
    }
    built
}

/// [`embed_with`]'s work, under the builder's lock.
fn build(
    store: &Store,
    dir: &Path,
    lock: &WriteLock,
    progress: &mut dyn Progress,
    started: Instant,
) -> Result<EmbedReport> {
    let folder = super::cache_dir(store);
    let files = list_sessions(store)?;
    let memory = Memory::read(&MemoryFiles::of(store))?;
    let texts: Vec<String> = memory.analyzed.units.iter().map(|&s| memory.text(s)).collect();
    // Most writes (a seal, an import of nothing new) leave nothing to embed:
    // then the model's weights are not loaded at all.
    let (identity, dim) = Encoder::identify(dir)?;
    if let Some(turns) = cache::up_to_date(&folder, &identity, dim, &files, &texts) {
        return Ok(EmbedReport { turns, seconds: started.elapsed().as_secs_f64(), ..EmbedReport::default() });
    }
    let encoder = Encoder::load(dir)?;
    // Read under the lock: what an earlier builder wrote is kept.
    let mut vectors = Vectors::load(&folder, &encoder);
    let mut diagnostics = Vec::new();
    // Each write under the project's write lock: a forget, which clears the
    // cache folder under it, comes wholly before or after. After one, this
    // build's lock file is gone, and so is what it read: nothing is written.
    let mut cleared = false;
    let mut save = |v: &Vectors| -> Result<()> {
        let _write = store.lock()?;
        if cleared || !lock.still_at_its_path() {
            cleared = true;
            return Ok(());
        }
        v.save(&folder)
    };
    let done = vectors.refresh(&encoder, &files, &texts, Some(&mut save), progress, &mut diagnostics)?;
    let turns = vectors.sessions.values().map(|s| s.turns.len()).sum();
    Ok(EmbedReport {
        embedded: done.embedded,
        sessions_read: done.sessions_read,
        turns,
        seconds: started.elapsed().as_secs_f64(),
        busy: false,
        cleared,
        diagnostics,
    })
}
