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

use super::evidence::Evidence;
use super::outcome::{Said, decide, thrown_away};
use super::report::Report;
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

/// Verbs that report finished work when a sentence starts with them (after
/// any "I've" or "We"). Past tense only: "I'll add" is a plan, not an outcome.
pub(super) static ACHIEVED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)^(?:(?:i|we)(?:'ve|\s+have)?\s+|(?:i|we)\s+|just\s+|now\s+|done[:,\s—-]+\s*|finally\s+)*
        (added|fixed|shipped|tidied|released|bumped|refactored|migrated|implemented|removed|renamed|wrote|rewrote
        |updated|switched|replaced|extracted|split|moved|merged|created|deployed|tagged|documented|cleaned
        |reorgani[sz]ed|converted|introduced|deleted|dropped|upgraded|configured|enabled|disabled|ported
        |finished|completed|landed|resolved|patched|optimi[sz]ed|simplified|consolidated|published|restored
        |reverted|wired|hooked|set\s+up|sped\s+up|cut|trimmed|rebuilt|reworked|tightened|hardened|closed)\b",
    )
    .expect("valid regex")
});

static DECISION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(decided|decision|we'll go with|going with|chose|settled on|agreed|opted|instead of|rather than|switch(ed)? (from|to))\b",
    )
    .expect("valid regex")
});

/// Words that make a sentence a guess, a question or a plan rather than a fact.
pub(super) static HEDGED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(might|maybe|perhaps|probably|possibly|not sure|i think|could|would|should we|let's|let me|i'll|we'll|will|if|unless|whether|seems?|guess|todo|tbd)\b",
    )
    .expect("valid regex")
});

fn extract(input: &ExtractInput) -> ExtractOutput {
    let evidence = Evidence::of(input);
    let exchanges = exchanges(input, &evidence);
    let final_report = exchanges.iter().rev().find(|x| x.report.headline.is_some()).or(exchanges.last());
    let report = final_report.map(|x| x.report.clone()).unwrap_or_default();
    let final_at = final_report.map_or(0, |f| exchanges.iter().position(|x| std::ptr::eq(x, f)).unwrap_or(0));
    let earlier: Vec<String> =
        exchanges[..final_at].iter().filter(|x| x.changed).filter_map(|x| x.report.headline.clone()).collect();
    // Work reported over several replies to one request ("Tidied the
    // CHANGELOG…", then "Bumped the version…") is told in its own words.
    let reported: Vec<String> = final_report.map_or_else(Vec::new, |x| x.achieved.clone());
    let best = achievements(input);
    let all_said: Vec<&str> = exchanges.iter().map(|x| x.text.as_str()).collect();
    let decisions = decisions(&all_said.join("\n\n"));
    let report = Report { headline: reported_headline(&reported).or(report.headline), ..report };
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
    let report = if outcome == Outcome::Abandoned { report } else { without_stale_answer(report, &evidence) };
    let summary = summary::write(&Parts {
        input,
        evidence: &evidence,
        outcome,
        report: &report,
        earlier: &earlier,
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
        facts: super::candidates::facts(input),
        lane: None,
    }
}

/// One request of the user's and the replies to it.
struct Exchange {
    /// What the last substantial reply reported.
    report: Report,
    /// The text of every reply to it.
    text: String,
    /// The headlines of replies that report finished work, in order.
    achieved: Vec<String>,
    /// Whether the tools changed files while answering it.
    changed: bool,
}

/// The session split at each message of the user's.
fn exchanges(input: &ExtractInput, evidence: &Evidence) -> Vec<Exchange> {
    let mut out = Vec::new();
    let mut start = 0;
    // Where the edits fall, in turn order (tools are listed in session
    // order), so each exchange asks once instead of scanning every call.
    let edits: Vec<usize> = input
        .tools
        .iter()
        .filter(|t| super::evidence::modifies(&t.name) && !t.files.is_empty())
        .map(|t| t.after_turns)
        .collect();
    let bounds: Vec<usize> = input
        .turns
        .iter()
        .enumerate()
        .filter(|(_, t)| t.role == Origin::User && !t.compaction)
        .map(|(i, _)| i)
        .chain(std::iter::once(input.turns.len()))
        .collect();
    for end in bounds {
        if end > start {
            let replies = &input.turns[start..end];
            let said: Vec<(Report, &str)> = replies
                .iter()
                .filter(|t| t.role == Origin::Assistant && !t.compaction)
                .map(|t| (Report::read(&t.text), t.text.as_str()))
                .collect();
            let report = said.iter().rev().map(|(r, _)| r).find(|r| r.headline.is_some()).cloned().unwrap_or_default();
            let achieved = said
                .iter()
                .filter_map(|(r, _)| r.headline.clone())
                .filter(|h| ACHIEVED.is_match(h) && !is_order(h))
                .collect();
            let text = said.iter().map(|(_, t)| *t).collect::<Vec<_>>().join("\n\n");
            let first = edits.partition_point(|&at| at < start);
            let changed = !evidence.changed.is_empty() && edits.get(first).is_some_and(|&at| at < end);
            out.push(Exchange { report, text, achieved, changed });
        }
        start = end;
    }
    out
}

/// A session that changed files but whose last reply only states how things
/// are ("The files are a.txt and b.txt") told the state before its own
/// change: that reply is no headline for the work, which the files tell.
fn without_stale_answer(report: Report, evidence: &Evidence) -> Report {
    static STATE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)^(?:the|these|those|this|there|it)\b[^.:]*\b(?:is|are)\b").expect("valid regex")
    });
    let Some(headline) = report.headline.as_deref() else { return report };
    let names_a_change = evidence.changed.iter().any(|f| headline.contains(f.rsplit('/').next().unwrap_or(f)));
    if !evidence.changed.is_empty() && STATE.is_match(headline) && !names_a_change {
        return Report { headline: None, alternatives: Vec::new(), ..report };
    }
    report
}

/// The last two reports of finished work in one exchange, as one headline.
fn reported_headline(reported: &[String]) -> Option<String> {
    let last_two = &reported[reported.len().saturating_sub(2)..];
    match last_two {
        [] => None,
        [one] => Some(one.clone()),
        [a, b] => Some(format!("{} {}", summary::ensure_full_stop(&summary::as_outcome_sentence(a)), b)),
        _ => unreachable!("at most two"),
    }
}

/// Why the work was given up: the reply before the request to throw it
/// away, where it said what went wrong.
fn abandon_reason(input: &ExtractInput) -> Option<String> {
    let request = thrown_away(input)?;
    let at = input.turns.iter().position(|t| t.text == request)?;
    let reply = input.turns[..at].iter().rev().find(|t| t.role == Origin::Assistant)?;
    static WHY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(but|because|however|fail(s|ed)?|oom|too (slow|big|much|many)|cost|memory|breaks?|broke)\b")
            .expect("valid regex")
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
            !(t.starts_with(['-', '*', '+', '#', '|']) || (numbered > 0 && t[numbered..].starts_with('.')))
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
/// summary or a decision.
fn is_order(sentence: &str) -> bool {
    lcmem_guard::judge(sentence).instruction
}

#[cfg(test)]
mod tests;
