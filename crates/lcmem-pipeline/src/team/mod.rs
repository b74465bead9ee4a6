//! Team memory that rides git: `.lcmem/team.md` in the repository.
//!
//! `lcmem share` ([`share`]) adds the project's confirmed facts and
//! conventions to the file, each with who confirmed it, when and from which
//! session, and takes out the items this person marked not true; every other
//! byte stays as the team left it. A teammate's lcmem reads the file back
//! ([`take_in_locked`]) at session start and at every consolidation: each item
//! becomes an observation with a team source (who last wrote its line and in
//! which commit, from `git blame`), shown as the team's in the digest; an item
//! that left the file loses its team source. The file is workspace content:
//! the redactor and the guard run on it like on anything else, so an item that
//! reads as an order stays withheld until the reader confirms it.
//!
//! [`agents_file`] keeps the confirmed conventions in a managed block of
//! `AGENTS.md` or `CLAUDE.md`. See docs/team.md.

pub mod agents_file;
mod file;
mod git;

use std::collections::HashSet;
use std::path::PathBuf;

use jiff::Timestamp;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::error::{Error, IoContext, Result};
use crate::facts::{Event, Fact, Fold, Observation, Origin, State, SubjectKeyJudge, TeamMark, fact_id};
use crate::lock::WriteLock;
use crate::store::Store;

pub use git::user_name;

/// The team file, relative to the repository's root.
pub const TEAM_FILE: &str = ".lcmem/team.md";

/// A team file larger than this is not read: it is not a list of conventions.
const MAX_BYTES: u64 = 1 << 20;

/// The source name of team items not committed yet.
const UNCOMMITTED: &str = "team:uncommitted";

/// The team file of `store`'s project, or `None` when the project has no
/// checkout on this machine (a store named by its slug).
pub fn team_file(store: &Store) -> Option<PathBuf> {
    let root = &store.project().root;
    (root.as_path() != store.dir()).then(|| root.join(TEAM_FILE))
}

/// What reading the team file back did.
#[derive(Debug, Default, Clone, Serialize, PartialEq)]
pub struct TakenIn {
    /// Items in the file.
    pub items: usize,
    /// Items new or moved to another commit since the last read.
    pub new: usize,
    /// Items that left the file.
    pub withdrawn: usize,
    /// New items that read as orders: withheld until the reader confirms them.
    pub withheld: usize,
}

fn seen_marker(store: &Store) -> PathBuf {
    store.cache_dir().join("team-seen")
}

/// The team file's bytes, refused when it is not a plain file (a link could
/// make the read take in a file from anywhere on the machine) or too large.
fn read_team_file(path: &std::path::Path) -> Result<Option<Vec<u8>>> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).at(path),
        Ok(meta) if !meta.is_file() => Err(Error::NotAFile {
            path: path.to_path_buf(),
            what: if meta.is_symlink() { "a symbolic link" } else { "not a file" },
        }),
        Ok(meta) if meta.len() > MAX_BYTES => {
            Err(Error::InputTooLarge { path: path.to_path_buf(), size: meta.len(), max: MAX_BYTES })
        }
        Ok(_) => std::fs::read(path).map(Some).at(path),
    }
}

fn fingerprint(bytes: Option<&[u8]>) -> String {
    bytes.map_or_else(String::new, |b| Sha256::digest(b).iter().map(|x| format!("{x:02x}")).collect())
}

/// Whether the team file changed since it was last read (cheap: one read of
/// a small file and of the marker). Session start asks this before
/// consolidating.
pub fn changed(store: &Store) -> Result<bool> {
    Ok(changed_file(store)?.is_some())
}

/// The team file's path and bytes (`None` when it is gone) when it changed
/// since it was last read; `None` when it did not.
fn changed_file(store: &Store) -> Result<Option<(PathBuf, Option<Vec<u8>>)>> {
    let Some(path) = team_file(store) else { return Ok(None) };
    let bytes = read_team_file(&path)?;
    let seen = std::fs::read_to_string(seen_marker(store)).unwrap_or_default();
    let changed = fingerprint(bytes.as_deref()) != seen.trim() && !(bytes.is_none() && seen.is_empty());
    Ok(changed.then_some((path, bytes)))
}

