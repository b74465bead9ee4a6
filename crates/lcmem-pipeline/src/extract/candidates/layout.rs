//! Where a line of a message sits: in a plan, in a list of house rules, in
//! a numbered list, or in plain prose. Headings and tables are no prose.

use std::sync::LazyLock;

use regex::Regex;

use super::super::text::prose;

/// What the lines around a line make of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Context {
    Prose,
    /// An item of a numbered list.
    Numbered,
    /// Under a plan, a to-do list or next steps: what may happen, not what is.
    Plan,
    /// An item listed after a lead-in naming rules ("House rules:"); the
    /// noun, singular, names each item ("House rule").
    Rules(&'static str),
}

pub(super) struct Line {
    pub text: String,
    pub context: Context,
}

/// A heading or lead-in that opens a plan.
static PLAN_LEAD: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(plan|plans|next steps?|to ?do|todos?|remaining|still to do|left to do|for the next|follow[- ]ups?|steps|phases?|proposal|proposed|approach(es)?|options?|action items|roadmap|checklist|verification|what i'll do|i will|i'll|we'll|let's)\b",
    )
});

/// Lead-ins that name a list of rules, with the singular that names each.
pub(super) const RULE_NOUNS: &[(&str, &str)] = &[
    ("house rules", "House rule"),
    ("ground rules", "Ground rule"),
    ("team rules", "Team rule"),
    ("coding rules", "Coding rule"),
    ("conventions", "Convention"),
    ("guidelines", "Guideline"),
    ("coding standards", "Coding standard"),
    ("rules", "Rule"),
];

/// The singular for a lead-in naming rules, if `text` is one.
/// The noun must close the lead-in ("the house rules while you're at it"),
/// and a lead-in that counts ("14 findings with the new rules") lists no rules.
pub(super) fn rule_noun(text: &str) -> Option<&'static str> {
    let lower = text.to_lowercase();
    if lower.chars().any(|c| c.is_ascii_digit()) {
        return None;
    }
    let tail: Vec<&str> = lower.split_whitespace().rev().take(7).collect();
    let tail: String = tail.into_iter().rev().collect::<Vec<_>>().join(" ");
    RULE_NOUNS.iter().find(|(plural, _)| contains_word(&tail, plural)).map(|(_, one)| *one)
}

fn contains_word(haystack: &str, needle: &str) -> bool {
    haystack.match_indices(needle).any(|(i, _)| {
        let before = haystack.get(..i).and_then(|h| h.chars().next_back()).is_none_or(|c| !c.is_alphanumeric());
        let after = haystack.get(i + needle.len()..).and_then(|h| h.chars().next()).is_none_or(|c| !c.is_alphanumeric());
        before && after
    })
}

/// The prose lines of a message with their context, headings and table rows left out.
pub(super) fn lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    // What the last heading or lead-in opened, for the list items under it.
    let mut section = Context::Prose;
    let mut list_opened = Context::Prose;
    for raw in prose(text).lines() {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with('#') {
            section = if PLAN_LEAD.is_match(line) { Context::Plan } else { Context::Prose };
            list_opened = Context::Prose;
            continue;
        }
        if line.starts_with('|') {
            continue;
        }
        let numbered = {
            let digits = line.chars().take_while(char::is_ascii_digit).count();
            let rest = line.get(digits..).unwrap_or("");
            digits > 0 && (rest.starts_with(". ") || rest.starts_with(") "))
        };
        let item = numbered || ["- ", "* ", "+ "].iter().any(|m| line.starts_with(m));
        if !item {
            list_opened = Context::Prose;
        }
        let context = match (section, list_opened) {
            (Context::Plan, _) => Context::Plan,
            (_, opened) if item && opened != Context::Prose => opened,
            _ if numbered => Context::Numbered,
            _ => Context::Prose,
        };
        if line.trim_end_matches(['*', '_']).ends_with(':') {
            // A lead-in: the list that follows is what it announces.
            let lead = line.trim_end_matches(['*', '_', ':']);
            list_opened = if let Some(noun) = rule_noun(lead) {
                Context::Rules(noun)
            } else if PLAN_LEAD.is_match(lead) {
                Context::Plan
            } else {
                Context::Prose
            };
        }
        out.push(Line { text: line.to_string(), context });
    }
    out
}
