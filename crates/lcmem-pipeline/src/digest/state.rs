//! What consolidation remembers about the MEMORY.md it wrote, and the
//! history that makes every rewrite undoable.
//!
//! `memory/MEMORY.state.json` holds the hash of the last generated file and
//! the origin of each of its lines. A file whose hash differs was edited by
//! hand, and the state says which fact or session each line came from, so
//! edits become user actions instead of being overwritten. The state also
//! carries what `lcmem digest` and `lcmem welcome` print metadata from, so
//! those stay fast: no tokenizer, no journal scan.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::markdown::Section;
use crate::error::{Error, IoContext, Result};
use crate::jsonl;
use crate::store::Store;

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum LineSection {
    Facts,
    Person,
    Pinned,
    Recently,
}

impl From<Section> for LineSection {
    fn from(s: Section) -> LineSection {
        match s {
            Section::Facts => LineSection::Facts,
            Section::Person => LineSection::Person,
            Section::Pinned => LineSection::Pinned,
            Section::Recently => LineSection::Recently,
        }
    }
}

/// One generated line and where it came from.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct StateLine {
    pub section: LineSection,
    /// A fact id or a session id.
    pub origin: String,
    pub text: String,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct DigestState {
    pub sha256: String,
    pub generated_at: Timestamp,
    /// The date of the newest source behind any line.
    pub as_of: Option<Timestamp>,
    /// o200k tokens of the generated file.
    pub tokens: usize,
    pub cap: usize,
    pub lines: Vec<StateLine>,
    /// Every session the file cites.
    pub sources: Vec<String>,
    /// The welcome strip, computed with the file.
    pub welcome: String,
    /// Sealed sessions in the journal when the file was generated: the
    /// automatic consolidation counts seals from here.
    pub sealed: usize,
    /// What the consolidation that wrote the file recorded from hand edits,
    /// for undo to take back.
    #[serde(default, skip_serializing_if = "UndoLog::is_empty")]
    pub undo: UndoLog,
}

/// The events a consolidation wrote to the facts log and the journal from
/// hand edits of MEMORY.md. Undoing it restores the previous file and takes
/// these back: an added fact is deleted, an edit is worded back.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct UndoLog {
    /// Facts that did not exist before a new line of MEMORY.md added them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added_facts: Vec<String>,
    /// Edited facts, with their wording before the edit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edited_facts: Vec<(String, String)>,
    /// Sessions whose summary was edited, with the summary before.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edited_summaries: Vec<(String, String)>,
    /// Sessions unpinned by removing their line.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unpinned: Vec<String>,
}

impl UndoLog {
    pub fn is_empty(&self) -> bool {
        self.added_facts.is_empty()
            && self.edited_facts.is_empty()
            && self.edited_summaries.is_empty()
            && self.unpinned.is_empty()
    }

    pub fn extend(&mut self, other: UndoLog) {
        self.added_facts.extend(other.added_facts);
        self.edited_facts.extend(other.edited_facts);
        self.edited_summaries.extend(other.edited_summaries);
        self.unpinned.extend(other.unpinned);
    }
}

