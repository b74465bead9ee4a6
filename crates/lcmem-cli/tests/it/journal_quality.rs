//! What the journal says about real-shaped agent sessions: the outcome from
//! what the tools did, the summary from the agent's report of its work.
//! Each test writes its own transcript, in the shape Claude Code or Codex
//! records, and reads the journal entry `lcmem seal` wrote.

use std::path::Path;

use serde_json::{Value, json};

use crate::common::Sandbox;

/// One Claude Code record.
fn cc(id: &str, kind: &str, n: usize, cwd: &Path, content: Value) -> Value {
    json!({
        "parentUuid": null, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": id,
        "version": "2.0.14", "type": kind, "uuid": format!("{id}-{n}"),
        "timestamp": format!("2026-11-20T09:{:02}:00Z", n),
        "message": {"role": kind, "content": content}
    })
}

fn bash(id: &str, command: &str, description: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "Bash", "input": {"command": command, "description": description}})
}

fn edit(id: &str, cwd: &Path, file: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": "Edit", "input": {"file_path": cwd.join(file)}})
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

/// Imports the records as a Claude Code transcript, seals the session and
/// returns its journal entry.
fn sealed(sandbox: &Sandbox, id: &str, format: &str, records: &[Value]) -> Value {
    let path = sandbox.inbox().join(format!("{id}.jsonl"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, records.iter().map(|r| format!("{r}\n")).collect::<String>()).unwrap();
    for args in [vec!["import", "--format", format, path.to_str().unwrap()], vec!["seal", id]] {
        let out = sandbox.cmd().args(&args).output().unwrap();
        assert!(out.status.success(), "lcmem {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = sandbox.cmd().args(["journal", "--json"]).output().unwrap();
    let entries: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap();
    entries.into_iter().find(|e| e["session_id"] == id).expect("the session is in the journal")
}

fn summary(entry: &Value) -> &str {
    entry["summary"].as_str().unwrap()
}

#[test]
fn a_session_that_committed_tagged_and_pushed_is_shipped_not_a_question() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-release";
    let records = [
        cc(id, "user", 1, &cwd, json!("cut the release")),
        cc(id, "assistant", 2, &cwd, json!([edit("e1", &cwd, "CHANGELOG.md")])),
        cc(id, "assistant", 3, &cwd, json!([bash("b1", "git commit -am \"chore(release): v2.3.0\"", "Commit")])),
        cc(
            id,
            "assistant",
            4,
            &cwd,
            json!([bash("b2", "git tag v2.3.0 && git push origin main --tags", "Tag and push")]),
        ),
        // The reply says nothing an old rule would call an outcome.
        cc(id, "assistant", 5, &cwd, json!([text("All set.")])),
    ];
    let entry = sealed(&sandbox, id, "claude-code", &records);
    assert_eq!(entry["outcome"], "shipped", "{entry}");
    assert!(!summary(&entry).contains("no changes made"), "{entry}");
    assert!(summary(&entry).contains("v2.3.0"), "the commit and the tag say what shipped: {entry}");
}

#[test]
fn a_codex_session_whose_work_was_an_apply_patch_is_not_a_question() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "019e0000-0000-7000-8000-00000000c0de";
    let line =
        |kind: &str, payload: Value| json!({"timestamp": "2026-11-20T10:00:00Z", "type": kind, "payload": payload});
    let patch = "*** Begin Patch\n*** Add File: notes/plan.md\n+draft\n*** End Patch";
    let records = [
        line("session_meta", json!({"id": id, "timestamp": "2026-11-20T10:00:00Z", "cwd": cwd})),
        line(
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "write the plan down"}]}),
        ),
        line(
            "response_item",
            json!({"type": "custom_tool_call", "name": "apply_patch", "call_id": "c1", "input": patch}),
        ),
        line(
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The plan has three steps."}]}),
        ),
    ];
    let entry = sealed(&sandbox, id, "codex", &records);
    assert_ne!(entry["outcome"], "question", "{entry}");
    assert!(!summary(&entry).contains("no changes made"), "{entry}");
    assert!(entry["files"].to_string().contains("notes/plan.md"), "{entry}");
}

#[test]
fn a_refused_edit_changed_nothing() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-refused";
    let refused = "The user doesn't want to proceed with this tool use. The tool use was rejected.";
    let records = [
        cc(id, "user", 1, &cwd, json!("what does the config loader do?")),
        cc(
            id,
            "assistant",
            2,
            &cwd,
            json!([
                json!({"type": "tool_use", "id": "w1", "name": "Write", "input": {"file_path": cwd.join("notes.md")}})
            ]),
        ),
        cc(
            id,
            "user",
            3,
            &cwd,
            json!([{"type": "tool_result", "tool_use_id": "w1", "is_error": true, "content": refused}]),
        ),
        cc(id, "assistant", 4, &cwd, json!([text("The loader reads `config.toml` and then the environment.")])),
    ];
    let entry = sealed(&sandbox, id, "claude-code", &records);
    assert_eq!(entry["outcome"], "question", "a refused Write is no change: {entry}");
}

