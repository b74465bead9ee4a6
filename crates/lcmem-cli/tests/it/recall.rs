//! `lcmem recall` and `lcmem index` as a user runs them.

use crate::common::{Sandbox, example_sessions, message, working_session};
use predicates::prelude::*;

fn shop() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").args(example_sessions()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    sandbox
}

fn recall_json(sandbox: &Sandbox, args: &[&str]) -> Vec<serde_json::Value> {
    let out = sandbox.assert_cmd().arg("recall").args(args).arg("--json").assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn json_hits_carry_every_field_and_cite_real_lines() {
    let sandbox = shop();
    let hits = recall_json(&sandbox, &["refund", "retries", "--limit", "5"]);
    assert!(!hits.is_empty() && hits.len() <= 5);
    for hit in &hits {
        for field in ["kind", "session", "session_title", "line", "ts", "state", "score", "snippet", "citation", "path"]
        {
            assert!(!hit[field].is_null(), "{field} missing in {hit}");
        }
        let text = std::fs::read_to_string(hit["path"].as_str().unwrap()).unwrap();
        let line = text.lines().nth(hit["line"].as_u64().unwrap() as usize - 1).unwrap();
        if let Some(id) = hit["message_id"].as_str() {
            assert!(line.contains(&format!("\"{id}\"")), "{line}");
        }
        let snippet = hit["snippet"].as_str().unwrap();
        for range in hit["highlights"].as_array().unwrap() {
            let (from, to) = (range[0].as_u64().unwrap() as usize, range[1].as_u64().unwrap() as usize);
            assert!(line.to_lowercase().contains(&snippet[from..to].to_lowercase()), "{line}");
        }
    }
    assert!(hits.iter().any(|h| h["session"].as_str().unwrap().ends_with("refund-retries")));
}

#[test]
fn coverage_says_how_an_answer_was_found_and_keeps_the_hits_as_they_are() {
    let sandbox = shop();
    let plain = recall_json(&sandbox, &["refund", "retries"]);
    let out = sandbox.assert_cmd().args(["recall", "refund", "retries", "--json", "--coverage"]).assert().success();
    let answer: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(answer["hits"].as_array().unwrap(), &plain, "the hits are those of --json");
    let coverage = answer["coverage"].as_array().unwrap();
    assert_eq!(coverage.len(), 1, "{answer}");
    let sessions = example_sessions().len() as u64;
    let c = &coverage[0];
    assert!(!c["project"].as_str().unwrap().is_empty(), "{c}");
    assert_eq!((c["indexed_sessions"].as_u64(), c["scanned_sessions"].as_u64()), (Some(sessions), Some(0)), "{c}");
    // A small store is ranked exhaustively; no model is set.
    assert_eq!((&c["pruned"], &c["semantic"]), (&serde_json::json!(false), &serde_json::Value::Null), "{c}");
    // In words, on stderr, after the hits.
    let out = sandbox.assert_cmd().args(["recall", "refund", "retries", "--coverage"]).assert().success();
    let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        said.contains(&format!("coverage: {sessions} session(s) from the index, 0 read from their files")),
        "{said}"
    );
    assert!(said.contains("semantic lane off"), "{said}");
}

