//! The welcome-back strip: one glanceable line about the project's recent arc.

use jiff::Timestamp;

use crate::facts::{Fold, pending_note};
use crate::journal::Outcome;
use crate::journal::{Journal, SealKind};
use crate::store::Store;

pub use crate::own_output::NO_MEMORY_YET;

/// The strip for a store: the recent arc from the last consolidation when
/// there was one, else from the journal; then how many conventions wait for
/// a person's confirmation, read afresh from the facts log (a confirm since
/// the consolidation counts at once). `None` when memory is off.
pub fn welcome(store: &Store, now: Timestamp) -> crate::Result<Option<String>> {
    if !store.settings()?.memory_enabled {
        return Ok(None);
    }
    let arc = match super::state::read_state(&super::state::state_path(store))? {
        Some(state) if !state.welcome.is_empty() => state.welcome,
        _ => strip(&Journal::read(&store.journal_path())?, now),
    };
    Ok(Some(with_pending(arc, &Fold::read(&store.facts_path())?)))
}

/// The arc, then what waits for the user, if anything does.
fn with_pending(arc: String, fold: &Fold) -> String {
    match pending_note(fold) {
        Some(note) => format!("{arc} {note}."),
        None => arc,
    }
}

/// "This project, lately: shipped X · fixed Y · tidied the CHANGELOG. 3 pinned threads."
pub fn strip(journal: &Journal, now: Timestamp) -> String {
    if journal.entries.is_empty() {
        return NO_MEMORY_YET.to_string();
    }
    let mut recent: Vec<_> = journal
        .entries
        .iter()
        .filter(|c| c.entry.kind == SealKind::Done && !c.entry.pinned)
        .filter(|c| !matches!(c.entry.outcome, Outcome::Question | Outcome::Abandoned))
        .filter(|c| c.last_activity() <= now)
        .collect();
    recent.sort_by_key(|c| std::cmp::Reverse(c.last_activity()));
    // Three different pieces of work: a phrase said already is not said again.
    let mut phrases: Vec<String> = Vec::new();
    for c in &recent {
        let said = phrase(&c.entry);
        if phrases.len() < 3 && !said.is_empty() && !phrases.contains(&said) {
            phrases.push(said);
        }
    }
    let pinned = journal.entries.iter().filter(|c| c.entry.pinned).count();
    let mut line = if phrases.is_empty() {
        "This project, lately: nothing finished recently.".to_string()
    } else {
        format!("This project, lately: {}.", phrases.join(" · "))
    };
    match pinned {
        0 => {}
        1 => line.push_str(" 1 pinned thread."),
        n => line.push_str(&format!(" {n} pinned threads.")),
    }
    line
}

/// A few words for one entry: the headline of its summary.
fn phrase(entry: &crate::journal::Entry) -> String {
    let first = [": ", "; ", ". ", " — "]
        .iter()
        .fold(entry.summary.as_str(), |s, sep| s.split(sep).next().unwrap_or(s))
        .trim()
        .trim_end_matches('.');
    // The headline only: drop the details after a comma, a code span or a bracket.
    let first = [", ", " in `", " (", " with "].iter().fold(first, |s, sep| s.split(sep).next().unwrap_or(s));
    lowercase_first(&crate::extract::clip(first, 60))
}

fn lowercase_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        // Keep acronyms and names ("CHANGELOG", "Postgres") as written.
        Some(c) if chars.clone().next().is_some_and(|n| n.is_lowercase()) => c.to_lowercase().chain(chars).collect(),
        Some(c) => std::iter::once(c).chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{Event, Observation, Origin, fact_id};

    fn withheld(text: &str) -> Event {
        Event::Observe(Observation {
            fact: fact_id(text),
            text: text.into(),
            source_session: "s1".into(),
            learned_at: "2026-11-01T10:00:00Z".parse().unwrap(),
            confidence: 0.7,
            confirmed: false,
            origin: Origin::User,
            instruction: true,
            workspace_echo: false,
            convention: true,
            team: None,
        })
    }

    #[test]
    fn the_strip_says_how_many_conventions_wait_and_where() {
        let fold = Fold::from_events(
            [withheld("Never push to main."), withheld("Always rebase before merging.")].into_iter().enumerate(),
        );
        let arc = strip(&Journal::default(), "2026-11-02T10:00:00Z".parse().unwrap());
        let line = with_pending(arc.clone(), &fold);
        assert_eq!(line, format!("{arc} 2 conventions wait for your confirmation: lcmem facts pending."));
        assert_eq!(with_pending(arc.clone(), &Fold::default()), arc);
    }
}
