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
    crate::pattern::regex(
        r"(?i)\b(shipped|released|deployed|published|tagged|launched|rolled out|went live|pushed the tag|merged (?:in)?to (?:main|master|trunk))\b",
    )
});

/// A request or report about a defect.
static FIX: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(fix(?:es|ed|ing)?|bug|regression|crash(?:es|ed)?|broken|flaky|fails?|failing|root cause|resolved|repaired)\b",
    )
});

/// Tests reported as passing.
static TESTS_PASS: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(tests?|suite|specs?)\b[^.]{0,60}\b(pass(?:es|ed|ing)?|green)\b|\bgreen\b|\bfailed before\b",
    )
});

/// A person throwing the work away: "no, revert", "drop this", "not worth it".
static THROW_AWAY: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(revert(?: it| this| that| all| everything| the change)?|roll ?back|undo (?:it|this|that|all|everything|the changes?)|drop (?:it|this|that|the change|the idea)|scrap (?:it|this|that)|throw (?:it|this) away|not worth it|give up on (?:it|this)|forget it|never ?mind|abandon (?:it|this))\b",
    )
});

/// An attempt reported as given up.
pub(super) static ABANDONED: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(abandon(ed|ing)?|dead end|not worth (it|pursuing)|giv(e|ing) up on|gave up|shelv(e|ed|ing)|park(ed|ing)? (this|it|the)|drop(ped)? the (idea|spike|experiment)|reverted:)",
    )
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
    input
        .turns
        .iter()
        .skip(first_reply)
        .filter(|t| t.role == Origin::User)
        .rev()
        .take(2)
        .map(|t| t.text.as_str())
        .find(|text| text.len() <= 300 && THROW_AWAY.is_match(text))
}

/// A person asking for a defect to be fixed, in a request short enough to
/// be about one thing (a long specification mentions failures in passing).
fn asks_for_fix(text: &str) -> bool {
    let head: String = text.chars().take(400).collect();
    FIX.is_match(&head)
}

/// The session says that the main branch is what gets released
/// ("pushing to main deploys", "main is deployed on every push").
static RELEASES_FROM_MAIN: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(?:(?:push(?:ing|es)?|merg(?:e|ing|es))\s+(?:\w+\s+){0,2}(?:to|into)\s+(?:main|master)\s+(?:\w+\s+){0,2}(?:deploys?|releases?|ships?|publishes)|(?:main|master)\s+(?:is|gets)\s+(?:auto-?)?(?:deployed|released|published)|(?:deploys?|releases?)\s+(?:\w+\s+){0,2}(?:on|from)\s+(?:every\s+)?(?:push|merge)\w*\s+(?:to|into)\s+(?:main|master))\b",
    )
});

/// Words that undo a claim of shipping in the same sentence: "not
/// deployed", "the deploy failed", "couldn't publish".
static NEGATED: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(?:not|n't|never|no|failed|fails|unable|without|yet to|still needs?|pending|blocked)\b",
    )
});

/// Whether `text` claims a release in a sentence that does not deny it.
fn says_shipped(text: &str) -> bool {
    super::text::sentences(text).iter().any(|s| SHIPPED.is_match(s) && !NEGATED.is_match(s))
}

pub fn decide(input: &ExtractInput, evidence: &Evidence, said: &Said<'_>) -> Outcome {
    let archived = input.kind == SealKind::Archived;
    let committed = !evidence.commits.is_empty() || !evidence.pushes.is_empty();
    if ((thrown_away(input).is_some() || evidence.reverted) && !committed)
        || ABANDONED.is_match(said.report)
        || (archived && !evidence.acted() && !said.reported_work)
    {
        return Outcome::Abandoned;
    }
    let users = || input.turns.iter().filter(|t| t.role == Origin::User && !t.compaction);
    let report = said.report.to_lowercase();
    // A fix needs a defect: one a person reported, or a root cause found.
    let defect = FIX.is_match(&input.title) || users().any(|t| asks_for_fix(&t.text)) || report.contains("root cause");
    // A project built from scratch is new work, whatever it fixed on the way.
    let built = evidence.created.len() >= 3 && evidence.created.len() * 2 > evidence.changed.len();
    let fixed = defect
        && !built
        && !evidence.changed.is_empty()
        && !evidence.tests_failed
        && (evidence.tested || TESTS_PASS.is_match(said.report) || report.contains("root cause"));
    let last_user = users().next_back().map_or("", |t| t.text.as_str());
    let worked = evidence.acted() || said.reported_work;
    // Prose is the evidence of a release only where no command was recorded
    // (a session written by hand); otherwise a release is a command that ran.
    let prose_only = input.tools.iter().all(|t| t.command.is_none());
    let released = evidence.released
        || !evidence.tags.is_empty()
        || (worked && says_shipped(said.report) && (prose_only || evidence.pushed_main))
        || (worked && prose_only && last_user.len() < 200 && says_shipped(last_user));
    if !archived && released {
        return Outcome::Shipped;
    }
    if fixed {
        return Outcome::Fixed;
    }
    let all_said = || input.turns.iter().map(|t| t.text.as_str());
    if !archived && evidence.pushed_main && all_said().any(|t| RELEASES_FROM_MAIN.is_match(t)) {
        return Outcome::Shipped;
    }
    if worked {
        // A session that reports a fix and changed files is a fix even
        // without a test run in view.
        if report.starts_with("fixed") && !evidence.changed.is_empty() && !built && defect {
            return Outcome::Fixed;
        }
        return Outcome::Progress;
    }
    Outcome::Question
}
