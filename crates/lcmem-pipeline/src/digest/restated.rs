//! Facts that say the same thing twice take one line of the digest.
//!
//! Two sessions often word one fact two ways: "The tests run with Vitest."
//! and "The test suite uses Vitest, not Jest." Both stay in the facts log
//! and in recall; the digest, which every session pays for, shows the one
//! with the higher signal, sourced by both. Two facts restate each other
//! when the words that carry one's claim are all in the other's (at least
//! two of them, so that "Postgres" alone joins nothing), and neither denies
//! what the other says: numbers and names are words, so "capped at 3
//! attempts" never restates "capped at 5 attempts".

use std::collections::{HashMap, HashSet};

use super::markdown::Section;
use super::select::Candidate;
use crate::facts::Fold;

/// Words that carry no claim of their own: articles, prepositions, and the
/// verbs every fact uses to link a thing to what it is.
const LINKING: &[&str] = &[
    "a", "an", "the", "is", "are", "was", "were", "be", "been", "use", "uses", "used", "using", "run", "runs", "ran",
    "with", "in", "on", "at", "of", "for", "to", "by", "and", "or", "this", "that", "these", "those", "it", "its",
    "we", "our", "us", "via", "through", "from", "as", "has", "have", "had", "lives", "live", "go", "goes", "now",
    "here", "there", "still", "also", "both",
];

/// Words that deny a claim.
const DENYING: &[&str] =
    &["not", "never", "no", "without", "nothing", "none", "cannot", "dont", "doesnt", "isnt", "arent"];

/// The words that carry a fact's claim, and whether it denies it. A
/// contrast at the end of a clause ("uses Vitest, not Jest") is dropped
/// with its word: it says what the claim replaced, not the other way round.
fn claim(text: &str) -> (HashSet<String>, bool) {
    let contrast = without_contrasts(text);
    let words: Vec<String> = crate::facts::normalize(&contrast).split(' ').map(str::to_owned).collect();
    let denies = words.iter().any(|w| DENYING.contains(&w.as_str()));
    let terms = words
        .into_iter()
        .filter(|w| !w.is_empty() && !LINKING.contains(&w.as_str()) && !DENYING.contains(&w.as_str()))
        .map(|w| if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") { w[..w.len() - 1].to_owned() } else { w })
        .collect();
    (terms, denies)
}

/// `text` without its trailing contrasts: ", not Jest", ", not npm,".
fn without_contrasts(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(", not ") {
        out.push_str(&rest[..at]);
        let after = &rest[at + ", not ".len()..];
        // The contrast runs to the next comma or stop.
        let end = after.find([',', '.', ';']).unwrap_or(after.len());
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Whether two claims restate each other.
fn restates(a: &(HashSet<String>, bool), b: &(HashSet<String>, bool)) -> bool {
    let shared = a.0.intersection(&b.0).count();
    a.1 == b.1 && shared >= 2 && (shared == a.0.len() || shared == b.0.len())
}

/// How many facts, highest signal first, are compared: far more than a
/// 1,500-token digest holds.
const HEAD: usize = 256;

/// `candidates` (highest signal first) with every fact that restates a
/// fact above it folded into that fact's line: its sources join the line's.
/// `fold` holds each fact's own text. The facts kept so far are found by
/// their words.
pub(super) fn without_restated(candidates: Vec<Candidate>, fold: &Fold) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::with_capacity(candidates.len());
    // Each kept fact's line in `out` and its claim; and, by word, the kept
    // facts that hold it.
    let mut kept: Vec<(usize, (HashSet<String>, bool))> = Vec::new();
    let mut holding: HashMap<String, Vec<usize>> = HashMap::new();
    for candidate in candidates {
        let fact = fold.get(&candidate.origin).filter(|_| candidate.section == Section::Facts);
        // Only the head of the facts can reach the digest: below it, lines
        // pass as they are, and a large store costs no more than a small one.
        let head = kept.len() < HEAD;
        let Some(claimed) = fact.filter(|_| head).map(|f| claim(&f.text)) else {
            out.push(candidate);
            continue;
        };
        let mut shared: HashMap<usize, usize> = HashMap::new();
        for term in &claimed.0 {
            for &k in holding.get(term).into_iter().flatten() {
                *shared.entry(k).or_default() += 1;
            }
        }
        // The first kept fact (the highest signal) that this one restates.
        let restated = shared.into_iter().filter(|&(k, _)| restates(&kept[k].1, &claimed)).map(|(k, _)| k).min();
        match restated {
            Some(k) => {
                let line = &mut out[kept[k].0];
                for source in candidate.sources {
                    if !line.sources.contains(&source) {
                        line.sources.push(source);
                    }
                }
            }
            None => {
                for term in &claimed.0 {
                    holding.entry(term.clone()).or_default().push(kept.len());
                }
                kept.push((out.len(), claimed));
                out.push(candidate);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn restate(a: &str, b: &str) -> bool {
        restates(&claim(a), &claim(b))
    }

    #[test]
    fn a_fact_worded_twice_is_one_claim_and_different_claims_stay_apart() {
        assert!(restate("The test suite uses Vitest, not Jest.", "The tests run with Vitest."));
        assert!(restate("The API server runs on Fly.io.", "The API runs on Fly.io."));
        assert!(!restate("Refund retries are capped at 5 attempts.", "Refund retries are capped at 3 attempts."));
        assert!(!restate("The API runs on Fly.io.", "The API does not run on Fly.io."));
        assert!(!restate("The product cache uses Postgres.", "Counters live in Postgres for now."));
        assert!(!restate("We use pnpm, not npm.", "We use npm."));
        assert!(!restate("Postgres.", "The product cache uses Postgres."));
    }
}