impl DigestState {
    /// Whether the state holds anything of `session`: a line from it, a
    /// source, a line of one of `facts`, an undo record about it.
    pub fn mentions(&self, session: &str, facts: &[String]) -> bool {
        self.sources.iter().any(|s| s == session)
            || self.lines.iter().any(|l| l.origin == session || facts.contains(&l.origin))
            || self.undo.edited_summaries.iter().any(|(s, _)| s == session)
            || self.undo.unpinned.iter().any(|s| s == session)
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

pub fn state_path(store: &Store) -> PathBuf {
    store.memory_dir().join("MEMORY.state.json")
}

pub fn history_dir(store: &Store) -> PathBuf {
    store.memory_dir().join("history")
}

pub fn read_state(path: &Path) -> Result<Option<DigestState>> {
    let Some(bytes) = jsonl::read_optional(path)? else { return Ok(None) };
    match serde_json::from_slice(&bytes) {
        Ok(state) => Ok(Some(state)),
        // A damaged state only costs edit detection; it is rebuilt on the next
        // consolidation. MEMORY.md itself is never judged by it alone.
        Err(_) => Ok(None),
    }
}

pub fn write_state(path: &Path, state: &DigestState) -> Result<()> {
    let text = serde_json::to_vec_pretty(state).expect("state serialises");
    jsonl::atomic_write(path, &text)
}

/// Keeps the current MEMORY.md (and its state) as the newest history entry,
/// then trims the history to `keep` entries.
pub fn push_history(store: &Store, now: Timestamp, keep: usize) -> Result<()> {
    let current = store.memory_md_path();
    let Some(bytes) = jsonl::read_optional(&current)? else { return Ok(()) };
    let dir = history_dir(store);
    std::fs::create_dir_all(&dir).at(&dir)?;
    let stamp = now.strftime("%Y%m%dT%H%M%S%.6fZ").to_string();
    let mut name = format!("MEMORY-{stamp}");
    let mut n = 1;
    while dir.join(format!("{name}.md")).exists() {
        n += 1;
        name = format!("MEMORY-{stamp}-{n}");
    }
    jsonl::atomic_write(&dir.join(format!("{name}.md")), &bytes)?;
    if let Some(state) = jsonl::read_optional(&state_path(store))? {
        jsonl::atomic_write(&dir.join(format!("{name}.state.json")), &state)?;
    }
    let entries = history_entries(store)?;
    for old in entries.iter().take(entries.len().saturating_sub(keep.max(1))) {
        remove_entry(old)?;
    }
    Ok(())
}

/// History entries (the `.md` files), oldest first.
pub fn history_entries(store: &Store) -> Result<Vec<PathBuf>> {
    let dir = history_dir(store);
    let mut files = Vec::new();
    match std::fs::read_dir(&dir) {
        Ok(entries) => {
            for entry in entries {
                let path = entry.at(&dir)?.path();
                if path.extension().is_some_and(|e| e == "md") {
                    files.push(path);
                }
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::Io { path: dir, source: e }),
    }
    files.sort();
    Ok(files)
}

/// Removes the lines of fact `id` from MEMORY.md and from every history
/// snapshot (the line that carries its `[id]`, and the lines the snapshot's
/// state says came from it), keeping each state's hash true to its file:
/// what a physical delete removed must not come back with undo. Returns how
/// many files changed. Call it under the write lock.
pub(crate) fn purge_fact(store: &Store, id: &str) -> Result<usize> {
    let marker = format!("[{id}]");
    let mut pairs = vec![(store.memory_md_path(), state_path(store))];
    pairs.extend(history_entries(store)?.into_iter().map(|md| {
        let state = md.with_extension("state.json");
        (md, state)
    }));
    let mut changed = 0;
    for (md, state_file) in pairs {
        let Some(bytes) = jsonl::read_optional(&md)? else { continue };
        let text = String::from_utf8_lossy(&bytes);
        let mut state = read_state(&state_file).ok().flatten();
        let from_fact: Vec<String> = state
            .as_ref()
            .map(|s| s.lines.iter().filter(|l| l.origin == id).map(|l| l.text.clone()).collect())
            .unwrap_or_default();
        let kept: String = text
            .split_inclusive('\n')
            .filter(|line| {
                let body = line.trim_end_matches(['\n', '\r']);
                !body.contains(&marker) && !from_fact.iter().any(|t| t == body)
            })
            .collect();
        if kept.len() == text.len() {
            continue;
        }
        jsonl::atomic_write(&md, kept.as_bytes())?;
        if let Some(state) = state.as_mut() {
            state.lines.retain(|l| l.origin != id);
            state.sha256 = sha256_hex(kept.as_bytes());
            write_state(&state_file, state)?;
        }
        changed += 1;
    }
    Ok(changed)
}

pub fn remove_entry(md: &Path) -> Result<()> {
    std::fs::remove_file(md).at(md)?;
    let state = md.with_extension("state.json");
    if state.exists() {
        std::fs::remove_file(&state).at(&state)?;
    }
    Ok(())
}
