//! Writing the journal line: one to three sentences a teammate would have
//! written, in the project's own terms, built from the session's report of
//! its work and the evidence of its tools.

use super::evidence::Evidence;
use super::report::Report;
use super::text::{clip, prose, sentences};
use super::{ExtractInput, Outcome};
use crate::facts::Origin;

/// How long a journal line may grow before the less important parts go.
const BUDGET: usize = 460;

/// The parts a line is written from, most important first.
pub struct Parts<'a> {
    pub input: &'a ExtractInput,
    pub evidence: &'a Evidence,
    pub outcome: Outcome,
    /// The final report.
    pub report: &'a Report,
    /// Headlines of earlier exchanges that changed files, in order.
    pub earlier: &'a [String],
    /// The best sentence reporting finished work anywhere in the session,
    /// for when the report has no headline.
    pub achieved: Option<&'a str>,
    /// Why the work was given up, for an abandoned session.
    pub reason: Option<&'a str>,
    /// Whether a sentence reads as an order (left out of the line).
    pub is_order: &'a dyn Fn(&str) -> bool,
}

pub fn write(parts: &Parts<'_>) -> String {
    let Parts { input, evidence, outcome, report, .. } = *parts;
    let keep = |s: &&String| !(parts.is_order)(s);
    let headline = report
        .headline
        .iter()
        .chain(&report.alternatives)
        .find(|h| !(parts.is_order)(h))
        .map(|h| as_outcome_sentence(h));
    let mut line = Line::default();
    match outcome {
        Outcome::Question => {
            line.push(question_summary(input, parts.is_order));
            if let Some(answer) = headline {
                line.push(clip(&answer, 200));
            }
            return line.finish();
        }
        Outcome::Abandoned => {
            let what = if input.title.trim().is_empty() { "an attempt".to_string() } else { clip(&input.title, 120) };
            // A title is often the request itself ("Upload parts in
            // parallel"): told as the attempt it was, not as an order.
            let plain = format!("Abandoned: {what}");
            if (parts.is_order)(&plain) {
                let mut chars = what.chars();
                let lowered: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
                line.push(format!("Abandoned an attempt to {lowered}"));
            } else {
                line.push(plain);
            }
            line.extend(headline);
            line.extend(parts.reason.map(|r| clip(r, 220)));
            return line.finish();
        }
        _ => {}
    }
    let head = headline
        .or_else(|| parts.achieved.map(as_outcome_sentence))
        .or_else(|| evidence.commits.last().map(|c| format!("Committed \"{}\"", clip(c, 160))))
        .or_else(|| done_list("Done", &evidence.done_todos));
    let short_head = head.as_ref().is_none_or(|h| h.len() < 70);
    // Earlier requests that changed files: told first, when they report work
    // (or the last one's headline is too short to stand alone) and fit.
    let room = BUDGET.saturating_sub(head.as_ref().map_or(0, |h| h.len() + 1));
    let mut earlier: Vec<String> = Vec::new();
    for e in parts.earlier.iter().filter(keep).rev().take(2) {
        let e = as_outcome_sentence(e);
        let used: usize = earlier.iter().map(|x| x.len() + 2).sum();
        if (short_head || super::offline::ACHIEVED.is_match(&e)) && used + e.len() + 2 < room * 2 / 3 {
            earlier.insert(0, e);
        }
    }
    line.extend(earlier);
    match head {
        Some(head) => line.push(head),
        None if line.is_empty() => return plain_summary_of(input, &evidence.changed),
        None => {}
    }
    line.extend(
        report
            .cause
            .iter()
            .filter(keep)
            .map(|c| if report.cause_is_root { format!("Root cause: {c}") } else { c.clone() }),
    );
    if let Some(shipping) = shipping_sentence(evidence, &line.text()) {
        line.push(shipping);
    }
    // The main items, as many as fit, when the headline leaves room.
    if short_head || line.len() < 240 {
        let so_far = line.text();
        let mut items: Vec<&str> = Vec::new();
        let told = crate::facts::normalize(&so_far);
        let said_already = |item: &str| {
            // An item the line already holds, whole or cut: compared on its
            // first words, since either copy may have been clipped.
            let key: String = crate::facts::normalize(item).chars().take(48).collect();
            told.contains(key.trim_end())
        };
        for item in report.items.iter().filter(keep).filter(|i| !said_already(i)).take(3) {
            if line.len() + items.iter().map(|i| i.len() + 2).sum::<usize>() + item.len() + 2 < BUDGET {
                items.push(item);
            }
        }
        if !items.is_empty() {
            line.push(items.join("; "));
        }
    }
    let left: Vec<String> = report.left.iter().filter(keep).cloned().collect();
    line.extend(done_list("Left", &left));
    line.finish()
}

