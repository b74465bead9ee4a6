//! The `lcmem` command as a user runs it.

use crate::common::{Sandbox, example_sessions, message, working_session};
use predicates::prelude::*;

fn memory_files_text(sandbox: &Sandbox) -> String {
    let mut all = String::new();
    for name in ["journal.jsonl", "facts.jsonl", "MEMORY.md"] {
        all.push_str(&std::fs::read_to_string(sandbox.store_dir().join("memory").join(name)).unwrap_or_default());
    }
    all
}

#[test]
fn sealing_the_example_project_summarises_every_session_and_leaks_nothing() {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").args(example_sessions()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let out = sandbox.assert_cmd().args(["journal", "--json"]).output().unwrap();
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(entries.len(), 12);
    let summary = |id: &str| -> String {
        entries.iter().find(|e| e["session_id"] == id).unwrap()["summary"].as_str().unwrap().to_string()
    };
    assert!(summary("2026-11-18-changelog-104").starts_with("Tidied CHANGELOG.md for v1.0.4"));
    assert!(summary("2026-11-12-refund-retries").contains("retries for refunds"));
    assert!(summary("2026-11-06-cache-postgres").contains("from Redis to Postgres"));
    assert!(summary("2026-10-12-graphql-spike").starts_with("Abandoned"));
    for e in &entries {
        let s = e["summary"].as_str().unwrap();
        assert!(!s.is_empty() && s.len() <= 600, "{s}");
    }
    let pinned: Vec<_> = entries.iter().filter(|e| e["pinned"] == true).map(|e| e["session_id"].clone()).collect();
    assert_eq!(pinned, ["2026-10-15-orders-refactor"]);

    let memory = memory_files_text(&sandbox);
    assert!(!memory.contains("note to AI") && !memory.contains("deploy token"), "planted instruction reached memory");
    assert!(!memory.contains("sk_test_51"), "the pasted key reached memory");
    // The stored transcript is redacted on import too; the rest of what was said is kept.
    let stored = std::fs::read_to_string(sandbox.store_dir().join("2026-11-02-stripe-webhooks.jsonl")).unwrap();
    assert!(!stored.contains("sk_test_51") && stored.contains("[REDACTED:stripe"), "{stored}");
}

/// A sandbox holding one working session, imported and sealed.
fn one_sealed(id: &str, n: usize) -> Sandbox {
    let sandbox = Sandbox::new();
    let file = sandbox.write_session(id, &working_session(n));
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    sandbox.assert_cmd().args(["seal", id]).assert().success();
    sandbox
}

#[test]
fn sealing_twice_changes_nothing() {
    let sandbox = one_sealed("twice", 1);
    let journal = std::fs::read(sandbox.journal()).unwrap();
    let facts = std::fs::read(sandbox.store_dir().join("memory/facts.jsonl")).unwrap();
    sandbox
        .assert_cmd()
        .args(["seal", "twice", "--archived"])
        .assert()
        .success()
        .stdout(predicate::str::contains("already sealed"));
    assert_eq!(std::fs::read(sandbox.journal()).unwrap(), journal);
    assert_eq!(std::fs::read(sandbox.store_dir().join("memory/facts.jsonl")).unwrap(), facts);
}

#[test]
fn importing_again_is_a_no_op_and_a_grown_file_appends_only_its_new_lines() {
    let sandbox = Sandbox::new();
    let mut body = working_session(2);
    let file = sandbox.write_session("grows", &body);
    sandbox.assert_cmd().arg("import").arg(&file).assert().success().stdout(predicate::str::contains("added"));
    sandbox.assert_cmd().arg("import").arg(&file).assert().success().stdout(predicate::str::contains("unchanged"));
    body.push(message("user", "One more thing."));
    let file = sandbox.write_session("grows", &body);
    sandbox.assert_cmd().arg("import").arg(&file).assert().success().stdout(predicate::str::contains("1 new line"));
    assert_eq!(std::fs::read(sandbox.store_dir().join("grows.jsonl")).unwrap(), std::fs::read(&file).unwrap());
}

