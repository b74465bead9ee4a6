//! Facts, forget, consolidation and the digest through the `lcmem` command.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use crate::common::{Sandbox, example_sessions};
use predicates::prelude::*;

fn sealed_example(sandbox: &Sandbox) {
    sandbox.assert_cmd().arg("import").args(example_sessions()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).env("LCMEM_NOW", "2026-11-28T18:00:00Z").assert().success();
}

/// Every file under `dir` whose bytes contain `needle`.
fn grep_r(dir: &Path, needle: &str) -> Vec<String> {
    let holds =
        |path: &std::path::PathBuf| std::fs::read(path).unwrap().windows(needle.len()).any(|w| w == needle.as_bytes());
    crate::common::files_under(dir).into_iter().filter(holds).map(|p| p.display().to_string()).collect()
}

#[test]
fn the_example_digest_knows_the_recent_arc_and_nothing_planted() {
    let sandbox = Sandbox::new();
    sealed_example(&sandbox);
    sandbox.assert_cmd().arg("consolidate").env("LCMEM_NOW", "2026-11-28T18:00:00Z").assert().success();
    let out = sandbox.assert_cmd().arg("digest").output().unwrap();
    let digest = String::from_utf8(out.stdout).unwrap();
    assert!(digest.contains("Tidied CHANGELOG.md for v1.0.4"), "{digest}");
    assert!(digest.contains("Retry failed Stripe refunds") && digest.contains("(shipped;"), "{digest}");
    assert!(digest.contains("The product cache uses Postgres.") && !digest.contains("cache uses Redis"), "{digest}");
    assert!(digest.contains("## Pinned threads\n- Refactor: split the orders module"), "{digest}");
    assert!(!digest.contains("note to AI") && !digest.contains("deploy token") && !digest.contains("sk_test_51"));
    let json = sandbox.assert_cmd().args(["digest", "--json"]).output().unwrap();
    let value: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert!(value["tokens"].as_u64().unwrap() <= 1500);
    assert_eq!(value["as_of"].as_str().unwrap(), "2026-11-27T14:35:00Z");
    sandbox
        .assert_cmd()
        .arg("welcome")
        .assert()
        .success()
        .stdout(predicate::str::starts_with("This project, lately: "));
}

#[test]
fn seals_consolidate_by_themselves_every_n() {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").args(example_sessions()).assert().success();
    sandbox.assert_cmd().args(["config", "set", "memory.consolidate_every", "3"]).assert().success();
    let ids: Vec<String> =
        example_sessions().iter().map(|p| p.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    sandbox.assert_cmd().args(["seal", &ids[0]]).assert().success().stdout(predicate::str::contains("consolidated"));
    let memory = sandbox.store_dir().join("memory/MEMORY.md");
    let first = std::fs::read(&memory).unwrap();
    sandbox.assert_cmd().args(["seal", &ids[1], &ids[2]]).assert().success();
    assert_eq!(std::fs::read(&memory).unwrap(), first, "not due after 2 seals");
    sandbox.assert_cmd().args(["seal", &ids[3]]).assert().success().stdout(predicate::str::contains("consolidated"));
    assert_ne!(std::fs::read(&memory).unwrap(), first);
}

#[test]
fn facts_commands_correct_memory_and_say_what_they_did() {
    let sandbox = Sandbox::new();
    sealed_example(&sandbox);
    let all = sandbox.assert_cmd().args(["facts", "--all", "--json"]).output().unwrap();
    let facts: Vec<serde_json::Value> = serde_json::from_slice(&all.stdout).unwrap();
    let id_of = |text: &str| -> String {
        facts.iter().find(|f| f["text"] == text).unwrap_or_else(|| panic!("no fact {text}"))["id"]
            .as_str()
            .unwrap()
            .into()
    };
    let redis = id_of("The product cache uses Redis.");
    let postgres = id_of("The product cache uses Postgres.");
    let redis_fact = facts.iter().find(|f| f["id"] == redis.as_str()).unwrap();
    assert_eq!(redis_fact["state"], "superseded");
    assert_eq!(redis_fact["superseded_by"], postgres.as_str());

    sandbox
        .assert_cmd()
        .args(["facts", "confirm", &postgres])
        .assert()
        .success()
        .stdout(predicate::str::contains("[confirmed]"));
    sandbox.assert_cmd().args(["facts", "restore", &redis]).assert().success();
    sandbox.assert_cmd().args(["facts", "conflicts"]).assert().success().stdout(predicate::str::contains(&redis));
    sandbox.assert_cmd().args(["facts", "not-true", &redis]).assert().success();
    sandbox
        .assert_cmd()
        .args(["facts", "conflicts"])
        .assert()
        .success()
        .stdout(predicate::str::contains("No open conflicts"));
    let listed = sandbox.assert_cmd().arg("facts").output().unwrap();
    assert!(!String::from_utf8_lossy(&listed.stdout).contains("uses Redis"));
    sandbox
        .assert_cmd()
        .args(["facts", "add", "Deploys go out from the release branch."])
        .assert()
        .success()
        .stdout(predicate::str::contains("[confirmed]"));
    sandbox
        .assert_cmd()
        .args(["facts", "edit", &postgres, "The product cache lives in Postgres 16."])
        .assert()
        .success();
    sandbox.assert_cmd().args(["facts", "delete", &postgres]).assert().success();
    let raw = std::fs::read_to_string(sandbox.store_dir().join("memory/facts.jsonl")).unwrap();
    assert!(!raw.contains("Postgres 16") && !raw.contains("The product cache uses Postgres."), "delete is physical");
    sandbox
        .assert_cmd()
        .args(["facts", "pin", "fzzz"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("no fact has id"));
}

#[test]
fn forget_leaves_nothing_of_the_session_on_disk() {
    let sandbox = Sandbox::new();
    sealed_example(&sandbox);
    let gone = "2026-11-06-cache-postgres";
    sandbox.assert_cmd().arg("consolidate").assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    sandbox.assert_cmd().arg("consolidate").assert().success();
    assert!(!grep_r(&sandbox.home(), gone).is_empty());
    sandbox
        .assert_cmd()
        .args(["forget", gone])
        .assert()
        .success()
        .stdout(predicate::str::contains("journal lines removed: 1"));
    // Its id is nowhere, not even in its tombstone (a keyed hash and the day), which keeps it forgotten.
    assert_eq!(grep_r(&sandbox.home(), gone), Vec::<String>::new());
    assert_eq!(grep_r(&sandbox.home(), "cache-postgres"), Vec::<String>::new());
    let tombstone = sandbox.store_dir().join("memory/forgotten.jsonl");
    let stone: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&tombstone).unwrap()).unwrap();
    assert_eq!(stone["forgotten_on"], "2026-11-30");
    assert!(stone["session"].as_str().is_some_and(|h| h.starts_with("k1:") && h.len() == 67), "{stone}");

    assert_eq!(grep_r(&sandbox.home(), "unlogged `cache_entries` table"), Vec::<String>::new());
    assert_eq!(grep_r(&sandbox.home(), "The product cache uses Postgres"), Vec::<String>::new());
    // Others' contributions stay.
    let facts = sandbox.assert_cmd().args(["facts", "--all"]).output().unwrap();
    let facts = String::from_utf8_lossy(&facts.stdout).to_string();
    assert!(facts.contains("The product cache uses Redis.") && facts.contains("The tests run with Vitest."), "{facts}");
    let redis = facts.lines().find(|l| l.contains("The product cache uses Redis.")).unwrap();
    assert!(redis.contains("inferred"), "what superseded Redis is gone, so Redis stands again:\n{facts}");
}

