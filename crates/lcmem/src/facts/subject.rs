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
}

/// A subject, a verb of state, a complement. The subject must name something,
/// not point at it ("it is").
static STATEMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:the|our|this\s+project's|all|each|every)?\s*
        (?P<subject>[\p{L}\p{N}`'./_-][\p{L}\p{N}`'./_\s-]{1,60}?)\s+
        (?:now\s+|still\s+)?
        (?P<relation>uses|use|is|are|lives?\s+in|runs?\s+(?:on|in|with|under)|(?:is|are)\s+stored\s+in|depends\s+on
        |(?:is|are)\s+built\s+with|(?:is|are)\s+written\s+in|targets|requires|(?:is|are)\s+configured\s+(?:in|via|with)
        |(?:is|are)\s+deployed\s+(?:to|on|via)|deploys?\s+(?:to|via)|(?:is|are)\s+managed\s+by|goes\s+through
        |(?:is|are)\s+handled\s+by|(?:is|are)\s+kept\s+in|(?:is|are)\s+pinned\s+to|talks\s+to|reads\s+from|writes\s+to)\s+
        (?P<rest>.{2,200})$",
    )
    .expect("valid regex")
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
    "we",
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
];

/// A subject holding one of these is really a clause ("the test fails about
/// one run in ten"), not a name.
const VERBS_IN_SUBJECT: &[&str] = &[
    "is", "are", "was", "were", "be", "been", "has", "have", "had", "does", "do", "did", "can", "will", "fails",
    "failed", "works", "worked", "needs", "needed", "gets", "got", "makes", "made",
];

/// Where a statement's own clause ends and commentary begins.
const CLAUSE_ENDS: &[&str] = &[", so ", ", but ", ", which ", ", whose ", "; ", " so that ", ", because ", " because "];

/// Parses a sentence as a statement about the project, or says it is not one.
pub fn parse(sentence: &str) -> Option<Statement> {
    let sentence = sentence.trim();
    if sentence.ends_with('?') || sentence.len() > 240 {
        return None;
    }
    let caps = STATEMENT.captures(sentence)?;
    let subject = normalize(caps.name("subject")?.as_str());
    let words: Vec<&str> = subject.split_whitespace().collect();
    let head = words.first().copied().unwrap_or("");
    if POINTING_SUBJECTS.contains(&head) || words.len() > 6 || words.iter().any(|w| VERBS_IN_SUBJECT.contains(w)) {
        return None;
    }
    let rest = caps.name("rest")?;
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
    let text = sentence[..end].trim_end_matches([',', ';', ':', ' ', '.', '!']);
    let object = normalize(&sentence[rest.start()..end]);
    Some(Statement {
        subject,
        relation: relation_of(caps.name("relation")?.as_str()),
        object,
        text: format!("{text}."),
    })
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
}
