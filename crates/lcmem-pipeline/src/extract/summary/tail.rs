//! What a work session's line tells after its work: how many tests the
//! session's own run left passing, and the request it never answered.

use std::sync::LazyLock;

use regex::Regex;

use super::Parts;
use crate::extract::clause::Clause;

/// A count of passing tests in a report: "69 tests passing", "all 12 unit
/// tests pass", "41/41 tests green".
static PASSING: LazyLock<Regex> = LazyLock::new(|| {
    crate::pattern::regex(
        r"(?i)\b(\d{1,6})(?:\s*/\s*\d{1,6})?\s+(?:[a-z-]+\s+){0,2}?tests?\b(?:\s+(?:are|all|now|still))*\s+(?:pass(?:ing|ed|es)?|green)\b",
    )
});

/// How many tests the report counts as passing ("69"), when the session
/// ran its tests after its changes and the last run passed: a count the run
/// does not back (no test run, or a failing one) is not repeated.
pub(super) fn passing_tests<'a>(parts: &Parts<'a>) -> Option<&'a str> {
    let evidence = parts.evidence;
    if !evidence.tested || !evidence.test_run_passed {
        return None;
    }
    let report = parts.exchanges.iter().rev().find(|x| x.report.headline.is_some())?;
    Some(PASSING.captures(&report.text)?.get(1)?.as_str())
}

/// The person's last request, when the model never answered it (the client
/// answered in its place: an API error, a usage limit) and nothing changed
/// for it: it is still to do, said in their words. A closing remark the
/// session simply ended on ("let's leave it there") is no such request.
pub(super) fn unanswered(parts: &Parts<'_>) -> Option<String> {
    let last = parts.exchanges.last()?;
    if !parts.input.model_failed_last
        || last.answered
        || last.changed()
        || last.request.split_whitespace().count() < 3
    {
        return None;
    }
    // Only a request for work, opening with its verb: thanks, a verdict or
    // a go-ahead ("lgtm, merge it") asks for nothing new. It is told as
    // what was asked, never as an order; one that would stand beyond the
    // task is not told at all.
    let asked = crate::extract::title::request_of(&last.request)
        .filter(|r| crate::extract::clause::opens_with_request(r) && r.split_whitespace().count() >= 3)
        .filter(|r| !crate::extract::clause::is_standing_order(r))?;
    let asked = Clause::of(&asked)?.within(110)?;
    let told = format!("The last request, to {}, got no answer.", super::unworked::verb_lowered(asked.bare()));
    (!(parts.is_order)(&told)).then_some(told)
}

#[cfg(test)]
mod tests {
    use super::PASSING;

    #[test]
    fn counts_of_passing_tests_are_read_in_the_ways_reports_say_them() {
        for (text, count) in [
            ("- **69 tests passing** across 12 groups", "69"),
            ("All 12 unit tests pass.", "12"),
            ("41/41 tests green", "41"),
            ("The 7 integration tests now pass", "7"),
        ] {
            let found = PASSING.captures(text).and_then(|c| c.get(1)).map(|m| m.as_str().to_string());
            assert_eq!(found.as_deref(), Some(count), "{text}");
        }
        for text in ["3 tests failed", "added 4 tests", "tests pass"] {
            assert!(!PASSING.is_match(text), "{text}");
        }
    }
}