/// Sentences of a journal line, added until the budget is spent.
#[derive(Default)]
struct Line(Vec<String>);

impl Line {
    fn push(&mut self, sentence: impl Into<String>) {
        let sentence = ensure_full_stop(sentence.into().trim());
        if sentence.len() > 1 && self.len() + sentence.len() < BUDGET {
            self.0.push(sentence);
        }
    }

    fn extend(&mut self, sentences: impl IntoIterator<Item = String>) {
        for s in sentences {
            self.push(s);
        }
    }

    fn len(&self) -> usize {
        self.0.iter().map(|s| s.len() + 1).sum()
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn text(&self) -> String {
        self.0.join(" ")
    }

    fn finish(self) -> String {
        self.text()
    }
}

fn done_list(label: &str, items: &[String]) -> Option<String> {
    (!items.is_empty())
        .then(|| format!("{label}: {}", items.iter().take(3).map(|i| clip(i, 100)).collect::<Vec<_>>().join("; ")))
}

/// What the commands shipped, when the line does not already say it.
fn shipping_sentence(evidence: &Evidence, so_far: &str) -> Option<String> {
    let lower = so_far.to_lowercase();
    let mut said = Vec::new();
    if let Some(commit) = evidence.commits.last().filter(|c| !lower.contains(&c.to_lowercase())) {
        said.push(format!("committed \"{}\"", clip(commit, 120)));
    }
    let tags: Vec<&str> =
        evidence.tags.iter().map(String::as_str).filter(|t| !lower.contains(&t.to_lowercase())).collect();
    if !tags.is_empty() {
        said.push(format!("tagged {}", tags.join(", ")));
    }
    if evidence.pushed_main && !lower.contains("push") {
        said.push("pushed".to_string());
    }
    if said.is_empty() {
        return None;
    }
    Some(capitalised(&said.join(", ")))
}

fn files_list(changed: &[String]) -> String {
    let shown: Vec<&str> = changed.iter().take(3).map(String::as_str).collect();
    let more = match changed.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(" and {n} more file(s)"),
    };
    clip(&format!("{}{more}", shown.join(", ")), 200)
}

/// "I've tidied the CHANGELOG" becomes "Tidied the CHANGELOG": the journal
/// speaks of the work, not of who typed.
pub fn as_outcome_sentence(sentence: &str) -> String {
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
            && super::offline::ACHIEVED.is_match(rest)
        {
            s = rest.trim_start();
        }
    }
    capitalised(s)
}

/// A sentence with a capital first letter, unless its first word is a name
/// (`v0.4.0`, `hello.py`, `npm`) that must keep its case.
fn capitalised(s: &str) -> String {
    let first_word = s.split_whitespace().next().unwrap_or("");
    if !first_word.trim_end_matches([':', ',']).chars().all(char::is_alphabetic) {
        return s.to_string();
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
pub fn ensure_full_stop(s: &str) -> String {
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
fn question_summary(input: &ExtractInput, is_order: &dyn Fn(&str) -> bool) -> String {
    let topic = if !input.title.trim().is_empty() {
        Some(input.title.trim().to_string())
    } else {
        input.turns.iter().find(|t| t.role == Origin::User).and_then(|t| sentences(&prose(&t.text)).into_iter().next())
    };
    // A request that reads as an order is not quoted into memory.
    match topic.filter(|t| !is_order(t)) {
        Some(topic) => format!("Answered \"{}\"; no changes made.", clip(topic.trim(), 140)),
        None => "Answered a question; no changes made.".to_string(),
    }
}

/// The summary of a session when its reported outcomes cannot be used (the
/// boundary found them instruction-shaped): what was asked and the files it
/// changed, or the thin question line when it changed none.
pub fn plain_summary(input: &ExtractInput) -> String {
    plain_summary_of(input, &Evidence::of(input).changed)
}

fn plain_summary_of(input: &ExtractInput, changed: &[String]) -> String {
    if changed.is_empty() {
        return question_summary(input, &|_| false);
    }
    match input.title.trim() {
        "" => format!("Changed {}.", files_list(changed)),
        title => format!("Worked on \"{}\": changed {}.", clip(title, 120), files_list(changed)),
    }
}
