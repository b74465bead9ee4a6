//! Real processes: writers killed mid-append, and writers racing each other.

use std::collections::HashSet;
use std::process::Stdio;

use crate::common::{Sandbox, sealed_ids, working_session};

fn import_sessions(sandbox: &Sandbox, ids: &[String]) {
    let files: Vec<_> = ids.iter().map(|id| sandbox.write_session(id, &working_session(id.len()))).collect();
    let out = sandbox.cmd().arg("import").args(&files).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// 200 times: start a writer sealing many sessions, SIGKILL it at a random
/// moment. After each kill every line that was complete before is still
/// there; at the end the journal reads cleanly and holds every session once.
#[test]
fn writers_killed_mid_append_never_damage_the_journal() {
    let sandbox = Sandbox::new();
    let ids: Vec<String> = (0..300).map(|i| format!("crash-{i:03}")).collect();
    import_sessions(&sandbox, &ids);

    let mut rng = lcmem_test_support::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut previous: Vec<String> = Vec::new();
    for round in 0..200 {
        let child = sandbox.cmd().args(["seal", "--all"]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap();
        crate::common::kill_at_random(child, &mut rng, 12_000);

        // Read through the library: only a torn last line may be unreadable.
        let lines = lcmem::jsonl::read(&sandbox.journal()).unwrap();
        for (i, line) in lines.iter().enumerate() {
            if let Err(problem) = &line.parsed {
                assert!(
                    i + 1 == lines.len() && *problem == lcmem::jsonl::LineProblem::Torn,
                    "round {round}: line {} is damaged: {problem}",
                    line.number
                );
            }
        }
        let now: Vec<String> = lines
            .iter()
            .filter_map(|l| l.parsed.as_ref().ok())
            .filter(|v| v["type"] == "sealed")
            .map(|v| v["session_id"].as_str().unwrap().to_string())
            .collect();
        assert!(now.starts_with(&previous), "round {round}: a completed line was lost");
        previous = now;
    }

    let out = sandbox.cmd().args(["seal", "--all"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let sealed = sealed_ids(&sandbox.journal());
    assert_eq!(sealed.len(), ids.len(), "every session sealed exactly once");
    assert_eq!(sealed.iter().collect::<HashSet<_>>().len(), ids.len());
    assert!(previous.len() < ids.len(), "the kills must have interrupted real work for this test to mean anything");
    let facts = std::fs::read_to_string(sandbox.store_dir().join("memory/facts.jsonl")).unwrap();
    for line in facts.lines() {
        serde_json::from_str::<serde_json::Value>(line).expect("every facts line reads cleanly");
    }
}

/// 8 processes sealing 50 sessions each at once: exactly 400 whole lines.
#[test]
fn eight_processes_sealing_at_once_give_exactly_400_lines() {
    let sandbox = Sandbox::new();
    let ids: Vec<String> = (0..400).map(|i| format!("race-{i:03}")).collect();
    import_sessions(&sandbox, &ids);

    let children: Vec<_> = ids
        .chunks(50)
        .map(|chunk| {
            sandbox.cmd().arg("seal").args(chunk).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let text = std::fs::read_to_string(sandbox.journal()).unwrap();
    assert_eq!(text.lines().count(), 400);
    let sealed = sealed_ids(&sandbox.journal());
    assert_eq!(sealed.iter().collect::<HashSet<_>>(), ids.iter().collect::<HashSet<_>>());
}

/// Processes racing to seal the *same* sessions still write each one once.
#[test]
fn racing_to_seal_the_same_sessions_writes_each_once() {
    let sandbox = Sandbox::new();
    let ids: Vec<String> = (0..60).map(|i| format!("same-{i:02}")).collect();
    import_sessions(&sandbox, &ids);
    let children: Vec<_> =
        (0..4).map(|_| sandbox.cmd().args(["seal", "--all"]).stdout(Stdio::null()).spawn().unwrap()).collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let sealed = sealed_ids(&sandbox.journal());
    assert_eq!(sealed.len(), 60, "no session sealed twice");
}
