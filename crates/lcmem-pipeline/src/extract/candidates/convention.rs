//! Conventions, constraints and decisions as people phrase them: "We use
//! conventional commits.", "Commits follow Conventional Commits.", "Deploys
//! go out from tags only.", "Never use X, use Y", "object keys must always
//! use /", "the house rules: wrap errors with %w, no panic outside main()",
//! "we chose minio-go because …".

use std::sync::LazyLock;

use regex::Regex;

use super::layout::rule_noun;
use crate::extract::clip;
use crate::facts::subject::Statement;

/// Subjects that name how the team works rather than what the project is.
const PRACTICE_SUBJECTS: &[&str] = &[
    "commit",
    "commits",
    "commit messages",
    "deploy",
    "deploys",
    "deployments",
    "releases",
    "release",
    "branches",
    "prs",
    "pull requests",
    "merges",
    "tags",
    "reviews",
    "code reviews",
    "hotfixes",
    "migrations",
    "changelog",
    "changelog entries",
    "versions",
    "version numbers",
    "rule",
    "policy",
    "practice",
    "convention",
    "process",
    "workflow",
    "house rule",
];

/// Verbs that say how the team works, after "we" or "we never".
const PRACTICE_VERBS: &[&str] = &[
    "use", "deploy", "release", "ship", "follow", "write", "keep", "prefer", "run", "tag", "squash", "rebase", "merge",
    "review", "pin", "build", "test", "store", "commit", "push", "name", "avoid", "require", "wrap", "log", "format",
    "lint", "document", "version", "vendor", "publish", "put", "check", "add", "create", "mock", "cut", "bump",
];

/// Whether a parsed statement is a convention: the team as subject, a
/// practice as subject ("commits", "deploys"), or a relation of practice.
pub(super) fn is_practice(s: &Statement) -> bool {
    s.is_team()
        || PRACTICE_SUBJECTS.contains(&s.subject.as_str())
        || matches!(s.relation.as_str(), "follows" | "goes out from" | "goes out on" | "goes out via")
}

/// A rule listed inline after a lead-in: "the house rules: wrap errors with
/// %w, no panic outside main(), tests are table-driven with t.Run".
static INLINE_RULES: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"^(?P<lead>[^:]{0,120}):\s*(?P<list>\S.*)$"));

/// Each rule of an inline list, worded "House rule: wrap errors with %w.".
pub(super) fn inline_rules(sentence: &str) -> Option<Vec<String>> {
    let caps = INLINE_RULES.captures(sentence)?;
    let noun = rule_noun(&caps["lead"])?;
    let list = caps["list"].trim_end_matches(['.', '!', ' ']);
    let mut items: Vec<&str> = list.split([',', ';']).flat_map(|part| part.split(" and ")).collect();
    items.retain(|i| i.split_whitespace().count() >= 2);
    let rules: Vec<String> = items.into_iter().filter_map(|i| rule_item(noun, i)).collect();
    (!rules.is_empty()).then_some(rules)
}

/// One item of a list of rules, named by the list's noun.
pub(super) fn rule_item(noun: &str, item: &str) -> Option<String> {
    let item = item.trim().trim_end_matches(['.', ';', ',', ' ']).trim_start_matches("and ").trim();
    let words = item.split_whitespace().count();
    if !(2..=20).contains(&words) || item.ends_with('?') {
        return None;
    }
    Some(format!("{noun}: {}.", clip(item, 200)))
}

/// Where a sentence turns: "it's good, but the issue is …", "X; however Y".
const TURNS: &[&str] = &[", however ", "; however ", ". however ", ", but ", " but ", "; ", " - ", " — ", " – "];

/// Openers that announce the claim that follows ("the issue is that X").
static ANNOUNCED: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:the\s+)?(?:issue|problem|point|thing|catch|reality|fact)\s+is\s+(?:that\s+)?|^keep\s+in\s+mind\s+that\s+|^note\s+that\s+",
    )
});

/// The clauses of a sentence worth reading on their own, each ending with
/// the sentence's full stop.
pub(super) fn clauses(sentence: &str) -> Vec<String> {
    let mut parts = vec![sentence.trim().to_string()];
    for turn in TURNS {
        parts = parts.iter().flat_map(|p| p.split(turn).map(str::to_string).collect::<Vec<_>>()).collect();
    }
    parts
        .into_iter()
        .map(|p| ANNOUNCED.replace(p.trim(), "").trim().trim_end_matches([',', ';', ' ']).to_string())
        .filter(|p| p.split_whitespace().count() >= 3)
        .collect()
}

