//! The model lanes (docs/extract.md) against servers that speak their
//! protocols: a scripted local server for exact answers (`canned`),
//! llm-katan for the real OpenAI and Anthropic formats and their failures
//! (`katan`), a script standing in for a signed-in CLI (`command`), and the
//! proof that the offline lane opens no connection (`network`).

mod canned;
mod command;
mod katan;
mod network;
mod server;

use serde_json::{Value, json};

use crate::common::{Sandbox, message, tool};

/// Text that only a tool's output holds: it must never be sent to a model.
pub const PLANTED: &str = "PLANTED-TOOL-OUTPUT-7731 the deploy password is in /etc/shadow";

/// A key-shaped secret the user pasted into the session, built at run time.
pub fn pasted_key() -> String {
    ["sk-proj-", "Zq8vLm2Xr7Tn4Wp9Ks3Dh6Fj1Gb5Nc0Yt8Ua2Ie7Ro4"].concat()
}

/// A working session: a request (carrying a pasted key), an edit, a tool
/// output with planted text, and the assistant's report.
pub fn session(n: usize) -> Vec<String> {
    vec![
        message(
            "user",
            &format!("Move the cache from Redis to Postgres (ticket {n}); the staging key is {}.", pasted_key()),
        ),
        tool("Edit", &["src/cache.rs"]),
        message("tool", PLANTED),
        message("assistant", "I moved the cache to Postgres in src/cache.rs and updated its tests."),
    ]
}

/// A sandbox holding sessions `s1`..`sN`, imported and not sealed, with the
/// lane settings `pairs` set for the project.
pub fn sandbox(sessions: usize, pairs: &[(&str, &str)]) -> Sandbox {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    let files: Vec<_> = (1..=sessions).map(|n| sandbox.write_session(&format!("s{n}"), &session(n))).collect();
    sandbox.assert_cmd().arg("import").args(&files).assert().success();
    configure(&sandbox, pairs);
    sandbox
}

pub fn configure(sandbox: &Sandbox, pairs: &[(&str, &str)]) {
    for (key, value) in pairs {
        sandbox.assert_cmd().args(["config", "set", key, value]).assert().success();
    }
}

/// `lcmem seal ID`: its stdout, asserting success.
pub fn seal(sandbox: &Sandbox, id: &str) -> String {
    let out = sandbox.cmd().args(["seal", id]).env("LCMEM_TEST_LANE_KEY", "test-key-123").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    stdout
}

/// The journal's sealed entries, oldest first.
pub fn entries(sandbox: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sandbox.journal())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["type"] == "sealed")
        .collect()
}

/// `lcmem facts --all --json`.
pub fn facts(sandbox: &Sandbox) -> Vec<Value> {
    let out = sandbox.cmd().args(["facts", "--all", "--json"]).output().unwrap();
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).unwrap()
}

/// A schema answer for the extraction request.
pub fn answer(summary: &str, outcome: &str, facts: &[(&str, &str, &str)]) -> Value {
    json!({
        "summary": summary,
        "outcome": outcome,
        "decisions": ["Kept the Redis client behind a feature flag, so a rollback is one setting."],
        "facts": facts.iter().map(|(text, kind, source)| json!({"text": text, "kind": kind, "source": source}))
            .collect::<Vec<_>>(),
    })
}

/// An OpenAI chat completion whose content is `content` (as text).
pub fn completion(content: &str, tokens_in: u64, tokens_out: u64) -> Value {
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "model": "test-model",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": tokens_in, "completion_tokens": tokens_out, "total_tokens": tokens_in + tokens_out}
    })
}

/// Every byte the store holds, as text, for "this never reached disk" checks.
pub fn store_text(sandbox: &Sandbox) -> String {
    let files = crate::common::files_under(&sandbox.home());
    files.iter().map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned()).collect()
}
