//! Ranking a session's candidates: the user's own words over the
//! assistant's, the final report over mid-session narration, rules and
//! decisions over plain statements, named project things over vague ones.
//! Only the few best are kept, and none that are weak.

use super::{Candidate, Kind};
use crate::facts::Origin;
use crate::facts::subject::Statement;

/// At most this many facts from a session of a few requests: a handful, not
/// a transcript.
pub(super) const KEEP: usize = 5;

/// At most this many from a session of many requests.
const KEEP_LONG: usize = 10;

/// How many facts a session with `requests` prompts of the person's keeps:
/// [`KEEP`], and one more for every five prompts, up to [`KEEP_LONG`].
pub(super) fn keep_for(requests: usize) -> usize {
    (KEEP + requests / 5).min(KEEP_LONG)
}

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
    // is: a sentence of theirs is kept before any of the agent's.
    let mut score = match (c.said, c.origin) {
        (true, _) => 8,
        (false, Origin::User) => 4,
        (false, Origin::Assistant) => 1,
    };
    if c.final_report {
        score += 2;
    }
    if names_project_things(&c.text) {
        score += 2;
    }
    score += match c.kind {
        Kind::Convention => 3,
        // What the person's own document says the project is.
        Kind::Decision if c.said => 5,
        Kind::Decision => 2,
        Kind::Statement if placement(c) => 3,
        Kind::Statement => i32::from(c.statement.as_ref().is_some_and(is_mechanism)),
    };
    if c.text.chars().count() > 200 {
        score -= 1;
    }
    score
}

/// The best candidates, at most `keep`, in the order the session said them.
/// A sentence of the person's about what they came back to again and again
/// (a word it shares with their other statements) ranks higher, and so does
/// a later one: a long session's rules settle towards its end.
pub(super) fn keep_best(candidates: Vec<Candidate>, keep: usize) -> Vec<Candidate> {
    let last = candidates.iter().map(|c| c.order).max().unwrap_or(0).max(1);
    let said: Vec<Vec<String>> = candidates.iter().map(|c| if c.said { content_words(&c.text) } else { Vec::new() }).collect();
    let mut scored: Vec<(i32, Candidate)> = candidates
        .into_iter()
        .enumerate()
        .map(|(i, c)| {
            let mut s = score(&c);
            if c.said {
                let mine = said.get(i).map(Vec::as_slice).unwrap_or_default();
                let echoed = said
                    .iter()
                    .enumerate()
                    .filter(|(j, other)| *j != i && other.iter().any(|w| mine.contains(w)))
                    .count();
                s += i32::try_from(echoed.min(3)).unwrap_or(0);
                s += i32::from(c.order * 2 > last);
                // A value ("10 seconds", "port 8000") makes a rule concrete.
                s += i32::from(c.text.chars().any(|ch| ch.is_ascii_digit()));
            }
            (s, c)
        })
        .filter(|(s, _)| *s >= WEAKEST)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.order.cmp(&b.1.order)));
    // One fact a subject, first: a candidate about what a kept one is about
    // waits until every other subject had its turn.
    let (mut first, mut later): (Vec<Candidate>, Vec<Candidate>) = (Vec::new(), Vec::new());
    for (_, c) in scored {
        let words = content_words(&c.text);
        let same = first.iter().any(|k: &Candidate| {
            let theirs = content_words(&k.text);
            let shared = words.iter().filter(|w| theirs.contains(w)).count();
            shared * 3 >= words.len().min(theirs.len()).max(1) && shared >= 1
        });
        if same { later.push(c) } else { first.push(c) }
    }
    first.extend(later);
    first.truncate(keep);
    let mut kept: Vec<Candidate> = first;
    kept.sort_by_key(|c| c.order);
    kept
}

/// The words of a sentence that say what it is about: four letters or more,
/// lower-case, without the common ones.
fn content_words(text: &str) -> Vec<String> {
    const COMMON: &[&str] = &[
        "that", "this", "with", "from", "have", "should", "must", "when", "they", "their", "there", "which", "will",
        "would", "could", "into", "only", "also", "than", "then", "them", "each", "every", "after", "before", "about",
        "other", "some", "more", "most", "same", "instead", "just", "make", "sure", "being", "does", "what",
    ];
    let mut out: Vec<String> = text
        .split(|c: char| !c.is_alphanumeric() && c != '-' && c != '_')
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 4 && !COMMON.contains(&w.as_str()))
        .map(|w| w.trim_end_matches('s').to_string())
        .collect();
    out.sort();
    out.dedup();
    out
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
