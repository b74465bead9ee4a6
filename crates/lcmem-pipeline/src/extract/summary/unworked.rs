//! Lines for sessions that changed nothing: a question answered, a plan
//! proposed, an attempt given up.

use super::{Line, Parts, joined, lowered};
use crate::extract::ExtractInput;
use crate::extract::clause::{Clause, reported};
use crate::extract::exchange::Exchange;
use crate::extract::text::{clip, prose, sentences};
use crate::facts::Origin;

/// A session that asked and was answered: what was asked, and the gist of
/// the answer.
pub(super) fn question_line(parts: &Parts<'_>) -> String {
    let is_order = parts.is_order;
    let topic = topic(parts.input).filter(|t| !is_order(t));
    // "Answered" is for a session that asked; one that asked for a review
    // or a look was a review.
    let was_asked = parts.input.turns.iter().any(|t| t.role == Origin::User && asks(&t.text));
    let asked = asked_line(topic.as_deref(), was_asked, parts.input);
    // A session that only planned says what it planned.
    let planned: Vec<Clause> = parts
        .evidence
        .open_todos
        .iter()
        .chain(&parts.evidence.done_todos)
        .filter_map(|t| reported(t, is_order))
        .collect();
    let answered: Vec<&Exchange> = parts.exchanges.iter().filter(|x| x.answered).collect();
    // An answer that laid out a plan is told as the plan it proposed.
    let proposal = proposed_steps(&answered, is_order);
    let gist: Vec<Clause> = answered.iter().filter_map(|x| answer_gist(x, is_order)).take(2).collect();
    // A session that stopped mid-answer: its last reply only announced what
    // came next, or its last request (a real one, not thanks) got none.
    let ended = parts.exchanges.last().is_some_and(|x| {
        x.cut_off || (!x.answered && x.request.split_whitespace().count() >= 4 && !(parts.is_order)(&x.request))
    });
    let mut line = Line::default();
    // Fewer steps when more do not make a clean line; none, and the
    // session is told as any other.
    // A topic that is no words (a prompt of ".") names nothing.
    let about = topic
        .as_ref()
        .filter(|t| t.chars().filter(|c| c.is_alphanumeric()).count() >= 2)
        .map_or(String::new(), |t| format!(" for \"{}\"", clip(t, 70)));
    let told = (1..=3)
        .rev()
        .filter_map(|most| joined(&proposal, 200, most))
        .any(|steps| line.push(format!("Proposed a plan{about}: {}", lowered(&steps))));
    if told {
        line.push("Not implemented; no changes made");
        return line.text();
    }
    // The agent's own task list is how it worked, not what it found: it is
    // told only when the answer says nothing itself.
    // A list it worked through is told as gone through; one still open as
    // the tasks it listed, never as work done.
    if let Some(plan) = joined(&planned, 180, 3).filter(|_| gist.is_empty()) {
        let open = parts.evidence.open_todos.len();
        line.push(match open {
            0 => format!("Went through {}", lowered(&plan)),
            _ => format!("Listed {} tasks, {open} still open: {}", planned.len(), lowered(&plan)),
        });
    }
    match joined(&gist, 190, 2) {
        Some(g) => {
            line.push(format!("{asked}: {g}"));
        }
        None if ended => {
            let what = unanswered_what(topic.as_deref(), parts.input, is_order);
            line.push(format!("Worked on {what}; the session ended before an answer"));
        }
        None => {
            line.push(asked);
        }
    }
    if !gist.is_empty() && ended {
        line.push("The session ended before it finished");
    }
    line.push("No changes made");
    line.text()
}

/// How a session's ask is told: the question it answered, the topic it
/// looked into, or the request it looked into.
fn asked_line(topic: Option<&str>, was_asked: bool, input: &ExtractInput) -> String {
    match (topic, was_asked) {
        (Some(t), true) => format!("Answered \"{}\"", clip(t, 90)),
        (None, true) => "Answered a question".to_string(),
        (Some(t), false) => format!("Looked into \"{}\"", clip(t, 90)),
        // A step of work asked in the imperative is told as a request, not
        // quoted; one that would stand beyond the task is not told at all.
        (None, false) => crate::extract::title::asked_plainly(input)
            .filter(|r| !crate::extract::clause::is_standing_order(r))
            .map(|r| format!("Looked into the request to {}", verb_lowered(&clip(&r, 90))))
            .unwrap_or_else(|| "Looked into a request".to_string()),
    }
}

