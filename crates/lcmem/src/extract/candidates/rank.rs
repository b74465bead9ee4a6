//! Ranking a session's candidates: the user's own words over the
//! assistant's, the final report over mid-session narration, rules and
//! decisions over plain statements, named project things over vague ones.
//! Only the few best are kept, and none that are weak.

use super::{Candidate, Kind};
use crate::facts::Origin;
use crate::facts::subject::Statement;

/// At most this many facts from one session: a handful, not a transcript.
pub(super) const KEEP: usize = 6;

/// A candidate scoring under this is too weak to keep at all.
const WEAKEST: i32 = 4;

/// Relations that place a thing ("uses", "lives in", "runs on"): the
/// canonical durable fact, firmer than a bare "is".
fn placement(c: &Candidate) -> bool {
    c.statement.as_ref().is_some_and(|s| s.relation != "is")
}

/// "Webhook signatures are verified with the signing secret": how a part
/// works, firmer than "X is Y" (and no status, though "verified" can be one).
pub(super) fn is_mechanism(s: &Statement) -> bool {
    let mut words = s.object.split_whitespace();
    let (Some(verb), Some(next)) = (words.next(), words.next()) else { return false };
    verb.len() > 4
        && verb.ends_with("ed")
        && ["with", "by", "via", "through", "in", "on", "from", "at", "per", "using"].contains(&next)
}

pub(super) fn score(c: &Candidate) -> i32 {
    // What the person says about their project is the best evidence there
    // is: a plain statement of theirs is kept on its own strength.
    let mut score = match c.origin {
        Origin::User => 4,
        Origin::Assistant => 1,
    };
    if c.final_report {
        score += 2;
    }
    if names_project_things(&c.text) {
        score += 2;
    }
    score += match c.kind {
        Kind::Convention => 3,
        Kind::Decision => 2,
        Kind::Statement if placement(c) => 3,
        Kind::Statement => i32::from(c.statement.as_ref().is_some_and(is_mechanism)),
    };
    if c.text.chars().count() > 200 {
        score -= 1;
    }
    score
}

/// The best candidates, at most [`KEEP`], in the order the session said them.
pub(super) fn keep_best(candidates: Vec<Candidate>) -> Vec<Candidate> {
    let mut scored: Vec<(i32, Candidate)> =
        candidates.into_iter().map(|c| (score(&c), c)).filter(|(s, _)| *s >= WEAKEST).collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.order.cmp(&b.1.order)));
    scored.truncate(KEEP);
    let mut kept: Vec<Candidate> = scored.into_iter().map(|(_, c)| c).collect();
    kept.sort_by_key(|c| c.order);
    kept
}

/// Whether a sentence names something of the project: a code span, a path
/// or file, an identifier (`snake_case`, `CamelCase`, `kebab-case`), an
/// acronym or a version.
pub(super) fn names_project_things(text: &str) -> bool {
    text.contains('`')
        || text.split_whitespace().any(|raw| {
            let w = raw.trim_matches(|c: char| !c.is_alphanumeric());
            let inner = |c: char| w.chars().skip(1).take(w.chars().count().saturating_sub(2)).any(|x| x == c);
            let camel = w.chars().skip(1).any(char::is_uppercase) && w.chars().any(char::is_lowercase);
            let acronym = w.chars().count() >= 2 && w.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
            inner('/') || inner('.') || inner('_') || inner('-') || camel || acronym && w != "OK"
        })
}
