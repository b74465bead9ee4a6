//! What a fact is about: a statement split into subject, relation and object.
//!
//! Two facts with the same subject and relation but different objects ("the
//! product cache uses Redis", later "the product cache uses Postgres") are
//! the offline signal that the newer one replaces the older. The same parse
//! decides which sentences the offline extractor takes as candidate facts.

use std::sync::LazyLock;

use regex::Regex;

use super::normalize;

/// A plain statement of how the project is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statement {
    /// Normalised subject, without articles: `product cache`.
    pub subject: String,
    /// Normalised relation: `uses`, `runs on`, `is`, …
    pub relation: String,
    /// Normalised object: `postgres`.
    pub object: String,
    /// The sentence cut at the end of its own clause, with a full stop.
    pub text: String,
}

impl Statement {
    /// The key two facts must share to be about the same thing.
    pub fn key(&self) -> String {
        format!("{} | {}", self.subject, self.relation)
    }

    /// Whether the subject is the team itself ("we use conventional
    /// commits"): how people work, not a thing of the project. Two such
    /// statements share a key without being about the same thing.
    pub fn is_team(&self) -> bool {
        self.subject == "we"
    }
}

/// A subject, a verb of state, a complement. The subject must name something,
/// not point at it ("it is").
static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:the|our|this\s+project's|all|each|every)?\s*
        (?P<subject>[\p{L}\p{N}`'./_-][\p{L}\p{N}`'./_\s-]{1,60}?)\s+
        (?:now\s+|still\s+)?
        (?P<relation>uses|use|is|are|lives?\s+in|runs?\s+(?:on|in|with|under)|(?:is|are)\s+stored\s+in|depends?\s+on
        |(?:is|are)\s+built\s+with|(?:is|are)\s+written\s+in|targets|requires|(?:is|are)\s+configured\s+(?:in|via|with)
        |(?:is|are)\s+deployed\s+(?:to|on|via|from)|deploys?\s+(?:to|via|from)|(?:is|are)\s+managed\s+by|goes\s+through
        |follows?|go(?:es)?\s+out\s+(?:from|on|via|through|to)|(?:is|are)\s+released\s+(?:from|on|via|with)
        |(?:is|are)\s+handled\s+by|(?:is|are)\s+kept\s+in|(?:is|are)\s+pinned\s+to|talks\s+to|reads\s+from|writes\s+to)\s+
        (?P<rest>.{2,200})$",
    )
});

/// A word every relation of [`STATEMENT`] starts with.
static RELATION_WORD: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(?:uses?|is|are|lives?|runs?|depends?|targets|requires|deploys?|goes|go|follows?|talks|reads|writes)\s",
    )
});

const POINTING_SUBJECTS: &[&str] = &[
    "it",
    "that",
    "this",
    "there",
    "which",
    "what",
    "who",
    "he",
    "she",
    "they",
    "you",
    "i",
    "these",
    "those",
    "here",
    "everything",
    "nothing",
    "something",
    "one",
    "thing",
    "answer",
    "problem",
    "issue",
    "question",
    "result",
    "my",
    "your",
    "his",
    "her",
    "their",
    "its",
    "both",
    "some",
    "many",
    "most",
    "several",
    "any",
    "another",
    "other",
    "nobody",
    "everyone",
    "none",
    "us",
];

/// What "we" may do in a statement about the project: work a certain way
/// ("we use …", "we deploy from …"). "We are looking at it" is not one.
const TEAM_RELATIONS: &[&str] = &[
    "uses",
    "deploys to",
    "deploys via",
    "deploys from",
    "follows",
    "targets",
    "requires",
    "depends on",
    "runs on",
    "runs with",
    "runs in",
    "goes out from",
];

/// An object that points at something said before ("we use it") names nothing.
const POINTING_OBJECTS: &[&str] = &["it", "that", "this", "them", "these", "those", "here", "there", "one"];

/// A subject holding one of these is really a clause ("the test fails about
/// one run in ten"), not a name.
const VERBS_IN_SUBJECT: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "has", "have", "had", "does", "do", "did", "can", "will", "fails",
    "failed", "works", "worked", "needs", "needed", "gets", "got", "makes", "made", "must", "should", "always",
    "never", "can", "cannot", "may", "not", "don't", "doesn't",
];

/// Where a statement's own clause ends and commentary begins.
const CLAUSE_ENDS: &[&str] = &[
    ", so ",
    ", but ",
    ", which ",
    ", whose ",
    "; ",
    " so that ",
    ", because ",
    " because ",
    ", and ",
    ", while ",
    " while ",
    ", whereas ",
    " whereas ",
    " now that ",
    ", since ",
    ", though ",
    ", although ",
    " — ",
    " – ",
    " - ",
];

/// " and " starts a clause of its own when a subject and a verb follow it:
/// "lives in Postgres and Redis is gone", not "runs with Jest and Vitest".
static AND_CLAUSE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)\s(?:and|or)\s+(?:the\s+|our\s+|its\s+|a\s+)?[\p{L}\p{N}`'./_-]+(?:\s+[\p{L}\p{N}`'./_-]+){0,3}?\s+
        (?:is|are|was|were|has|have|had|goes|went|stays|stay|remains|remain|got|gets|no\s+longer|now|will|can|must
        |should|lives|live|uses|use|runs|run|moved|moves|left|leaves|became|becomes)\b",
    )
});

