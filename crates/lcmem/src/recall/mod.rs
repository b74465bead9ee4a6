//! Recall: cited, ranked search over everything the project remembers.
//!
//! Three kinds of things are searched:
//!
//! - every message and tool action of every session transcript in the store
//!   (all roles, tool output included; sealed or not, archived included);
//! - every journal entry (title, summary, files, decisions);
//! - every fact of the full fold, not only the ones in the digest: a fact that
//!   decayed out of MEMORY.md, an inferred one, a superseded one and an
//!   instruction withheld for confirmation are all still findable, each
//!   labelled with its state. Only what the user said is not true, and what
//!   the user deleted, stays out.
//!
//! Ranking is lexical (BM25 over a code-aware tokenisation, see
//! [`tokenize`]), refined by the turns around a hit, by how well the whole
//! session matches, and by one round of pseudo-relevance feedback; see
//! [`rank`] and `docs/recall.md`.
//!
//! The transcripts can be large, so they are indexed in a derived tantivy
//! index under the project's `cache/` folder ([`index`]). The index is only
//! ever a cache: a session file that is newer than the index (or that the
//! index has never seen) is scanned from disk before answering, with the same
//! tokeniser and the same statistics, so the answer does not depend on
//! whether the index exists. The journal and the facts are read from their
//! files (a warm searcher re-reads them when either changes). Recall itself never writes memory; it refreshes the cache
//! when memory is on and the cache folder is writable.

mod build;
mod hit;
pub mod index;
mod listing;
mod memory_index;
mod os;
mod postings;
mod query;
mod rank;
mod resident;
mod scan;
mod session_table;
pub mod tokenize;
mod when;
mod words;

use std::path::PathBuf;

use jiff::Timestamp;
use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::store::Store;

pub use hit::{Hit, HitState, SessionStatus};
pub use index::{IndexReport, rebuild_index, refresh_index};
pub use rank::Tuning;

/// What a hit is.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum HitKind {
    /// One message or tool action of a session transcript.
    Turn,
    /// A journal entry: what a sealed session achieved.
    Journal,
    /// A fact from `facts.jsonl`, in whatever state it is.
    Fact,
}

impl HitKind {
    pub const ALL: [HitKind; 3] = [HitKind::Turn, HitKind::Journal, HitKind::Fact];

    pub fn as_str(self) -> &'static str {
        match self {
            HitKind::Turn => "turn",
            HitKind::Journal => "journal",
            HitKind::Fact => "fact",
        }
    }
}

impl std::str::FromStr for HitKind {
    type Err = Error;
    fn from_str(s: &str) -> Result<HitKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "turn" | "turns" => Ok(HitKind::Turn),
            "journal" => Ok(HitKind::Journal),
            "fact" | "facts" => Ok(HitKind::Fact),
            other => Err(Error::Invalid(format!("unknown kind {other:?}: use turn, journal or fact"))),
        }
    }
}

impl std::fmt::Display for HitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A search. Words are matched after stemming, in any order; `"quoted
/// words"` must appear together, in that order.
#[derive(Debug, Clone)]
pub struct Query {
    pub text: String,
    /// At most this many hits.
    pub limit: usize,
    /// Which kinds to return; empty means all.
    pub kinds: Vec<HitKind>,
    /// Only hits at or after this time.
    pub since: Option<Timestamp>,
    /// Only hits at or before this time.
    pub until: Option<Timestamp>,
    /// Ranking constants. The defaults are the ones `docs/benchmarks.md`
    /// measures; the field exists so that the benchmark can show what each
    /// refinement is worth.
    pub tuning: Tuning,
}

impl Query {
    pub fn new(text: impl Into<String>) -> Query {
        Query { text: text.into(), limit: 10, kinds: Vec::new(), since: None, until: None, tuning: Tuning::default() }
    }

    fn wants(&self, kind: HitKind) -> bool {
        self.kinds.is_empty() || self.kinds.contains(&kind)
    }
}

/// Hears how far a long job (building the index) has got. The engine does no
/// terminal output of its own; the command line draws a progress bar.
pub trait Progress: Send {
    /// A job of `total` units (bytes of session files) begins.
    fn start(&mut self, _what: &str, _total: u64) {}
    fn advance(&mut self, _units: u64) {}
    fn finish(&mut self) {}
}

/// A [`Progress`] that ignores everything.
pub struct Quiet;
impl Progress for Quiet {}

/// How a recall was answered, for `--json` consumers and the benchmarks.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Coverage {
    /// Session files answered from the index.
    pub indexed_sessions: usize,
    /// Session files read from disk because the index did not cover them.
    pub scanned_sessions: usize,
    /// Whether the index was brought up to date first.
    pub index_updated: bool,
}

/// The answer to a [`Query`].
#[derive(Debug, Clone)]
pub struct Answer {
    pub hits: Vec<Hit>,
    pub coverage: Coverage,
    /// Files that could not be searched at all, and why.
    pub diagnostics: Vec<Diagnostic>,
}

/// Searches the project's memory. Opens (and, when memory is on, refreshes)
/// the index, then ranks; see [`Searcher`] to answer many queries in one
/// process without reopening the index each time.
pub fn recall(store: &Store, query: &Query) -> Result<Answer> {
    Searcher::new(store.clone()).search(query, &mut Quiet)
}

/// A recall session over one store: keeps the index open between queries and
/// reopens it only when a commit changed it.
pub struct Searcher {
    store: Store,
    index: Option<index::OpenIndex>,
    /// The session files and, where the system allows, a watch on their
    /// folder that keeps the list current (see [`listing`]).
    listing: listing::Listing,
    /// The session table built from the listing and the index, with the
    /// listing generation and the index opening it was built for.
    table: Option<((u64, u64), session_table::Table)>,
    /// The journal and the facts fold, with the state of their files when
    /// read.
    memory: Option<(scan::MemoryStamp, scan::Memory)>,
    /// Counts index openings, so that the table follows a reopened index.
    opened: u64,
    /// Whether a stale index may be brought up to date before answering.
    update: bool,
}

impl Searcher {
    pub fn new(store: Store) -> Searcher {
        Searcher {
            store,
            index: None,
            listing: listing::Listing::default(),
            table: None,
            memory: None,
            opened: 0,
            update: true,
        }
    }

    /// Never write the cache, even when memory is on: answer from what is
    /// there and scan the rest.
    pub fn read_only(mut self) -> Searcher {
        self.update = false;
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Answers one query. Writes nothing but the cache, and that only when
    /// memory is on and the searcher is not read-only.
    pub fn search(&mut self, query: &Query, progress: &mut dyn Progress) -> Result<Answer> {
        if query.limit == 0 {
            return Err(Error::Invalid("the limit must be at least 1".into()));
        }
        if let (Some(since), Some(until)) = (query.since, query.until)
            && since > until
        {
            return Err(Error::Invalid(format!("--since {since} is after --until {until}: nothing can match")));
        }
        let answer = query::search(self, query, progress);
        if self.index.is_some() {
            resident::trim(&index_dir(&self.store));
        }
        answer
    }
}

/// Where the index of a store lives: `cache/recall-v1/`.
pub fn index_dir(store: &Store) -> PathBuf {
    store.cache_dir().join(index::DIR_NAME)
}
