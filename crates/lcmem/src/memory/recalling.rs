//! Asking the memory: [`Memory::recall`]; and its caches, the index and
//! the embeddings, built outside any question.

use jiff::Timestamp;

use super::Memory;
use crate::error::Result;
use crate::recall::semantic::EmbedReport;
use crate::recall::{AcrossAnswer, HitKind, IndexReport, Progress, Projects, Query};

/// How much of a recall's ranking an answer shows.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Padding {
    /// Every hit the ranking kept (the command and the page: a person scans).
    Kept,
    /// Hits scoring under this share of the best are dropped (the MCP
    /// server: a model reads every line it is given).
    DroppedUnder(f64),
}

/// A recall as the front door answers it.
pub struct Recalled {
    /// The hits, best first, and each project's own answer (its coverage,
    /// what could not be read).
    pub answer: AcrossAnswer,
    /// How many of this project's sessions were marked as used again (they
    /// keep their place in the digest longer), or why they could not be.
    /// The hits are the answer either way; each front-end says a failure
    /// its own way.
    pub marked: Result<usize>,
}

impl Memory {
    /// The project slugs `which` names, or why it names none that exist.
    pub fn projects(&self, which: &Projects) -> Result<Vec<String>> {
        self.searchers.resolve(which)
    }

    /// Searches the memory of the projects `which` names; drops what
    /// `padding` says is padding; then marks this project's sessions among
    /// the hits (journal entries and turns; a fact is no session's) as used
    /// at `now`.
    pub fn recall(
        &mut self,
        query: &Query,
        which: &Projects,
        padding: Padding,
        now: Timestamp,
        progress: &mut dyn Progress,
    ) -> Result<Recalled> {
        let mut answer = self.searchers.search(query, which, progress)?;
        if let Padding::DroppedUnder(share) = padding {
            let best = answer.hits.iter().map(|h| h.hit.score).fold(0.0_f64, f64::max);
            answer.hits.retain(|h| h.hit.score >= best * share);
        }
        let this = &self.store.project().slug;
        let used: Vec<String> = answer
            .hits
            .iter()
            .filter(|h| h.project == *this && h.hit.kind != HitKind::Fact)
            .map(|h| h.hit.session.clone())
            .collect();
        let marked = crate::seal::record_use(&self.store, &used, now);
        Ok(Recalled { answer, marked })
    }

    /// Embeds what has no vector yet, when an embedding model is set (`None`
    /// when none is). A build already running elsewhere is left to it.
    pub fn embed_new(&self, progress: &mut dyn Progress) -> Result<Option<EmbedReport>> {
        crate::recall::semantic::embed(&self.store, progress)
    }

    /// [`Memory::embed_new`] with the model in `dir`, whatever the settings
    /// name (what `lcmem model install` runs right after the copy).
    pub fn embed_with(&self, dir: &std::path::Path, progress: &mut dyn Progress) -> Result<EmbedReport> {
        crate::recall::semantic::embed_with(&self.store, dir, progress)
    }

    /// Brings the index and the embeddings up to date after a write of
    /// session files (only what changed is read, only what is new embedded).
    pub fn refresh_caches(&self, progress: &mut dyn Progress) -> Result<IndexReport> {
        crate::ingest::refresh_caches(&self.store, progress)
    }

    /// Builds the search index afresh from the files (a cache: nothing is
    /// lost by it).
    pub fn rebuild_index(&self, progress: &mut dyn Progress) -> Result<IndexReport> {
        crate::recall::rebuild_index(&self.store, progress)
    }
}
