//! Candidate facts: which sentences of a session are durable statements about
//! the project, ranked so that the best of them are kept.
//!
//! A sentence is a candidate when it states how the project is ("the cache
//! lives in Postgres"), how the team works ("we use conventional commits",
//! a house rule listed after a lead-in), or what was decided ("we chose
//! minio-go because …"). Chatter is not: discourse openers, status lines,
//! evaluations, plan items, measurements, talk about the conversation and
//! textbook definitions ([`chatter`]). When one session states the same
//! subject twice with different objects, the later sentence wins and the
//! earlier is no candidate. The rest are scored ([`rank`]) and only the best
//! few are kept.

mod chatter;
mod convention;
mod layout;
mod rank;
mod said;
#[cfg(test)]
mod tests;

use std::collections::HashSet;

use super::text::sentences;
use super::{CandidateFact, ExtractInput};
use crate::facts::subject::{self, Statement};
use crate::facts::{Origin, normalize};
use layout::Context;

/// What kind of durable statement a candidate is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Subject, relation, object: how the project is.
    Statement,
    /// A rule of the house or a way the team works.
    Convention,
    /// A choice made, with its reason when given.
    Decision,
}

/// One sentence that may be a fact, and where the session said it.
#[derive(Debug, Clone)]
struct Candidate {
    text: String,
    origin: Origin,
    kind: Kind,
    /// A convention in the facts log's sense (how the team works).
    convention: bool,
    /// The parse, for statements: later sentences with the same key win.
    statement: Option<Statement>,
    /// Said in the session's final report (the last assistant message).
    final_report: bool,
    /// Position in the session, for ties and for the order kept.
    order: usize,
    /// The person's own words ([`said`]), not a sentence of the agent's.
    said: bool,
}

/// Whether a person's sentence reads as a convention ("We use pnpm, never
/// npm.", "Deploys go out from tags only."): for a fact they add by hand.
pub fn reads_as_convention(text: &str) -> bool {
    said::is_convention(text)
}

/// Adds a fact the person wrote, as a convention when it reads as one
/// (or `convention` says so): what `lcmem facts add` and the page do.
pub fn add_fact(
    store: &crate::Store,
    text: &str,
    convention: bool,
    judge: &dyn crate::facts::ConflictJudge,
    now: jiff::Timestamp,
) -> crate::Result<String> {
    if convention || reads_as_convention(text) {
        crate::facts::add_convention(store, text, judge, now)
    } else {
        crate::facts::add(store, text, judge, now)
    }
}

/// Durable statements about the project, best first kept and returned in
/// the order the session said them: every one the person made (their own
/// words, [`said`]), and those of the agent's accounts of what it did (its
/// final report, and a reply that opens with work done); its narration
/// besides is the work, not the project.
pub(super) fn facts(input: &ExtractInput) -> Vec<CandidateFact> {
    let report = final_report(input);
    let mut found = Vec::new();
    for (index, turn) in input.turns.iter().enumerate() {
        let final_report = Some(index) == report;
        if turn.role == Origin::User && !turn.compaction {
            let at = Place { origin: Origin::User, final_report: false, order: found.len() };
            found.extend(said::candidates(&turn.text, turn.answers.as_deref(), at).into_iter().filter_map(|mut c| {
                // Held to the same standard as any fact, but an order stays as
                // said, to be recorded and withheld.
                if let Some(text) = super::clause::fact_text(&c.text) {
                    c.text = text;
                } else if !said::is_east_asian(&c.text) && !lcmem_guard::judge(&c.text).instruction {
                    return None;
                }
                Some(c)
            }));
            continue;
        }
        let work_report = final_report || reports_work(&turn.text);
        for line in layout::lines(&turn.text) {
            for sentence in sentences(&line.text) {
                // Work done is told as how things now are.
                let sentence = super::clause::state_of_report(&sentence).unwrap_or(sentence);
                let at = Place { origin: turn.role, final_report, order: found.len() };
                // Only a whole sentence that stands alone is a fact.
                // An order is kept as said, to be recorded and withheld, unless
                // it is only a step of the work in the imperative ("update
                // the tests to …"), which is no fact and no plant.
                // Elsewhere than in an account of work done the agent narrates
                // (a hypothesis, what it reads, what it will try): only a rule
                // or a decision it states there is about the project.
                // So is what a part of the project is built on, said as it
                // finds it ("the payments worker runs on BullMQ").
                let in_report = |c: &Candidate| {
                    work_report
                        || matches!(c.kind, Kind::Convention | Kind::Decision)
                        || c.statement.as_ref().is_some_and(|s| built_on(&s.relation))
                            && super::clause::has_subject_and_verb(&c.text)
                };
                found.extend(candidates_in(&sentence, line.context, at).into_iter().filter(in_report).filter_map(|mut c| {
                    match super::clause::fact_text(&c.text) {
                        Some(text) => c.text = text,
                        None if super::clause::is_standing_order(&c.text) => {}
                        None => return None,
                    }
                    Some(c)
                }));
            }
        }
    }
    for (order, c) in found.iter_mut().enumerate() {
        c.order = order;
    }
    let found = later_wins(found);
    let mut seen = HashSet::new();
    let unique: Vec<Candidate> = found.into_iter().filter(|c| seen.insert(normalize(&c.text))).collect();
    let requests = input.turns.iter().filter(|t| t.role == Origin::User && !t.compaction).count();
    rank::keep_best(unique, rank::keep_for(requests))
        .into_iter()
        .map(|c| CandidateFact {
            // What the person said is theirs to correct, not a guess.
            confidence: match c.origin {
                Origin::User => 0.9,
                Origin::Assistant => 0.5,
            },
            text: c.text,
            origin: c.origin,
            convention: c.convention,
        })
        .collect()
}

