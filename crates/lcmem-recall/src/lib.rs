//! Recall: cited, ranked search over everything the project remembers.
//!
//! A crate of its own, standing on the store (`lcmem-store`) and on nothing
//! else of the engine, so that the search index (tantivy) and the embedding
//! model (candle) are dependencies of what searches and of nothing else: the
//! store's crate and the pipeline's code never build them. The engine
//! (`lcmem`) names it `lcmem::recall`.
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
//! files (a warm searcher re-reads them when either changes). Recall itself
//! never writes memory; it refreshes the cache when memory is on and the cache
//! folder is writable. Nor does it do anything OS-specific unless asked: the
//! watch on the sessions folder and the trimming of mapped index pages are for
//! long-lived front-ends, which ask for them ([`Searcher::long_lived`]).
//!
//! The modules, each using only the ones above it:
//!
//! - `words`, [`tokenize`], `when`, `kind`: word lists, the analyser,
//!   dates in queries, what a hit is;
//! - `scan`: reading session files, journal entries and facts into units;
//! - `os`: the folder watch and page trimming, with all of recall's
//!   `unsafe`;
//! - `schema`, `listing`, `open_index`: the index's format, the session
//!   files as they are now, the index opened for reading;
//! - `memory_index`: the journal and facts, analysed and indexed in memory;
//! - `build`: writing the index;
//! - `postings`: reading the index's postings for a query;
//! - `fusion`: how the semantic lane's ranking joins the lexical one;
//! - `rank`: scoring; `session_table`: every session of a query;
//! - `corpus`: what a query reads, and gathering candidates from it;
//! - `hit`: hits, citations and snippets;
//! - `query`: one query end to end, and what a searcher keeps warm;
//! - this module: [`Searcher`], and the public API.

// Unsafe code only in `os`, where the operating system is asked for
// something std does not offer.
#![deny(unsafe_code)]

// The store's modules, named as recall named them when it lived in the
// engine crate.
use lcmem_store::{ambient, dates, diagnostic, error, facts, journal, jsonl, lock, own_output, project, scrub};
use lcmem_store::{session, store, word_lists};

mod across;
mod build;
mod corpus;
mod echo;
mod fusion;
mod hit;
mod intent;
mod kind;
mod listing;
mod manifest;
mod memory_index;
mod open_index;
#[allow(unsafe_code)]
// inotify, madvise and the model's mapping: the engine's only unsafe code, each block with its SAFETY note
mod os;
mod postings;
mod prune;
mod query;
mod query_terms;
mod rank;
mod scan;
mod schema;
pub mod semantic;
mod session_table;
mod spread;
pub mod tokenize;
mod warm;
mod when;

use crate::error::{Error, QueryProblem, Result};
use crate::store::Store;

pub use crate::journal::SessionStatus;
pub use across::{Across, AcrossAnswer, ProjectHit, Projects};
pub use build::{IndexReport, Progress, Quiet, rebuild_index, refresh_index};
pub use fusion::Fusion;
pub use hit::{Echo, Hit, HitState};
pub use kind::HitKind;
pub use query::{Answer, Query};
pub use rank::Tuning;
pub use schema::index_dir;
pub use semantic::SemanticCoverage;
pub use warm::{Coverage, ModelChoice};

/// The derived index as the rest of lcmem sees it: where it lives, what its
/// commits record, opening, writing and listing the files it covers.
pub mod index {
    pub use super::build::{IndexReport, rebuild_index, refresh_index};
    pub use super::listing::{SessionFile, list_sessions};
    pub use super::manifest::{FileEntry, Manifest};
    pub use super::open_index::OpenIndex;
    pub use super::schema::{DIR_NAME, Fields};
}

/// Searches the project's memory. Opens (and, when memory is on, refreshes)
/// the index, then ranks; see [`Searcher`] to answer many queries in one
/// process without reopening the index each time.
pub fn recall(store: &Store, query: &Query) -> Result<Answer> {
    Searcher::new(store.clone()).search(query, &mut Quiet)
}

/// The mapped index pages a long-lived searcher keeps (see
/// [`Searcher::with_page_budget`]): 128 MiB.
pub const DEFAULT_PAGE_BUDGET: u64 = 128 * 1024 * 1024;

/// A recall session over one store: keeps the index open between queries and
/// reopens it only when a commit changed it.
pub struct Searcher {
    store: Store,
    /// What is kept between queries: the index, the session listing and
    /// table, the journal and the facts.
    warm: warm::Warm,
    /// Whether a stale index may be brought up to date before answering.
    refresh: warm::Refresh,
    /// The mapped index pages kept after an answer, in bytes; `None`: the
    /// pages are left to the system.
    page_budget: Option<u64>,
    /// Whether this searcher answers many queries, with the index's
    /// postings in memory (see [`Tuning::prune_warm`]).
    long_lived: bool,
}

