//! Sessions that ended without anyone saying so.
//!
//! An agent does not always tell lcmem that a session ended: headless Claude
//! Code (`claude -p`) fires SessionEnd in a minority of runs, a killed
//! terminal fires nothing, and Stop fires before the turn's last lines are
//! written. So a session is taken to be over once its transcript has been
//! quiet for `memory.quiet_secs`, and whatever seals it (a later session's
//! start or stop, `lcmem catch-up`, `lcmem seal`, the watcher) first reads
//! the transcript to its end: a seal never judges half a session.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use jiff::Timestamp;

use crate::error::Result;
use crate::import::{self, Format, Known};
use crate::ingest::{Ingested, ingest, unsealed};
use crate::store::Store;

/// What a catch-up found for one transcript.
#[derive(Debug)]
pub struct CaughtUp {
    pub transcript: PathBuf,
    pub session: String,
    pub result: Result<Ingested>,
}

/// Where a catch-up looks, and what it leaves alone.
#[derive(Debug, Clone)]
pub struct Look {
    /// A transcript unchanged for this long is taken to have ended.
    pub quiet: Duration,
    /// The transcript of the session that is running now.
    pub skip: Option<PathBuf>,
    /// The agent's folder of this project's transcripts, with their format:
    /// a session whose hooks never got as far as an import (a headless run
    /// exits before its asynchronous Stop hook) is found there.
    pub folder: Option<(PathBuf, Format)>,
}

/// How recent a transcript lcmem never saw must be to be taken in by a
/// catch-up: one that ran while the hooks were installed, not the user's
/// older history (which `lcmem import --all` takes in on purpose).
pub const UNSEEN_WITHIN: Duration = Duration::from_secs(24 * 3600);

/// Takes in and seals every transcript whose session ended and is not
/// sealed, went on since it was sealed, or grew past what was imported: the
/// ones the store knows, and the recent ones in [`Look::folder`] it never
/// saw. A transcript that fails does not stop the others.
pub fn catch_up(store: &Store, look: &Look, now: Timestamp) -> Result<Vec<CaughtUp>> {
    store.ensure_enabled()?;
    let due: HashSet<String> = unsealed(store)?.into_iter().collect();
    let mut out = Vec::new();
    for (known, format) in candidates(store, look) {
        if !ended(&known, &due, look.quiet) {
            continue;
        }
        let result = ingest(store, format, &known.path, true, now);
        // A forgotten session's transcript stays out, without a complaint.
        if matches!(result, Err(crate::Error::SessionForgotten { .. })) {
            continue;
        }
        out.push(CaughtUp { transcript: known.path, session: known.session, result });
    }
    Ok(out)
}

/// Whether a catch-up has anything to do: a cheap look (the transcripts'
/// sizes and times first, the journal only when one of them is quiet) for
/// the hooks, which run at every turn.
pub fn due(store: &Store, look: &Look) -> Result<bool> {
    let quiet_ones: Vec<Known> = candidates(store, look)
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| ended(k, &HashSet::from([k.session.clone()]), look.quiet))
        .collect();
    if quiet_ones.is_empty() {
        return Ok(false);
    }
    let due: HashSet<String> = unsealed(store)?.into_iter().collect();
    Ok(quiet_ones.iter().any(|k| ended(k, &due, look.quiet)))
}

/// The transcripts a catch-up looks at: those the store knows, then the
/// folder's recent ones it never saw (as if imported up to byte 0), all but
/// the running session's.
fn candidates(store: &Store, look: &Look) -> Vec<(Known, Format)> {
    let mut out: Vec<(Known, Format)> = import::known(store).into_iter().map(|k| (k.clone(), k.format)).collect();
    if let Some((folder, format)) = &look.folder
        && let Ok(entries) = std::fs::read_dir(folder)
    {
        let recent = |path: &Path| std::fs::metadata(path).is_ok_and(|m| idle(&m) < UNSEEN_WITHIN);
        let mut unseen: Vec<PathBuf> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl") && p.is_file())
            // A subagent's transcript is part of its parent's session.
            .filter(|p| !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("agent-")))
            .filter(|p| !out.iter().any(|(k, _)| &k.path == p) && recent(p))
            .collect();
        unseen.sort();
        let unseen =
            unseen.into_iter().map(|path| Known { path, format: *format, session: String::new(), converted: 0 });
        out.extend(unseen.map(|k| (k, *format)));
    }
    out.retain(|(k, _)| look.skip.as_ref().is_none_or(|s| *s != k.path));
    out
}

/// Whether a transcript's session is over and waits for a seal.
fn ended(known: &Known, due: &HashSet<String>, quiet: Duration) -> bool {
    let Ok(meta) = std::fs::metadata(&known.path) else { return false };
    let grew = meta.len() != known.converted;
    meta.is_file() && (grew || due.contains(&known.session)) && idle(&meta) >= quiet
}

/// How long ago a file last changed (nothing, for a time in the future).
fn idle(meta: &std::fs::Metadata) -> Duration {
    meta.modified().map_or(Duration::ZERO, crate::ambient::since)
}

/// The sessions whose transcript changed less than `quiet` ago, with how long
/// ago: they are still going. The store's transcript states are read once.
pub fn still_going(store: &Store, quiet: Duration) -> std::collections::HashMap<String, Duration> {
    let mut going = std::collections::HashMap::new();
    for known in import::known(store) {
        let Ok(meta) = std::fs::metadata(&known.path) else { continue };
        let idle = idle(&meta);
        if idle < quiet {
            let at = going.entry(known.session).or_insert(idle);
            *at = (*at).min(idle);
        }
    }
    going
}
