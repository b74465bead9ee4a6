//! Writing the journal line: what a teammate would have written in one
//! line, from the work itself: what changed and where, why, and what is
//! left. Never the last reply pasted in.
//!
//! The headline comes from the work, in this order of preference: each
//! exchange's own statement of what it changed, the tracked tasks it
//! completed (with their ids), the commit subjects, the files it edited. A
//! long session is told by all of its work, not by its last topic. Every
//! part is a [`Clause`], so the line holds no chat, no shell and no cut in
//! mid-phrase; what does not fit stays findable through recall.

use super::clause::{Clause, capitalised, reported};
use super::evidence::Evidence;
use super::exchange::Exchange;
use super::report::Report;
use super::text::clip;
use super::{ExtractInput, Outcome};

mod tail;
mod unworked;

use unworked::{abandoned_line, question_line, topic};

/// The headline's length, at most, in characters.
const HEADLINE: usize = 220;
/// The whole line's length, at most.
const LINE: usize = 330;
/// How many exchanges a long session's headline names, at most.
const UNITS: usize = 3;

/// The parts a line is written from.
pub struct Parts<'a> {
    pub input: &'a ExtractInput,
    pub evidence: &'a Evidence,
    pub outcome: Outcome,
    pub exchanges: &'a [Exchange],
    /// The best sentence reporting finished work anywhere in the session,
    /// for when no exchange's report has a headline.
    pub achieved: Option<&'a str>,
    /// Why the work was given up, for an abandoned session.
    pub reason: Option<&'a str>,
    /// Whether a sentence reads as an order (left out of the line).
    pub is_order: &'a dyn Fn(&str) -> bool,
}

pub fn write(parts: &Parts<'_>) -> String {
    match parts.outcome {
        Outcome::Question => question_line(parts),
        Outcome::Abandoned => abandoned_line(parts),
        _ => work_line(parts),
    }
}

/// A line of sentences, each a clause, added while they fit.
#[derive(Default)]
struct Line(Vec<String>);

impl Line {
    fn push(&mut self, sentence: impl Into<String>) -> bool {
        let sentence = sentence.into();
        let sentence = sentence.trim();
        if sentence.len() < 2 || self.len() + sentence.len() + 1 > LINE {
            return false;
        }
        // The line as a whole must stay clean, not each sentence alone ("No
        // changes made." ends a line well; it does not open one).
        let sentence = ensure_full_stop(sentence);
        let whole = if self.0.is_empty() { sentence.clone() } else { format!("{} {sentence}", self.text()) };
        if !super::clause::is_clean(&whole) {
            return false;
        }
        self.0.push(sentence);
        true
    }

    fn extend(&mut self, sentence: Option<String>) {
        if let Some(s) = sentence {
            self.push(s);
        }
    }

    fn len(&self) -> usize {
        self.0.iter().map(|s| s.chars().count() + 1).sum()
    }

    fn room(&self) -> usize {
        LINE.saturating_sub(self.len() + 1)
    }

    fn text(&self) -> String {
        self.0.join(" ")
    }
}