/// The steps of the last plan an answer laid out, as clauses.
fn proposed_steps(answered: &[&Exchange], is_order: &dyn Fn(&str) -> bool) -> Vec<Clause> {
    answered
        .iter()
        .rev()
        .find(|x| !x.proposal.is_empty())
        // A question the reply asks back is no step of the plan.
        .map(|x| {
            x.proposal
                .iter()
                .filter(|t| !t.trim_end().ends_with('?') && !t.contains("? "))
                .filter_map(|t| reported(t, is_order))
                .collect()
        })
        .unwrap_or_default()
}

/// What a session that ended before an answer worked on: its topic quoted,
/// or its request told as one.
fn unanswered_what(topic: Option<&str>, input: &ExtractInput, is_order: &dyn Fn(&str) -> bool) -> String {
    // A request in the imperative is told as one, not quoted.
    match topic {
        Some(t) => format!("\"{}\"", clip(t, 90)),
        None => crate::extract::title::asked_plainly(input)
            .filter(|r| !crate::extract::clause::is_standing_order(r))
            .map(|r| format!("the request to {}", verb_lowered(&clip(&r, 90))))
            .filter(|told| !is_order(told))
            .unwrap_or_else(|| "a request".to_string()),
    }
}

/// A request's opening verb in lower case ("Migrate this app" → "migrate
/// this app"); a name ("GraphQL …") keeps its case.
pub(super) fn verb_lowered(request: &str) -> String {
    let first = request.split_whitespace().next().unwrap_or("");
    if first.chars().skip(1).any(char::is_uppercase) {
        return request.to_string();
    }
    let mut chars = request.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

/// Whether a person's message asks something: a question mark, or a
/// question's opening word.
fn asks(text: &str) -> bool {
    let first = text.split_whitespace().next().unwrap_or("").to_lowercase();
    text.contains('?')
        || ["what", "why", "how", "where", "which", "who", "is", "are", "does", "do", "can", "could", "should"]
            .contains(&first.trim_matches(|c: char| !c.is_alphanumeric()))
}

/// The gist of an answer: the first clause of its report that says
/// something (its headline, else its first item).
fn answer_gist(x: &Exchange, is_order: &dyn Fn(&str) -> bool) -> Option<Clause> {
    let report = &x.report;
    report
        .headline
        .iter()
        .chain(&report.alternatives)
        .chain(&report.items)
        .filter_map(|t| reported(t, is_order))
        .find(|c| c.as_str().split_whitespace().count() >= 5)
}

/// An attempt given up: what was attempted, and why it stopped.
pub(super) fn abandoned_line(parts: &Parts<'_>) -> String {
    let input = parts.input;
    let is_order = parts.is_order;
    let mut line = Line::default();
    let what = topic(input).map_or_else(|| "an attempt".to_string(), |t| clip(&t, 120));
    let plain = format!("Abandoned: {what}");
    if is_order(&plain) || !crate::extract::clause::is_clean(&plain) {
        let mut chars = what.chars();
        let lowered: String = chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default();
        if !line.push(format!("Abandoned an attempt to {lowered}")) {
            line.push("Abandoned an attempt");
        }
    } else {
        line.push(plain);
    }
    let reason = parts.reason.filter(|r| !is_order(r)).and_then(Clause::of);
    if let Some(work) = parts.exchanges.iter().rev().find_map(|x| x.work(is_order)) {
        // The reason matters more than the tidy-up: room is kept for it.
        let keep = if reason.is_some() { 100 } else { 0 };
        if let Some(w) = work.within(line.room().saturating_sub(keep).min(160)) {
            line.push(w.as_str().to_string());
        }
    }
    if let Some(reason) = reason.and_then(|r| r.within(line.room().min(180))) {
        line.push(reason.as_str().to_string());
    }
    line.text()
}

/// What the session was about: its title, unless the title is a greeting
/// ("Hey"), then the first request that says more.
pub(super) fn topic(input: &ExtractInput) -> Option<String> {
    let title = input.title.trim();
    let greeting = matches!(
        title.to_lowercase().trim_end_matches(['!', '.', ',', ' ']),
        "hi" | "hey" | "hello" | "yo" | "hi there" | "hey there" | "hello there" | "good morning" | "morning" | "hiya"
    );
    if !greeting && title.split_whitespace().count() >= 2 {
        // A title that is only the first prompt is told as its request.
        return Some(crate::extract::title::asked_plainly(input).unwrap_or_else(|| title.to_string()));
    }
    input
        .turns
        .iter()
        .filter(|t| t.role == Origin::User && !t.compaction)
        .filter_map(|t| sentences(&prose(&t.text)).into_iter().next())
        .find(|s| s.split_whitespace().count() >= 3)
        .or_else(|| (!title.is_empty()).then(|| title.to_string()))
}
