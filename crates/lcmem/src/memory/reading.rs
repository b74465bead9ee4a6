//! What a front-end lists: the journal and the facts as they stand, and where
//! the semantic lane's embeddings are. Reads work while memory is off (a
//! person may look at what is there), and never write.

use super::{Memory, Whose};
use crate::error::Result;
use crate::facts::Fold;
use crate::journal::Journal;
use crate::recall::semantic::{self, EmbedState};
use crate::store::Store;

impl Memory {
    /// The journal: every sealed session's current entry, with what the file
    /// could not say as diagnostics.
    pub fn journal(&self) -> Result<Journal> {
        Journal::of(&self.store)
    }

    /// The facts of this project, or the person's own, as their log folds
    /// to (diagnostics included).
    pub fn facts(&self, whose: Whose) -> Result<Fold> {
        match whose {
            Whose::Project => Fold::read(&self.store.facts_path()),
            Whose::Person => Fold::read(&Store::person(self.store.home()).facts_path()),
        }
    }

    /// Where this project's embeddings stand against the model installed.
    pub fn embeddings(&self) -> Result<EmbedState> {
        semantic::embed_state(&self.store)
    }

    /// Whether a background build of the embeddings is running now.
    pub fn embedding_in_progress(&self) -> Result<bool> {
        semantic::is_building(&self.store)
    }
}
