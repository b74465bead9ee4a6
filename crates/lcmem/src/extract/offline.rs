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

use super::text::{clip, prose, sentences};
use super::{ExtractError, ExtractInput, ExtractOutput, Extractor, Outcome};
use crate::facts::{Origin, normalize};
use crate::journal::SealKind;

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
static ACHIEVED: LazyLock<Regex> = LazyLock::new(|| {
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

static SHIPPING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(shipped|released|deployed|published|tagged|launched|rolled out|went live|merged (it|the (pr|pull request|branch))|merged (in)?to (main|master|trunk))\b")
        .expect("valid regex")
});

/// A fix is reported by a sentence that starts with the verb, or named in the title.
static FIXING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(^|[.!]\s+)(fixed|resolved|patched|repaired)\b|\b(bug|regression|crash|flaky)\b")
        .expect("valid regex")
});

static ABANDONED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(abandon(ed|ing)?|dead end|not worth (it|pursuing)|giv(e|ing) up on|gave up|shelv(e|ed|ing)|park(ed|ing)? (this|it|the)|drop(ped)? the (idea|spike|experiment))\b",
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
    let assistant_turns: Vec<&str> =
        input.turns.iter().filter(|t| t.role == Origin::Assistant).map(|t| t.text.as_str()).collect();
    let last = assistant_turns.len().saturating_sub(1);

    // Candidate outcome sentences, scored; order of appearance kept as a tie-breaker.
    let mut achieved: Vec<(i32, usize, String)> = Vec::new();
    let mut decisions = Vec::new();
    let mut abandoned_reason = None;
    let mut order = 0;
    for (turn_index, text) in assistant_turns.iter().enumerate() {
        let mut lead = true;
        for sentence in sentences(&prose(text)) {
            order += 1;
            let plan_or_question = sentence.ends_with('?') || HEDGED.is_match(&sentence);
            if abandoned_reason.is_none() && ABANDONED.is_match(&sentence) && !sentence.ends_with('?') {
                abandoned_reason = Some(sentence.clone());
            }
            if !plan_or_question && DECISION.is_match(&sentence) {
                decisions.push(sentence.clone());
            }
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
            achieved.push((score, order, as_outcome_sentence(&sentence)));
        }
    }
    achieved.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut seen = HashSet::new();
    let mut best: Vec<(usize, String)> = achieved
        .into_iter()
        .filter(|(_, _, s)| seen.insert(normalize(s)))
        // The guard runs only on the few sentences that could be chosen.
        .filter(|(_, _, s)| !is_order(s))
        .take(2)
        .map(|(_, order, s)| (order, clip(&s, 260)))
        .collect();
    best.sort_by_key(|(order, _)| *order);

    let (summary, outcome) =
        if let Some(reason) = abandoned_reason.filter(|_| best.is_empty() || input.kind == SealKind::Archived) {
            let lead = if input.title.is_empty() { "An attempt".to_string() } else { clip(&input.title, 120) };
            (format!("Abandoned: {lead}. {}", clip(&reason, 240)), Outcome::Abandoned)
        } else if best.is_empty() {
            // Edits are evidence of work whatever the prose says: a session
            // that changed files is never "answered; no changes made".
            match changed_files(input).as_slice() {
                [] => (question_summary(input), Outcome::Question),
                changed => {
                    let outcome = if FIXING.is_match(&input.title) { Outcome::Fixed } else { Outcome::Progress };
                    (changes_summary(input, changed), outcome)
                }
            }
        } else {
            let joined: Vec<String> = best.iter().map(|(_, s)| ensure_full_stop(s)).collect();
            let text = joined.join(" ");
            // The user often has the last word on shipping: "Merged and deployed."
            let last_user = input.turns.iter().rev().find(|t| t.role == Origin::User).map_or("", |t| t.text.as_str());
            let shipped = SHIPPING.is_match(&text) || SHIPPING.is_match(last_user) && last_user.len() < 200;
            let outcome = if input.kind == SealKind::Done && shipped {
                Outcome::Shipped
            } else if FIXING.is_match(&text) || FIXING.is_match(&input.title) {
                Outcome::Fixed
            } else {
                Outcome::Progress
            };
            (text, outcome)
        };

    let mut seen = HashSet::new();
    let decisions: Vec<String> = decisions
        .into_iter()
        .filter(|d| seen.insert(normalize(d)) && !is_order(d))
        .take(super::MAX_DECISIONS)
        .map(|d| clip(&d, 240))
        .collect();
    ExtractOutput { summary, outcome, files: touched_files(input), decisions, facts: super::candidates::facts(input) }
}

