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
use std::time::{Duration, SystemTime};

use jiff::Timestamp;

use crate::error::Result;
use crate::import::{self, Known};
use crate::ingest::{Ingested, ingest, unsealed};
use crate::store::Store;

/// What a catch-up found for one transcript.
#[derive(Debug)]
pub struct CaughtUp {
    pub transcript: PathBuf,
    pub session: String,
    pub result: Result<Ingested>,
}

/// Takes in and seals every transcript the store knows whose session is not
/// sealed, or went on since it was sealed, or whose transcript grew past
/// what was imported, once the transcript has not changed for `quiet`. The
/// transcript `skip` (the session that is running now) is left alone. A
/// transcript that fails does not stop the others.
pub fn catch_up(store: &Store, quiet: Duration, skip: Option<&Path>, now: Timestamp) -> Result<Vec<CaughtUp>> {
    store.ensure_enabled()?;
    let due: HashSet<String> = unsealed(store)?.into_iter().collect();
    let mut out = Vec::new();
    for known in import::known(store) {
        if skip.is_some_and(|s| s == known.path) || !ended(&known, &due, quiet) {
            continue;
        }
        let result = ingest(store, known.format, &known.path, true, now);
        out.push(CaughtUp { transcript: known.path, session: known.session, result });
    }
    Ok(out)
}

/// Whether a catch-up has anything to do: a cheap look (the transcripts'
/// sizes and times first, the journal only when one of them is quiet) for
/// the hooks, which run at every turn.
pub fn due(store: &Store, quiet: Duration, skip: Option<&Path>) -> Result<bool> {
    let quiet_ones: Vec<Known> = import::known(store)
        .into_iter()
        .filter(|k| skip.is_none_or(|s| s != k.path))
        .filter(|k| ended(k, &HashSet::from([k.session.clone()]), quiet))
        .collect();
    if quiet_ones.is_empty() {
        return Ok(false);
    }
    let due: HashSet<String> = unsealed(store)?.into_iter().collect();
    Ok(quiet_ones.iter().any(|k| ended(k, &due, quiet)))
}

/// Whether a known transcript's session is over and waits for a seal.
fn ended(known: &Known, due: &HashSet<String>, quiet: Duration) -> bool {
    let Ok(meta) = std::fs::metadata(&known.path) else { return false };
    let grew = meta.len() != known.converted;
    let idle = meta.modified().ok().and_then(|m| SystemTime::now().duration_since(m).ok()).unwrap_or_default();
    meta.is_file() && (grew || due.contains(&known.session)) && idle >= quiet
}

/// Reads the transcripts `session` was imported from to their end, so that
/// a seal judges the whole session. A transcript that is gone leaves the
/// stored copy as it is.
pub fn read_to_end(store: &Store, session: &str) -> Result<()> {
    for known in import::known(store).into_iter().filter(|k| k.session == session) {
        let grew = std::fs::metadata(&known.path).is_ok_and(|m| m.is_file() && m.len() != known.converted);
        if grew {
            import::import_growing(store, known.format, &known.path)?;
        }
    }
    Ok(())
}

/// How long ago the transcript of `session` last changed, when that is less
/// than `quiet`: the session is still going. `None` for a session that is
/// quiet, or that has no transcript the store knows.
pub fn still_going(store: &Store, session: &str, quiet: Duration) -> Option<Duration> {
    import::known(store)
        .into_iter()
        .filter(|k| k.session == session)
        .filter_map(|k| std::fs::metadata(&k.path).ok()?.modified().ok())
        .filter_map(|m| SystemTime::now().duration_since(m).ok())
        .filter(|idle| *idle < quiet)
        .min()
}