/// Parses a sentence as a statement about the project, or says it is not one.
pub fn parse(sentence: &str) -> Option<Statement> {
    let sentence = sentence.trim();
    if sentence.ends_with('?') || sentence.len() > 240 {
        return None;
    }
    // Most sentences hold none of the relation words: a search without
    // captures says so far faster than the full pattern can.
    if !RELATION_WORD.is_match(sentence) {
        return None;
    }
    let caps = STATEMENT.captures(sentence)?;
    let subject = normalize(caps.name("subject")?.as_str());
    let words: Vec<&str> = subject.split_whitespace().collect();
    let head = words.first().copied().unwrap_or("");
    if POINTING_SUBJECTS.contains(&head) || words.len() > 6 || words.iter().any(|w| VERBS_IN_SUBJECT.contains(w)) {
        return None;
    }
    let verb = caps.name("relation")?.as_str();
    // "Browser Use in-app automation": a capital makes the verb part of a name.
    if verb.starts_with(|c: char| c.is_uppercase()) {
        return None;
    }
    let relation = relation_of(verb);
    let rest = caps.name("rest")?;
    let first_of_rest = normalize(rest.as_str()).split_whitespace().next().unwrap_or("").to_string();
    if head == "we" && (words.len() > 1 || !TEAM_RELATIONS.contains(&relation.as_str()))
        || POINTING_OBJECTS.contains(&first_of_rest.as_str())
    {
        return None;
    }
    // "is 2,400 lines", "is now 900 lines": a passing measurement, not a fact.
    if rest.as_str().trim_start_matches("now ").starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let mut end = sentence.len();
    for marker in CLAUSE_ENDS {
        if let Some(i) = sentence[rest.start()..].find(marker) {
            end = end.min(rest.start() + i);
        }
    }
    if let Some(m) = AND_CLAUSE.find(&sentence[rest.start()..end]) {
        end = rest.start() + m.start();
    }
    let text = sentence[..end].trim_end_matches([',', ';', ':', ' ', '.', '!']);
    let object = normalize(&sentence[rest.start()..end]);
    if object.is_empty() {
        return None;
    }
    Some(Statement { subject, relation, object, text: format!("{text}.") })
}

/// Folds a verb phrase's number and spacing: "run  on" and "runs on" are one
/// relation, as are "is stored in" and "are stored in".
fn relation_of(verb: &str) -> String {
    let words: Vec<String> = normalize(verb)
        .split_whitespace()
        .map(|w| match w {
            "are" => "is".to_string(),
            "use" => "uses".to_string(),
            "live" => "lives".to_string(),
            "run" => "runs".to_string(),
            "deploy" => "deploys".to_string(),
            "follow" => "follows".to_string(),
            "go" | "goes" => "goes".to_string(),
            "depend" => "depends".to_string(),
            other => other.to_string(),
        })
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_splits_into_subject_relation_and_object() {
        let s = parse("The product cache now uses Postgres, so Redis can go.").unwrap();
        assert_eq!((s.subject.as_str(), s.relation.as_str(), s.object.as_str()), ("product cache", "uses", "postgres"));
        assert_eq!(s.text, "The product cache now uses Postgres.");
        assert_eq!(s.key(), parse("the product cache uses Redis").unwrap().key());
        assert_eq!(parse("The tests run with Jest.").unwrap().key(), parse("Tests runs with Vitest").unwrap().key());
    }

    #[test]
    fn pointers_clauses_questions_and_measurements_are_not_statements() {
        for s in [
            "It is slow today.",
            "Does the cache use Redis?",
            "main.rs is 300 lines.",
            "checkout.test.ts fails about one run in ten.",
        ] {
            assert_eq!(parse(s), None, "{s}");
        }
    }

    #[test]
    fn an_object_ends_where_its_clause_does() {
        let s = parse("The cache now lives in Postgres and Redis is gone.").unwrap();
        assert_eq!((s.object.as_str(), s.text.as_str()), ("postgres", "The cache now lives in Postgres."));
        assert_eq!(parse("The tests run with Jest and Vitest.").unwrap().object, "jest and vitest");
        assert_eq!(parse("Logging goes through slog, and zerolog is out.").unwrap().object, "slog");
    }

    #[test]
    fn we_is_a_subject_for_how_the_team_works_only() {
        let s = parse("We use conventional commits.").unwrap();
        assert!(s.is_team() && s.relation == "uses", "{s:?}");
        assert_eq!(parse("we deploy from tags").unwrap().relation, "deploys from");
        for s in ["we are looking at it.", "We use it.", "We are done.", "Browser Use in-app automation."] {
            assert_eq!(parse(s), None, "{s}");
        }
        assert_eq!(parse("Deploys go out from tags only.").unwrap().relation, "goes out from");
        assert_eq!(parse("Commits follow Conventional Commits.").unwrap().relation, "follows");
    }
}