impl Searcher {
    pub fn new(store: Store) -> Searcher {
        Searcher {
            store,
            warm: warm::Warm::default(),
            refresh: warm::Refresh::WhenStale,
            page_budget: None,
            long_lived: false,
        }
    }

    /// Never write the cache, even when memory is on: answer from what is
    /// there and scan the rest.
    pub fn read_only(mut self) -> Searcher {
        self.refresh = warm::Refresh::Never;
        self
    }

    /// For a process that answers many queries (a server, a benchmark): both
    /// [`Searcher::watching`] and [`Searcher::with_page_budget`] with
    /// [`DEFAULT_PAGE_BUDGET`], and the first stage is never pruned unless
    /// the query's tuning asks for it ([`Tuning::prune_warm`]).
    pub fn long_lived(mut self) -> Searcher {
        self.long_lived = true;
        self.watching().with_page_budget(DEFAULT_PAGE_BUDGET)
    }

    /// `query` as this searcher ranks it: a long-lived searcher ranks every
    /// candidate, unless the query's tuning says to prune warm too.
    fn as_ranked<'q>(&self, query: &'q Query) -> std::borrow::Cow<'q, Query> {
        if self.long_lived && !query.tuning.prune_warm && query.tuning.prune_head > 0 {
            let mut whole = query.clone();
            whole.tuning.prune_head = 0;
            std::borrow::Cow::Owned(whole)
        } else {
            std::borrow::Cow::Borrowed(query)
        }
    }

    /// Keeps a watch on the sessions folder (inotify, on Linux) so that each
    /// answer stats only the session files that changed, rather than listing
    /// the folder again. The answers are the same either way.
    pub fn watching(mut self) -> Searcher {
        self.warm.listing = listing::Listing::watching();
        self
    }

    /// After each answer, once the process maps more than `bytes` of file
    /// pages, releases the pages of the index it maps (on Linux; elsewhere
    /// nothing): a warm process that answers many different queries would
    /// otherwise come to map most of a large index.
    pub fn with_page_budget(mut self, bytes: u64) -> Searcher {
        self.page_budget = Some(bytes);
        self
    }

    /// Where the semantic lane's model comes from (by default the store's
    /// `recall.model` setting): a folder, or [`ModelChoice::Off`] for
    /// lexical recall whatever the settings say.
    pub fn with_model(mut self, model: ModelChoice) -> Searcher {
        self.warm.model = model;
        self.warm.semantic = None;
        self
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Answers one query. Writes nothing but the cache, and that only when
    /// memory is on and the searcher is not read-only.
    pub fn search(&mut self, query: &Query, progress: &mut dyn Progress) -> Result<Answer> {
        check(query)?;
        let query = self.as_ranked(query);
        let answer = query::search(&self.store, &mut self.warm, self.refresh, &query, progress);
        self.trim();
        answer
    }

    /// Ranks `query` without building its hits ([`Searcher::hits`] builds
    /// those asked for); the caller trims the pages ([`Searcher::trim`]) once
    /// it built them.
    fn rank(&mut self, query: &Query, progress: &mut dyn Progress) -> Result<query::Ranked> {
        check(query)?;
        let query = self.as_ranked(query);
        query::rank(&self.store, &mut self.warm, self.refresh, &query, progress)
    }

    /// The hits of the units of `ranked` (the searcher's last ranking) that
    /// `which` names, and what building them reported.
    fn hits(&self, ranked: &query::Ranked, which: &[usize]) -> Result<(Vec<Option<Hit>>, Vec<diagnostic::Diagnostic>)> {
        query::hits(&self.store, &self.warm, ranked, which)
    }

    /// Keeps the mapped index pages within the page budget, if there is one.
    fn trim(&self) {
        if let Some((dir, budget)) = self.budgeted() {
            os::trim(&[&dir], budget);
        }
    }

    /// The folder of the index this searcher maps, and its page budget, when
    /// it has both.
    fn budgeted(&self) -> Option<(std::path::PathBuf, u64)> {
        let budget = self.page_budget.filter(|_| self.warm.index.is_some())?;
        Some((index_dir(&self.store), budget))
    }
}

/// A query that cannot be answered: no hits asked for, or a time range that
/// ends before it starts.
fn check(query: &Query) -> Result<()> {
    if query.limit == 0 {
        return Err(Error::BadQuery(QueryProblem::ZeroLimit));
    }
    if let (Some(since), Some(until)) = (query.since, query.until)
        && since > until
    {
        return Err(Error::BadQuery(QueryProblem::EmptyRange { since, until }));
    }
    Ok(())
}

/// A hit scoring under this fraction of the best hit's score is padding: a
/// list of two real hits at 7.4 is not made longer by unrelated ones at 0.3.
/// A fifth keeps a hit that matches part of the query (one word of two
/// scores about half) and drops one that shares only a common word with it.
pub const PADDING_FLOOR: f64 = 0.2;