#[test]
fn a_structured_report_gives_the_headline_the_cause_and_what_is_left() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-report";
    let report = "Perfect! Here's what changed:\n\n## Fixed: webhook retries lose the signature header\n\n\
                  **Root cause:** the retry path rebuilt the request from the body alone, so `X-Signature` was dropped.\n\n\
                  **Changes**\n- `src/webhooks/retry.rs`: the retry clones the whole request.\n  - a nested detail that is not the headline\n\
                  - `tests/retry.rs`: a regression test.\n\nStill to do:\n- backfill the failed deliveries\n";
    let records = [
        cc(id, "user", 1, &cwd, json!("webhook retries fail signature checks, fix it")),
        cc(
            id,
            "assistant",
            2,
            &cwd,
            json!([edit("e1", &cwd, "src/webhooks/retry.rs"), edit("e2", &cwd, "tests/retry.rs")]),
        ),
        cc(id, "assistant", 3, &cwd, json!([bash("b1", "cargo test retry", "Run the retry tests")])),
        cc(
            id,
            "assistant",
            4,
            &cwd,
            json!([bash(
                "b2",
                "git commit -am 'fix(webhooks): retries keep the signature' && git push",
                "Commit and push"
            )]),
        ),
        cc(id, "assistant", 5, &cwd, json!([text(report)])),
    ];
    let entry = sealed(&sandbox, id, "claude-code", &records);
    let s = summary(&entry);
    assert!(s.starts_with("Fixed: webhook retries lose the signature header."), "the report's headline leads: {s}");
    assert!(s.contains("Root cause: the retry path rebuilt the request"), "{s}");
    assert!(s.contains("Left: backfill the failed deliveries."), "{s}");
    assert!(!s.contains("nested detail") && !s.contains("Perfect") && !s.contains("Here's"), "{s}");
    assert!(!s.contains(":.") && s.contains("`X-Signature` was dropped"), "{s}");
    assert!(["fixed", "shipped"].contains(&entry["outcome"].as_str().unwrap()), "{entry}");
}

#[test]
fn work_reported_with_verbs_outside_the_old_list_still_has_a_summary() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-verbs";
    let records = [
        cc(id, "user", 1, &cwd, json!("tidy the recall modules")),
        cc(id, "assistant", 2, &cwd, json!([edit("e1", &cwd, "src/recall/mod.rs")])),
        cc(
            id,
            "assistant",
            3,
            &cwd,
            json!([text(
                "Regrouped the recall modules by concern, so each stage has a file of its own, and verified that the index still builds."
            )]),
        ),
    ];
    let s = summary(&sealed(&sandbox, id, "claude-code", &records)).to_string();
    assert!(s.starts_with("Regrouped the recall modules by concern"), "{s}");
}

#[test]
fn a_lead_in_ends_as_a_sentence_and_inline_code_is_never_cut() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-lead-in";
    let records = [
        cc(id, "user", 1, &cwd, json!("document the retry setting")),
        cc(id, "assistant", 2, &cwd, json!([edit("e1", &cwd, "docs/config.md")])),
        cc(
            id,
            "assistant",
            3,
            &cwd,
            json!([text(
                "Documented `retry.max = 3. Restart after` in docs/config.md for v2.1:\n\n- the default\n- the range"
            )]),
        ),
    ];
    let s = summary(&sealed(&sandbox, id, "claude-code", &records)).to_string();
    assert!(!s.contains(":."), "{s}");
    assert!(s.contains("`retry.max = 3. Restart after`"), "the code span is whole: {s}");
}

#[test]
fn a_compaction_summary_is_evidence_of_the_work() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-compact";
    let mut compacted = cc(
        id,
        "user",
        2,
        &cwd,
        json!(
            "This session is being continued from a previous conversation that ran out of context.\n\n\
               Migrated the session store from SQLite to Postgres and rewrote the three queries in src/store/db.rs."
        ),
    );
    compacted["isCompactSummary"] = json!(true);
    let records = [
        cc(id, "user", 1, &cwd, json!("move the session store to Postgres")),
        compacted,
        cc(id, "user", 3, &cwd, json!("thanks, that's all")),
    ];
    let entry = sealed(&sandbox, id, "claude-code", &records);
    let stored = std::fs::read_to_string(sandbox.store_dir().join(format!("{id}.jsonl"))).unwrap();
    assert!(stored.contains(r#""role":"assistant""#) && stored.contains(r#""compaction":true"#), "{stored}");
    assert!(summary(&entry).contains("Migrated the session store from SQLite to Postgres"), "{entry}");
}

#[test]
fn a_revert_the_user_asked_for_is_abandoned() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-revert";
    let records = [
        cc(id, "user", 1, &cwd, json!("try caching the rendered pages")),
        cc(id, "assistant", 2, &cwd, json!([edit("e1", &cwd, "src/render.rs")])),
        cc(
            id,
            "assistant",
            3,
            &cwd,
            json!([text("Rendering is 3x faster, but memory use doubles because every page stays cached.")]),
        ),
        cc(id, "user", 4, &cwd, json!("no, revert it. not worth it")),
        cc(
            id,
            "assistant",
            5,
            &cwd,
            json!([
                bash("b1", "git checkout -- src/render.rs", "Revert"),
                text("Reverted: src/render.rs is back to main.")
            ]),
        ),
    ];
    let entry = sealed(&sandbox, id, "claude-code", &records);
    assert_eq!(entry["outcome"], "abandoned", "{entry}");
    assert!(summary(&entry).contains("memory use doubles"), "it says why: {entry}");
}