/// "I've tidied the CHANGELOG" becomes "Tidied the CHANGELOG": the journal
/// speaks of the work, not of who typed.
fn as_outcome_sentence(sentence: &str) -> String {
    let mut s = sentence.trim();
    for prefix in [
        "I've ",
        "I have ",
        "We've ",
        "We have ",
        "I ",
        "We ",
        "Just ",
        "Now ",
        "Done: ",
        "Done, ",
        "Done — ",
        "Finally ",
    ] {
        if let Some(rest) = s.strip_prefix(prefix)
            && ACHIEVED.is_match(rest)
        {
            s = rest.trim_start();
        }
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// Ends a summary sentence with a full stop. A lead-in to a list ("Tidied
/// CHANGELOG.md for v1.0.4:", "Created the spec at:") loses its colon and a
/// preposition left dangling by it, rather than becoming "…:.".
fn ensure_full_stop(s: &str) -> String {
    let lead_in = s.trim_end().ends_with(':');
    let mut s = s.trim_end().trim_end_matches([':', ' ']).to_string();
    const DANGLING: &[&str] = &["at", "in", "to", "into", "from", "with", "for", "of", "on", "as"];
    while lead_in
        && let Some((head, last)) = s.rsplit_once(' ')
        && DANGLING.contains(&last.to_ascii_lowercase().as_str())
    {
        s = head.trim_end().to_string();
    }
    if s.ends_with(['.', '!', '…']) { s } else { format!("{s}.") }
}

/// A session that changed nothing: one thin line naming what was asked.
fn question_summary(input: &ExtractInput) -> String {
    let topic = if !input.title.trim().is_empty() {
        input.title.trim().to_string()
    } else {
        input
            .turns
            .iter()
            .find(|t| t.role == Origin::User)
            .and_then(|t| sentences(&prose(&t.text)).into_iter().next())
            .unwrap_or_else(|| "a question".to_string())
    };
    format!("Answered \"{}\"; no changes made.", clip(topic.trim(), 140))
}

/// The summary of a session when its reported outcomes cannot be used (the
/// boundary found them instruction-shaped): what was asked and the files it
/// changed, or the thin question line when it changed none.
pub fn plain_summary(input: &ExtractInput) -> String {
    match changed_files(input).as_slice() {
        [] => question_summary(input),
        changed => changes_summary(input, changed),
    }
}

/// A session whose prose reports nothing but whose tools changed files: what
/// was asked, and where it changed things.
fn changes_summary(input: &ExtractInput, changed: &[String]) -> String {
    let shown: Vec<&str> = changed.iter().take(3).map(String::as_str).collect();
    let more = match changed.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(" and {n} more file(s)"),
    };
    let files = format!("{}{more}", shown.join(", "));
    match input.title.trim() {
        "" => format!("Changed {}.", clip(&files, 200)),
        title => format!("Worked on \"{}\": changed {}.", clip(title, 120), clip(&files, 200)),
    }
}

/// Whether a tool of this name changes the files it names.
fn modifies(tool: &str) -> bool {
    let name = tool.to_ascii_lowercase();
    ["edit", "write", "patch", "create", "move", "rename", "delete", "notebook"].iter().any(|verb| name.contains(verb))
}

/// The files the session's tools changed, in order, once each.
fn changed_files(input: &ExtractInput) -> Vec<String> {
    let mut seen = HashSet::new();
    input
        .tools
        .iter()
        .filter(|tool| modifies(&tool.name))
        .flat_map(|tool| tool.files.iter())
        .filter(|file| seen.insert(file.as_str()))
        .cloned()
        .collect()
}

/// Files the session changed first, then files it only read.
fn touched_files(input: &ExtractInput) -> Vec<String> {
    let mut changed = Vec::new();
    let mut read = Vec::new();
    let mut seen = HashSet::new();
    for tool in &input.tools {
        let modifies = modifies(&tool.name);
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
