//! A session's title from its work, like a commit subject: the commit it
//! made, else what its line says it did, else what was asked, said plainly.
//! Never the first prompt pasted in: "…never npm.: Added notes.txt…" is what
//! a prompt makes of a title.

use super::clause::Clause;
use super::{ExtractInput, ExtractOutput, Outcome};
use crate::facts::Origin;

/// Longest title, in characters.
const TITLE: usize = 64;

/// The title a session is listed under. `recorded` is the title the
/// session's file holds: kept when the agent named the session itself (a
/// summary of its own), replaced when it is only the first prompt.
pub fn work_title(input: &ExtractInput, output: &ExtractOutput) -> String {
    let recorded = input.title.trim();
    let first_prompt = input.turns.iter().find(|t| t.role == Origin::User && !t.compaction).map(|t| t.text.as_str());
    let is_prompt = first_prompt.is_some_and(|p| prompt_like(recorded, p));
    if !recorded.is_empty() && !is_prompt {
        return recorded.to_string();
    }
    let commit = input.tools.iter().rev().filter(|t| !t.failed).find_map(|t| t.commit.as_deref()).map(subject);
    let worked = !matches!(output.outcome, Outcome::Question | Outcome::Abandoned);
    // A line that is all headline would only say its title twice; the
    // request names such a session as well.
    let headline = worked.then(|| headline_of(&output.summary)).flatten().filter(|h| !says_all_of(h, &output.summary));
    // The first request that says something: "Hey" names nothing.
    let asked = input
        .turns
        .iter()
        .filter(|t| t.role == Origin::User && !t.compaction && t.answers.is_none())
        .find_map(|t| request_of(&t.text));
    commit
        .or(headline)
        .or(asked)
        .filter(|t| t.split_whitespace().count() >= 2)
        .unwrap_or_else(|| recorded.to_string())
}

/// What the session was asked, said plainly, when its recorded title is
/// only its first prompt: "Migrate this app to prisma" for "I want to
/// migrate this app to prisma. This will be…".
pub fn asked_plainly(input: &ExtractInput) -> Option<String> {
    let first = input.turns.iter().find(|t| t.role == Origin::User && !t.compaction)?;
    if !prompt_like(input.title.trim(), &first.text) {
        return None;
    }
    request_of(&first.text)
}

/// Whether the recorded title is the first prompt (or its start).
fn prompt_like(title: &str, prompt: &str) -> bool {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase();
    let (title, prompt) = (norm(title.trim_end_matches('…')), norm(prompt));
    !title.is_empty() && prompt.starts_with(&title)
}

/// A commit subject without its conventional prefix ("feat(api): rate-limit
/// login attempts" → "Rate-limit login attempts").
fn subject(commit: &str) -> String {
    let bare = match commit.split_once(": ") {
        Some((kind, rest)) if kind.len() <= 24 && !kind.contains(' ') => rest,
        _ => commit,
    };
    short(bare)
}

/// The line's headline: its first clause, if it is short enough to title.
fn headline_of(summary: &str) -> Option<String> {
    // A reason is not a headline: "Added notes.txt because the memory says
    // scratch notes live there" is titled "Added notes.txt".
    let cuts = [". ", "; ", ": ", ", so ", " — ", " by ", ", which ", " so that ", ", because ", " because "];
    let first = cuts.iter().fold(summary, |s, sep| s.split(sep).next().unwrap_or(s));
    let first = first.trim().trim_end_matches('.');
    (first.split_whitespace().count() >= 2).then(|| short(first))
}

/// Whether the headline is the whole line, give or take its full stop.
fn says_all_of(headline: &str, summary: &str) -> bool {
    let norm = |s: &str| s.trim().trim_end_matches('.').to_lowercase();
    norm(headline) == norm(summary)
}

