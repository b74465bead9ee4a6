//! The offline extractor: rules over prose, no model, no network, no key.
//!
//! It looks for what a reader of the transcript would look for: sentences
//! that report finished work ("Tidied CHANGELOG.md for v1.0.4"), sentences
//! that record a decision, and plain statements about how the project is
//! (the cache lives in Postgres). Sentences that read as orders are never
//! put in a summary; as candidate facts they are recorded and left to the
//! facts fold, which withholds them until a user confirms.

use std::collections::HashSet;
use std::sync::LazyLock;

use regex::Regex;

use super::claims::{ACHIEVED, HEDGED};
use super::evidence::Evidence;
use super::exchange::exchanges;
use super::outcome::{Said, decide, thrown_away};
pub use super::summary::plain_summary;
use super::summary::{self, Parts};
use super::text::{clip, prose, sentences};
use super::{ExtractError, ExtractInput, ExtractOutput, Extractor, Outcome};
use crate::facts::{Origin, normalize};

/// The default extractor.
#[derive(Debug, Default, Clone, Copy)]
pub struct OfflineExtractor;

impl Extractor for OfflineExtractor {
    fn name(&self) -> &str {
        "offline-v1"
    }

    fn extract(&self, input: &ExtractInput) -> Result<ExtractOutput, ExtractError> {
        Ok(extract(input).bounded())
    }
}

static DECISION: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(decided|decision|we'll go with|going with|chose|settled on|agreed|opted|instead of|rather than|switch(ed)? (from|to))\b",
    )
});

fn extract(input: &ExtractInput) -> ExtractOutput {
    let evidence = Evidence::of(input);
    let exchanges = exchanges(input, &evidence);
    let final_report = exchanges.iter().rev().find(|x| x.report.headline.is_some()).or(exchanges.last());
    let report = final_report.map(|x| x.report.clone()).unwrap_or_default();
    let best = achievements(input);
    let all_said: Vec<&str> = exchanges.iter().map(|x| x.text.as_str()).collect();
    let decisions = decisions(&all_said.join("\n\n"));
    let said_report = [report.headline.as_deref().unwrap_or(""), report.cause.as_deref().unwrap_or("")]
        .into_iter()
        .chain(report.items.iter().map(String::as_str))
        .collect::<Vec<_>>()
        .join(" ");
    // Prose alone says work was done only where no tool calls were recorded
    // (a hand-written session); otherwise the tools are the evidence.
    let reported_work = !best.is_empty() && input.tools.is_empty();
    let outcome = decide(input, &evidence, &Said { report: &said_report, reported_work });
    let reason = (outcome == Outcome::Abandoned).then(|| abandon_reason(input)).flatten();
    let summary = summary::write(&Parts {
        input,
        evidence: &evidence,
        outcome,
        exchanges: &exchanges,
        achieved: best.first().map(String::as_str),
        reason: reason.as_deref(),
        is_order: &is_order,
    });
    // A decision the line already tells is not told twice.
    let told = normalize(&summary);
    let decisions = decisions.into_iter().filter(|d| !told.contains(&normalize(d))).collect();
    ExtractOutput {
        summary,
        outcome,
        files: touched_files(input),
        decisions,
        facts: super::candidates::facts(input).into_iter().chain(checks_fact(&evidence)).collect(),
        lane: None,
    }
}

/// Why the work was given up: the reply before the request to throw it
/// away, where it said what went wrong.
fn abandon_reason(input: &ExtractInput) -> Option<String> {
    let request = thrown_away(input)?;
    let at = input.turns.iter().position(|t| t.text == request)?;
    let reply = input.turns.iter().take(at).rev().find(|t| t.role == Origin::Assistant)?;
    static WHY: LazyLock<Regex> = LazyLock::new(|| {
        crate::pattern::regex(
            r"(?i)\b(but|because|however|fail(s|ed)?|oom|too (slow|big|much|many)|cost|memory|breaks?|broke)\b",
        )
    });
    sentences(&prose(&reply.text)).into_iter().find(|s| WHY.is_match(s) && !s.ends_with(':') && !s.ends_with('?'))
}

/// The decisions the assistant stated in its own prose. Lists and headings
/// are left out: they hold the options it weighed, not what was decided.
fn decisions(said: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    let paragraphs: String = prose(said)
        .lines()
        .filter(|line| {
            let t = line.trim_start();
            let numbered = t.chars().take_while(char::is_ascii_digit).count();
            !(t.starts_with(['-', '*', '+', '#', '|'])
                || (numbered > 0 && t.get(numbered..).is_some_and(|rest| rest.starts_with('.'))))
        })
        .collect::<Vec<_>>()
        .join("\n");
    sentences(&paragraphs)
        .into_iter()
        .filter(|s| {
            DECISION.is_match(s)
                && !s.ends_with([':', '?'])
                && !HEDGED.is_match(s)
                && s.split_whitespace().count() >= 5
                && seen.insert(normalize(s))
                && !is_order(s)
        })
        .take(super::MAX_DECISIONS)
        .map(|d| clip(&d, 240))
        .collect()
}

