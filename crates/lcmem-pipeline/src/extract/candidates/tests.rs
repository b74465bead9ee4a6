//! Each failure mode of fact candidates on a small session of its own.

use super::*;
use crate::extract::Turn;
use crate::journal::SealKind;

fn session(turns: &[(Origin, &str)]) -> ExtractInput {
    ExtractInput {
        session_id: "s1".into(),
        title: "A session".into(),
        created_at: "2026-11-01T09:00:00Z".parse().unwrap(),
        kind: SealKind::Done,
        turns: turns.iter().map(|(role, text)| Turn { role: *role, text: (*text).into(), compaction: false, answers: None }).collect(),
        tools: Vec::new(),
        model_failed_last: false,
    }
}

fn texts(turns: &[(Origin, &str)]) -> Vec<String> {
    facts(&session(turns)).into_iter().map(|f| f.text).collect()
}

const U: Origin = Origin::User;
const A: Origin = Origin::Assistant;

#[test]
fn chatter_openers_status_lines_plans_and_judgements_are_not_facts_and_the_persons_statement_is() {
    let got = texts(&[
        (U, "So the parser is the slow part. nah the lexer uses a lookup table. OK the build is green."),
        (
            A,
            "Now the design is much cleaner. The fix is straightforward: reuse the pool. Performance is crucial.\n\
             Here's the plan:\n1. Verify the importer handles empty files.\n2. Update the parser to use `nom`.\n\
             Next steps:\n- The exporter uses the new writer\n\
             I checked the `src/lexer.rs` module for you.",
        ),
        (
            A,
            "The task is complete. All tests pass. The diff is small and scoped. `cargo build` is running now. \
             `parse.rs` is 2,400 lines. The lexer is used at 14 call sites. \
             A tokenizer is a function that splits text into tokens. The `orders` service uses Postgres 16.",
        ),
    ]);
    // "nah" only leads into the person's statement about their project.
    assert_eq!(got, ["The lexer uses a lookup table.", "The `orders` service uses Postgres 16."]);
}

#[test]
fn a_state_the_session_changed_later_is_not_kept() {
    let got = texts(&[
        (A, "The job queue lives in `sidekiq` for now, I am reading it. The job queue lives in `sidekiq`."),
        (A, "Moved the jobs over. The job queue lives in `good_job` on Postgres."),
    ]);
    assert_eq!(got, ["The job queue lives in `good_job` on Postgres."]);
}

#[test]
fn ranking_keeps_the_final_reports_fact_over_a_dozen_weak_ones() {
    // Twelve facts good enough to keep on their own, but mid-session narration.
    let fair: String = (1..=12).map(|i| format!("The `step{i}` helper uses a cache of its own. ")).collect();
    let report = "Done. The billing worker runs on `Temporal` with the `payments` namespace.";
    let got = texts(&[(A, &fair), (A, report)]);
    assert!(
        got.contains(&"The billing worker runs on `Temporal` with the `payments` namespace.".to_string()),
        "{got:?}"
    );
    assert!(got.len() <= rank::KEEP, "a handful, not a dozen: {got:?}");
    let weak: String = (1..=12).map(|i| format!("The step{i} helper is a thin wrapper. ")).collect();
    let only_weak = texts(&[(A, &weak), (A, "Thanks, that is all.")]);
    assert!(only_weak.is_empty(), "weak mid-session narration is not kept: {only_weak:?}");
}

#[test]
fn conventions_as_people_phrase_them_are_marked() {
    let facts = facts(&session(&[
        (U, "We use conventional commits. Commits follow Conventional Commits. Deploys go out from tags only."),
        (U, "we are looking at it. We use it."),
        (A, "Noted."),
    ]));
    let got: Vec<(&str, bool)> = facts.iter().map(|f| (f.text.as_str(), f.convention)).collect();
    assert_eq!(
        got,
        [
            ("We use conventional commits.", true),
            ("Commits follow Conventional Commits.", true),
            ("Deploys go out from tags only.", true)
        ]
    );
}

#[test]
fn house_rules_after_a_lead_in_are_each_a_convention() {
    let facts = facts(&session(&[
        (U, "set up CI. and note the house rules: squash merges only, no unwrap outside tests, log with `tracing`."),
        (A, "Our coding conventions:\n- Errors carry context with `anyhow`\n- Public items have doc comments"),
    ]));
    let rules: Vec<&str> = facts.iter().filter(|f| f.convention).map(|f| f.text.as_str()).collect();
    assert_eq!(
        rules,
        [
            "House rule: squash merges only.",
            "House rule: no unwrap outside tests.",
            "House rule: log with `tracing`.",
            "Convention: Errors carry context with `anyhow`.",
            "Convention: Public items have doc comments."
        ]
    );
}

#[test]
fn always_never_and_must_rules_and_decisions_are_kept_with_their_reason() {
    let got = texts(&[
        (U, "Never use `println!` in the library, use `log`."),
        (
            A,
            "Cache keys must always use lowercase hex. The CSS should handle it. \
             We chose SQLite because the tool runs offline.",
        ),
    ]);
    assert_eq!(
        got,
        [
            "Never use `println!` in the library, use `log`.",
            "Cache keys must always use lowercase hex.",
            "We chose SQLite because the tool runs offline."
        ]
    );
}

#[test]
fn a_report_of_work_done_in_the_first_person_is_told_as_how_things_now_are() {
    let got = texts(&[
        (U, "Move the cache from Redis to Postgres."),
        (A, "I moved the cache to Postgres in src/cache.rs and updated its tests."),
    ]);
    assert_eq!(got, ["The cache lives in Postgres."]);
}