/// What the person asked, said plainly: its first sentence without the
/// politeness around it ("Can you cleanup the auth page?" → "Cleanup the
/// auth page").
pub(crate) fn request_of(prompt: &str) -> Option<String> {
    // Its first paragraph, as one line however the terminal wrapped it.
    let prose = super::text::prose(prompt);
    let paragraph = prose.trim_start().split("\n\n").next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" ");
    let sentence = super::text::sentences(&paragraph).into_iter().next()?;
    let greeting = ["hi", "hey", "hello", "yo", "thanks", "ok", "okay"];
    if sentence.split_whitespace().count() < 3
        && greeting.contains(&sentence.trim_end_matches(['!', '.', ',']).to_lowercase().as_str())
    {
        return None;
    }
    let mut rest = sentence.trim().trim_end_matches(['?', '.', '!']).to_string();
    loop {
        let lower = rest.to_lowercase();
        let Some(lead) = [
            "can you ", "could you ", "would you ", "please ", "i want to ", "i'd like to ", "i would like to ",
            "help me ", "let's ", "lets ", "hey, ", "hi, ", "ok ", "okay ", "so ", "now ", "also ",
        ]
        .iter()
        .find(|l| lower.starts_with(*l)) else {
            break;
        };
        rest = rest.get(lead.len()..).unwrap_or("").trim_start().to_string();
    }
    for tail in [", please", " please", ", thanks", " thanks"] {
        let cut = rest.len().saturating_sub(tail.len());
        if rest.get(cut..).is_some_and(|end| end.eq_ignore_ascii_case(tail)) {
            rest.truncate(cut);
        }
    }
    (rest.split_whitespace().count() >= 2).then(|| short(&rest))
}

/// A title's length: cut at a word, capitalised, with no full stop.
fn short(text: &str) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut = match Clause::of(&text) {
        Some(clause) if clause.len() <= TITLE => clause.as_str().trim_end_matches('.').to_string(),
        _ => super::clip(&text, TITLE),
    };
    let mut chars = cut.chars();
    chars.next().map(|c| c.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::{ToolUse, Turn};
    use crate::journal::SealKind;

    fn input(title: &str, prompt: &str, commit: Option<&str>) -> ExtractInput {
        ExtractInput {
            session_id: "s".into(),
            title: title.into(),
            created_at: "2026-11-01T09:00:00Z".parse().unwrap(),
            kind: SealKind::Done,
            turns: vec![Turn { role: Origin::User, text: prompt.into(), compaction: false, answers: None }],
            model_failed_last: false,
            tools: commit
                .map(|c| vec![ToolUse { name: "Bash".into(), commit: Some(c.into()), ..ToolUse::default() }])
                .unwrap_or_default(),
        }
    }

    fn output(summary: &str, outcome: Outcome) -> ExtractOutput {
        ExtractOutput { summary: summary.into(), outcome, files: vec![], decisions: vec![], facts: vec![], lane: None }
    }

    #[test]
    fn a_title_comes_from_the_work_not_the_first_prompt() {
        let prompt = "We use pnpm, never npm. Add a notes file with the release steps.";
        let clipped = "We use pnpm, never npm. Add a notes file with the release steps.";
        assert_eq!(
            work_title(&input(clipped, prompt, Some("docs: add release notes file")), &output("Added notes.txt.", Outcome::Shipped)),
            "Add release notes file"
        );
        assert_eq!(
            work_title(&input(clipped, prompt, None), &output("Added `notes.txt` with the release steps; the tests pass.", Outcome::Progress)),
            "Added `notes.txt` with the release steps"
        );
        assert_eq!(
            work_title(&input("Can you cleanup the auth page?", "Can you cleanup the auth page?", None), &output("Answered.", Outcome::Question)),
            "Cleanup the auth page"
        );
        // A line that is all headline leaves the title to the request.
        assert_eq!(
            work_title(
                &input("Tidy the CHANGELOG for v1.0.4 please.", "Tidy the CHANGELOG for v1.0.4 please.", None),
                &output("Tidied CHANGELOG.md for v1.0.4 and merged the duplicate sections.", Outcome::Shipped)
            ),
            "Tidy the CHANGELOG for v1.0.4"
        );
        // The reason for the work is left to the line.
        assert_eq!(
            work_title(
                &input(clipped, prompt, None),
                &output("Added notes.txt because the project memory says scratch notes live there.", Outcome::Shipped)
            ),
            "Added notes.txt"
        );
        // The agent's own name for the session is kept.
        assert_eq!(
            work_title(&input("Fix parser trailing commas", "the parser chokes on [1,2,]", None), &output("Fixed it.", Outcome::Fixed)),
            "Fix parser trailing commas"
        );
    }
}
