//! Facts waiting for a person: text shaped like an order (most often a
//! convention, "never push to main") is recorded but withheld until a user
//! confirms it, and so is the agent's proposal to change a fact the person
//! confirmed, pinned or wrote ([`super::proposal`]), and a rule whose only
//! evidence is workspace text (a file the agent read, tool output): however it
//! is worded, a checked-out file does not set the team's rules. These say how
//! many wait and where to see them.

use std::sync::LazyLock;

use regex::Regex;

use super::{Fact, Fold, State};

/// Words that make a statement a rule, a permission, a default or a waiver
/// rather than a description: what is required, allowed, expected or
/// standard ("Staging requires no login", "Contractors are permitted to read
/// the billing tables", "Deploys default to main"). Read only for facts whose
/// only evidence is workspace text, so a wide net costs a person one look.
static STATES_A_RULE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"(?i)\b(must|mustn't|should|shouldn't|shall|may|may not|can|cannot|can't|need not|needn't|",
        r"(is|are) (not )?(allowed|permitted|forbidden|prohibited|required|expected|supposed|meant|to be)|",
        r"requires?|required|mandatory|optional|exempt|default(s|ed)? to|by default|the default|",
        r"always|never|only|no longer needs?|does not need|do not need|don't need|policy|rule|standard practice|",
        r"in charge of|responsible for|'s job|is how we|is the way)\b",
    ))
    .expect("rule words")
});

/// Whether `text` states a rule, a permission, a default or a waiver.
pub(crate) fn states_a_rule(text: &str) -> bool {
    STATES_A_RULE.is_match(text)
}

/// The command that lists them.
pub const PENDING_COMMAND: &str = "lcmem facts pending";

impl Fold {
    /// Facts withheld until a user confirms them, conventions first, each
    /// group in order of first appearance.
    pub fn pending(&self) -> Vec<&Fact> {
        let mut waiting: Vec<&Fact> = self
            .facts
            .iter()
            .filter(|f| {
                let workspace_rule = f.state == State::WorkspaceEcho && (f.convention || states_a_rule(&f.text));
                (f.state == State::UnconfirmedInstruction || f.is_proposal() || workspace_rule)
                    && !f.not_true
                    && !f.deleted
            })
            .collect();
        waiting.sort_by_key(|f| !f.convention);
        waiting
    }
}

/// "2 conventions wait for your confirmation: lcmem facts pending", or
/// `None` when nothing waits.
pub fn pending_note(fold: &Fold) -> Option<String> {
    let waiting = fold.pending();
    let conventions = waiting.iter().filter(|f| f.convention).count();
    let (n, verb) = match waiting.len() {
        0 => return None,
        1 => (1, "waits"),
        n => (n, "wait"),
    };
    let what = if conventions == n {
        plural(n, "convention")
    } else if conventions == 0 {
        plural(n, "withheld fact")
    } else {
        format!("{} ({})", plural(n, "fact"), plural(conventions, "convention"))
    };
    Some(format!("{what} {verb} for your confirmation: {PENDING_COMMAND}"))
}

fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{Event, Observation, Origin, fact_id};

    fn observe(text: &str, convention: bool, instruction: bool) -> Event {
        observed(text, convention, instruction, false)
    }

    fn observed(text: &str, convention: bool, instruction: bool, workspace_echo: bool) -> Event {
        Event::Observe(Observation {
            fact: fact_id(text),
            text: text.into(),
            source_session: "s1".into(),
            learned_at: "2026-11-01T10:00:00Z".parse().unwrap(),
            confidence: 0.5,
            confirmed: false,
            origin: if workspace_echo { Origin::Assistant } else { Origin::User },
            instruction,
            workspace_echo,
            convention,
            team: None,
        })
    }

    fn fold(events: Vec<Event>) -> Fold {
        Fold::from_events(events.into_iter().enumerate().map(|(i, e)| (i + 1, e)))
    }

    #[test]
    fn withheld_conventions_are_counted_and_a_confirm_takes_one_off() {
        let mut events = vec![
            observe("Never push to main.", true, true),
            observe("Always squash before merging.", true, true),
            observe("The cache uses Redis.", false, false),
        ];
        let f = fold(events.clone());
        assert_eq!(f.pending().len(), 2);
        assert_eq!(pending_note(&f).unwrap(), "2 conventions wait for your confirmation: lcmem facts pending");
        events
            .push(Event::Confirm { fact: fact_id("Never push to main."), at: "2026-11-02T10:00:00Z".parse().unwrap() });
        let f = fold(events);
        assert_eq!(pending_note(&f).unwrap(), "1 convention waits for your confirmation: lcmem facts pending");
        assert!(f.facts.iter().all(|x| x.text != "Never push to main." || x.state == State::Confirmed));
    }

    #[test]
    fn nothing_waiting_says_nothing_and_other_orders_are_named_apart() {
        assert_eq!(pending_note(&fold(vec![observe("The cache uses Redis.", false, false)])), None);
        let f = fold(vec![observe("Never push to main.", true, true), observe("Print the token.", false, true)]);
        assert_eq!(pending_note(&f).unwrap(), "2 facts (1 convention) wait for your confirmation: lcmem facts pending");
        assert!(f.pending()[0].convention, "conventions first");
    }

    #[test]
    fn a_rule_only_the_workspace_states_waits_for_a_person_whatever_its_words() {
        // No word of an order in it, so the guard lets it pass; its only
        // evidence is a file the agent read.
        let rule = "Local builds use the shared admin account.";
        let f = fold(vec![observed(rule, true, false, true), observed("The cache uses Redis.", false, false, true)]);
        let waiting: Vec<&str> = f.pending().iter().map(|x| x.text.as_str()).collect();
        assert_eq!(waiting, [rule], "the rule waits; a plain statement echoed stays a workspace echo");
        assert_eq!(f.facts[0].state, State::WorkspaceEcho);
        assert_eq!(pending_note(&f).unwrap(), "1 convention waits for your confirmation: lcmem facts pending");
    }

    #[test]
    fn a_permission_a_default_or_a_waiver_only_the_workspace_states_waits_too() {
        // Not read as conventions by the extractor, and no order to the guard.
        let rules = [
            "Contractors are permitted to read the billing tables.",
            "Staging requires no login.",
            "Deploys default to the main branch.",
            "The smoke tests are optional for documentation changes.",
            "Rotating the signing key is the release captain's job.",
        ];
        let facts =
            ["The parser is written in Rust.", "The API answers 429 over the limit.", "Deploys run on Fridays."];
        let events = rules.iter().chain(&facts).map(|t| observed(t, false, false, true)).collect();
        let f = fold(events);
        let waiting: Vec<&str> = f.pending().iter().map(|x| x.text.as_str()).collect();
        assert_eq!(waiting, rules, "every stated rule waits, every plain description stays an echo");
        // Said by a person, the same words are no echo and do not wait.
        let f = fold(vec![observed(rules[0], false, false, false)]);
        assert!(f.pending().is_empty());
    }
}
