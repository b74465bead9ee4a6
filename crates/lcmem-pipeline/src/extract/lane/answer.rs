//! Reading a model's answer by its schema, and combining it with the offline
//! lane's findings so that what the rules are sure of (the files a session
//! changed, that it shipped) is never lost to a weak model.

use serde::Deserialize;
use serde_json::Value;

use super::grounding::Evidence;
use crate::extract::{CandidateFact, ExtractOutput, Outcome};
use crate::facts::{Origin, normalize};

/// The answer, as the schema of [`super::prompt::schema`] describes it.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Answer {
    pub summary: String,
    pub outcome: Outcome,
    #[serde(default)]
    pub decisions: Vec<String>,
    #[serde(default)]
    pub facts: Vec<AnswerFact>,
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct AnswerFact {
    pub text: String,
    pub kind: FactKind,
    pub source: Source,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum FactKind {
    Fact,
    Convention,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    User,
    Assistant,
}

/// How sure memory is of a fact a model proposed: below what a user's own
/// words get, so that it shows as inferred until a later session or the
/// user confirms it.
pub const MODEL_FACT_CONFIDENCE: f64 = 0.55;

/// How many of the offline lane's facts go before the model's when both
/// lanes found more than memory keeps from one session.
const OFFLINE_FIRST: usize = 6;

/// Reads `value` by the schema: the answer, or a sentence saying what in it
/// does not fit.
pub fn read(value: Value) -> Result<Answer, String> {
    let answer: Answer =
        serde_json::from_value(value).map_err(|e| format!("the answer does not fit the schema: {e}"))?;
    if answer.summary.trim().is_empty() {
        return Err("the answer's summary is empty".into());
    }
    Ok(answer)
}

/// The model's answer, kept honest by the offline lane's evidence:
/// - the files are the evidence's, never the model's (it cannot add one);
/// - an outcome the evidence contradicts is the evidence's: a session that
///   changed files is not a question, and only the evidence can say shipped;
/// - a summary that says nothing changed when files did is the offline one;
/// - a summary, decision or fact not grounded in the `evidence` (its words
///   are not the session's) is dropped, the summary for the offline one;
/// - the offline lane's surest facts go first, then the model's, deduplicated.
pub fn combine(answer: Answer, offline: ExtractOutput, evidence: &Evidence) -> ExtractOutput {
    let changed = !offline.files.is_empty();
    let outcome = match (offline.outcome, answer.outcome) {
        (Outcome::Shipped, _) => Outcome::Shipped,
        (evidence, Outcome::Shipped) => evidence,
        (evidence, Outcome::Question) if changed => evidence,
        (_, said) => said,
    };
    let summary = if changed && says_nothing_changed(&answer.summary) || !evidence.grounded(&answer.summary) {
        offline.summary
    } else {
        answer.summary
    };
    let grounded: Vec<String> =
        answer.decisions.into_iter().filter(|d| !d.trim().is_empty() && evidence.grounded(d)).collect();
    let decisions = if grounded.is_empty() { offline.decisions } else { grounded };
    let proposed = answer.facts.into_iter().filter(|f| evidence.grounded(&f.text)).map(|f| CandidateFact {
        text: f.text,
        confidence: MODEL_FACT_CONFIDENCE,
        origin: match f.source {
            Source::User => Origin::User,
            Source::Assistant => Origin::Assistant,
        },
        convention: f.kind == FactKind::Convention,
    });
    let mut offline_facts = offline.facts.into_iter();
    let mut facts: Vec<CandidateFact> = offline_facts.by_ref().take(OFFLINE_FIRST).collect();
    for fact in proposed.chain(offline_facts) {
        let key = normalize(&fact.text);
        if !key.is_empty() && !facts.iter().any(|f| normalize(&f.text) == key) {
            facts.push(fact);
        }
    }
    ExtractOutput { summary, outcome, files: offline.files, decisions, facts, lane: None }
}

fn says_nothing_changed(summary: &str) -> bool {
    let lower = summary.to_lowercase();
    ["no changes", "no files", "nothing was changed", "did not change", "didn't change", "made no change"]
        .iter()
        .any(|p| lower.contains(p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn offline(outcome: Outcome, files: &[&str]) -> ExtractOutput {
        ExtractOutput {
            summary: "Edited the parser.".into(),
            outcome,
            files: files.iter().map(|f| f.to_string()).collect(),
            decisions: vec![],
            facts: vec![CandidateFact {
                text: "The parser lives in src/parse.rs.".into(),
                confidence: 0.8,
                origin: Origin::Assistant,
                convention: false,
            }],
            lane: None,
        }
    }

    fn evidence() -> Evidence {
        Evidence::of(
            "Edited the parser in src/parse.rs; the parser lives in src/parse.rs. Fixed the off-by-one in the \
             lexer. Released v2. Commits follow conventional commits. No changes were made.",
        )
    }

    fn answer(summary: &str, outcome: &str) -> Answer {
        read(json!({"summary": summary, "outcome": outcome, "decisions": [], "facts": [
            {"text": "The parser lives in src/parse.rs", "kind": "fact", "source": "assistant"},
            {"text": "Commits follow conventional commits.", "kind": "convention", "source": "user"}
        ]}))
        .unwrap()
    }

    fn combine_(answer: Answer, offline: ExtractOutput) -> ExtractOutput {
        combine(answer, offline, &evidence())
    }

    #[test]
    fn prose_the_session_never_said_is_not_kept() {
        let mut said = answer("The team has successfully shipped a brilliant new version of everything.", "progress");
        said.facts.push(AnswerFact {
            text: "The company values teamwork and innovation.".into(),
            kind: FactKind::Fact,
            source: Source::Assistant,
        });
        let out = combine_(said, offline(Outcome::Progress, &["src/parse.rs"]));
        assert_eq!(out.summary, "Edited the parser.");
        assert!(!out.facts.iter().any(|f| f.text.contains("teamwork")), "{:?}", out.facts);
        assert!(out.facts.iter().any(|f| f.text.contains("conventional commits")), "grounded facts stay");
    }

    #[test]
    fn the_evidence_wins_where_a_weak_model_contradicts_it() {
        let out = combine_(answer("No changes were made.", "question"), offline(Outcome::Progress, &["src/parse.rs"]));
        assert_eq!((out.outcome, out.summary.as_str()), (Outcome::Progress, "Edited the parser."));
        assert_eq!(out.files, vec!["src/parse.rs"]);
        let out = combine_(answer("Released v2.", "shipped"), offline(Outcome::Progress, &["src/parse.rs"]));
        assert_eq!(out.outcome, Outcome::Progress, "only the evidence says shipped");
        let out = combine_(answer("Fixed the off-by-one in the lexer.", "fixed"), offline(Outcome::Shipped, &["a"]));
        assert_eq!((out.outcome, out.summary.as_str()), (Outcome::Shipped, "Fixed the off-by-one in the lexer."));
    }

    #[test]
    fn facts_of_both_lanes_are_kept_once_and_the_models_are_inferred() {
        let out = combine_(answer("Edited the parser.", "progress"), offline(Outcome::Progress, &[]));
        assert_eq!(out.facts.len(), 2, "{:?}", out.facts);
        assert_eq!(out.facts[0].confidence, 0.8);
        let convention = &out.facts[1];
        assert!(convention.convention && convention.origin == Origin::User);
        assert_eq!(convention.confidence, MODEL_FACT_CONFIDENCE);
    }

    #[test]
    fn an_answer_off_the_schema_is_refused_with_the_reason() {
        assert!(read(json!({"summary": "x", "outcome": "done"})).unwrap_err().contains("schema"));
        assert!(read(json!({"summary": " ", "outcome": "fixed"})).unwrap_err().contains("empty"));
        assert!(read(json!("just text")).is_err());
    }
}
