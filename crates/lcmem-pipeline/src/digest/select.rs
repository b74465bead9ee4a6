//! What deserves a place in the digest, and in what order.
//!
//! Every candidate line gets a signal; the digest is filled from the highest
//! signal down until the cap is reached, so the lowest-signal items are the
//! ones evicted. Evicted is not deleted: the journal and the facts log keep
//! everything, and recall still finds it.

use jiff::Timestamp;

use super::markdown::Section;
use crate::facts::{Fact, Fold, State};
use crate::journal::Outcome;
use crate::journal::{Current, Journal, SealKind};

/// How fast a session's weight halves with inactivity.
pub const HALF_LIFE_DAYS: f64 = 14.0;

/// A line that may go into MEMORY.md, with where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub section: Section,
    pub signal: f64,
    /// A fact id or a session id.
    pub origin: String,
    pub text: String,
    /// The date of the newest source behind the line.
    pub as_of: Timestamp,
    /// Session ids the line cites.
    pub sources: Vec<String>,
}

/// Weight of a sealed session now: by outcome and standing, halved every
/// [`HALF_LIFE_DAYS`] days of inactivity (use counts as activity).
pub fn session_signal(current: &Current, now: Timestamp) -> f64 {
    let entry = &current.entry;
    let base = match entry.outcome {
        Outcome::Shipped => 3.0,
        Outcome::Fixed => 2.5,
        Outcome::Progress => 2.0,
        Outcome::Abandoned => 0.8,
        Outcome::Question => 0.3,
    };
    let standing = match entry.kind {
        SealKind::Done => 1.5,
        SealKind::Archived => 0.2,
    };
    base * standing * decay(current.last_activity(), now)
}

/// 1 now, ½ after one half-life, ¼ after two.
pub fn decay(then: Timestamp, now: Timestamp) -> f64 {
    let days = (now.as_second() - then.as_second()).max(0) as f64 / 86_400.0;
    0.5_f64.powf(days / HALF_LIFE_DAYS)
}

/// Weight of a fact: confirmed facts hold their place (they outrank every
/// session line), observed facts next, inferred facts only where there is
/// room. Pinned facts outrank everything but pinned blocks.
pub fn fact_signal(fact: &Fact, now: Timestamp) -> f64 {
    let base = match fact.state {
        State::Confirmed => 20.0,
        State::Observed => 4.0 + fact.confidence,
        State::Inferred => 0.5 + fact.confidence,
        // What the team agreed holds its place below the person's own.
        State::Team => 10.0,
        State::Superseded | State::UnconfirmedInstruction | State::WorkspaceEcho | State::Withdrawn => 0.0,
    };
    let pinned = if fact.pinned { 100.0 } else { 0.0 };
    let fresh =
        if matches!(fact.state, State::Confirmed | State::Team) { 1.0 } else { decay(fact.last_seen, now).max(0.25) };
    pinned + base * fresh
}

/// At most this many of the person's facts are candidates: theirs is a
/// short section.
pub const PERSON_LINES: usize = 8;

/// Every line that could go into the digest, highest signal first.
pub fn candidates(journal: &Journal, fold: &Fold, person: &Fold, now: Timestamp) -> Vec<Candidate> {
    let mut out = Vec::new();
    let mut theirs: Vec<&Fact> =
        person.active().filter(|f| fold.get(&f.id).is_none_or(|own| !own.is_active())).collect();
    theirs.sort_by(|a, b| b.pinned.cmp(&a.pinned).then(b.last_seen.cmp(&a.last_seen)));
    for fact in theirs.into_iter().take(PERSON_LINES) {
        // Below the project's own confirmed facts, above everything observed.
        let signal = if fact.pinned { 100.0 } else { 0.0 } + 15.0;
        out.push(Candidate {
            section: Section::Person,
            signal,
            origin: fact.id.clone(),
            text: super::markdown::person_line(fact),
            as_of: fact.last_seen,
            sources: Vec::new(),
        });
    }
    let mut summaries: Vec<(String, String)> = Vec::new();
    // A fact no person stands behind that contradicts one a person does
    // waits in `lcmem facts conflicts`, out of every session's digest.
    for fact in fold.active().filter(|f| !fold.contradicts_a_person(f)) {
        let newest = fact.sources.iter().max_by_key(|s| s.at);
        out.push(Candidate {
            section: Section::Facts,
            signal: fact_signal(fact, now),
            origin: fact.id.clone(),
            text: super::markdown::fact_line(fact),
            as_of: newest.map_or(fact.last_seen, |s| s.at).max(fact.last_seen),
            sources: fact.sources.iter().map(|s| s.session.clone()).collect(),
        });
    }
    for current in &journal.entries {
        let entry = &current.entry;
        let (section, signal) = if entry.pinned {
            (Section::Pinned, 50.0 + session_signal(current, now))
        } else if entry.kind == SealKind::Archived {
            continue; // faded: still in the journal and in recall
        } else {
            (Section::Recently, session_signal(current, now))
        };
        out.push(Candidate {
            section,
            signal,
            origin: entry.session_id.clone(),
            text: super::markdown::session_line(current, section),
            as_of: current.last_activity(),
            sources: vec![entry.session_id.clone()],
        });
        summaries.push((entry.session_id.clone(), crate::facts::normalize(&entry.summary)));
    }
    out.sort_by(|a, b| b.signal.total_cmp(&a.signal).then_with(|| b.as_of.cmp(&a.as_of)));
    without_repeats(out, &summaries)
}

/// Sessions whose summaries say the same thing are one line: the one with
/// the highest signal, sourced by all of them.
fn without_repeats(candidates: Vec<Candidate>, summaries: &[(String, String)]) -> Vec<Candidate> {
    use std::collections::HashMap;
    let summary_of: HashMap<&str, &str> =
        summaries.iter().filter(|(_, s)| !s.is_empty()).map(|(id, s)| (id.as_str(), s.as_str())).collect();
    let mut kept_at: HashMap<(Section, &str), usize> = HashMap::new();
    let mut out: Vec<Candidate> = Vec::with_capacity(candidates.len());
    for candidate in candidates {
        let said = (candidate.section != Section::Facts).then(|| summary_of.get(candidate.origin.as_str())).flatten();
        match said.map(|s| (candidate.section, *s)) {
            Some(key) if kept_at.contains_key(&key) => out[kept_at[&key]].sources.extend(candidate.sources),
            Some(key) => {
                kept_at.insert(key, out.len());
                out.push(candidate);
            }
            None => out.push(candidate),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decay_halves_every_half_life() {
        let now: Timestamp = "2026-11-30T00:00:00Z".parse().unwrap();
        let then: Timestamp = "2026-11-16T00:00:00Z".parse().unwrap();
        assert!((decay(then, now) - 0.5).abs() < 1e-9);
        assert_eq!(decay(now, now), 1.0);
    }
}
