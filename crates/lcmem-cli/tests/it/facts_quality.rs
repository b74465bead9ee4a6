//! What a seal remembers as facts, through the real binary: durable
//! statements about the project, conventions marked and the withheld ones
//! counted, a state the session changed kept only as it ended, and a long
//! sentence still superseding what it replaces.

use lcmem_test_support::{SessionFile, session};
use serde_json::Value;

use crate::common::Sandbox;

/// Writes a session whose messages all carry `ts`, imports and seals it.
fn seal(sandbox: &Sandbox, id: &str, ts: &str, turns: &[(&str, &str)]) {
    let file = SessionFile::new(id, ts)
        .title(format!("Session {id}"))
        .lines(turns.iter().map(|(role, text)| session::message(role, text, ts)))
        .write_in(&sandbox.inbox());
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    sandbox.assert_cmd().args(["seal", id]).assert().success();
}

fn all_facts(sandbox: &Sandbox) -> Vec<Value> {
    let out = sandbox.assert_cmd().args(["facts", "--all", "--json"]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn state_of<'a>(facts: &'a [Value], text: &str) -> Option<&'a str> {
    facts.iter().find(|f| f["text"] == text).map(|f| f["state"].as_str().unwrap())
}

#[test]
fn chatter_is_not_remembered_and_the_final_reports_fact_is() {
    let sandbox = Sandbox::new();
    let narration: String =
        (1..=12).map(|i| format!("The `probe{i}` check uses a scratch buffer of its own. ")).collect();
    seal(
        &sandbox,
        "chatter",
        "2026-11-01T09:00:00Z",
        &[
            ("user", "So the importer is slow. OK the build is green now."),
            ("assistant", "Now the design is much cleaner. Performance is crucial. The solution is straightforward."),
            ("assistant", "Plan:\n1. Verify the importer handles empty files.\n2. Update the parser to use `nom`."),
            ("assistant", &narration),
            (
                "assistant",
                "The task is complete. All tests pass. The diff is small and scoped. `cargo build` is running now. \
                 A parser is a program that reads text. The importer uses `csv-async` for parsing rows.",
            ),
        ],
    );
    let facts = all_facts(&sandbox);
    let texts: Vec<&str> = facts.iter().map(|f| f["text"].as_str().unwrap()).collect();
    assert!(texts.contains(&"The importer uses `csv-async` for parsing rows."), "{texts:?}");
    for chatter in ["slow", "green", "cleaner", "crucial", "straightforward", "Verify", "Update", "complete", "pass"] {
        assert!(!texts.iter().any(|t| t.contains(chatter)), "{chatter} in {texts:?}");
    }
    assert!(texts.len() <= 6, "a handful per session, not every sentence: {texts:?}");
}

#[test]
fn conventions_are_marked_and_the_withheld_ones_are_counted_where_people_look() {
    let sandbox = Sandbox::new();
    seal(
        &sandbox,
        "conventions",
        "2026-11-01T09:00:00Z",
        &[
            (
                "user",
                "We use conventional commits. Commits follow Conventional Commits. Deploys go out from tags only. \
                 Never force-push to main, open a pull request. we are looking at it.",
            ),
            ("assistant", "Noted, thanks."),
        ],
    );
    let facts = all_facts(&sandbox);
    for text in
        ["We use conventional commits.", "Commits follow Conventional Commits.", "Deploys go out from tags only."]
    {
        let fact = facts.iter().find(|f| f["text"] == text).unwrap_or_else(|| panic!("no fact {text}: {facts:?}"));
        assert_eq!(fact["convention"], true, "{fact}");
        assert_eq!(fact["state"], "observed", "the person's own words: {fact}");
    }
    assert!(!facts.iter().any(|f| f["text"].as_str().unwrap().contains("looking")), "{facts:?}");
    let order = "Never force-push to main, open a pull request.";
    assert_eq!(state_of(&facts, order), Some("unconfirmed-instruction"), "the guard still withholds it");

    let note = "1 convention waits for your confirmation: lcmem facts pending";
    let listed = sandbox.assert_cmd().arg("facts").output().unwrap();
    let listed = String::from_utf8(listed.stdout).unwrap();
    assert!(listed.contains(note) && listed.contains("[convention]"), "{listed}");
    let pending = sandbox.assert_cmd().args(["facts", "pending", "--json"]).output().unwrap();
    let pending: Vec<Value> = serde_json::from_slice(&pending.stdout).unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!((pending[0]["text"].as_str(), pending[0]["convention"].as_bool()), (Some(order), Some(true)));

    sandbox.assert_cmd().arg("consolidate").assert().success();
    let welcome = String::from_utf8(sandbox.assert_cmd().arg("welcome").output().unwrap().stdout).unwrap();
    assert!(welcome.contains(note), "{welcome}");
    let id = pending[0]["id"].as_str().unwrap();
    sandbox.assert_cmd().args(["facts", "confirm", id]).assert().success();
    let welcome = String::from_utf8(sandbox.assert_cmd().arg("welcome").output().unwrap().stdout).unwrap();
    assert!(!welcome.contains("confirmation"), "confirmed, nothing waits: {welcome}");
}

#[test]
fn a_long_sentence_supersedes_and_a_session_keeps_only_where_it_ended() {
    let sandbox = Sandbox::new();
    seal(&sandbox, "redis", "2026-11-01T09:00:00Z", &[("assistant", "The session cache lives in Redis.")]);
    seal(
        &sandbox,
        "postgres",
        "2026-11-02T09:00:00Z",
        &[
            ("assistant", "The job queue runs on `beanstalkd` in the old setup."),
            ("assistant", "The session cache now lives in Postgres and Redis is gone. The job queue runs on `SQS`."),
        ],
    );
    let facts = all_facts(&sandbox);
    assert_eq!(state_of(&facts, "The session cache lives in Redis."), Some("superseded"), "{facts:?}");
    assert_eq!(state_of(&facts, "The session cache now lives in Postgres."), Some("inferred"), "{facts:?}");
    assert_eq!(state_of(&facts, "The job queue runs on `SQS`."), Some("inferred"), "{facts:?}");
    assert!(
        !facts.iter().any(|f| f["text"].as_str().unwrap().contains("beanstalkd")),
        "the state the session changed is no candidate: {facts:?}"
    );
}
