//! Memory never feeds on itself: what lcmem gave an agent (a recall answer,
//! the SessionStart digest) comes back in the agent's transcript, and must
//! not be indexed, recalled or learned from again. Each round here is what a
//! real Claude Code session does: the digest arrives as a meta record, the
//! model calls `mcp__lcmem__recall_sessions` through the real server, the
//! answer is stored as the tool's result, and the session is imported and
//! sealed.

use std::path::Path;

use serde_json::{Value, json};

use super::{call, connect, text_of};
use crate::common::{Sandbox, message};

const QUESTION: &str = "where do scratch notes go";

/// A Claude Code transcript of one round: the digest, the question, the
/// recall call and its answer as the tool result, a short reply.
fn round(id: &str, cwd: &Path, digest: &str, answer: &str) -> String {
    let record = |n: usize, kind: &str, content: Value, meta: bool| {
        json!({
            "type": kind, "sessionId": id, "uuid": format!("{id}-{n}"), "cwd": cwd, "isSidechain": false,
            "isMeta": meta, "timestamp": format!("2026-11-2{}T09:0{n}:00Z", n.min(9)),
            "message": {"role": kind, "content": content}
        })
        .to_string()
    };
    let hook = format!("<system-reminder>\nSessionStart:startup hook additional context: {digest}\n</system-reminder>");
    [
        record(1, "user", json!(hook), true),
        record(2, "user", json!(format!("Quick question: {QUESTION}?")), false),
        record(
            3,
            "assistant",
            json!([{"type": "tool_use", "id": format!("{id}-call"), "name": "mcp__lcmem__recall_sessions",
                    "input": {"query": QUESTION}}]),
            false,
        ),
        record(
            4,
            "user",
            json!([{"type": "tool_result", "tool_use_id": format!("{id}-call"),
                    "content": [{"type": "text", "text": answer}]}]),
            false,
        ),
        record(5, "assistant", json!([{"type": "text", "text": "Thanks, that settles it."}]), false),
    ]
    .join("\n")
        + "\n"
}

fn recall_json(sandbox: &Sandbox) -> Vec<Value> {
    let out = sandbox.assert_cmd().args(["recall", "--json", "--limit", "8", QUESTION]).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_sessions_that_recall_the_same_question_leave_the_original_evidence_first() {
    let sandbox = Sandbox::new();
    sandbox.write_session(
        "2026-11-01-notes",
        &[
            message("user", "Scratch notes go in notes/scratch.md, never in the repository root."),
            message("assistant", "Understood: scratch notes live in notes/scratch.md from now on."),
        ],
    );
    sandbox.assert_cmd().arg("import").arg(sandbox.inbox()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let transcripts = sandbox.home().join("transcripts");
    std::fs::create_dir_all(&transcripts).unwrap();

    for n in 0..20 {
        let client = connect(&sandbox).await;
        let answer = text_of(&client.call_tool(call("recall_sessions", json!({"query": QUESTION}))).await.unwrap());
        let digest = text_of(&client.call_tool(call("memory_digest", json!({}))).await.unwrap());
        client.cancel().await.unwrap();
        assert!(answer.contains("hit(s) for"), "round {n}: the server answered: {answer}");
        let id = format!("round-{n:02}");
        let file = transcripts.join(format!("{id}.jsonl"));
        std::fs::write(&file, round(&id, &sandbox.project(), &digest, &answer)).unwrap();
        sandbox.assert_cmd().args(["import", "--format", "claude-code"]).arg(&file).assert().success();
        sandbox.assert_cmd().args(["seal", &id]).assert().success();
    }

    let hits = recall_json(&sandbox);
    assert_eq!(hits[0]["session"], "2026-11-01-notes", "the original evidence is the top hit: {:#}", hits[0]);
    for hit in &hits {
        let snippet = hit["snippet"].as_str().unwrap();
        assert!(
            !snippet.contains("found by lcmem")
                && !snippet.contains("hit(s) for")
                && !snippet.contains("project-memory"),
            "an earlier answer was recalled: {hit:#}"
        );
    }
    // The stored transcripts keep memory's output for the record, marked.
    let stored = std::fs::read_to_string(sandbox.store_dir().join("round-19.jsonl")).unwrap();
    let marked = stored.lines().filter(|l| l.contains("\"recalled\":true")).count();
    assert_eq!(marked, 2, "the digest and the recall answer are kept and marked: {stored}");
    // Nothing memory said became a fact of the rounds.
    let facts = sandbox.assert_cmd().args(["facts", "--all", "--json"]).assert().success();
    let facts: Vec<Value> = serde_json::from_slice(&facts.get_output().stdout).unwrap();
    for fact in &facts {
        let taught =
            fact["sources"].as_array().unwrap().iter().any(|s| {
                s["session"].as_str().is_some_and(|id| id.starts_with("round-")) && s["workspace_echo"] == false
            });
        assert!(!taught, "a round taught a fact from memory's own output: {fact:#}");
    }
}
