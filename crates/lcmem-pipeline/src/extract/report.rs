//! Reading an agent's report of its work: the message in which it says
//! what it did, usually structured (a heading, bullets, "Root cause:",
//! "Still to do:"). The parts a teammate would retell are picked out: the
//! headline, the cause or reason, the main items, and what is left.

use std::sync::LazyLock;

use regex::Regex;

use super::text::{clip, prose, sentences};

/// What one report message says.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Report {
    /// What was done, in one sentence (an informative heading, or the first
    /// sentence that reports rather than greets, plans or introduces).
    pub headline: Option<String>,
    /// The next units that could stand as the headline, for when the first
    /// one cannot be used (it reads as an order).
    pub alternatives: Vec<String>,
    /// "Root cause: …", or a sentence giving the reason for a choice.
    pub cause: Option<String>,
    /// The cause was labelled as the root cause.
    pub cause_is_root: bool,
    /// The first top-level items of what was done ("lead: what").
    pub items: Vec<String>,
    /// Items the report lists as still to do.
    pub left: Vec<String>,
    /// The steps of a plan or proposal it lays out ("Phase 1: …", the
    /// items under "Proposed approach"), in order.
    pub proposal: Vec<String>,
}

/// A heading or lead-in that opens a plan, or an item that is a step of one.
static PROPOSAL: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:(?:phase|step|stage|milestone)\s*\d+\b|.{0,40}\b(?:plan|proposal|proposed|approach|recommend(?:ed|ation)?s?|solution|strategy|migration path|roadmap)\b)",
    )
});

/// A request for a plan ("can you present the plan now?", "write up a
/// proposal"): the reply is the plan, whatever its headings say.
static PLAN_ASKED: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(?:present|show|give|write|share|draft|outline|propose|make|create|lay\s+out)\b[^.?!\n]{0,30}\b(?:plan|proposal|roadmap)\b",
    )
});

/// Whether a request asks for a plan rather than for work.
pub(super) fn asks_for_plan(request: &str) -> bool {
    PLAN_ASKED.is_match(request)
}

/// The top-level items of a message's lists, in order: the steps of a plan
/// the person asked for, whatever the reply titled them.
pub(crate) fn list_items(text: &str) -> Vec<String> {
    units(text)
        .into_iter()
        .filter_map(|u| match u {
            Unit::Bullet { nested: false, text } => Some(text),
            _ => None,
        })
        .collect()
}

/// One block of a message, in order.
#[derive(Debug, Clone, PartialEq)]
enum Unit {
    Heading(String),
    Bullet { nested: bool, text: String },
    Para(String),
    Break,
}

/// Headings that say a report follows, not what it reports.
const GENERIC: &[&str] = &[
    "done",
    "all done",
    "summary",
    "changes",
    "changes made",
    "what changed",
    "what i did",
    "what was done",
    "what's included",
    "whats included",
    "result",
    "results",
    "overview",
    "complete",
    "completed",
    "status",
    "update",
    "updates",
    "details",
    "notes",
    "key changes",
    "key sections",
    "verification",
    "testing",
    "tests",
    "benefits",
    "findings",
    "next steps",
    "implementation",
    "changed",
    "files changed",
];

/// Exclamations that open a reply and say nothing: "Perfect!", "Done!".
static INTERJECTION: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:perfect|great|excellent|done|all done|absolutely|sure|okay|ok|alright|got it|indeed|nice|awesome|good|good news|excellent news|success|right|understood|you're right|you are right)[!.,]*$",
    )
});

/// Sentences that plan, offer or introduce rather than report.
static NOT_A_REPORT: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:sure|ok|okay|alright|got it|on it|(?:i'm |i am |now )?(?:looking|checking|working|reading|investigating|exploring|starting)\b|i'll|i will|i'm going to|let me|let's|now i|next,? i|first,? i|i need to|we need to|i should|shall i|would you|do you|want me|if you|here's|here is|here are|below is|this is what|as you can see|you can|ready to|the spec is ready|would you like)\b",
    )
});

/// A numbered step of a plan: "Phase 0:", "Step 2 —".
static STEP: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"(?i)^(?:phase|step|stage|milestone)\s*\d+\b"));

static LEFT: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:still to do|still open|remaining|left to do|left|to do|todo|next steps?|open items|not done yet|not done|for the next attempt|follow[- ]ups?|what's left|what is left)\b",
    )
});

static CAUSE: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"(?i)^(?:root cause|cause|the cause|why)\s*[:—-]\s*(.+)$"));

