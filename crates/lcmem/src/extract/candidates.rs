//! Candidate facts: which sentences of a session are durable statements about
//! the project, ranked so that the best of them are kept.

use std::collections::HashSet;

use super::text::{prose, sentences};
use super::{CandidateFact, ExtractInput};
use crate::facts::{Origin, normalize, subject};

/// Plain statements about the project, from either speaker. A user's word
/// counts for more than the assistant's.
pub(super) fn facts(input: &ExtractInput) -> Vec<CandidateFact> {
    let mut facts = Vec::new();
    let mut seen = HashSet::new();
    for turn in &input.turns {
        for sentence in sentences(&prose(&turn.text)) {
            let Some(fact) = statement(&sentence) else {
                continue;
            };
            if !seen.insert(normalize(&fact)) {
                continue;
            }
            let confidence = match turn.role {
                Origin::User => 0.7,
                Origin::Assistant => 0.5,
            };
            facts.push(CandidateFact { text: fact, confidence, origin: turn.role, convention: false });
        }
    }
    facts
}

fn statement(sentence: &str) -> Option<String> {
    if super::offline::HEDGED.is_match(sentence) {
        return None;
    }
    subject::parse(sentence).map(|s| s.text)
}
