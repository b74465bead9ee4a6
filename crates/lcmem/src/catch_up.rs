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

use crate::agents::Source;
use crate::error::Result;
use crate::extract::offline::OfflineExtractor;
use crate::import::{self, Format, Known};
use crate::ingest::{Ingested, ingest, unsealed};
use crate::store::Store;

/// Held while a catch-up runs (one at a time per project): a session start
/// waits a little for it, so that what it seals reaches the digest the new
/// session is given.
#[derive(Debug)]
pub struct Running {
    _lock: Option<crate::lock::WriteLock>,
}

fn running_path(store: &Store) -> PathBuf {
    store.dir().join(".catching-up")
}

/// Marks a catch-up as running, waiting for one that already is. A project
/// with no store yet gets none for it: a catch-up with nothing to take in
/// leaves no trace.
/// Whether memory is on is the caller's to ask first (`Memory::catch_up`).
pub fn running(store: &Store) -> Result<Running> {
    if !store.dir().exists() {
        return Ok(Running { _lock: None });
    }
    Ok(Running { _lock: Some(crate::lock::WriteLock::acquire(&running_path(store))?) })
}

/// Whether a catch-up is running now.
pub fn is_running(store: &Store) -> bool {
    let path = running_path(store);
    path.exists() && matches!(crate::lock::WriteLock::try_acquire(&path), Ok(None))
}

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
    /// A folder of this project's transcripts named by hand, with their
    /// format: every transcript directly in it is looked at.
    pub folder: Option<(PathBuf, Format)>,
    /// The agents' transcript folders ([`crate::agents::agent_folders`]),
    /// searched for this project's transcripts the store never saw: a
    /// session whose hooks never fired (a headless run that exits before its
    /// asynchronous Stop hook, an agent whose hooks were not installed yet)
    /// is found there.
    pub agents: Vec<(&'static dyn Source, PathBuf)>,
    /// How recently such a transcript must have changed to be taken in
    /// (`None`: whenever): [`UNSEEN_WITHIN`] for the hooks, which run at every
    /// turn, and any time for a catch-up asked for by hand.
    pub unseen_within: Option<Duration>,
}

impl Look {
    /// How far back the hooks look for a transcript no hook saw
    /// ([`UNSEEN_WITHIN`]).
    pub const UNSEEN_WITHIN: Duration = UNSEEN_WITHIN;

    /// A look at the transcripts the store knows, and at recent ones of the
    /// project in `agents`' folders, as the hooks make it.
    pub fn hooks(quiet: Duration, skip: Option<PathBuf>, agents: Vec<(&'static dyn Source, PathBuf)>) -> Look {
        Look { quiet, skip, folder: None, agents, unseen_within: Some(UNSEEN_WITHIN) }
    }
}

/// How recent a transcript lcmem never saw must be to be taken in by the
/// hooks' catch-up: one that ran while the hooks were installed. A catch-up
/// run by hand takes the project's older ones in too.
pub const UNSEEN_WITHIN: Duration = Duration::from_secs(24 * 3600);

/// Takes in and seals every transcript whose session ended and is not
/// sealed, went on since it was sealed, or grew past what was imported: the
/// ones the store knows, and the recent ones in [`Look::folder`] it never
/// saw. A transcript that fails does not stop the others.
///
/// The seals are the rules' (milliseconds each), so that what they write
/// reaches the digest a waiting session start gives; with a model lane,
/// [`crate::ingest::refine`] then lets the model revise them.
pub fn catch_up(store: &Store, look: &Look, now: Timestamp) -> Result<Vec<CaughtUp>> {
    let due: HashSet<String> = unsealed(store)?.into_iter().collect();
    let mut out = Vec::new();
    for (known, format) in candidates(store, look) {
        if !ended(&known, &due, look.quiet) {
            continue;
        }
        let result = ingest(store, format, &known.path, Some(&OfflineExtractor), now);
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
/// project's ones in the folders it looks in that the store never saw (as if
/// imported up to byte 0), all but the running session's.
fn candidates(store: &Store, look: &Look) -> Vec<(Known, Format)> {
    let mut out: Vec<(Known, Format)> = import::known(store).into_iter().map(|k| (k.clone(), k.format)).collect();
    for (path, format) in unseen(store, look, &out) {
        out.push((Known { path, format, session: String::new(), converted: 0 }, format));
    }
    out.retain(|(k, _)| look.skip.as_ref().is_none_or(|s| *s != k.path));
    out
}

/// The project's transcripts in the folders `look` names that none of
/// `known` is, and that changed within its window.
fn unseen(store: &Store, look: &Look, known: &[(Known, Format)]) -> Vec<(PathBuf, Format)> {
    let new = |path: &Path| !known.iter().any(|(k, _)| k.path == path) && look.skip.as_deref() != Some(path);
    let recent = |path: &Path| look.unseen_within.is_none_or(|w| std::fs::metadata(path).is_ok_and(|m| idle(&m) < w));
    let mut out: Vec<(PathBuf, Format)> = Vec::new();
    if let Some((folder, format)) = &look.folder
        && let Some(source) = format.source()
    {
        // The agent's own rule for which files are sessions (a subagent's
        // transcript is part of its parent's session).
        let sessions = import::discover(source, folder).unwrap_or_default();
        out.extend(sessions.into_iter().filter(|p| new(p) && recent(p)).map(|p| (p, *format)));
    }
    let root = &store.project().root;
    for (source, folder) in &look.agents {
        let found = import::project_transcripts(*source, folder, root, look.unseen_within, &new);
        out.extend(found.into_iter().map(|f| (f.path, Format::of(f.source))));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The project's transcripts in the agents' folders that the store never took
/// in, whatever their age (for `doctor`): not followed by an import, and
/// whose session is neither in the store nor forgotten.
pub fn never_taken_in(store: &Store, agents: &[(&'static dyn Source, PathBuf)]) -> Vec<import::Found> {
    let known: HashSet<PathBuf> = import::known(store).into_iter().map(|k| k.path).collect();
    let stored: HashSet<String> = store.session_ids().unwrap_or_default().into_iter().collect();
    let root = &store.project().root;
    let mut out = Vec::new();
    for (source, folder) in agents {
        let found = import::project_transcripts(*source, folder, root, None, &|path| !known.contains(path));
        out.extend(found.into_iter().filter(|f| match &f.session {
            Some(id) => !stored.contains(id) && !store.tombstone(id).is_ok_and(|t| t.is_some()),
            None => true,
        }));
    }
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

/// How long a transcript must keep its size before a finished session is
/// read: the agent may still be writing its last lines when SessionEnd fires.
const STILL_FOR: Duration = Duration::from_millis(500);
/// The longest wait for a transcript to be still.
const STILL_AT_MOST: Duration = Duration::from_secs(15);

/// Waits until the transcript at `path` has kept its size for half a
/// second, at most 15 s.
pub fn wait_until_still(path: &Path) {
    let size = || std::fs::metadata(path).map(|m| m.len()).ok();
    let start = std::time::Instant::now();
    let (mut last, mut since) = (size(), std::time::Instant::now());
    while start.elapsed() < STILL_AT_MOST {
        std::thread::sleep(Duration::from_millis(100));
        let now = size();
        if now != last {
            (last, since) = (now, std::time::Instant::now());
        } else if since.elapsed() >= STILL_FOR {
            return;
        }
    }
}
