//! Supersede and conflicts: deciding whether a newer fact replaces an older
//! one. The decision sits behind [`ConflictJudge`] so that a model-backed lane
//! can make it later; offline, [`SubjectKeyJudge`] decides by subject key.

use jiff::Timestamp;

use super::subject::{self, Statement};
use super::warm_fold::SubjectIndex;
use super::{Event, Fact, Fold, State};

/// What a judge says of an older and a newer fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// About different things, or compatible.
    Unrelated,
    /// The newer fact replaces the older one.
    Supersedes { reason: String },
    /// They may contradict each other, and only the user can say.
    Ambiguous { reason: String },
}

/// Decides whether two facts contradict each other.
pub trait ConflictJudge {
    fn judge(&self, older: &Fact, newer: &Fact) -> Judgement;

    /// True when [`ConflictJudge::judge`] finds two facts unrelated whenever
    /// [`subject::parse`] gives them different subjects, or none: then a fact
    /// is compared only with the facts of its own subject, found through an
    /// index, not with every fact of the log.
    fn compares_within_subject(&self) -> bool {
        false
    }
}

/// The offline judge: same subject and relation with a different short object
/// is a replacement ("the cache uses Redis" → "the cache uses Postgres"); the
/// same subject with another relation of the same family, or long objects
/// that are hard to compare, is listed as ambiguous; anything else is unrelated.
#[derive(Debug, Default, Clone, Copy)]
pub struct SubjectKeyJudge;

/// Relations that all say what a thing is built on or kept in.
const PLACEMENT: &[&str] = &[
    "uses",
    "runs on",
    "runs with",
    "runs in",
    "runs under",
    "lives in",
    "stored in",
    "is stored in",
    "built with",
    "is built with",
    "is written in",
    "is deployed to",
    "is deployed on",
    "is deployed via",
    "deploys to",
    "deploys via",
    "is managed by",
    "is handled by",
    "goes through",
    "is kept in",
];

impl ConflictJudge for SubjectKeyJudge {
    fn compares_within_subject(&self) -> bool {
        true
    }

    fn judge(&self, older: &Fact, newer: &Fact) -> Judgement {
        let (Some(a), Some(b)) = (subject::parse(&older.text), subject::parse(&newer.text)) else {
            return Judgement::Unrelated;
        };
        // "We use conventional commits" and "we use pnpm" are two ways of
        // working, not one replacing the other.
        if a.subject != b.subject || a.object == b.object || a.is_team() {
            return Judgement::Unrelated;
        }
        let short = |s: &Statement| s.object.split_whitespace().count() <= 4;
        if a.relation == b.relation {
            if short(&a) && short(&b) {
                return Judgement::Supersedes { reason: format!("same subject: {} {}", a.subject, a.relation) };
            }
            return Judgement::Ambiguous { reason: format!("both say what {} {}", a.subject, a.relation) };
        }
        if PLACEMENT.contains(&a.relation.as_str()) && PLACEMENT.contains(&b.relation.as_str()) {
            return Judgement::Ambiguous {
                reason: format!("{} {} {} / {} {}", a.subject, a.relation, a.object, b.relation, b.object),
            };
        }
        Judgement::Unrelated
    }
}

impl Fold {
    /// Whether `fact` is in an open conflict with a fact a person stands
    /// behind while no person stands behind `fact` itself: workspace text or
    /// the agent contradicting the user. It waits in `lcmem facts conflicts`
    /// and stays out of the digest.
    pub fn contradicts_a_person(&self, fact: &Fact) -> bool {
        !fact.is_backed_by_a_person()
            && self.conflicts.iter().any(|c| {
                let other = if c.fact == fact.id {
                    &c.with
                } else if c.with == fact.id {
                    &c.fact
                } else {
                    return false;
                };
                self.get(other).is_some_and(Fact::is_backed_by_a_person)
            })
    }
}

/// Whether every session behind `newer` also said `older`: one session's
/// two statements with the same subject are two things it said, and
/// neither is news about the other. The extractor keeps only the later of
/// them; a fact read elsewhere (a model lane, a hand edit) keeps both.
fn said_together(older: &Fact, newer: &Fact) -> bool {
    !newer.sources.is_empty() && newer.sources.iter().all(|n| older.sources.iter().any(|o| o.session == n.session))
}

/// Facts the user set aside, withheld instructions, the agent's proposals
/// waiting for the person and items withdrawn from the team file take no part.
pub(super) fn takes_part(fact: &Fact) -> bool {
    let set_aside = fact.not_true || fact.deleted || fact.is_proposal() || fact.state == State::Withdrawn;
    !(set_aside || fact.instruction && !fact.confirmed)
}

/// Compares each fact in `touched` (just observed, added or edited) with the
/// facts it could contradict and returns the events to append: supersedes
/// for clear replacements, conflicts for the rest. A fact the user confirmed
/// or pinned is never replaced by an unconfirmed one; that is a conflict too.
pub fn reconcile(fold: &Fold, touched: &[String], judge: &dyn ConflictJudge, now: Timestamp) -> Vec<Event> {
    reconcile_among(fold, touched, judge, now, None)
}

