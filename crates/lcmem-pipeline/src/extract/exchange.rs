//! A session as its exchanges: each request of the person's, the replies to
//! it, and the work done while answering it.
//!
//! A long session is an epic: it fixes one thing, builds another, ships a
//! third. Its journal line must cover its work, not its last topic, so each
//! exchange is read on its own: what it reported, how much it changed, and
//! the one clause that tells its work.

use super::ExtractInput;
use super::clause::Clause;
use super::evidence::{Evidence, modifies};
use super::report::Report;
use crate::facts::Origin;

/// One request and the replies to it.
pub struct Exchange {
    /// The index of its first turn.
    pub start: usize,
    /// The person's request (empty for replies before any request).
    pub request: String,
    /// What the last substantial reply reported.
    pub report: Report,
    /// The text of every reply to it.
    pub text: String,
    /// Headlines of the replies that report finished work, in order.
    pub achieved: Vec<String>,
    /// The first sentence of the replies that reports finished work
    /// ("I've patched `useTeamWithStats` so that …"), wherever it stands.
    pub done: Option<String>,
    /// Each later reply's first report of finished work, when it reports
    /// more than the first ("Also truncated long tool output").
    pub more_done: Vec<String>,
    /// Tool calls that changed files while answering it.
    pub edits: usize,
    /// Whether any reply was given.
    pub answered: bool,
    /// The steps of the last plan a reply laid out, whatever else it said.
    pub proposal: Vec<String>,
    /// The last reply announces work it never reported ("Let me now
    /// explore…"): the session stopped in the middle of it.
    pub cut_off: bool,
}

impl Exchange {
    /// Whether files changed while answering it.
    pub fn changed(&self) -> bool {
        self.edits > 0
    }

    /// The clause that tells this exchange's work: its report's headline, or
    /// the next reported outcome that makes a clean clause.
    pub fn work(&self, is_order: &dyn Fn(&str) -> bool) -> Option<Clause> {
        // A reply's headline that reports finished work leads; then a
        // headline that neither explains ("Because …") nor states ("All
        // checks are green", "p95 stays at 44 ms"); then the first sentence
        // anywhere that says what was done.
        let reporting = self.report.headline.iter().filter(|h| !explains(h) && !super::report::is_status_line(h));
        self.achieved
            .iter()
            .chain(reporting)
            .chain(&self.done)
            .chain(self.report.headline.iter().filter(|h| !explains(h) || !self.changed()))
            .chain(self.report.alternatives.iter().filter(|h| !explains(h) || !self.changed()))
            .filter(|h| !is_order(h))
            .filter_map(|h| Clause::of(h))
            .find(|c| !super::report::is_status_line(c.as_str()) && !measures(c.as_str()))
    }
}

impl Exchange {
    /// Whether a reply of it reports a release ("Shipped: refund retries
    /// are live"), which is work of the session even with no edit of its own.
    pub fn reports_shipping(&self) -> bool {
        self.achieved.iter().any(|h| {
            let l = strip_speaker(h).to_lowercase();
            ["shipped", "released", "deployed", "published", "tagged", "merged"].iter().any(|v| l.starts_with(v))
        })
    }

    /// What later replies to the same request reported done besides `work`
    /// (what [`Exchange::work`] found, computed once by the caller).
    pub fn more_work(&self, work: Option<&Clause>, is_order: &dyn Fn(&str) -> bool) -> Vec<Clause> {
        let first = work.map(|c| crate::facts::normalize(c.as_str()));
        self.achieved
            .iter()
            .skip(1)
            .chain(&self.more_done)
            .filter(|s| !is_order(s))
            .filter_map(|s| Clause::of(s))
            .filter(|c| first.as_deref() != Some(crate::facts::normalize(c.as_str()).as_str()))
            .collect()
    }
}

/// The session split at each message of the person's.
pub fn exchanges(input: &ExtractInput, evidence: &Evidence) -> Vec<Exchange> {
    let mut out = Vec::new();
    let mut start = 0;
    let edits: Vec<usize> = input
        .tools
        .iter()
        .filter(|t| ((modifies(&t.name) && !t.files.is_empty()) || super::evidence::changes_by_shell(t)) && !t.failed)
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
            let turns = input.turns.get(start..end).unwrap_or_default();
            let request = turns.first().filter(|t| t.role == Origin::User).map_or(String::new(), |t| t.text.clone());
            let replies: Vec<&str> = turns
                .iter()
                .filter(|t| t.role == Origin::Assistant && !t.compaction && !t.text.trim().is_empty())
                .map(|t| t.text.as_str())
                .collect();
            let said: Vec<Report> = replies.iter().map(|t| Report::read(t)).collect();
            let report = said.iter().rev().find(|r| r.headline.is_some()).cloned().unwrap_or_default();
            let proposal = proposal_of(&said, &replies, &request);
            let achieved = said
                .iter()
                .filter_map(|r| r.headline.clone())
                .filter(|h| super::claims::ACHIEVED.is_match(h))
                .collect();
            let mut done_each = done_sentences(&replies);
            let done = (!done_each.is_empty()).then(|| done_each.remove(0));
            let more_done = done_each;
            // A call after `at` turns follows turn `at - 1`: it belongs to the
            // exchange holding that turn.
            let first = edits.partition_point(|&at| at <= start);
            let last = edits.partition_point(|&at| at <= end);
            let changed_here = if evidence.acted() { last - first } else { 0 };
            let cut_off =
                replies.last().is_some_and(|t| announces(t)) && said.last().is_some_and(|r| r.items.is_empty());
            out.push(Exchange {
                start,
                request,
                report,
                text: replies.join("\n\n"),
                achieved,
                done,
                more_done,
                edits: changed_here,
                answered: !replies.is_empty(),
                proposal,
                cut_off,
            });
        }
        start = end;
    }
    // The first exchange may hold nothing (a session that starts with the
    // person's request): only exchanges that hold something are kept.
    out.retain(|x| !x.request.is_empty() || x.answered || x.edits > 0);
    out
}

