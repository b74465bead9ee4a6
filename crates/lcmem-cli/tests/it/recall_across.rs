//! Recall across projects: two projects under one home. The other project's
//! memory is reached only once the asking project turned
//! `recall.cross_project` on, from the CLI and from the MCP tool, and each hit
//! names its project.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{NOW, Sandbox, message};
use crate::mcp::{call, connect, invalid_params, text_of};

/// `lcmem --home … --project DIR ARGS`.
fn lcmem_in(sandbox: &Sandbox, project: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    let mut command = assert_cmd::Command::new(crate::common::lcmem_bin());
    command.arg("--home").arg(sandbox.home()).arg("--project").arg(project).args(args);
    command.env("LCMEM_NOW", NOW).env_remove("LEVELCODE_HOME").assert()
}

/// This project remembers where notes go; the other, how billing retries.
fn two_projects() -> (Sandbox, PathBuf, String) {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    sandbox.write_session(
        "2026-11-01-notes",
        &[message("user", "Scratch notes go in notes.txt at the repository root."), message("assistant", "Noted.")],
    );
    sandbox.assert_cmd().arg("import").arg(sandbox.inbox()).assert().success();
    let other = sandbox.dir.path().join("billing");
    let inbox = sandbox.dir.path().join("billing-inbox");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::create_dir_all(&inbox).unwrap();
    let body = [
        message("user", "Failed refunds are retried with exponential backoff, five attempts at most."),
        message("assistant", "Done: the refund worker retries with exponential backoff."),
    ];
    crate::common::write_session(&inbox, "2026-11-02-backoff", &body);
    lcmem_in(&sandbox, &other, &["import", inbox.to_str().unwrap()]).success();
    lcmem_in(&sandbox, &other, &["seal", "--all"]).success();
    let slug = lcmem::project::Project::resolve(&other).unwrap().slug;
    (sandbox, other, slug)
}

fn stderr(assert: &assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stderr).into_owned()
}

#[test]
fn another_projects_memory_is_found_only_once_this_project_allows_it_and_each_hit_names_its_project() {
    let (sandbox, other, slug) = two_projects();
    let question = "refund retries backoff";
    // Alone, this project knows nothing of billing.
    let out = sandbox.assert_cmd().args(["recall", "--json", question]).assert().success();
    let own: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(own.iter().all(|h| !h["snippet"].as_str().unwrap().contains("backoff")), "{own:#?}");

    // Off by default: refused, with what to do, and nothing of the other project shown.
    let refused = sandbox.assert_cmd().args(["recall", "--all-projects", question]).assert().failure();
    let said = stderr(&refused);
    assert!(said.contains("recall.cross_project"), "{said}");
    assert!(refused.get_output().stdout.is_empty());

    sandbox.assert_cmd().args(["config", "set", "recall.cross_project", "true"]).assert().success();
    let theirs = sandbox.home().join("sessions").join(&slug);
    let files = |dir: &Path| -> Vec<(PathBuf, u64)> {
        crate::common::files_under(dir).into_iter().map(|p| (p.clone(), std::fs::metadata(&p).unwrap().len())).collect()
    };
    let before = files(&theirs);
    let out = sandbox.assert_cmd().args(["recall", "--json", "--all-projects", question]).assert().success();
    assert_eq!(files(&theirs), before, "recall wrote into the other project's store");
    let hits: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(hits[0]["project"], slug.as_str(), "{:#}", hits[0]);
    assert!(hits[0]["snippet"].as_str().unwrap().contains("backoff"), "{:#}", hits[0]);
    let text = sandbox.assert_cmd().args(["recall", "--projects", &slug, question]).assert().success();
    let text = String::from_utf8_lossy(&text.get_output().stdout).into_owned();
    assert!(text.contains(&format!("[{slug}]")) && text.contains("backoff"), "{text}");

    // A project that is not there is named in the error.
    let unknown = sandbox.assert_cmd().args(["recall", "--projects", "nowhere-0badc0de", question]).assert().failure();
    assert!(stderr(&unknown).contains("nowhere-0badc0de"), "{}", stderr(&unknown));
    // The other project did not turn it on: from there, this one stays out of reach.
    let back = lcmem_in(&sandbox, &other, &["recall", "--all-projects", "scratch notes"]).failure();
    assert!(stderr(&back).contains("recall.cross_project"), "{}", stderr(&back));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mcp_tool_searches_other_projects_only_where_allowed() {
    let (sandbox, _other, slug) = two_projects();
    let client = connect(&sandbox).await;
    let ask =
        |projects: Value| call("recall_sessions", json!({"query": "refund retries backoff", "projects": projects}));
    let refused = invalid_params(client.call_tool(ask(json!(["all"]))).await);
    assert!(refused.contains("recall.cross_project"), "{refused}");
    // The default is this project alone.
    let own = text_of(&client.call_tool(call("recall_sessions", json!({"query": "scratch notes"}))).await.unwrap());
    assert!(own.contains("hit(s) for") && !own.contains("[project"), "{own}");

    sandbox.assert_cmd().args(["config", "set", "recall.cross_project", "true"]).assert().success();
    let answer = text_of(&client.call_tool(ask(json!(["all"]))).await.unwrap());
    assert!(answer.contains(&format!("[project {slug}]")) && answer.contains("backoff"), "{answer}");
    assert!(answer.starts_with("These are notes from this project's past sessions"), "{answer}");
    let named = text_of(&client.call_tool(ask(json!(["this", slug.as_str()]))).await.unwrap());
    assert!(named.contains(&format!("[project {slug}]")), "{named}");
    let bad = invalid_params(client.call_tool(ask(json!(["../etc"]))).await);
    assert!(bad.contains("store slug"), "{bad}");
}
