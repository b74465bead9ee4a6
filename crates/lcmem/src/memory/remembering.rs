//! What an agent writes on the user's word: [`Memory::remember`] and
//! [`Memory::correct`] (the MCP server's tools), and the embeddings of what
//! they added ([`Memory::embed_new`]).

use jiff::Timestamp;

use super::Memory;
use crate::error::Result;
use crate::facts::{Corrected, Correction, Remembered, SubjectKeyJudge};
use crate::recall::Progress;
use crate::recall::semantic::EmbedReport;

impl Memory {
    /// Keeps `text` as a fact the user asked to be remembered (secrets
    /// redacted, an order withheld until a person confirms it); a fact it
    /// contradicts is judged by its subject key.
    pub fn remember(&self, text: &str, now: Timestamp) -> Result<Remembered> {
        crate::facts::remember(&self.store, text, &SubjectKeyJudge, now)
    }

    /// Marks the fact `asked` (an id or a unique prefix) not true, or
    /// replaces it, on the user's word.
    pub fn correct(&self, asked: &str, correction: Correction, now: Timestamp) -> Result<Corrected> {
        crate::facts::correct(&self.store, asked, correction, &SubjectKeyJudge, now)
    }

    /// Embeds what has no vector yet, when an embedding model is set (`None`
    /// when none is). A build already running elsewhere is left to it.
    pub fn embed_new(&self, progress: &mut dyn Progress) -> Result<Option<EmbedReport>> {
        crate::recall::semantic::embed(&self.store, progress)
    }
}
