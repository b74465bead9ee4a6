//! Facts: durable statements about the project, kept as an append-only event
//! log in `facts.jsonl`.
//!
//! The log holds observations (a seal saw a candidate fact in a session) and,
//! later, user actions on facts. The current state of every fact is a fold
//! over the log, so nothing is ever overwritten in place and every fact can
//! say where it came from and what happened to it.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Who said the sentence a fact came from.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    User,
    Assistant,
}

/// An observation of a candidate fact in one sealed session.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Observation {
    /// Stable id derived from the normalised text; see [`fact_id`].
    pub fact: String,
    pub text: String,
    pub source_session: String,
    pub learned_at: Timestamp,
    /// The extractor's confidence, 0 to 1.
    pub confidence: f64,
    /// Always false for an observation: only a user confirms.
    pub confirmed: bool,
    pub origin: Origin,
}

/// One line of `facts.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    Observe(Observation),
}

/// Folds case, spacing and punctuation away, so that the same fact worded
/// with different capitals or a trailing full stop is one fact.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        if c.is_alphanumeric() {
            if pending_space && !out.is_empty() {
                out.push(' ');
            }
            pending_space = false;
            out.extend(c.to_lowercase());
        } else {
            pending_space = true;
        }
    }
    out
}

/// A fact's id: `f` and 10 hex digits of the SHA-256 of its normalised text.
/// The same wording always gets the same id, in every project and every run.
pub fn fact_id(text: &str) -> String {
    let digest = Sha256::digest(normalize(text).as_bytes());
    let hex: String = digest.iter().take(5).map(|b| format!("{b:02x}")).collect();
    format!("f{hex}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_fact_in_other_words_of_case_and_punctuation_is_one_id() {
        assert_eq!(
            fact_id("The cache uses Redis."),
            fact_id("the  cache uses redis")
        );
        assert_ne!(
            fact_id("The cache uses Redis."),
            fact_id("The cache uses Postgres.")
        );
        assert_eq!(
            normalize("  Tests: run with `cargo nextest`!  "),
            "tests run with cargo nextest"
        );
    }
}