static REASON: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(r"(?i)\b(?:because|we chose|chose\b.*\bover\b|so that|since (?:the|we|it|skiff|our))\b")
});

static STRONG_REASON: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"(?i)\b(?:because|we chose|chose\b.*\bover\b|decided)\b"));

static LINK: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\[([^\]]+)\]\([^)]*\)"));

/// A line that states how things stand rather than what was done: "All
/// three checks are green", "Everything is pushed and clean", "The build
/// passes".
static STATUS_LINE: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)^(?:all|both|the|everything|every|each|this|it|that|[\w`-]+\s+checks?)\b[^.]{0,50}?\b(?:is|are|look|looks|stays?|remains?)\s+(?:now\s+|still\s+|all\s+)?(?:green|passing|complete|completed|done|pushed|clean|ready|in\s+place|good|fine|working)\b|^(?:tests?|builds?|checks?|lint|ci)\s+(?:all\s+)?(?:pass|passes|passed|succeed|succeeded|green)\b",
    )
});

/// Whether a line states how things stand rather than what was done.
pub(super) fn is_status_line(text: &str) -> bool {
    STATUS_LINE.is_match(text.trim())
}

/// Text of one line without markdown: links become their text, emphasis
/// goes, and leading symbols (emoji, check marks) are dropped.
fn clean(line: &str) -> String {
    let text = LINK.replace_all(line, "$1").replace("**", "").replace("__", "");
    let text = text.trim_start_matches(|c: char| !(c.is_alphanumeric() || "`.~/$@%(\"'<[".contains(c)));
    text.trim().to_string()
}

fn units(text: &str) -> Vec<Unit> {
    let mut out = Vec::new();
    for line in prose(text).lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() {
            out.push(Unit::Break);
            continue;
        }
        if trimmed.starts_with('|') {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some(rest) = trimmed.strip_prefix('#') {
            out.push(Unit::Heading(clean(rest.trim_start_matches('#'))));
        } else if let Some(rest) = ["- ", "* ", "+ "].iter().find_map(|m| trimmed.strip_prefix(m)).or_else(|| {
            let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
            let rest = trimmed.get(digits..).unwrap_or("");
            rest.strip_prefix(". ").filter(|_| digits > 0)
        }) {
            let rest = rest.trim_start_matches("[x] ").trim_start_matches("[ ] ");
            out.push(Unit::Bullet { nested: indent >= 2, text: clean(rest) });
        } else if let Some(inner) = trimmed.strip_prefix("**").and_then(|t| t.strip_suffix("**"))
            && !inner.contains("**")
        {
            // A line in bold alone is a heading in all but name.
            out.push(Unit::Heading(clean(trimmed)));
        } else {
            out.push(Unit::Para(clean(trimmed)));
        }
    }
    out
}

fn is_generic_heading(text: &str) -> bool {
    let folded: String = text
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace() || *c == '\'')
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    folded.is_empty() || GENERIC.contains(&folded.as_str())
}

/// Whether a short line is (or holds) the name of a file or a code span.
fn names_a_file(line: &str) -> bool {
    line.contains('`') || line.split_whitespace().any(|w| w.contains('/') || w.trim_end_matches('.').contains('.'))
}

/// Whether a heading says what was done ("v0.4.0 released", "Fix: uploads
/// resend the whole part on retry") rather than naming a section ("Build
/// Complete", "Contracts", "Integration Test Results").
fn informative_heading(t: &str) -> bool {
    let t = t.trim_end_matches(':');
    let labelled = t.split_once(": ").is_some_and(|(_, rest)| words(rest) >= 3);
    let versioned = t
        .split_whitespace()
        .any(|w| w.trim_start_matches('v').split('.').take(2).filter(|p| p.parse::<u32>().is_ok()).count() == 2);
    let verb = t.split_whitespace().skip(1).any(|w| {
        let w = w.to_lowercase();
        w.len() > 4 && w.ends_with("ed") || ["built", "made", "shipped", "split", "now"].contains(&w.as_str())
    });
    words(t) >= 2 && (labelled || versioned || verb)
}

/// Whether a sentence can stand as the headline of a report.
fn reports(sentence: &str) -> bool {
    let s = sentence.trim();
    !s.ends_with('?')
        && !INTERJECTION.is_match(s)
        && !NOT_A_REPORT.is_match(s)
        && !super::claims::HEDGED.is_match(s)
        && s.chars().filter(|c| c.is_alphanumeric()).count() >= 12
}

