//! Snapshots of what an agent reads at the start of a session, and of what
//! `lcmem doctor` tells a person: the example project imported, sealed and
//! consolidated (tests/it/golden.rs), at a fixed clock, paths normalised.
//!
//! Each agent's SessionStart output is snapshotted as the agent receives it:
//! the JSON wrapper its documentation asks for (with the context taken out
//! and shown after it as text, so that a change reads line by line).

use serde_json::{Value, json};

use crate::common::Sandbox;
use crate::golden::{normalise, sealed_example, stdout};

/// The SessionStart hook of `agent` in `sandbox`, as the agent would run it.
fn session_start(sandbox: &Sandbox, agent: &str) -> String {
    let input = json!({"session_id": "new", "hook_event_name": "SessionStart", "cwd": sandbox.project(),
                       "source": "startup", "transcript_path": "/nonexistent.jsonl"});
    let out = sandbox.assert_cmd().args(["hook", agent]).write_stdin(input.to_string()).assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).expect("stdout is UTF-8");
    let mut value: Value = serde_json::from_str(&text).expect("the hook prints one JSON object");
    let context = value["hookSpecificOutput"]["additionalContext"].take();
    value["hookSpecificOutput"]["additionalContext"] = json!("[below]");
    let wrapper = serde_json::to_string_pretty(&value).expect("JSON");
    normalise(sandbox, &format!("{wrapper}\n---\n{}", context.as_str().expect("the context is text")))
}

#[test]
fn session_start_claude_code() {
    insta::assert_snapshot!(session_start(&sealed_example(), "claude-code"));
}

#[test]
fn session_start_gemini_cli() {
    insta::assert_snapshot!(session_start(&sealed_example(), "gemini-cli"));
}

#[test]
fn session_start_codex() {
    insta::assert_snapshot!(session_start(&sealed_example(), "codex"));
}

/// `lcmem doctor` in a home where no agent is wired and no model installed:
/// what it says works, what does not, and what to run.
fn doctor(args: &[&str]) -> String {
    let sandbox = sealed_example();
    let out = sandbox
        .assert_cmd()
        .args(args)
        .env("HOME", sandbox.user())
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .env_remove("GEMINI_CLI_HOME")
        .output()
        .expect("lcmem runs");
    normalise(&sandbox, &String::from_utf8(out.stdout).expect("stdout is UTF-8"))
}

#[test]
fn doctor_words() {
    insta::assert_snapshot!(doctor(&["doctor"]));
}

#[test]
fn doctor_json() {
    insta::assert_snapshot!(doctor(&["doctor", "--json"]));
}

#[test]
fn facts_json() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["facts", "--all", "--json"]));
}

/// One session of the example as Markdown, the form a person reads or
/// shares.
#[test]
fn export_session() {
    let sandbox = sealed_example();
    let first = serde_json::from_str::<Value>(&stdout(&sandbox, &["sessions", "--json"])).expect("sessions as JSON");
    let id = first[0]["id"].as_str().expect("a session id").to_string();
    insta::assert_snapshot!(stdout(&sandbox, &["export", "session", &id]));
}