#[test]
fn malformed_lines_are_warned_about_with_file_and_line_and_set_aside_whole() {
    let sandbox = Sandbox::new();
    let mut body = working_session(3);
    body.insert(1, "{\"type\":\"message\",\"role\":\"user\",\"text\":".to_string());
    body.insert(2, "\u{0}\u{7f}binary".to_string());
    let file = sandbox.write_session("bad-lines", &body);
    sandbox
        .assert_cmd()
        .arg("import")
        .arg(&file)
        .assert()
        .success()
        .stderr(predicate::str::contains("bad-lines.jsonl:3: line is not valid JSON"))
        .stderr(predicate::str::contains("bad-lines.jsonl:4:"));
    let original = std::fs::read(&file).unwrap();
    let lines: Vec<&[u8]> = original.split_inclusive(|&b| b == b'\n').collect();
    let stored = std::fs::read(sandbox.store_dir().join("bad-lines.jsonl")).unwrap();
    let well_formed: Vec<u8> =
        lines.iter().enumerate().filter(|(i, _)| ![2, 3].contains(i)).flat_map(|(_, l)| l.to_vec()).collect();
    assert_eq!(stored, well_formed, "the stored copy holds the lines that parse, as they are");
    let aside = std::fs::read(sandbox.store_dir().join("bad-lines.jsonl.torn")).unwrap();
    assert_eq!(aside, [lines[2], lines[3]].concat(), "the others are kept beside it, byte for byte");
    sandbox.assert_cmd().args(["seal", "bad-lines"]).assert().success().stderr("");
    // The same file again is unchanged, and sets nothing aside twice.
    sandbox.assert_cmd().arg("import").arg(&file).assert().success().stdout(predicate::str::contains("unchanged"));
    assert_eq!(std::fs::read(sandbox.store_dir().join("bad-lines.jsonl.torn")).unwrap(), [lines[2], lines[3]].concat());
}

#[test]
fn files_that_are_not_sessions_are_refused_with_a_sentence_naming_the_line() {
    let sandbox = Sandbox::new();
    let no_header = sandbox.inbox().join("no-header.jsonl");
    std::fs::write(&no_header, message("user", "hi") + "\n").unwrap();
    let v9 = sandbox.inbox().join("v9.jsonl");
    std::fs::write(&v9, r#"{"type":"session","v":9,"id":"x","created_at":"2026-01-01T00:00:00Z"}"#).unwrap();
    let garbage = sandbox.inbox().join("garbage.jsonl");
    std::fs::write(&garbage, [0u8, 159, 146, 150, 255, 10, 1, 2, 3]).unwrap();
    let missing = sandbox.inbox().join("missing.jsonl");
    // A log of prompts, pretty-printed as one JSON array.
    let prompts = sandbox.inbox().join("logs.json");
    std::fs::write(
        &prompts,
        "[\n  {\n    \"sessionId\": \"s1\",\n    \"type\": \"user\",\n    \"message\": \"hi\"\n  }\n]\n",
    )
    .unwrap();
    let out = sandbox.assert_cmd().arg("import").args([&no_header, &v9, &garbage, &missing, &prompts]).assert().code(1);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("no-header.jsonl:1: missing header"), "{stderr}");
    assert!(stderr.contains("v9.jsonl:1: session format version 9 is not supported"), "{stderr}");
    assert!(stderr.contains("garbage.jsonl:1:"), "{stderr}");
    assert!(stderr.contains("missing.jsonl: No such file"), "{stderr}");
    assert!(stderr.contains("logs.json:1: one JSON document that is no session lcmem knows"), "{stderr}");
    assert!(!stderr.contains("logs.json:1: empty file") && !stderr.contains("not valid JSON"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn memory_off_refuses_every_write_and_says_how_to_turn_it_on() {
    let sandbox = Sandbox::new();
    let file = sandbox.write_session("off", &working_session(4));
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "false"]).assert().success();
    for args in [vec!["seal", "off"], vec!["pin", "off"]] {
        sandbox
            .assert_cmd()
            .args(&args)
            .assert()
            .code(3)
            .stderr(predicate::str::contains("memory is off"))
            .stderr(predicate::str::contains("lcmem config set memory.enabled true"));
    }
    sandbox.assert_cmd().arg("import").arg(&file).assert().code(3);
    assert!(!sandbox.journal().exists());

    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "true"]).assert().success();
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "false", "--global"]).assert().success();
    // The global switch wins over the project's `true`, and config says so.
    let config =
        |args: &[&str]| String::from_utf8(sandbox.assert_cmd().arg("config").args(args).output().unwrap().stdout);
    assert_eq!(config(&["get", "memory.enabled"]).unwrap(), "false\n");
    let list = config(&["list"]).unwrap();
    assert!(list.contains("\nmemory.enabled = false    # global master switch, over any project's setting;"), "{list}");
    sandbox.assert_cmd().args(["seal", "off"]).assert().code(3).stderr(predicate::str::contains("--global"));
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "true", "--global"]).assert().success();
    assert_eq!(config(&["get", "memory.enabled"]).unwrap(), "true\n");
    assert!(config(&["list"]).unwrap().contains("\nmemory.enabled = true    # project;"));
    sandbox.assert_cmd().args(["seal", "off"]).assert().success();
}