fn words(s: &str) -> usize {
    s.split_whitespace().count()
}

/// "lead: what" of an item, cut to fit a summary.
fn item_text(text: &str) -> String {
    text.trim_end_matches([':', '.', ',', ';', ' ']).to_string()
}

impl Report {
    pub fn read(text: &str) -> Report {
        let units = units(text);
        let mut report = Report::default();
        let mut in_left = false;
        let mut pending_lead: Option<String> = None;
        let mut reason_strength = 0;
        let mut section = 0;
        let mut sectioned: Vec<(usize, String)> = Vec::new();
        let mut in_proposal = false;
        for (i, unit) in units.iter().enumerate() {
            let text = match unit {
                Unit::Break => continue,
                Unit::Heading(t) | Unit::Para(t) | Unit::Bullet { text: t, .. } => t.as_str(),
            };
            if text.is_empty() {
                continue;
            }
            // What is left: a section, a lead-in, or a line of its own.
            if LEFT.is_match(text) {
                match text.split_once(':') {
                    Some((_, rest)) if !rest.trim().is_empty() => report.left.push(item_text(rest.trim())),
                    _ => in_left = true,
                }
                continue;
            }
            if matches!(unit, Unit::Heading(_)) || (matches!(unit, Unit::Para(_)) && !text.ends_with(':')) {
                in_left = false;
            }
            if report.follow_plan(unit, text, &mut in_proposal) {
                section += 1;
            }
            if let Some(caps) = CAUSE.captures(text)
                && report.cause.is_none()
            {
                report.cause = sentences(&caps[1]).into_iter().next().map(|s| clip(&s, 220));
                report.cause_is_root = true;
                continue;
            }
            if in_left {
                if let Unit::Bullet { nested: false, text } = unit {
                    report.left.push(item_text(text));
                }
                continue;
            }
            if report.headline.is_none() || report.alternatives.len() < 3 {
                let next = units.iter().skip(i + 1).find(|u| !matches!(u, Unit::Break));
                if let Some(headline) = headline_of(unit, text, next, &mut pending_lead) {
                    if report.headline.is_none() {
                        report.headline = Some(headline);
                        continue;
                    }
                    report.alternatives.push(headline);
                }
            }
            match unit {
                Unit::Bullet { nested: false, text } => sectioned.push((section, item_text(text))),
                Unit::Para(text) if text.contains(": ") && words(text.split(':').next().unwrap_or("")) <= 4 => {
                    sectioned.push((section, item_text(text)))
                }
                _ => {}
            }
            if !report.cause_is_root
                && let Unit::Para(text) | Unit::Bullet { text, .. } = unit
            {
                report.weigh_reasons(text, &mut reason_strength);
            }
        }
        report.items = interleave(sectioned);
        report.left.truncate(3);
        report.proposal.truncate(6);
        report
    }

    /// Follows a plan through the report: a heading or a lead-in opens a
    /// section (and sets whether it is a plan's), and a step of a plan is
    /// kept. Returns whether the unit opened a section.
    fn follow_plan(&mut self, unit: &Unit, text: &str, in_proposal: &mut bool) -> bool {
        if matches!(unit, Unit::Heading(_)) || (matches!(unit, Unit::Para(_)) && text.ends_with(':')) {
            *in_proposal = PROPOSAL.is_match(text);
            // A step given as a heading ("Phase 1: a shared client") is a step.
            if matches!(unit, Unit::Heading(_)) && text.split_whitespace().count() >= 3 && STEP.is_match(text) {
                self.proposal.push(item_text(text));
            }
            return true;
        }
        if let Unit::Bullet { nested: false, text } | Unit::Para(text) = unit
            && (*in_proposal || STEP.is_match(text))
        {
            self.proposal.push(item_text(text));
        }
        false
    }

    /// Takes as the cause the strongest sentence of a text that gives a
    /// reason, if it is stronger than the one already taken.
    fn weigh_reasons(&mut self, text: &str, reason_strength: &mut i32) {
        for s in sentences(text).into_iter().filter(|s| REASON.is_match(s) && reports(s)) {
            // A stated choice ("we chose X because Y") beats an aside ("since it…").
            let strength = if STRONG_REASON.is_match(&s) { 2 } else { 1 };
            if strength > *reason_strength {
                *reason_strength = strength;
                self.cause = Some(clip(&s, 220));
            }
        }
    }
}