/// The work of a session that changed something.
fn work_line(parts: &Parts<'_>) -> String {
    let Parts { evidence, .. } = *parts;
    let mut line = Line::default();
    let headline = headline(parts);
    match &headline {
        Some(h) => {
            line.push(h.clone());
        }
        None => return plain_summary_of(parts.input, &evidence.changed),
    }
    let told = crate::facts::normalize(&line.text());
    let last_report = parts.exchanges.iter().rev().find(|x| x.report.headline.is_some()).map(|x| &x.report);
    if let Some(cause) = last_report.and_then(|r| cause_clause(r, parts.is_order)) {
        let label = if last_report.is_some_and(|r| r.cause_is_root) { "Root cause: " } else { "" };
        let cause = cause.within(line.room().saturating_sub(label.len()).min(160));
        if let Some(cause) = cause.filter(|c| !told.contains(&crate::facts::normalize(c.as_str()))) {
            line.push(format!(
                "{label}{}",
                if label.is_empty() { cause.as_str().to_string() } else { uncapitalised(cause.bare()) }
            ));
        }
    }
    // What shipped and what is left matter more than the report's details:
    // their room is kept, and the items fill what remains between them.
    let shipping = shipping_sentence(evidence, &line.text(), parts.is_order);
    let tests = tail::passing_tests(parts).map(|count| (format!("{count} test"), format!("Tests: {count} passing.")));
    let unanswered = tail::unanswered(parts);
    // A request after the report is where the session ended: what the
    // report left for later came before it.
    let left = joined(&left_items(parts), 120, 2)
        .filter(|_| unanswered.is_none())
        .map(|list| format!("Left: {}.", uncapitalised(&list)));
    let tests_told = tests.as_ref().map(|(_, told)| told.clone());
    let reserved = [&shipping, &tests_told, &unanswered, &left].iter().map(|s| s.as_ref().map_or(0, |s| s.chars().count() + 2)).sum::<usize>();
    if let Some(report) = last_report.filter(|_| line.len() < 200) {
        let told = crate::facts::normalize(&line.text());
        let items: Vec<Clause> = report
            .items
            .iter()
            .filter(|i| !(parts.is_order)(i))
            .filter_map(|i| Clause::of(i))
            .filter(|c| !told.contains(crate::facts::normalize(c.as_str()).chars().take(40).collect::<String>().trim()))
            .collect();
        let room = 260usize.saturating_sub(line.len()).min(line.room().saturating_sub(reserved));
        if let Some(list) = joined(&items, room, 3) {
            line.push(capitalised(&list));
        }
    }
    line.extend(shipping);
    line.extend(unanswered);
    // The headline or the items may have told the count already.
    let told = line.text().to_lowercase();
    line.extend(tests.filter(|(count, _)| !told.contains(count.as_str())).map(|(_, sentence)| sentence));
    line.extend(left);
    line.text()
}

/// The headline of work: each working exchange's statement, or the tracked
/// tasks completed, or the commits, or the files.
fn headline(parts: &Parts<'_>) -> Option<String> {
    let Parts { evidence, exchanges, is_order, .. } = *parts;
    let tasks = completed_tasks(evidence, is_order);
    // The exchanges that did work, with what each said of it.
    // An exchange weighs by what it changed and by how much was asked: a
    // long request is a feature, "undo the last change" a tweak.
    let working: Vec<(usize, Clause)> = exchanges
        .iter()
        .filter(|x| x.changed() || (evidence.changed.is_empty() && x.answered) || x.reports_shipping())
        .flat_map(|x| {
            let weight = x.edits.min(10) + x.request.split_whitespace().count() / 8;
            let work = x.work(is_order);
            let more = x.more_work(work.as_ref(), is_order);
            work.into_iter().chain(more).map(move |c| (weight, c))
        })
        .collect();
    // Several tracked tasks completed say the session's work best, when the
    // plan is the one the session ended on (set in its last working
    // exchange), not a long session's first plan.
    let last_work = exchanges.iter().rev().find(|x| x.changed()).map_or(0, |x| x.start);
    let plan_current = evidence.plan_at.is_some_and(|at| at >= last_work);
    if tasks.len() >= 2 && (plan_current || !evidence.closed_issues.is_empty()) {
        let mut head = format!("Completed {}", lowered(&joined(&tasks, HEADLINE - 10, 3)?));
        let next: Vec<Clause> = evidence.open_todos.iter().filter_map(|t| reported(t, is_order)).collect();
        if let Some(next) = next.first().and_then(|n| n.within(HEADLINE.saturating_sub(head.len() + 8))) {
            head.push_str(&format!("; next: {}", lowered(next.bare())));
        }
        return Some(head);
    }
    if !working.is_empty() {
        return Some(units_headline(working));
    }
    if let Some(achieved) = parts.achieved.filter(|a| !is_order(a)).and_then(Clause::of) {
        return achieved.within(HEADLINE).map(|c| c.as_str().to_string());
    }
    if let Some(task) = tasks.first() {
        return Some(format!("Completed {}", lowered(task.bare())));
    }
    let said: Vec<String> = evidence.commits.iter().filter_map(|c| commit_said(c, is_order)).collect();
    let first = said.first()?;
    Some(capitalised(&match said.len() {
        1 => first.clone(),
        n => format!("{first} and {} more commit{}", n - 1, if n == 2 { "" } else { "s" }),
    }))
}

