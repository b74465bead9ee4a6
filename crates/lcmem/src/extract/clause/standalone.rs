//! A fact as memory keeps it: a whole sentence that stands on its own.

use super::Clause;

/// Openers that leave a fact hanging on what came before it.
const HANGING: &[&str] = &[
    "but",
    "and",
    "so",
    "or",
    "then",
    "which",
    "because",
    "also",
    "still",
    "though",
    "although",
    "however",
    "yet",
    "plus",
    "instead",
    "otherwise",
    "thus",
    "hence",
    "therefore",
    "meanwhile",
    "again",
    "too",
    "either",
    "neither",
    "nor",
    "whereas",
    "while",
    "since",
    "until",
    "unless",
    "if",
    "when",
    "once",
    "after",
    "before",
];

/// Subjects that point at something said before instead of naming it.
const POINTERS: &[&str] =
    &["it", "this", "that", "these", "those", "they", "them", "he", "she", "there", "here", "its"];

/// Verbs that open an event ("Fixed by updating …"), which belongs in the
/// journal, not among durable facts.
/// Past tenses that do not end in "-ed", for the event rule.
const IRREGULAR_PAST: &[&str] =
    &["wrote", "made", "built", "ran", "set", "split", "cut", "took", "gave", "put", "drew"];

const EVENTS: &[&str] = &[
    "fixed",
    "updated",
    "added",
    "removed",
    "changed",
    "created",
    "rewrote",
    "renamed",
    "moved",
    "deleted",
    "implemented",
    "refactored",
    "bumped",
    "reverted",
    "patched",
    "tweaked",
];

/// A fact as it should stand in memory: one whole sentence that names its
/// subject, says something durable and leans on nothing said before it, or
/// `None`.
pub fn fact_text(text: &str) -> Option<String> {
    // A clause cut from the middle of a sentence ("evaluate how this is
    // handled …") starts with a plain word in lower case; "the cache lives
    // in Postgres" after a label is whole, and so is an identifier.
    let opening = text.split_whitespace().next().unwrap_or("");
    let plain_lower = opening.chars().next().is_some_and(char::is_lowercase)
        && opening.chars().all(|c| c.is_ascii_lowercase() || c == '\'')
        && !["the", "a", "an", "our", "all", "each", "every", "no", "only", "any"].contains(&opening);
    if plain_lower {
        return None;
    }
    let clause = Clause::of(text)?;
    let first = clause.as_str().split_whitespace().next().unwrap_or("");
    let head = first.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'').to_lowercase();
    if HANGING.contains(&head.as_str()) || POINTERS.contains(&head.as_str()) || EVENTS.contains(&head.as_str()) {
        return None;
    }
    // A past-tense verb acting on an object ("Switched the test suite …",
    // "Wrote `docs/x.md` …") is an event too; a participle before its noun
    // ("Signed URLs expire after an hour") is not.
    let second = clause.as_str().split_whitespace().nth(1).unwrap_or("").to_lowercase();
    let past = (head.len() > 4 && head.ends_with("ed")) || IRREGULAR_PAST.contains(&head.as_str());
    let object = ["the", "a", "an", "all", "every", "our", "its", "their", "this", "these", "each"]
        .contains(&second.as_str())
        || second.starts_with('`');
    if past && object {
        return None;
    }
    // A sentence needs a verb of its own: a label or a noun phrase is none.
    let verbs = clause.as_str().split('`').step_by(2).flat_map(str::split_whitespace).any(|w| {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric()).to_lowercase();
        [
            "is", "are", "was", "were", "has", "have", "uses", "use", "runs", "run", "lives", "goes", "go", "must",
            "should", "can", "cannot", "never", "always", "needs", "need", "keeps", "stays", "holds", "returns",
            "reads", "writes", "calls", "depends", "follows", "requires", "takes", "gets", "starts", "ends", "wins",
            "loses", "means", "shows", "only", "do", "does", "don't", "doesn't", "follow", "live", "point", "sit",
            "come", "fail", "pass", "work", "stay", "hold", "wrap", "build", "deploy", "ship", "release", "publish",
            "store", "keep", "cache", "call", "read", "write", "get", "set", "go",
        ]
        .contains(&w.as_str())
            || (w.len() > 3 && (w.ends_with('s') || w.ends_with("ed")) && !first.eq_ignore_ascii_case(&w))
            || (w.len() > 4 && w.ends_with("ed") && first.eq_ignore_ascii_case(&w))
    });
    // A rule listed under a lead-in ("House rule: no panic outside main()")
    // says what it says without a verb.
    let listed_rule = clause.as_str().split_once(": ").is_some_and(|(label, _)| {
        let label = label.to_lowercase();
        ["rule", "convention", "guideline", "standard", "policy"].iter().any(|w| label.ends_with(w))
    });
    if !verbs && !listed_rule {
        return None;
    }
    Some(clause.sentence())
}

#[cfg(test)]
mod tests {
    use super::fact_text;

    #[test]
    fn an_event_is_no_fact_and_a_participle_before_its_noun_is_no_event() {
        for event in [
            "Switched the test suite from Jest to Vitest.",
            "Migrated the product cache from Redis to Postgres.",
            "Wrote `docs/deploy.md` for the new pipeline.",
            "Fixed by updating the view template.",
        ] {
            assert_eq!(fact_text(event), None, "{event}");
        }
        for fact in
            ["Signed URLs expire after an hour.", "The tests run with Vitest.", "Cached pages live for 5 minutes."]
        {
            assert!(fact_text(fact).is_some(), "{fact}");
        }
    }
}