/// The first items of a report in sections: one item per section first,
/// then the next of each, so that a report in sections is told by all of
/// them, not by the first one's details.
fn interleave(sectioned: Vec<(usize, String)>) -> Vec<String> {
    let mut rounds: Vec<(usize, usize, String)> = Vec::new();
    let mut seen_in: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
    for (order, (section, item)) in sectioned.into_iter().enumerate() {
        let rank = seen_in.entry(section).or_insert(0);
        rounds.push((*rank, order, item));
        *rank += 1;
    }
    rounds.sort();
    rounds.into_iter().map(|(_, _, item)| item).take(4).collect()
}

/// The headline a unit gives, if it gives one. A lead-in ("Created the spec
/// at:") followed by one short line (the path) becomes one sentence.
fn headline_of(unit: &Unit, text: &str, next: Option<&Unit>, lead: &mut Option<String>) -> Option<String> {
    if let Some(open) = lead.take() {
        return Some(format!("{} {}", open.trim_end_matches(':'), text.trim_end_matches([':', '.'])));
    }
    match unit {
        Unit::Heading(t) if is_generic_heading(t) => None,
        Unit::Heading(t) => informative_heading(t).then(|| t.trim_end_matches(':').to_string()),
        Unit::Para(_) | Unit::Bullet { .. } => {
            let first = sentences(text).into_iter().find(|s| !INTERJECTION.is_match(s))?;
            if !reports(&first) {
                return None;
            }
            if first.ends_with(':') {
                // Only a name completes a lead-in ("Created the spec at:" then
                // the path); a heading or a sentence after a colon is its own.
                let short_next = match next {
                    Some(Unit::Para(n) | Unit::Heading(n)) => n.len() <= 100 && !n.contains(". ") && names_a_file(n),
                    _ => false,
                };
                if short_next && words(&first) >= 3 {
                    *lead = Some(first);
                    return None;
                }
                if words(&first) < 5 {
                    return None;
                }
            }
            Some(first)
        }
        Unit::Break => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_informative_heading_is_the_headline_and_root_cause_the_cause() {
        let r = Report::read(
            "## Fix: uploads resend the whole part on retry\n\n**Root cause:** a shared reader was reused. More.\n\n\
             **Fix**\n- `upload.go`: each part gets its own reader.\n- `retry.go`: takes a factory.\n",
        );
        assert_eq!(r.headline.as_deref(), Some("Fix: uploads resend the whole part on retry"));
        assert_eq!(r.cause.as_deref(), Some("a shared reader was reused."));
        assert_eq!(r.items, ["`upload.go`: each part gets its own reader", "`retry.go`: takes a factory"]);
    }

    #[test]
    fn greetings_generic_headings_and_lead_ins_are_skipped() {
        let r = Report::read("Perfect! Here's what changed:\n\n## Summary\n\nThe importer now keeps tool names.\n");
        assert_eq!(r.headline.as_deref(), Some("The importer now keeps tool names."));
        let r = Report::read("Done! I've created the design document at:\n\n**`specs/sync.md`**\n\n- more");
        assert_eq!(r.headline.as_deref(), Some("I've created the design document at `specs/sync.md`"));
    }

    #[test]
    fn what_is_left_is_kept_apart() {
        let r = Report::read(
            "## Config, part 1\n\nDone:\n- **Schema**: profiles.\n\nStill to do:\n- the migrate command,\n- docs.\n\n\
             Remaining on config: delete the old loader.",
        );
        assert_eq!(r.headline.as_deref(), Some("Schema: profiles."), "a section label is no headline");
        assert_eq!(r.left, ["the migrate command", "docs", "delete the old loader"]);
    }

    #[test]
    fn every_section_of_a_report_is_told_before_the_details_of_one() {
        let r = Report::read(
            "## Release 2.0\n\n**Build**\n- `ci.yml`: builds on tags.\n- `Makefile`: one target.\n- `x`: more.\n\n\
             **Docs**\n- `README.md`: install section.\n\nWe chose tags over branches because a tag is immutable.\n\
             The cache stays, since it is cheap.",
        );
        assert_eq!(r.items[..2], ["`ci.yml`: builds on tags", "`README.md`: install section"]);
        assert_eq!(r.cause.as_deref(), Some("We chose tags over branches because a tag is immutable."));
    }

    #[test]
    fn plans_and_questions_are_not_headlines() {
        let r = Report::read("I'll look at the parser first. Shall I also fix the tests?");
        assert_eq!(r.headline, None);
    }
}