/// Reads the team file back into the facts log when it changed since the
/// last read: an observation for each item new or moved to another commit, an
/// unshare for each item that left it, then reconciliation (a team item may
/// replace an older one, and one that contradicts this person's fact is a
/// conflict). Idempotent: the same file gives no new events.
pub fn take_in_locked(store: &Store, lock: &WriteLock, now: Timestamp) -> Result<TakenIn> {
    let Some((_, bytes)) = changed_file(store)? else { return Ok(TakenIn::default()) };
    let text = bytes.as_deref().map(String::from_utf8_lossy).unwrap_or_default();
    let items = file::items(&text);
    let blame = if items.is_empty() { None } else { git::blame(&store.project().root, TEAM_FILE) };
    let fold = Fold::read(&store.facts_path())?;
    let guards = store.guards();
    let mut report = TakenIn { items: items.len(), ..TakenIn::default() };
    let mut events = Vec::new();
    let mut in_file = HashSet::new();
    let mut uncommitted = false;
    for item in &items {
        let text = crate::scrub::fact_text(guards, &item.text);
        let id = fact_id(&text);
        let known = fold.get(&id);
        in_file.insert(known.map_or_else(|| id.clone(), |f| f.id.clone()));
        let mark = blame.as_ref().and_then(|b| b.get(item.line - 1)).filter(|m| m.commit.is_some());
        let (team, session, at) = match mark {
            Some(m) => {
                let commit = m.commit.clone().expect("filtered");
                let session = format!("team:{}", &commit[..12]);
                (TeamMark { by: m.author.clone(), commit: Some(commit) }, session, m.at)
            }
            None => {
                let by = item.by.clone().unwrap_or_else(|| "someone".to_string());
                let on = item.on.as_deref().and_then(|d| format!("{d}T00:00:00Z").parse().ok()).unwrap_or(now);
                (TeamMark { by, commit: None }, UNCOMMITTED.to_string(), on)
            }
        };
        // This person's own fact, which they shared: it is theirs already.
        if known.is_some_and(|f| (f.confirmed || f.user_authored) && f.team_source().is_none()) {
            continue;
        }
        uncommitted |= team.commit.is_none();
        if known.and_then(Fact::team_source).is_some_and(|s| s.session == session && s.team.as_ref() == Some(&team)) {
            continue;
        }
        let instruction = (guards.is_instruction)(&text);
        report.new += 1;
        report.withheld += usize::from(instruction);
        events.push(Event::Observe(Observation {
            fact: id,
            text,
            source_session: session,
            learned_at: at,
            confidence: 0.9,
            confirmed: false,
            origin: Origin::User,
            instruction,
            workspace_echo: false,
            convention: item.convention,
            team: Some(team),
        }));
    }
    for fact in fold.facts.iter().filter(|f| f.team_source().is_some() && !in_file.contains(&f.id)) {
        report.withdrawn += 1;
        events.push(Event::Unshare { fact: fact.id.clone(), at: now });
    }
    let touched: Vec<String> = events.iter().map(|e| e.fact().to_string()).collect();
    crate::facts::append(store, lock, &events)?;
    crate::facts::append_reconciled(store, lock, &touched, &SubjectKeyJudge, now)?;
    // A line not committed yet is read again (and blamed again) until it is:
    // its provenance then names the commit.
    let seen = if uncommitted { String::new() } else { fingerprint(bytes.as_deref()) };
    crate::jsonl::atomic_write(&seen_marker(store), seen.as_bytes())?;
    Ok(report)
}

/// What `lcmem share` did.
#[derive(Debug, Default, Clone, Serialize, PartialEq)]
pub struct Shared {
    pub path: PathBuf,
    /// Whether the file was written (false when it already said it all).
    pub wrote: bool,
    /// Facts added to the file: (id, text).
    pub added: Vec<(String, String)>,
    /// Items taken out: this person marked them not true or they were replaced.
    pub dropped: Vec<String>,
    /// Items already in the file and kept as they are.
    pub kept: usize,
    /// Confirmed facts not shared because their text holds a secret.
    pub secrets: Vec<String>,
    /// Shared facts that read as orders: each teammate confirms them first.
    pub orders: usize,
}

/// Adds this project's confirmed facts and conventions to the team file,
/// `by` being who shares them; takes out the items this person marked not
/// true or that were replaced. Writes nothing when the file already says it.
pub fn share(store: &Store, by: &str, now: Timestamp) -> Result<Shared> {
    let path = team_file(store).ok_or(Error::NoCheckout)?;
    let lock = store.lock()?;
    take_in_locked(store, &lock, now)?;
    let root = &store.project().root;
    crate::confine::refuse_links_outside(root, &[root.join(".lcmem"), path.clone()])?;
    let old = read_team_file(&path)?.map(|b| String::from_utf8_lossy(&b).into_owned());
    let text = old.clone().unwrap_or_else(|| file::HEADER.to_string());
    let fold = Fold::read(&store.facts_path())?;
    let guards = store.guards();
    let mut shared = Shared { path: path.clone(), ..Shared::default() };
    let mut present = HashSet::new();
    let mut drop = Vec::new();
    for item in file::items(&text) {
        let id = fact_id(&crate::scrub::fact_text(guards, &item.text));
        match fold.get(&id) {
            Some(f) if f.not_true || f.deleted || f.state == State::Superseded => {
                drop.push(item.line);
                shared.dropped.push(item.text);
            }
            found => {
                present.insert(found.map_or(id, |f| f.id.clone()));
                shared.kept += 1;
            }
        }
    }
    let mut added = Vec::new();
    // What the person confirmed, and the conventions they stated in their own words.
    let theirs =
        |f: &Fact| f.state == State::Confirmed || (f.convention && f.state == State::Observed && f.said_by_user());
    for fact in fold.active().filter(|f| theirs(f) && !f.is_proposal() && !present.contains(&f.id)) {
        if (guards.redact)(&fact.text) != fact.text {
            shared.secrets.push(fact.id.clone());
            continue;
        }
        shared.orders += usize::from((guards.is_instruction)(&fact.text));
        let (on, session) = confirmed_when(fact);
        added.push((fact.convention, file::item_line(&fact.text, by, &crate::dates::day(on), &session, &fact.id)));
        shared.added.push((fact.id.clone(), fact.text.clone()));
    }
    let new = file::edited(&text, &drop, &added);
    if old.as_deref() != Some(new.as_str()) {
        crate::jsonl::atomic_write(&path, new.as_bytes())?;
        shared.wrote = true;
        take_in_locked(store, &lock, now)?;
    }
    Ok(shared)
}

/// When the person stood behind the fact (their confirm, edit or own
/// words), and the session it came from.
fn confirmed_when(fact: &Fact) -> (Timestamp, String) {
    let by_user = |note: &str| {
        ["confirmed by the user", "added by the user", "edited by the user"].iter().any(|p| note.starts_with(p))
    };
    let session = fact.sources.iter().filter(|s| s.team.is_none()).max_by_key(|s| s.at);
    let on = fact.history.iter().rev().find(|h| by_user(&h.note)).map(|h| h.at);
    let on = on.or_else(|| session.map(|s| s.at)).unwrap_or(fact.last_seen);
    (on, session.map_or_else(|| "written by hand".to_string(), |s| s.session.clone()))
}