/// [`reconcile`], comparing each touched fact only with the facts of its
/// subject when the judge allows it and `subjects` indexes `fold`: the same
/// events, in the same order, without a pass over every fact.
pub(super) fn reconcile_among(
    fold: &Fold,
    touched: &[String],
    judge: &dyn ConflictJudge,
    now: Timestamp,
    subjects: Option<&SubjectIndex>,
) -> Vec<Event> {
    let mut events = Vec::new();
    for id in touched {
        let Some(touched) = fold.get(id) else { continue };
        if !takes_part(touched) {
            continue;
        }
        let others: Box<dyn Iterator<Item = &Fact>> = match subjects {
            Some(index) if judge.compares_within_subject() => {
                let at = fold.position(&touched.id).unwrap_or(usize::MAX);
                Box::new(index.same_subject(at).iter().map(|&i| &fold.facts[i]))
            }
            _ => Box::new(fold.facts.iter()),
        };
        for other in others {
            if other.id == touched.id || !takes_part(other) {
                continue;
            }
            // Whichever was last known true is the newer; only a current fact can be replaced.
            let (older, newer) = if touched.last_seen >= other.last_seen { (other, touched) } else { (touched, other) };
            if older.superseded_by.is_some() {
                continue;
            }
            let already = fold
                .conflicts
                .iter()
                .any(|c| (c.fact == older.id && c.with == newer.id) || (c.fact == newer.id && c.with == older.id));
            if already {
                continue; // an open conflict waits for the user, not for the next guess
            }
            if !(newer.confirmed || newer.user_authored) && said_together(older, newer) {
                continue;
            }
            // A teammate's item and a fact this person stands behind never
            // replace each other: the person decides.
            let theirs_and_mine =
                |a: &Fact, b: &Fact| a.state == State::Team && (b.confirmed || b.user_authored || b.pinned);
            let firm = theirs_and_mine(older, newer) || theirs_and_mine(newer, older);
            // Provenance first: what only the workspace or the agent says
            // never replaces what a person stands behind; the person decides.
            let unbacked_against_a_person = older.is_backed_by_a_person() && !newer.is_backed_by_a_person();
            match judge.judge(older, newer) {
                Judgement::Unrelated => {}
                Judgement::Supersedes { reason } | Judgement::Ambiguous { reason } if unbacked_against_a_person => {
                    events.push(Event::Conflict {
                        fact: older.id.clone(),
                        with: newer.id.clone(),
                        at: now,
                        reason: format!("{reason}; the newer one has no person behind it"),
                    })
                }
                // Workspace content repeated is not evidence against a fact
                // that has support of its own.
                Judgement::Supersedes { .. } if !newer.has_own_support() && older.has_own_support() => {}
                Judgement::Supersedes { reason }
                    if !firm && (!(older.confirmed || older.pinned) || newer.confirmed) =>
                {
                    events.push(Event::Supersede { fact: older.id.clone(), by: newer.id.clone(), at: now, reason })
                }
                Judgement::Supersedes { reason } | Judgement::Ambiguous { reason } => {
                    events.push(Event::Conflict { fact: older.id.clone(), with: newer.id.clone(), at: now, reason })
                }
            }
        }
    }
    events
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::facts::{Observation, Origin, fact_id};

    /// An observation of `text` by `session` on November `day`.
    pub(in crate::facts) fn observe(text: &str, session: &str, day: u32) -> Event {
        Event::Observe(Observation {
            fact: fact_id(text),
            text: text.into(),
            source_session: session.into(),
            learned_at: format!("2026-11-{day:02}T10:00:00Z").parse().unwrap(),
            confidence: 0.5,
            confirmed: false,
            origin: Origin::Assistant,
            instruction: false,
            workspace_echo: false,
            convention: false,
            team: None,
        })
    }

    fn fold(events: &[Event]) -> Fold {
        Fold::from_events(events.iter().cloned().enumerate().map(|(i, e)| (i + 1, e)))
    }

    fn now() -> Timestamp {
        "2026-11-20T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn a_long_sentence_still_supersedes_at_its_clause_boundary() {
        let (old, new) = ("The cache lives in Redis.", "The cache now lives in Postgres and Redis is gone.");
        let events = [observe(old, "s1", 1), observe(new, "s2", 2)];
        let found = reconcile(&fold(&events), &[fact_id(new)], &SubjectKeyJudge, now());
        assert!(
            matches!(found.as_slice(), [Event::Supersede { fact, by, .. }] if *fact == fact_id(old) && *by == fact_id(new)),
            "{found:?}"
        );
    }

    #[test]
    fn two_statements_of_one_session_never_supersede_each_other() {
        let (a, b) = ("The cache lives in Redis.", "The cache lives in Postgres.");
        let events = [observe(a, "s1", 1), observe(b, "s1", 1)];
        let f = fold(&events);
        assert_eq!(reconcile(&f, &[fact_id(a), fact_id(b)], &SubjectKeyJudge, now()), vec![]);
        // A later session saying one of them again is news: that one wins.
        let events = [observe(a, "s1", 1), observe(b, "s1", 1), observe(b, "s2", 3)];
        let found = reconcile(&fold(&events), &[fact_id(b)], &SubjectKeyJudge, now());
        assert!(matches!(found.as_slice(), [Event::Supersede { fact, .. }] if *fact == fact_id(a)), "{found:?}");
    }

    #[test]
    fn the_teams_ways_of_working_do_not_replace_each_other() {
        let (a, b) = ("We use conventional commits.", "We use pnpm.");
        let events = [observe(a, "s1", 1), observe(b, "s2", 2)];
        assert_eq!(reconcile(&fold(&events), &[fact_id(b)], &SubjectKeyJudge, now()), vec![]);
    }
}