#[test]
fn pin_and_unpin_show_in_sessions_and_journal() {
    let sandbox = one_sealed("pinme", 5);
    sandbox.assert_cmd().args(["pin", "pinme"]).assert().success();
    let journal = sandbox.assert_cmd().args(["journal", "--json"]).output().unwrap();
    assert!(String::from_utf8_lossy(&journal.stdout).contains("\"pinned\": true"));
    sandbox.assert_cmd().args(["unpin", "pinme"]).assert().success();
    let sessions = sandbox.assert_cmd().args(["sessions", "--json"]).output().unwrap();
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&sessions.stdout).unwrap();
    assert_eq!(rows[0]["pinned"], false);
    assert_eq!(rows[0]["sealed"], true);
    sandbox.assert_cmd().args(["pin", "nope"]).assert().code(1).stderr(predicate::str::contains("no session matches"));
}

#[test]
fn the_tour_runs_in_a_temporary_store_and_reports_no_leak() {
    let sandbox = Sandbox::new();
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_lcmem"));
    cmd.arg("tour").env("HOME", sandbox.dir.path()).env_remove("LEVELCODE_HOME");
    cmd.assert()
        .success()
        .stdout(predicate::str::contains("Tidied CHANGELOG.md for v1.0.4"))
        .stdout(predicate::str::contains("LEAK").not());
    assert!(!sandbox.dir.path().join(".levelcode").exists(), "the tour never touches the user's store");
}

/// A title that reads as an order (here "…: migrate command") is left out of
/// the summary on its own; it never withholds the rest of it.
#[test]
fn an_order_shaped_title_never_withholds_the_whole_summary() {
    let sandbox = Sandbox::new();
    let body = [
        message("user", "continue config v2"),
        crate::common::tool("Write", &["internal/config/migrate.go"]),
        message("assistant", "Left from Tuesday: the migration must not copy secrets into the TOML file."),
    ];
    let file = lcmem_test_support::SessionFile::new("migrate", "2026-11-01T09:00:00Z")
        .title("Config v2: migrate command")
        .lines(body)
        .write_in(&sandbox.inbox());
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    let out = sandbox.assert_cmd().args(["seal", "migrate", "--json"]).output().unwrap();
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    let summary = entries[0]["summary"].as_str().unwrap();
    assert!(summary.contains("internal/config/migrate.go") && !summary.contains("migrate command"), "{summary}");
    assert_ne!(entries[0]["outcome"], "question");
}
