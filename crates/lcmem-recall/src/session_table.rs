//! The session table of a query: every session by ordinal, with what the
//! index knows of it. The part that depends only on the session files and the
//! index is built once and kept by a warm [`super::Searcher`] until either
//! changes; a query adds to its own copy only when it must (a file the index
//! does not cover, a session only the journal or the facts name).

use std::collections::HashMap;

use super::listing::SessionFile;
use super::open_index::OpenIndex;
use super::rank::NO_SESSION;
use super::scan::SessionMeta;

/// What recall knows of a session. Where its file is, and its header when
/// the index covers it, are not copied here: the listing and the index's
/// manifest hold them (see `Corpus::path` and `Corpus::meta`), and a fresh
/// process on a year of sessions would copy 10,000 of each for a few hits.
#[derive(Debug, Clone)]
pub(super) struct SessionInfo {
    pub id: String,
    /// Whether the store has a session file for it: the listing's file of
    /// the same ordinal.
    pub file: bool,
    /// The header of a file the index does not cover, once scanned.
    pub meta: Option<SessionMeta>,
    /// Whether the index covers the file as it is now.
    pub indexed: bool,
    /// Units and tokens the index holds for it (when indexed).
    pub docs: u64,
    pub tokens: u64,
}

impl SessionInfo {
    pub fn new(id: &str, file: bool, indexed: bool, docs: u64, tokens: u64) -> SessionInfo {
        SessionInfo { id: id.to_string(), file, meta: None, indexed, docs, tokens }
    }
}

/// Sessions by ordinal, and the maps into them.
#[derive(Debug, Clone, Default)]
pub(super) struct Table {
    /// The store's files first (in id order), then sessions only the
    /// journal or the facts name.
    pub sessions: Vec<SessionInfo>,
    /// How many of `sessions` are the store's files, in id order: found by
    /// a binary search (see [`Table::ordinal`]).
    files: usize,
    /// The ordinals of the sessions only the journal or the facts name.
    extra: HashMap<String, u32>,
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
            files: files.len(),
            extra: HashMap::new(),
            key_to_session: vec![NO_SESSION; index.map_or(0, |i| i.manifest.next_key as usize)],
            stale: Vec::new(),
            indexed: 0,
        };
        debug_assert!(files.is_sorted_by(|a, b| a.id < b.id), "the listing is in id order");
        // Both in id order: walked side by side, without a lookup per file.
        let mut entries = index.map(|i| i.manifest.files.iter().peekable());
        for (ord, f) in files.iter().enumerate() {
            let entry = entries.as_mut().and_then(|entries| {
                while entries.next_if(|(id, _)| id.as_str() < f.id.as_str()).is_some() {}
                entries.next_if(|(id, _)| **id == f.id).map(|(_, e)| e)
            });
            let entry = entry.filter(|e| f.matches(e));
            match entry {
                Some(e) => {
                    if let Some(slot) = t.key_to_session.get_mut(e.key as usize) {
                        *slot = ord as u32;
                    }
                    t.indexed += 1;
                    t.sessions.push(SessionInfo::new(&f.id, true, true, e.docs, e.tokens));
                }
                None => {
                    t.stale.push(ord as u32);
                    t.sessions.push(SessionInfo::new(&f.id, true, false, 0, 0));
                }
            }
        }
        t
    }

    /// The ordinal of session `id`, if the table has it.
    pub fn ordinal(&self, id: &str) -> Option<u32> {
        match self.sessions[..self.files].binary_search_by(|s| s.id.as_str().cmp(id)) {
            Ok(ord) => Some(ord as u32),
            Err(_) => self.extra.get(id).copied(),
        }
    }

    /// Adds a session without a transcript (one only the journal or the
    /// facts name), and returns its ordinal.
    pub fn add_named(&mut self, id: &str) -> u32 {
        let ord = self.sessions.len() as u32;
        self.sessions.push(SessionInfo::new(id, false, false, 0, 0));
        self.extra.insert(id.to_string(), ord);
        ord
    }

    /// Whether the index covers exactly the store's files as they are now.
    pub fn covered_by(&self, index: Option<&OpenIndex>) -> bool {
        index.is_some_and(|i| self.stale.is_empty() && i.manifest.files.len() == self.indexed)
    }
}