/// The headline of a session's working exchanges: the one, or the largest
/// few in the order they happened, each cut at a clause boundary to share
/// the room.
fn units_headline(working: Vec<(usize, Clause)>) -> String {
    let Some((_, last_unit)) = working.last() else { return String::new() };
    let whole = |c: &Clause| c.within(HEADLINE).unwrap_or_else(|| c.clone()).as_str().to_string();
    if working.len() == 1 {
        return whole(last_unit);
    }
    let size = |i: usize| working.get(i).map_or(0, |(n, _)| *n);
    let clause = |i: usize| working.get(i).map_or(last_unit, |(_, c)| c);
    // The last exchange's report is the session's own account; the largest
    // others join it, in order.
    let last = working.len() - 1;
    let mut chosen: Vec<usize> = (0..last).collect();
    chosen.sort_by(|&a, &b| size(b).cmp(&size(a)).then(a.cmp(&b)));
    chosen.truncate(UNITS - 1);
    chosen.push(last);
    chosen.sort();
    // A unit that another one repeats or extends says nothing more.
    let keys: Vec<String> = chosen.iter().map(|&i| crate::facts::normalize(clause(i).as_str())).collect();
    let chosen: Vec<usize> = chosen
        .iter()
        .zip(&keys)
        .enumerate()
        .filter(|(n, (_, key))| {
            !keys.iter().enumerate().any(|(m, other)| {
                m != *n
                    && ((other.starts_with(key.as_str()) && (other.len() > key.len() || m < *n))
                        || (m > *n && other != *key && retells(other, key)))
            })
        })
        .map(|(_, (&i, _))| i)
        .collect();
    // The latest work is told first in priority (it is where the session
    // ended), the earlier ones in the room left, all in the order done.
    let Some((&latest, earlier)) = chosen.split_last() else {
        return whole(last_unit);
    };
    let end = clause(latest).within(HEADLINE / 2).or_else(|| clause(latest).within(HEADLINE));
    let used = end.as_ref().map_or(0, |c| c.len() + 2);
    let before: Vec<Clause> = earlier.iter().map(|&i| clause(i).clone()).collect();
    let head = joined(&before, HEADLINE.saturating_sub(used), UNITS - 1);
    match (head, end) {
        (Some(head), Some(end)) => format!("{}; {}", capitalised(&head), lowered(end.bare())),
        (Some(head), None) => capitalised(&head),
        (None, Some(end)) => end.bare().to_string(),
        (None, None) => last_unit.as_str().to_string(),
    }
}

/// Whether `later` tells again what `earlier` told, in other words: most of
/// the earlier one's words are in the later one ("Updated the NavUser
/// component to show the user's initials" and "Updated the NavUser component
/// to show the logged-in user's initials from their username"). A later line
/// that tells less is no retelling: the earlier one says more.
fn retells(later: &str, earlier: &str) -> bool {
    use super::text::content_words;
    let a: std::collections::HashSet<String> = content_words(later).collect();
    let b: std::collections::HashSet<String> = content_words(earlier).collect();
    b.len() >= 4 && a.intersection(&b).count() * 10 >= b.len() * 7
}

