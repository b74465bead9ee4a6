//! The fold's rules, on event sequences.

use jiff::Timestamp;

use super::*;

fn t(day: u32) -> Timestamp {
    format!("2026-11-{day:02}T10:00:00Z").parse().unwrap()
}

fn observe(text: &str, session: &str, day: u32) -> Event {
    Event::Observe(Observation {
        convention: false,
        team: None,
        fact: fact_id(text),
        text: text.into(),
        source_session: session.into(),
        learned_at: t(day),
        confidence: 0.5,
        confirmed: false,
        origin: Origin::Assistant,
        instruction: lcmem_guard::judge(text).instruction,
        workspace_echo: false,
    })
}

fn fold(events: Vec<Event>) -> Fold {
    Fold::from_events(events.into_iter().enumerate().map(|(i, e)| (i + 1, e)))
}

#[test]
fn same_fact_in_other_words_of_case_and_punctuation_is_one_id() {
    assert_eq!(fact_id("The cache uses Redis."), fact_id("the  cache uses redis"));
    assert_ne!(fact_id("The cache uses Redis."), fact_id("The cache uses Postgres."));
    assert_eq!(normalize("  Tests: run with `cargo nextest`!  "), "tests run with cargo nextest");
}

#[test]
fn one_session_infers_two_observe_a_confirm_confirms() {
    let text = "The API server runs on Fly.io.";
    let f = fold(vec![observe(text, "s1", 1)]);
    assert_eq!(f.facts[0].state, State::Inferred);
    let f = fold(vec![observe(text, "s1", 1), observe("the api server runs on fly.io", "s1", 2)]);
    assert_eq!((f.facts.len(), f.facts[0].state), (1, State::Inferred), "the same session twice is one source");
    let f = fold(vec![observe(text, "s1", 1), observe("the api server runs on fly.io", "s2", 2)]);
    assert_eq!((f.facts.len(), f.facts[0].state, f.facts[0].sources.len()), (1, State::Observed, 2));
    let mut events = vec![observe(text, "s1", 1)];
    events.push(Event::Confirm { fact: fact_id(text), at: t(3) });
    assert_eq!(fold(events).facts[0].state, State::Confirmed);
}

#[test]
fn workspace_echoes_count_as_one_source_and_alone_are_never_load_bearing() {
    let text = "The deploy script lives in ops/deploy.sh.";
    let echo = |s: &str, d| {
        let Event::Observe(mut o) = observe(text, s, d) else { unreachable!() };
        o.workspace_echo = true;
        Event::Observe(o)
    };
    let f = fold(vec![echo("s1", 1), echo("s2", 2), echo("s3", 3)]);
    assert_eq!(f.facts[0].independent_sources(), 1);
    assert_eq!(f.facts[0].state, State::WorkspaceEcho, "three checkouts of one file are no witness");
    assert!(!f.facts[0].is_active(), "an echo never enters the digest");
    let f = fold(vec![echo("s1", 1), Event::Confirm { fact: fact_id(text), at: t(2) }]);
    assert_eq!(f.facts[0].state, State::Confirmed, "a person can still vouch for it");
    let f = fold(vec![echo("s1", 1), observe(text, "s2", 2)]);
    assert_eq!(f.facts[0].state, State::Observed, "a prose source plus the workspace is two");
}

#[test]
fn orders_stay_unconfirmed_until_a_user_confirms() {
    let text = "Always run the deploy script with --force.";
    let f = fold(vec![observe(text, "s1", 1), observe(text, "s2", 2), observe(text, "s3", 3)]);
    assert_eq!(f.facts[0].state, State::UnconfirmedInstruction);
    assert!(!f.facts[0].is_active());
    let f = fold(vec![observe(text, "s1", 1), Event::Confirm { fact: fact_id(text), at: t(2) }]);
    assert_eq!(f.facts[0].state, State::Confirmed);
}

#[test]
fn not_true_stays_not_true_when_seen_again() {
    let text = "The staging database is shared with production.";
    let f = fold(vec![
        observe(text, "s1", 1),
        Event::NotTrue { fact: fact_id(text), at: t(2) },
        observe(text, "s2", 3),
        observe(text, "s3", 4),
    ]);
    assert!(f.facts[0].not_true && !f.facts[0].is_active());
    assert_eq!(f.facts[0].sources.len(), 3, "still recorded");
}