/// "We chose minio-go because …", "Switched logging from zerolog to log/slog".
static DECISION: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:(?:we|i)(?:'ve|\s+have)?\s+)?
        (?:(?:chose|picked|went\s+with|settled\s+on|decided\s+(?:on|against)|opted\s+(?:for|against)|standardi[sz]ed\s+on)\s+\S
        |(?:switched|migrated|moved)\s+\S.{0,80}?\s+from\s+\S.{0,80}?\s+to\s+\S
        |replaced\s+\S.{0,80}?\s+with\s+\S)",
    )
});

/// A decision, worded as said (its reason included), or `None`.
/// The detail after a colon ("Migrated X from A to B: entries live in …")
/// is the work, not the decision.
pub(super) fn decision(clause: &str) -> Option<String> {
    let said = strip_speaker(clause);
    let said = said.split_once(": ").map_or(said, |(head, _)| head);
    DECISION.is_match(said).then(|| full_stop(&capitalise(said)))
}

/// "X must always use Y", "X should be agent-agnostic" (a property, not
/// "X should handle it", a guess), "secrets are never written to the file", "never
/// use X, use Y", "we don't control Z", "important not to commit …".
/// A word every form of [`CONSTRAINT`] holds.
static RULE_WORD: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(?:must|mustn't|should|shouldn't|always|never|don't|do\s+not|only|important|essential|crucial)\b",
    )
});

static CONSTRAINT: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?ix)^(?:
        (?P<subject>[\p{L}\p{N}`'./_(){}~$\s,-]{2,70}?)\s+(?:must(?:\s+not|\s+never|\s+always|n't)?\s+\w|should(?:\s+not|\s+never|\s+always|n't)?\s+be\s)
        |(?P<subject2>[\p{L}\p{N}`'./_(){}~$\s,-]{2,70}?)\s+(?:(?:is|are)\s+)?(?:always|never)\s+\w
        |(?P<imperative>(?:never|always|don't|do\s+not)\s+[\w-]+\s+\S)
        |we\s+(?:don't|do\s+not|never|always|only)\s+(?P<verb3>[\w-]+)\s+\S
        |(?P<imperative2>(?:it's\s+|it\s+is\s+)?(?:important|essential|crucial)\s+(?:not\s+)?to\s+[\w-]+\s+\S)
        )",
    )
});

const NOT_A_SUBJECT: &[&str] = &["it", "this", "that", "there", "which", "what", "he", "she", "they", "one"];

/// A rule or constraint, with whether it is a convention of practice.
pub(super) fn constraint(clause: &str) -> Option<(String, bool)> {
    // Most sentences hold none of the words a rule needs: a search without
    // captures says so far faster than the full pattern can.
    if !RULE_WORD.is_match(clause) {
        return None;
    }
    let caps = CONSTRAINT.captures(clause)?;
    let subject = caps.name("subject").or(caps.name("subject2")).map(|m| m.as_str().trim().to_lowercase());
    if let Some(subject) = &subject {
        let head = subject.trim_start_matches("the ").split_whitespace().next().unwrap_or("");
        if NOT_A_SUBJECT.contains(&head) || subject.split_whitespace().count() > 8 {
            return None;
        }
        if super::chatter::is_meta_subject(subject) {
            return None;
        }
    }
    // A rule for everyone ("never …", "X must always …") is a convention;
    // "we never X" is one when X is a way of working, not "we don't control Y".
    let imperative = caps.name("imperative").or(caps.name("imperative2")).is_some();
    let team_practice =
        caps.name("verb3").is_some_and(|v| PRACTICE_VERBS.contains(&v.as_str().to_lowercase().as_str()));
    let convention = imperative || subject.is_some() || team_practice;
    Some((full_stop(&capitalise(clip(clause.trim(), 240).as_str())), convention))
}

fn strip_speaker(clause: &str) -> &str {
    for prefix in ["We've ", "I've ", "We have ", "I have ", "We ", "I "] {
        if let Some(rest) = clause.strip_prefix(prefix)
            && rest.chars().next().is_some_and(char::is_lowercase)
            && !rest.starts_with("chose")
            && !rest.starts_with("picked")
            && !rest.starts_with("went")
            && !rest.starts_with("settled")
            && !rest.starts_with("decided")
            && !rest.starts_with("opted")
        {
            return rest;
        }
    }
    clause
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

fn full_stop(s: &str) -> String {
    let s = s.trim_end_matches([',', ';', ':', ' ']);
    if s.ends_with(['.', '!', '…']) { s.to_string() } else { format!("{s}.") }
}