/// The steps of the last plan the replies laid out; asked for a plan, the
/// last reply's list items are the plan it proposed.
fn proposal_of(said: &[Report], replies: &[&str], request: &str) -> Vec<String> {
    // Each step by what it does: "Author tests and fixtures: standing
    // up a Prisma schema" is told as "standing up a Prisma schema".
    let mut proposal: Vec<String> = said
        .iter()
        .rev()
        .map(|r| &r.proposal)
        .find(|p| !p.is_empty())
        .map(|p| p.iter().map(|s| unlabelled(s).to_string()).collect())
        .unwrap_or_default();
    // Asked for a plan, the reply's items are the plan it proposed.
    if proposal.is_empty() && super::report::asks_for_plan(request) {
        // Each step by what it does ("Scope: confirm the data
        // sources; gather …" → "confirm the data sources"): its
        // label and its detail go.
        let steps = replies.last().map(|t| super::report::list_items(t)).unwrap_or_default();
        proposal = steps.iter().map(|s| unlabelled(s.split("; ").next().unwrap_or(s)).to_string()).collect();
    }
    proposal
}

/// The first sentence of each reply that reports finished work, in order,
/// with repeats in a row dropped.
fn done_sentences(replies: &[&str]) -> Vec<String> {
    let mut done_each: Vec<String> = replies
        .iter()
        .filter_map(|t| {
            super::text::sentences(&super::text::prose(t)).into_iter().find(|s| {
                super::claims::ACHIEVED.is_match(&strip_speaker(s))
                    && !super::claims::HEDGED.is_match(s)
                    && !s.ends_with('?')
            })
        })
        .collect();
    done_each.dedup();
    done_each
}

/// Whether a reply only announces what comes next ("Let me now explore the
/// source code:", "Now let's try building the frontend."), saying nothing
/// done.
fn announces(reply: &str) -> bool {
    let last = super::text::sentences(&super::text::prose(reply)).into_iter().last().unwrap_or_default();
    let lower = last.to_lowercase();
    last.ends_with(':')
        || ["let me", "now let", "let's", "i'll", "i will", "next, i", "now i'll", "i'm going to", "now i need"]
            .iter()
            .any(|p| lower.starts_with(p))
}

/// A sentence without the chat before its verb ("Perfect! I've …").
fn strip_speaker(s: &str) -> String {
    Clause::of(s).map_or_else(|| s.to_string(), |c| c.as_str().to_string())
}

/// Whether a sentence explains rather than reports: a cause ("Because I
/// passed …"), or a state ("The files are a.txt and b.txt").
fn explains(s: &str) -> bool {
    static STATE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        crate::pattern::regex(
            r"(?i)^(?:because|since|as|the reason|that's because|this is because)\b|^(?:the|these|those|this|there|it)\b[^.:]*\b(?:is|are)\b",
        )
    });
    STATE.is_match(s.trim()) && !super::claims::ACHIEVED.is_match(&strip_speaker(s))
}

/// Whether a sentence only states a measurement ("p95 stays at 44 ms",
/// "Product pages went from 182 ms to 41 ms"), which tells a result, not the
/// work that got it.
fn measures(s: &str) -> bool {
    static MEASURE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        crate::pattern::regex(
            r"(?i)^[^.]{0,60}\b(?:stays?|went|goes|is|are|dropped|fell|rose)\b[^.]{0,40}\b\d[\d.,]*\s*(?:ms|s|%|kb|mb|gb|x)\b",
        )
    });
    MEASURE.is_match(s) && !super::claims::ACHIEVED.is_match(&strip_speaker(s))
}

/// A list item without its short label ("API layer: design …" → "design
/// …").
fn unlabelled(item: &str) -> &str {
    match item.split_once(": ") {
        Some((label, rest)) if label.split_whitespace().count() <= 4 && rest.split_whitespace().count() >= 3 => rest,
        _ => item,
    }
}
