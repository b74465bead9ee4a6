//! The session table of a query: every session by ordinal, with what the
//! index knows of it. The part that depends only on the session files and the
//! index is built once and kept by a warm [`super::Searcher`] until either
//! changes; a query adds to its own copy only when it must (a file the index
//! does not cover, a session only the journal or the facts name).

use std::collections::HashMap;
use std::path::PathBuf;

use super::listing::SessionFile;
use super::open_index::OpenIndex;
use super::rank::NO_SESSION;
use super::scan::SessionMeta;

/// What recall knows of a session.
#[derive(Debug, Clone)]
pub(super) struct SessionInfo {
    pub id: String,
    /// The session file, if the store has one.
    pub path: Option<PathBuf>,
    pub meta: Option<SessionMeta>,
    /// Whether the index covers the file as it is now.
    pub indexed: bool,
    /// Units and tokens the index holds for it (when indexed).
    pub docs: u64,
    pub tokens: u64,
}

impl SessionInfo {
    pub fn new(id: &str, path: Option<PathBuf>, meta: Option<SessionMeta>, docs: u64, tokens: u64) -> SessionInfo {
        let indexed = meta.is_some();
        SessionInfo { id: id.to_string(), path, meta, indexed, docs, tokens }
    }
}

/// Sessions by ordinal, and the maps into them.
#[derive(Debug, Clone, Default)]
pub(super) struct Table {
    /// The store's files first (in id order), then sessions only the
    /// journal or the facts name.
    pub sessions: Vec<SessionInfo>,
    pub by_id: HashMap<String, u32>,
    /// For each index key, the ordinal of its file if the index is current
    /// for it, else `NO_SESSION`.
    pub key_to_session: Vec<u32>,
    /// Ordinals of the files the index does not cover.
    pub stale: Vec<u32>,
    /// Session files the index covers as they are now.
    pub indexed: usize,
}

impl Table {
    /// The table for the store's files as they are now and the open index.
    pub fn build(files: &[SessionFile], index: Option<&OpenIndex>) -> Table {
        let mut t = Table {
            sessions: Vec::with_capacity(files.len()),
            by_id: HashMap::with_capacity(files.len()),
            key_to_session: vec![NO_SESSION; index.map_or(0, |i| i.manifest.next_key as usize)],
            stale: Vec::new(),
            indexed: 0,
        };
        for (ord, f) in files.iter().enumerate() {
            t.by_id.insert(f.id.clone(), ord as u32);
            let entry = index.and_then(|i| i.manifest.files.get(&f.id)).filter(|e| f.matches(e));
            match entry {
                Some(e) => {
                    if let Some(slot) = t.key_to_session.get_mut(e.key as usize) {
                        *slot = ord as u32;
                    }
                    t.indexed += 1;
                    t.sessions.push(SessionInfo::new(
                        &f.id,
                        Some(f.path.clone()),
                        Some(e.meta.clone()),
                        e.docs,
                        e.tokens,
                    ));
                }
                None => {
                    t.stale.push(ord as u32);
                    t.sessions.push(SessionInfo::new(&f.id, Some(f.path.clone()), None, 0, 0));
                }
            }
        }
        t
    }

    /// Whether the index covers exactly the store's files as they are now.
    pub fn covered_by(&self, index: Option<&OpenIndex>) -> bool {
        index.is_some_and(|i| self.stale.is_empty() && i.manifest.files.len() == self.indexed)
    }
}