/// SIGKILL during consolidation, again and again: MEMORY.md is always a
/// whole file that the next consolidation recognises as its own.
#[test]
fn killed_consolidations_never_leave_a_damaged_memory_file() {
    let sandbox = Sandbox::new();
    sealed_example(&sandbox);
    sandbox.assert_cmd().arg("consolidate").assert().success();
    let memory = sandbox.store_dir().join("memory/MEMORY.md");
    let mut rng = lcmem_test_support::Rng::new(0x2545_f491_4f6c_dd1d);
    for round in 0..40 {
        sandbox
            .assert_cmd()
            .args(["facts", "add", &format!("Release train number {round} leaves on time.")])
            .assert()
            .success();
        let mut child = sandbox.cmd().arg("consolidate").stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(Duration::from_micros(rng.below(60_000)));
        child.kill().unwrap();
        child.wait().unwrap();
        let text = std::fs::read_to_string(&memory).unwrap();
        assert!(
            text.starts_with("# Project memory: project\n") && text.ends_with('\n'),
            "round {round}: damaged:\n{text}"
        );
        let report = sandbox.assert_cmd().args(["consolidate", "--json"]).output().unwrap();
        let report: serde_json::Value = serde_json::from_slice(&report.stdout).unwrap();
        assert_eq!(
            report["hand_edits"],
            serde_json::json!([]),
            "round {round}: the file was not one consolidation wrote"
        );
    }
}

/// A fact action that would change nothing says so and writes nothing; a
/// confirm can be taken back, except on a fact the person wrote.
#[test]
fn a_no_op_changes_nothing_and_a_confirm_can_be_taken_back() {
    let sandbox = Sandbox::new();
    sealed_example(&sandbox);
    let all = sandbox.assert_cmd().args(["facts", "--all", "--json"]).output().unwrap();
    let facts: Vec<serde_json::Value> = serde_json::from_slice(&all.stdout).unwrap();
    let fact =
        |text: &str| facts.iter().find(|f| f["text"] == text).unwrap_or_else(|| panic!("no fact {text}")).clone();
    let postgres = fact("The product cache uses Postgres.");
    let id = postgres["id"].as_str().unwrap().to_string();
    let state_before = postgres["state"].as_str().unwrap().to_string();
    assert_ne!(state_before, "confirmed");
    let log = sandbox.store_dir().join("memory/facts.jsonl");

    sandbox.assert_cmd().args(["facts", "confirm", &id]).assert().success();
    let confirmed = std::fs::read(&log).unwrap();
    for (verb, says) in [("confirm", "is confirmed already"), ("restore", "stands already"), ("unpin", "is not pinned")]
    {
        sandbox
            .assert_cmd()
            .args(["facts", verb, &id])
            .assert()
            .success()
            .stdout(predicate::str::contains(format!("unchanged: fact {id} {says}")))
            .stdout(predicate::str::contains("; nothing was written"));
        assert_eq!(std::fs::read(&log).unwrap(), confirmed, "`facts {verb}` on a fact it would not change wrote");
    }

    sandbox.assert_cmd().args(["facts", "unconfirm", &id]).assert().success().stdout(predicate::str::contains(
        format!("unconfirmed {id}: The product cache uses Postgres. [{state_before}]"),
    ));
    sandbox
        .assert_cmd()
        .args(["facts", "unconfirm", &id])
        .assert()
        .success()
        .stdout(predicate::str::contains("is not confirmed"));

    let added =
        sandbox.assert_cmd().args(["facts", "add", "Deploys go out from the release branch."]).output().unwrap();
    let own =
        String::from_utf8_lossy(&added.stdout).split_whitespace().nth(1).unwrap().trim_end_matches(':').to_string();
    sandbox
        .assert_cmd()
        .args(["facts", "unconfirm", &own])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("is your own (added by you), so there is no confirmation to take back"));
}