/// Tracked tasks the session completed: the items of its last plan, and
/// the issues it closed in a tracker, ids first.
fn completed_tasks(evidence: &Evidence, is_order: &dyn Fn(&str) -> bool) -> Vec<Clause> {
    let mut tasks: Vec<Clause> = evidence.done_todos.iter().filter_map(|t| reported(t, is_order)).collect();
    let named: Vec<&String> =
        evidence.closed_issues.iter().filter(|id| !tasks.iter().any(|t| t.as_str().contains(id.as_str()))).collect();
    if !named.is_empty() {
        let ids = named.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ");
        if let Some(c) = Clause::of(&format!("closed issues {ids}")) {
            tasks.push(c);
        }
    }
    tasks
}

/// Clauses joined with "; ", as many as fit in `room` characters and at
/// most `most` of them, each shortened to its share; `None` when none fits.
fn joined(items: &[Clause], room: usize, most: usize) -> Option<String> {
    let mut out: Vec<String> = Vec::new();
    let mut used = 0;
    for item in items {
        if out.len() == most {
            break;
        }
        // Each item gets what is left, but never so much that the rest get
        // nothing: at most two thirds of the room while others follow.
        let left = room.saturating_sub(used + 2);
        let cap = if out.len() + 1 < most.min(items.len()) { left * 2 / 3 } else { left };
        let Some(c) = item.within(cap.max(30)).or_else(|| item.within(left)).filter(|c| c.len() + 2 <= left) else {
            continue;
        };
        let text = if out.is_empty() { c.bare().to_string() } else { lowered(c.bare()) };
        used += text.chars().count() + 2;
        out.push(text);
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// The reason or root cause the report gave, as a clause.
fn cause_clause(report: &Report, is_order: &dyn Fn(&str) -> bool) -> Option<Clause> {
    report.cause.as_deref().filter(|c| !is_order(c)).and_then(Clause::of)
}

/// What is left: the report's open items, else the plan's.
fn left_items(parts: &Parts<'_>) -> Vec<Clause> {
    let report_left =
        parts.exchanges.iter().rev().find(|x| x.report.headline.is_some()).map_or(&[][..], |x| &x.report.left[..]);
    let source: Vec<&String> = if report_left.is_empty() {
        // A plan's open items are named in the headline when it lists tasks.
        if parts.evidence.done_todos.len() >= 2 { Vec::new() } else { parts.evidence.open_todos.iter().collect() }
    } else {
        report_left.iter().collect()
    };
    source.into_iter().filter_map(|t| reported(t, parts.is_order)).collect()
}

/// What the commands shipped, when the line does not already say it:
/// commits made, tags, the branches pushed.
fn shipping_sentence(evidence: &Evidence, so_far: &str, is_order: &dyn Fn(&str) -> bool) -> Option<String> {
    let lower = so_far.to_lowercase();
    let mut said = Vec::new();
    if let Some(commit) =
        evidence.commits.last().filter(|c| !lower.contains(&c.to_lowercase())).and_then(|c| commit_said(c, is_order))
    {
        let more = match evidence.commits.len() {
            1 => String::new(),
            n => format!(" and {} more commit{}", n - 1, if n == 2 { "" } else { "s" }),
        };
        said.push(format!("{commit}{more}"));
    }
    let tags: Vec<&str> =
        evidence.tags.iter().map(String::as_str).filter(|t| !lower.contains(&t.to_lowercase())).collect();
    if !tags.is_empty() {
        said.push(format!("tagged {}", tags.join(", ")));
    }
    if !evidence.pushes.is_empty() && !lower.contains("push") {
        let mut branches: Vec<&str> = evidence.pushes.iter().flatten().map(String::as_str).collect();
        branches.dedup();
        match branches.as_slice() {
            [] => said.push("pushed".to_string()),
            [one] => said.push(format!("pushed {one}")),
            many => said.push(format!("pushed {}", many.join(", "))),
        }
    }
    (!said.is_empty()).then(|| capitalised(&said.join(", ")))
}

/// A commit told in the line: its subject quoted, or, when the quotation
/// would read as an order (a subject is imperative by convention: "fix:
/// handle empty names"), the change it names as an activity.
fn commit_said(subject: &str, is_order: &dyn Fn(&str) -> bool) -> Option<String> {
    let clause = Clause::of(subject)?.within(90)?;
    let quoted = format!("committed \"{}\"", clause.bare());
    if !is_order(&capitalised(&quoted)) {
        return Some(quoted);
    }
    let told = reported(subject, is_order)?.within(90)?;
    let said = format!("committed the change ({})", told.bare());
    (!is_order(&capitalised(&said))).then_some(said)
}

/// A clause that follows a label ("Root cause: parts were …"): a plain
/// first word in lower case, a name as it is.
fn uncapitalised(s: &str) -> String {
    let first = s.split_whitespace().next().unwrap_or("");
    if first.chars().skip(1).any(|c| !c.is_lowercase()) {
        return s.to_string();
    }
    let mut chars = s.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
}

fn lowered(s: &str) -> String {
    // A verb joins a list in lower case ("…; added the test"); a name or a
    // label ("NavUser", "Phase 1") keeps its case.
    let first = s.split_whitespace().next().unwrap_or("");
    let plain = first.chars().skip(1).all(|c| c.is_lowercase() || !c.is_alphabetic());
    let lower = first.to_lowercase();
    let verb = lower.ends_with("ing") || lower.ends_with("ed") || super::claims::ACHIEVED.is_match(&lower);
    if !plain || !verb {
        return s.to_string();
    }
    let mut chars = s.chars();
    chars.next().map(|c| c.to_lowercase().chain(chars).collect()).unwrap_or_default()
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
    if s.ends_with(['.', '!', '…', '?']) { s } else { format!("{s}.") }
}

/// The summary of a session when its reported outcomes cannot be used (the
/// boundary found them instruction-shaped): what was asked and the files it
/// changed, or the thin question line when it changed none.
pub fn plain_summary(input: &ExtractInput) -> String {
    plain_summary_of(input, &Evidence::of(input).changed)
}

fn plain_summary_of(input: &ExtractInput, changed: &[String]) -> String {
    let line = titled_plain_summary(input, changed);
    if super::clause::is_clean(&line) {
        return line;
    }
    // A title that would make the line unclean (a shell command, a
    // temporary path, an open quote) is left out of it.
    titled_plain_summary(&ExtractInput { title: String::new(), turns: Vec::new(), ..input.clone() }, changed)
}

fn titled_plain_summary(input: &ExtractInput, changed: &[String]) -> String {
    if changed.is_empty() {
        return match topic(input) {
            Some(t) => format!("Answered \"{}\"; no changes made.", clip(&t, 120)),
            None => "Answered a question; no changes made.".to_string(),
        };
    }
    match topic(input) {
        None => format!("Changed {}.", files_list(changed)),
        Some(title) => format!("Worked on \"{}\": changed {}.", clip(&title, 120), files_list(changed)),
    }
}

fn files_list(changed: &[String]) -> String {
    let shown: Vec<String> = changed
        .iter()
        .take(3)
        .map(|f| if super::clause::is_clean(f) { f.clone() } else { f.rsplit('/').next().unwrap_or(f).to_string() })
        .collect();
    let more = match changed.len().saturating_sub(shown.len()) {
        0 => String::new(),
        n => format!(" and {n} more file(s)"),
    };
    clip(&format!("{}{more}", shown.join(", ")), 200)
}

#[cfg(test)]
mod tests {
    use super::retells;

    #[test]
    fn a_unit_told_again_in_other_words_is_a_retelling() {
        assert!(retells(
            "Updated the NavUser component to display the logged-in user's initials from their username",
            "Updated the NavUser component to display the user's initials instead of the hardcoded CN",
        ));
        assert!(!retells(
            "Tidied CHANGELOG.md for v1.0.4: merged the two duplicate Fixed sections",
            "Tidied CHANGELOG.md for v1.0.4: merged the two duplicate Fixed sections, moved the refund retries and \
             the Postgres cache under Changed",
        ));
        assert!(!retells(
            "Added retries with backoff to the refund worker",
            "Updated the NavUser component to display the user's initials",
        ));
    }
}
