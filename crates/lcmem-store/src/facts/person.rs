//! The person's facts against a project's: a project fact that contradicts
//! one of the person's (a fact of theirs for every project, `lcmem facts add
//! --user`) is a conflict for the person to settle, found when asked rather
//! than recorded: the two live in different logs, and neither ever replaces
//! the other.

use super::conflict::takes_part;
use super::{Conflict, ConflictJudge, Fold, Judgement};

/// Every pair of a project fact and a person's fact that the judge finds
/// may contradict each other, the project's fact first (`persons` set).
pub fn person_conflicts(project: &Fold, person: &Fold, judge: &dyn ConflictJudge) -> Vec<Conflict> {
    let theirs: Vec<_> = person.active().filter(|f| takes_part(f)).collect();
    let mut out = Vec::new();
    if theirs.is_empty() {
        return out;
    }
    for own in project.active().filter(|f| takes_part(f)) {
        for person_fact in theirs.iter().filter(|p| p.id != own.id) {
            let (older, newer) =
                if own.last_seen <= person_fact.last_seen { (own, *person_fact) } else { (*person_fact, own) };
            let reason = match judge.judge(older, newer) {
                Judgement::Unrelated => continue,
                Judgement::Supersedes { reason } | Judgement::Ambiguous { reason } => reason,
            };
            out.push(Conflict {
                fact: own.id.clone(),
                with: person_fact.id.clone(),
                at: newer.last_seen,
                reason: format!("{reason} (against your fact for every project)"),
                persons: true,
            });
        }
    }
    out
}
