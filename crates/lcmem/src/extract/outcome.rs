//! What a session amounted to, decided from evidence first (what its tools
//! did) and from what was said second.

use std::sync::LazyLock;

use regex::Regex;

use super::evidence::Evidence;
use super::{ExtractInput, Outcome};
use crate::facts::Origin;
use crate::journal::SealKind;

/// Reported shipping: released, published, deployed, tagged.
static SHIPPED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(shipped|released|deployed|published|tagged|launched|rolled out|went live|pushed the tag|merged (?:in)?to (?:main|master|trunk))\b",
    )
    .expect("valid regex")
});

/// A request or report about a defect.
static FIX: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(fix(?:es|ed|ing)?|bug|regression|crash(?:es|ed)?|broken|flaky|fails?|failing|root cause|resolved|repaired)\b",
    )
    .expect("valid regex")
});

/// Tests reported as passing.
static TESTS_PASS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(tests?|suite|specs?)\b[^.]{0,60}\b(pass(?:es|ed|ing)?|green)\b|\bgreen\b|\bfailed before\b")
        .expect("valid regex")
});

/// A person throwing the work away: "no, revert", "drop this", "not worth it".
static THROW_AWAY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(revert(?: it| this| that| all| everything| the change)?|roll ?back|undo (?:it|this|that|all|everything|the changes?)|drop (?:it|this|that|the change|the idea)|scrap (?:it|this|that)|throw (?:it|this) away|not worth it|give up on (?:it|this)|forget it|never ?mind|abandon (?:it|this))\b",
    )
    .expect("valid regex")
});

/// An attempt reported as given up.
pub(super) static ABANDONED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(abandon(ed|ing)?|dead end|not worth (it|pursuing)|giv(e|ing) up on|gave up|shelv(e|ed|ing)|park(ed|ing)? (this|it|the)|drop(ped)? the (idea|spike|experiment)|reverted:)",
    )
    .expect("valid regex")
});

/// What was said, as far as the outcome needs it.
pub struct Said<'a> {
    /// The report's headline, items and cause, joined.
    pub report: &'a str,
    /// Whether some sentence reports finished work.
    pub reported_work: bool,
}

/// The user's request to throw the work away, if one of their last two
/// messages (after the assistant started) is one.
pub fn thrown_away(input: &ExtractInput) -> Option<&str> {
    let first_reply = input.turns.iter().position(|t| t.role == Origin::Assistant)?;
    input.turns[first_reply..]
        .iter()
        .filter(|t| t.role == Origin::User)
        .rev()
        .take(2)
        .map(|t| t.text.as_str())
        .find(|text| text.len() <= 300 && THROW_AWAY.is_match(text))
}

pub fn decide(input: &ExtractInput, evidence: &Evidence, said: &Said<'_>) -> Outcome {
    let archived = input.kind == SealKind::Archived;
    let committed = !evidence.commits.is_empty() || evidence.pushed_main;
    if ((thrown_away(input).is_some() || evidence.reverted) && !committed)
        || ABANDONED.is_match(said.report)
        || (archived && !evidence.acted() && !said.reported_work)
    {
        return Outcome::Abandoned;
    }
    let goal = input.turns.iter().find(|t| t.role == Origin::User).map_or("", |t| t.text.as_str());
    let report = said.report.to_lowercase();
    let fix_asked =
        FIX.is_match(&input.title) || FIX.is_match(goal) || report.starts_with("fix") || report.contains("root cause");
    let fixed = fix_asked
        && !evidence.changed.is_empty()
        && (evidence.tested || TESTS_PASS.is_match(said.report) || report.contains("root cause"));
    let last_user = input.turns.iter().rev().find(|t| t.role == Origin::User).map_or("", |t| t.text.as_str());
    let worked = evidence.acted() || said.reported_work;
    let released = evidence.released
        || !evidence.tags.is_empty()
        || (worked && SHIPPED.is_match(said.report))
        || (worked && last_user.len() < 200 && SHIPPED.is_match(last_user));
    if !archived && released {
        return Outcome::Shipped;
    }
    if fixed {
        return Outcome::Fixed;
    }
    if !archived && evidence.pushed_main {
        return Outcome::Shipped;
    }
    if worked {
        // A session that reports a fix and changed files is a fix even
        // without a test run in view.
        if report.starts_with("fixed") && !evidence.changed.is_empty() {
            return Outcome::Fixed;
        }
        return Outcome::Progress;
    }
    Outcome::Question
}
