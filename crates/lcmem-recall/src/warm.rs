//! What a searcher keeps between queries ([`Warm`]): the open index, the
//! session listing and table, the journal and facts, the semantic lane; and
//! how a query brings them up to date before it ranks ([`bring_up_to_date`]),
//! with what that covered ([`Coverage`]).

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::build::{self, Existing, Progress};
use super::listing::Listing;
use super::memory_index::{Memory, MemoryFiles, MemoryStamp};
use super::open_index::OpenIndex;
use super::schema::index_dir;
use super::semantic::{Lane, SemanticCoverage};
use super::session_table::Table;
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::store::Store;

/// How a recall was answered, for `--json` consumers and the benchmarks.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
pub struct Coverage {
    /// Session files answered from the index.
    pub indexed_sessions: usize,
    /// Session files read from disk because the index did not cover them.
    pub scanned_sessions: usize,
    /// Whether the index was brought up to date first.
    pub index_updated: bool,
    /// Whether the first pass was pruned: a top-k search picked the head of
    /// the ranking and only its sessions were ranked in full (see
    /// [`super::Tuning::prune_min_turns`]).
    pub pruned: bool,
    /// How much of the store the semantic lane saw (`None` when it was off).
    /// A query embeds nothing but itself: turns without a vector yet are
    /// found by words alone, until a builder embeds them
    /// ([`super::semantic::embed`]).
    pub semantic: Option<SemanticCoverage>,
}

/// What a searcher keeps between queries: the open index, the session
/// listing, the session table and the journal and facts, each with what it
/// was built from, so that a query redoes only what changed.
#[derive(Default)]
pub(super) struct Warm {
    pub index: Option<OpenIndex>,
    /// The session files and, for a long-lived searcher, a watch on their
    /// folder that keeps the list current (see [`Listing`]).
    pub listing: Listing,
    /// The session table built from the listing and the index, with the
    /// listing generation and the index opening it was built for.
    pub table: Option<((u64, u64), Table)>,
    /// The journal and the facts fold, with the state of their files when
    /// read.
    pub memory: Option<(MemoryStamp, Memory)>,
    /// Counts index openings, so that the table follows a reopened index.
    pub opened: u64,
    /// Where the embedding model comes from.
    pub model: ModelChoice,
    /// The semantic lane: `None` until the first query looks for a model,
    /// then the lane if there is one that loads.
    pub semantic: Option<Option<Lane>>,
    /// Why the model that was asked for could not be loaded.
    pub model_problem: Option<Diagnostic>,
}

/// Where a searcher's embedding model comes from.
#[derive(Debug, Clone, Default)]
pub enum ModelChoice {
    /// The store's `recall.model` setting (a relative path is taken from
    /// the store root); none set: lexical only.
    #[default]
    Settings,
    /// This folder, whatever the settings say.
    Given(PathBuf),
    /// Lexical only, whatever the settings say.
    Off,
}

impl Warm {
    /// Opens the semantic lane once: the model the choice names, if any.
    pub(super) fn open_lane(&mut self, store: &Store) {
        if self.semantic.is_some() {
            return;
        }
        let dir = match &self.model {
            ModelChoice::Off => None,
            ModelChoice::Given(dir) => Some(dir.clone()),
            ModelChoice::Settings => {
                store.settings().ok().and_then(|s| s.recall_model).map(|dir| store.home().join(dir))
            }
        };
        self.semantic = Some(dir.and_then(|dir| match Lane::open(store, &dir) {
            Ok(lane) => Some(lane),
            Err(e) => {
                self.model_problem =
                    Some(Diagnostic::new(&dir, 0, format!("{e}; recall is lexical only until it is fixed")));
                None
            }
        }));
    }
}

impl Warm {
    /// Brings the session listing up to date, and the session table with
    /// it when the listing or the index changed since it was built.
    pub(super) fn refresh_table(&mut self, store: &Store) -> Result<()> {
        self.listing.current(store, self.index.as_ref())?;
        let stamp = (self.listing.generation(), self.opened);
        if self.table.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.table = Some((stamp, Table::build(self.listing.files(), self.index.as_ref())));
        }
        Ok(())
    }

    /// Reads the journal and the facts again if either changed since the
    /// last query.
    pub(super) fn refresh_memory(&mut self, store: &Store) -> Result<()> {
        let files = MemoryFiles::of(store);
        let stamp = Memory::stamp(&files);
        if self.memory.as_ref().is_none_or(|(s, _)| *s != stamp) {
            self.memory = Some((stamp, Memory::read(&files)?));
        }
        Ok(())
    }

    /// Opens the index again (after a commit, or when there was none).
    fn reopen(&mut self, dir: &Path) {
        let was = self.index.is_some();
        self.index = OpenIndex::open(dir);
        if was || self.index.is_some() {
            self.opened += 1;
        }
    }
}

/// Whether a query may bring a stale index up to date before answering.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refresh {
    /// When memory is on and no one else is writing, a stale index is
    /// brought up to date first.
    WhenStale,
    /// The cache is never written: what the index does not cover is scanned.
    Never,
}

/// Opens the index as it is now and, when `refresh` allows and memory is on,
/// brings a stale one up to date first (a failure to write the cache is not
/// a failure to recall: the stale sessions are scanned instead).
pub(super) fn bring_up_to_date(
    store: &Store,
    warm: &mut Warm,
    refresh: Refresh,
    progress: &mut dyn Progress,
) -> Result<Coverage> {
    let dir = index_dir(store);
    if warm.index.as_ref().is_none_or(|i| !i.is_current()) {
        warm.reopen(&dir);
    }
    let mut coverage = Coverage::default();
    warm.refresh_table(store)?;
    let covered = warm.table.as_ref().is_some_and(|(_, t)| t.covered_by(warm.index.as_ref()));
    let files = warm.listing.files();
    // Memory switched off or another writer holding the write lock: the
    // files are scanned as they are, and nothing is written.
    if refresh == Refresh::WhenStale
        && !files.is_empty()
        && !covered
        && let Ok(Some(_lock)) = store.try_lock()
    {
        // The index lock held elsewhere, or a read-only folder: scan instead.
        if build::write(&dir, files, Existing::Update, progress).is_ok() {
            coverage.index_updated = true;
            warm.reopen(&dir);
        }
        // What the files are now: they may have grown while it was written.
        warm.refresh_table(store)?;
    }
    if refresh == Refresh::WhenStale
        && let Some(index) = warm.index.as_ref()
        && warm.table.as_ref().is_some_and(|(_, t)| t.covered_by(Some(index)))
    {
        warm.listing.trust(store, index);
    }
    Ok(coverage)
}