/// Sentences that report finished work, best first.
fn achievements(input: &ExtractInput) -> Vec<String> {
    let assistant_turns: Vec<&str> =
        input.turns.iter().filter(|t| t.role == Origin::Assistant).map(|t| t.text.as_str()).collect();
    let last = assistant_turns.len().saturating_sub(1);
    // Candidate outcome sentences, scored; order of appearance kept as a tie-breaker.
    let mut achieved: Vec<(i32, usize, String)> = Vec::new();
    let mut order = 0;
    for (turn_index, text) in assistant_turns.iter().enumerate() {
        let mut lead = true;
        for sentence in sentences(&prose(text)) {
            order += 1;
            let plan_or_question = sentence.ends_with('?') || HEDGED.is_match(&sentence);
            if plan_or_question || !ACHIEVED.is_match(&sentence) {
                continue;
            }
            let mut score = 3;
            // The first outcome a message reports is usually its headline.
            if std::mem::take(&mut lead) {
                score += 2;
            }
            if turn_index == last {
                score += 2;
            } else if turn_index * 2 >= last {
                score += 1;
            }
            if sentence.contains('`') || sentence.contains('/') || sentence.contains(".md") || sentence.contains(".rs")
            {
                score += 1;
            }
            if sentence.len() > 220 {
                score -= 1;
            }
            achieved.push((score, order, sentence));
        }
    }
    achieved.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut seen = HashSet::new();
    achieved
        .into_iter()
        .filter(|(_, _, s)| seen.insert(normalize(s)))
        // The guard runs only on the few sentences that could be chosen.
        .filter(|(_, _, s)| !is_order(s))
        .take(2)
        .map(|(_, _, s)| clip(&s, 260))
        .collect()
}

/// How the project is checked, from the checks the session saw pass: a
/// convention every later session needs ("The checks are `pnpm test` and
/// `pnpm lint`.").
fn checks_fact(evidence: &Evidence) -> Option<super::CandidateFact> {
    let checks: Vec<String> =
        evidence.checks.iter().filter(|c| whole_suite(c)).take(3).map(|c| format!("`{c}`")).collect();
    let list = match checks.as_slice() {
        [] => return None,
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let text = format!("The project's checks run with {list}.");
    (!is_order(&text)).then_some(super::CandidateFact {
        text,
        confidence: 0.5,
        origin: Origin::Assistant,
        convention: true,
    })
}

/// Whether a check runs the project's checks, not one test picked out of
/// them (a file, a test name, a filter): that is the day's, not the
/// project's way of checking.
fn whole_suite(check: &str) -> bool {
    let picks = ["-k", "-t", "--grep", "-run", "--test-name-pattern", "--testNamePattern"];
    let code = [".ts", ".tsx", ".js", ".jsx", ".py", ".rs", ".go", ".rb", ".java", ".kt", ".cs", ".php", ".swift"];
    check.split_whitespace().skip(1).all(|arg| {
        // A package named by its scope (`--filter @repo/web`) is a part of
        // the project, not one test.
        (!arg.contains('/') || arg.starts_with('@'))
            && !arg.contains("::")
            && !picks.contains(&arg)
            && !code.iter().any(|x| arg.trim_matches(['"', '\'']).ends_with(x))
    })
}

/// Files the session changed first, then files it only read.
fn touched_files(input: &ExtractInput) -> Vec<String> {
    let mut changed = Vec::new();
    let mut read = Vec::new();
    let mut seen = HashSet::new();
    for tool in &input.tools {
        let modifies = super::evidence::modifies(&tool.name);
        for file in &tool.files {
            if seen.insert(file.clone()) {
                if modifies { changed.push(file.clone()) } else { read.push(file.clone()) }
            } else if modifies && let Some(i) = read.iter().position(|f| f == file) {
                changed.push(read.remove(i));
            }
        }
    }
    changed.extend(read);
    changed
}

/// Whether a sentence reads as an order; such sentences never go into a
/// summary or a decision. The guard's verdict depends on the text alone, and
/// one seal asks about the same sentence several times (as a headline, as
/// more work, as a decision), so verdicts are kept for the thread's next
/// questions, up to a bound past which the memory starts afresh.
fn is_order(sentence: &str) -> bool {
    const REMEMBERED: usize = 4096;
    thread_local! {
        static VERDICTS: std::cell::RefCell<std::collections::HashMap<String, bool>> = Default::default();
    }
    VERDICTS.with(|verdicts| {
        if let Some(&known) = verdicts.borrow().get(sentence) {
            return known;
        }
        let verdict = lcmem_guard::judge(sentence).instruction;
        let mut verdicts = verdicts.borrow_mut();
        if verdicts.len() >= REMEMBERED {
            verdicts.clear();
        }
        verdicts.insert(sentence.to_string(), verdict);
        verdict
    })
}

#[cfg(test)]
mod tests;