/// A relation that says what a part of the project is built on or where it
/// lives: "uses", "runs on", "lives in", "is stored in".
fn built_on(relation: &str) -> bool {
    let verb = relation.trim_start_matches("is ").trim_start_matches("are ");
    [
        "use", "uses", "runs on", "run on", "runs with", "run with", "lives in", "live in", "stored in", "written in",
        "built on", "built with", "backed by", "deployed to", "hosted on",
    ]
    .contains(&verb)
}

/// Whether an agent's reply is an account of work done ("Migrated the
/// product cache …", "I created …"): what it states there is how the
/// project now is, as in its final report.
fn reports_work(reply: &str) -> bool {
    let prose = super::text::prose(reply);
    sentences(&prose).first().is_some_and(|s| super::clause::reports_done(s))
}

/// The agent's final report: its last message of some length (a closing
/// "Done." leaves the account before it in place), not a compaction summary.
fn final_report(input: &ExtractInput) -> Option<usize> {
    let replies = || {
        input.turns.iter().enumerate().filter(|(_, t)| t.role == Origin::Assistant && !t.compaction)
    };
    let substantial = replies().rfind(|(_, t)| t.text.split_whitespace().count() >= 6).map(|(i, _)| i);
    substantial.or_else(|| replies().rfind(|(_, t)| !t.text.trim().is_empty()).map(|(i, _)| i))
}

#[derive(Debug, Clone, Copy)]
struct Place {
    origin: Origin,
    final_report: bool,
    order: usize,
}

/// The candidates one sentence holds: none, one, or each rule of a list.
fn candidates_in(sentence: &str, context: Context, at: Place) -> Vec<Candidate> {
    let make = |text: String, kind: Kind, convention: bool, statement: Option<Statement>| Candidate {
        text,
        origin: at.origin,
        kind,
        convention,
        statement,
        final_report: at.final_report,
        order: at.order,
        said: false,
    };
    match context {
        Context::Plan => return Vec::new(),
        Context::Rules(noun) => {
            return convention::rule_item(noun, sentence)
                .map(|t| make(t, Kind::Convention, true, None))
                .into_iter()
                .collect();
        }
        Context::Numbered if at.origin == Origin::Assistant && !at.final_report => return Vec::new(),
        Context::Prose | Context::Numbered => {}
    }
    if let Some(rules) = convention::inline_rules(sentence) {
        return rules.into_iter().map(|t| make(t, Kind::Convention, true, None)).collect();
    }
    let mut out = Vec::new();
    for clause in convention::clauses(&chatter::without_label(sentence)) {
        if chatter::is_chatter(&clause) || (at.origin == Origin::User && chatter::is_request(&clause)) {
            continue;
        }
        let status = chatter::is_status(&clause);
        if let Some(text) = convention::decision(&clause).filter(|_| !status) {
            out.push(make(text, Kind::Decision, false, None));
        } else if let Some((text, practice)) = convention::constraint(&clause).filter(|_| !status) {
            out.push(make(text, Kind::Convention, practice, None));
        } else if let Some(statement) = subject::parse(&clause).filter(worth_a_candidate) {
            let practice = convention::is_practice(&statement);
            let kind = if practice { Kind::Convention } else { Kind::Statement };
            out.push(make(statement.text.clone(), kind, practice, Some(statement)));
        }
    }
    out
}

/// A statement is a candidate unless it is idle or a status; a judgement
/// the guard reads as an order ("printing the token is fine" is a
/// permission) stays, so that it is recorded and withheld, never dropped
/// unseen.
fn worth_a_candidate(s: &Statement) -> bool {
    match chatter::idle(s) {
        None => !chatter::is_status(&s.text) || rank::is_mechanism(s),
        Some(chatter::Idle::Judgement) => lcmem_guard::judge(&s.text).instruction,
        Some(_) => false,
    }
}

/// Drops every statement that a later sentence of the same session restates
/// with the same subject and relation but another object: the session
/// changed that state, and only where it ended is a fact.
fn later_wins(found: Vec<Candidate>) -> Vec<Candidate> {
    let key = |c: &Candidate| c.statement.as_ref().filter(|s| !s.is_team()).map(|s| (s.key(), s.object.clone()));
    let keys: Vec<Option<(String, String)>> = found.iter().map(key).collect();
    found
        .into_iter()
        .zip(keys.iter().enumerate())
        .filter(|(_, (i, key))| match key {
            None => true,
            Some((k, object)) => !keys.iter().skip(i + 1).flatten().any(|(later, o)| later == k && o != object),
        })
        .map(|(c, _)| c)
        .collect()
}