#[test]
fn supersede_names_the_replacement_and_restore_undoes_it() {
    let old = "The product cache uses Redis.";
    let new = "The product cache uses Postgres.";
    let mut events = vec![observe(old, "s1", 1), observe(new, "s2", 5)];
    let f = fold(events.clone());
    let sup = reconcile(&f, &[fact_id(new)], &SubjectKeyJudge, t(5));
    assert_eq!(sup.len(), 1);
    events.extend(sup);
    let f = fold(events.clone());
    let old_fact = f.get(&fact_id(old)).unwrap();
    assert_eq!(old_fact.state, State::Superseded);
    assert_eq!(old_fact.superseded_by.as_deref(), Some(fact_id(new).as_str()));
    assert!(old_fact.history.last().unwrap().note.contains("The product cache uses Postgres."));
    assert_eq!(f.get(&fact_id(new)).unwrap().state, State::Inferred);
    events.push(Event::Restore { fact: fact_id(old), at: t(6) });
    assert_eq!(fold(events).get(&fact_id(old)).unwrap().state, State::Inferred);
}

#[test]
fn an_older_fact_seen_again_later_replaces_its_replacement() {
    let old = "The product cache uses Redis.";
    let new = "The product cache uses Postgres.";
    let mut events = vec![observe(old, "s1", 1), observe(new, "s2", 5)];
    events.extend(reconcile(&fold(events.clone()), &[fact_id(new)], &SubjectKeyJudge, t(5)));
    events.push(observe(old, "s3", 9));
    events.extend(reconcile(&fold(events.clone()), &[fact_id(old)], &SubjectKeyJudge, t(9)));
    let f = fold(events);
    assert_eq!(f.get(&fact_id(old)).unwrap().state, State::Observed);
    assert_eq!(f.get(&fact_id(new)).unwrap().state, State::Superseded);
}

#[test]
fn an_unconfirmed_fact_never_replaces_a_confirmed_one_it_is_listed_instead() {
    let old = "The tests run with Jest.";
    let new = "The tests run with Vitest.";
    let mut events =
        vec![observe(old, "s1", 1), Event::Confirm { fact: fact_id(old), at: t(2) }, observe(new, "s2", 5)];
    let found = reconcile(&fold(events.clone()), &[fact_id(new)], &SubjectKeyJudge, t(5));
    assert!(matches!(found.as_slice(), [Event::Conflict { .. }]), "{found:?}");
    events.extend(found);
    let f = fold(events.clone());
    assert_eq!(f.conflicts.len(), 1);
    assert_eq!(reconcile(&f, &[fact_id(new)], &SubjectKeyJudge, t(6)), vec![], "listed once");
    events.push(Event::NotTrue { fact: fact_id(new), at: t(7) });
    assert!(fold(events).conflicts.is_empty(), "a user action on either side settles it");
}

#[test]
fn unrelated_facts_about_the_same_subject_do_not_conflict() {
    let a = "The API server runs on Fly.io.";
    let b = "The API server talks to the billing service.";
    let f = fold(vec![observe(a, "s1", 1), observe(b, "s2", 2)]);
    assert!(reconcile(&f, &[fact_id(b)], &SubjectKeyJudge, t(2)).is_empty());
}

#[test]
fn an_edit_keeps_the_id_and_the_new_wording_maps_to_it() {
    let text = "The docs site is built with mdBook.";
    let edited = "The docs site is built with Zola.";
    let f = fold(vec![
        observe(text, "s1", 1),
        Event::Edit { fact: fact_id(text), text: edited.into(), at: t(2) },
        observe(edited, "s2", 3),
    ]);
    assert_eq!(f.facts.len(), 1);
    let fact = &f.facts[0];
    assert_eq!((fact.text.as_str(), fact.state), (edited, State::Confirmed));
    assert_eq!(fact.sources.len(), 2);
    assert!(fact.history[0].note.contains("was: The docs site is built with mdBook."));
}

#[test]
fn one_id_given_two_texts_is_reported_with_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("facts.jsonl");
    let good = observe("The cache uses Postgres.", "s1", 1);
    let Event::Observe(mut forged) = observe("The cache uses Postgres.", "s2", 2) else { unreachable!() };
    forged.text = "The cache uses Redis.".into();
    let same = observe("the cache uses postgres", "s3", 3);
    let lines: Vec<String> =
        [good, Event::Observe(forged), same].iter().map(|e| serde_json::to_string(e).unwrap()).collect();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let fold = Fold::read(&path).unwrap();
    assert_eq!(fold.diagnostics.len(), 1, "{:?}", fold.diagnostics);
    let d = &fold.diagnostics[0];
    assert_eq!(d.line, 2);
    assert!(d.message.contains(&fact_id("The cache uses Postgres.")) && d.message.contains("line 1"), "{d}");
    assert_eq!(fold.facts[0].text, "The cache uses Postgres.");
}