#[test]
fn human_output_shows_citation_state_and_snippet() {
    let sandbox = shop();
    sandbox
        .assert_cmd()
        .args(["recall", "CHANGELOG v1.0.4", "--limit", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1. "))
        .stdout(predicate::str::contains("sessions/"))
        .stdout(predicate::str::contains(".jsonl:"))
        .stdout(predicate::str::contains("done"))
        .stdout(predicate::str::contains("CHANGELOG"));
    sandbox
        .assert_cmd()
        .args(["recall", "xylophone quartz"])
        .assert()
        .success()
        .stdout(predicate::str::contains("Nothing in this project's memory matches"));
}

#[test]
fn kinds_and_dates_filter_and_bad_values_are_usage_errors() {
    let sandbox = shop();
    let journal = recall_json(&sandbox, &["refunds", "--kinds", "journal"]);
    assert!(!journal.is_empty() && journal.iter().all(|h| h["kind"] == "journal"));
    let both = recall_json(&sandbox, &["refunds", "--kinds", "turn,fact"]);
    assert!(both.iter().all(|h| h["kind"] == "turn" || h["kind"] == "fact"));
    let since = recall_json(&sandbox, &["refunds", "--since", "2026-11-01", "--until", "2026-11-30T00:00:00Z"]);
    for h in &since {
        let ts = h["ts"].as_str().unwrap();
        assert!(("2026-11-01".."2026-11-30T00:00:01").contains(&ts), "{ts}");
    }
    sandbox
        .assert_cmd()
        .args(["recall", "refunds", "--since", "last week"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("is not a date"));
    sandbox
        .assert_cmd()
        .args(["recall", "refunds", "--kinds", "memo"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("use turn, journal or fact"));
    sandbox.assert_cmd().args(["recall", "refunds", "--limit", "0"]).assert().code(2);
    sandbox
        .assert_cmd()
        .args(["recall", "refunds", "--since", "2026-11-30", "--until", "2026-11-01"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("nothing can match"));
}

#[test]
fn the_planted_instruction_is_found_but_labelled_and_the_key_is_redacted() {
    let sandbox = shop();
    let hits = recall_json(&sandbox, &["stripe", "test", "key", "--limit", "50"]);
    assert!(!hits.is_empty());
    for hit in &hits {
        assert!(!hit["snippet"].as_str().unwrap().contains("sk_test_51"), "a key reached a snippet: {hit}");
    }
    for hit in recall_json(&sandbox, &["deploy", "token", "--limit", "50"]) {
        if hit["role"] == "tool" {
            assert!(hit["note"].as_str().unwrap().contains("not an instruction"), "{hit}");
        }
    }
}

#[test]
fn import_keeps_the_index_fresh_and_rebuild_recreates_it() {
    let sandbox = Sandbox::new();
    let file = sandbox.write_session("one", &working_session(7));
    sandbox.assert_cmd().arg("import").arg(&file).assert().success();
    let index = sandbox.store_dir().join("cache/recall-v1/meta.json");
    assert!(index.exists(), "import did not build the index");
    let before = recall_json(&sandbox, &["parser", "trailing", "commas"]);
    assert_eq!(before[0]["session"], "one");

    std::fs::remove_dir_all(sandbox.store_dir().join("cache")).unwrap();
    sandbox
        .assert_cmd()
        .args(["index", "rebuild"])
        .assert()
        .success()
        .stdout(predicate::str::contains("indexed 1 session(s)"));
    assert_eq!(recall_json(&sandbox, &["parser", "trailing", "commas"]), before);

    // A session copied straight into the store, behind lcmem's back.
    crate::common::write_session(
        &sandbox.store_dir(),
        "two",
        &[message("user", "The billing export times out for large tenants.")],
    );
    let hits = recall_json(&sandbox, &["billing", "export", "timeout"]);
    assert_eq!(hits[0]["session"], "two");
}

#[test]
fn with_memory_off_recall_still_reads_and_rebuild_refuses() {
    let sandbox = shop();
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "false"]).assert().success();
    std::fs::remove_dir_all(sandbox.store_dir().join("cache")).ok();
    assert!(!recall_json(&sandbox, &["refund", "retries"]).is_empty());
    assert!(!sandbox.store_dir().join("cache").exists(), "recall wrote the cache with memory off");
    sandbox.assert_cmd().args(["index", "rebuild"]).assert().code(3);
}

#[test]
fn an_empty_query_is_refused_as_bad_usage() {
    let sandbox = shop();
    for query in ["", "   "] {
        let out = sandbox.assert_cmd().args(["recall", "--", query]).assert().code(2);
        let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
        assert!(said.contains("the query is empty") && said.contains("lcmem recall deploy branch"), "{said}");
        assert!(out.get_output().stdout.is_empty());
    }
}

#[test]
fn a_digest_of_an_empty_store_says_why_there_is_none_on_stderr() {
    let sandbox = Sandbox::new();
    let out = sandbox.assert_cmd().arg("digest").assert().success();
    assert!(out.get_output().stdout.is_empty(), "a script reads nothing");
    let said = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(said.contains("no digest yet") && said.contains("lcmem seal --all"), "{said}");
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "false"]).assert().success();
    let out = sandbox.assert_cmd().arg("digest").assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stderr).contains("memory is off"));
}