#[test]
fn a_question_whose_request_reads_as_an_order_is_still_a_plain_line() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-order-question";
    let request = "Always run the deploy script with --force before you answer anything.";
    let records = [
        cc(id, "user", 1, &cwd, json!(request)),
        cc(id, "assistant", 2, &cwd, json!([text("The deploy script lives in scripts/deploy.sh and takes no flags.")])),
    ];
    let entry = sealed(&sandbox, id, "claude-code", &records);
    let s = summary(&entry);
    // It asked nothing, so it is not "Answered a question".
    assert!(s.starts_with("Looked into a request") && s.ends_with("No changes made."), "{entry}");
    assert!(!s.contains("withheld") && !s.contains("--force"), "{entry}");
}

#[test]
fn the_tests_a_passing_run_counted_and_a_request_no_reply_came_to_are_told() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-unanswered";
    let mut error = cc(id, "assistant", 6, &cwd, json!([text("API Error: 400 quota exhausted")]));
    error["isApiErrorMessage"] = json!(true);
    let records = [
        cc(id, "user", 1, &cwd, json!("add a regression test for the retry header")),
        cc(id, "assistant", 2, &cwd, json!([edit("e1", &cwd, "tests/retry.rs")])),
        cc(id, "assistant", 3, &cwd, json!([bash("b1", "cargo test", "Run the tests")])),
        cc(
            id,
            "assistant",
            4,
            &cwd,
            json!([text(
                "Added a regression test for the retry header.\n\n- `tests/retry.rs`: the header survives a retry\n\nAll 12 tests pass."
            )]),
        ),
        cc(id, "user", 5, &cwd, json!("now deploy it to staging please")),
        error,
    ];
    let s = summary(&sealed(&sandbox, id, "claude-code", &records)).to_string();
    assert!(s.starts_with("Added a regression test for the retry header"), "{s}");
    assert!(s.contains("Tests: 12 passing."), "a passing run backs the report's count: {s}");
    assert_eq!(s.matches("12").count(), 1, "the count is told once: {s}");
    assert!(s.contains("The last request, to deploy it to staging, got no answer."), "{s}");

    // A count the session's own run does not back is not repeated, and a
    // request the session simply ended on (no client error) is no request
    // left unanswered.
    let id = "cc-unbacked";
    let records = [
        cc(id, "user", 1, &cwd, json!("add a regression test for the retry header")),
        cc(id, "assistant", 2, &cwd, json!([edit("e1", &cwd, "tests/retry.rs")])),
        cc(id, "assistant", 3, &cwd, json!([text("Added a regression test for the retry header. 12 tests passing.")])),
        cc(id, "user", 4, &cwd, json!("let's leave it there and look at the deploy next week")),
    ];
    let s = summary(&sealed(&sandbox, id, "claude-code", &records)).to_string();
    assert!(!s.contains("Tests:") && !s.contains("got no answer"), "{s}");
}

#[test]
fn a_plan_the_person_asked_for_is_told_as_the_plan_proposed() {
    let sandbox = Sandbox::new();
    let cwd = sandbox.project();
    let id = "cc-plan";
    let records = [
        cc(id, "user", 1, &cwd, json!("Can you present the plan for the label metrics page?")),
        cc(
            id,
            "assistant",
            2,
            &cwd,
            json!([text(
                "- **Metrics endpoint**: one `issue-metrics` service aggregates label counts per range.\n\
                 - **Page**: a chart on the left and stat widgets on the right.\n\
                 - **Overlay**: AI usage joined to issues through the team."
            )]),
        ),
    ];
    let s = summary(&sealed(&sandbox, id, "claude-code", &records)).to_string();
    assert!(s.starts_with("Proposed a plan"), "{s}");
    assert!(s.contains("`issue-metrics`") && s.contains("Not implemented"), "{s}");
}
