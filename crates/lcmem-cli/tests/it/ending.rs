//! How sessions end, as the real agents end them: SessionEnd fires before
//! the transcript's last lines are written, headless sessions often end with
//! no SessionEnd at all, and the agent's exit must not wait for a seal. Real
//! processes throughout: the hook, the catch-up it starts in the background,
//! a writer appending to the transcript.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use serde_json::{Value, json};

use crate::common::{Sandbox, eventually, eventually_or, hooks_log, sealed_ids};

/// A Claude Code record of session `id` in `cwd`.
fn record(id: &str, cwd: &Path, n: usize, kind: &str, content: Value) -> String {
    json!({
        "type": kind, "sessionId": id, "uuid": format!("{id}-{n}"), "cwd": cwd, "isSidechain": false,
        "timestamp": format!("2026-11-20T09:{n:02}:00Z"), "message": {"role": kind, "content": content}
    })
    .to_string()
        + "\n"
}

/// The prompt: what the transcript holds when the hook fires early.
fn prompt(id: &str, cwd: &Path) -> String {
    record(id, cwd, 1, "user", json!("Add a notes file with the release checklist."))
}

/// The last lines: the Write, its result, the reply.
fn last_lines(id: &str, cwd: &Path) -> String {
    let write = json!([{"type": "tool_use", "id": format!("{id}-w"), "name": "Write",
                        "input": {"file_path": cwd.join("notes.txt"), "content": "1. tag\n2. publish\n"}}]);
    let result = json!([{"type": "tool_result", "tool_use_id": format!("{id}-w"), "content": "File created"}]);
    let reply = json!([{"type": "text", "text": "Added notes.txt with the release checklist: tag, then publish."}]);
    record(id, cwd, 2, "assistant", write)
        + &record(id, cwd, 3, "user", result)
        + &record(id, cwd, 4, "assistant", reply)
}

fn hook(sandbox: &Sandbox, event: &str, transcript: &Path) -> std::process::Output {
    let input = json!({
        "session_id": transcript.file_stem().unwrap().to_string_lossy(), "transcript_path": transcript,
        "cwd": sandbox.project(), "hook_event_name": event
    });
    let out = sandbox.assert_cmd().args(["hook", "claude-code"]).write_stdin(input.to_string()).output().unwrap();
    assert!(out.status.success(), "{event}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(event == "SessionStart" || out.stdout.is_empty(), "{event} printed something");
    out
}

fn transcript(sandbox: &Sandbox, id: &str) -> PathBuf {
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    sandbox.inbox().join(format!("{id}.jsonl"))
}

/// The journal's current entry for `id`.
fn entry(sandbox: &Sandbox, id: &str) -> Value {
    let out = sandbox.assert_cmd().args(["journal", "--json"]).assert().success().get_output().stdout.clone();
    let entries: Vec<Value> = serde_json::from_slice(&out).unwrap();
    entries.into_iter().find(|e| e["session_id"] == id).unwrap_or_else(|| panic!("{id} is not in the journal"))
}

/// Makes a transcript look as if it was last written an hour ago.
fn age(path: &Path) {
    let file = std::fs::File::options().append(true).open(path).unwrap();
    file.set_modified(SystemTime::now() - Duration::from_secs(3600)).unwrap();
}

#[test]
fn a_session_end_that_fires_before_the_last_lines_is_sealed_with_them() {
    let sandbox = Sandbox::new();
    let t = transcript(&sandbox, "e1");
    std::fs::write(&t, prompt("e1", &sandbox.project())).unwrap();
    hook(&sandbox, "SessionEnd", &t);
    // The agent writes its last lines after SessionEnd fired, as Claude Code does.
    std::thread::sleep(Duration::from_millis(100));
    std::fs::OpenOptions::new()
        .append(true)
        .open(&t)
        .unwrap()
        .write_all(last_lines("e1", &sandbox.project()).as_bytes())
        .unwrap();
    eventually("e1 is sealed", || sealed_ids(&sandbox.journal()) == ["e1"]);
    let e1 = entry(&sandbox, "e1");
    let summary = e1["summary"].as_str().unwrap();
    assert!(summary.contains("notes.txt") && !summary.to_lowercase().contains("no changes made"), "{e1:#}");
    assert!(e1["files"].as_array().unwrap().iter().any(|f| f == "notes.txt"), "{e1:#}");
}

#[test]
fn a_session_that_never_got_a_session_end_is_sealed_by_the_next_start_or_stop() {
    for (n, next) in ["SessionStart", "Stop"].into_iter().enumerate() {
        let sandbox = Sandbox::new();
        // A headless session: its Stop imported it, and nothing ended it.
        let headless = transcript(&sandbox, &format!("h{n}"));
        std::fs::write(
            &headless,
            prompt(&format!("h{n}"), &sandbox.project()) + &last_lines(&format!("h{n}"), &sandbox.project()),
        )
        .unwrap();
        hook(&sandbox, "Stop", &headless);
        assert!(sealed_ids(&sandbox.journal()).is_empty(), "Stop never seals");
        age(&headless);
        // The next session of the project starts, or finishes a turn.
        let next_one = transcript(&sandbox, &format!("next{n}"));
        std::fs::write(&next_one, record(&format!("next{n}"), &sandbox.project(), 1, "user", json!("What is left?")))
            .unwrap();
        hook(&sandbox, next, &next_one);
        let id = format!("h{n}");
        eventually(&format!("{id} is sealed after {next}"), || sealed_ids(&sandbox.journal()).contains(&id));
        assert!(
            !sealed_ids(&sandbox.journal()).iter().any(|s| s.starts_with("next")),
            "the running session is left alone"
        );
        assert!(entry(&sandbox, &id)["summary"].as_str().unwrap().contains("notes.txt"));
        let said = format!("catch-up: {id} unchanged, sealed");
        eventually(&said, || hooks_log(&sandbox).contains(&said));
    }
}

#[test]
fn seal_all_leaves_a_session_that_is_still_going_and_naming_it_seals_it() {
    let sandbox = Sandbox::new();
    let t = transcript(&sandbox, "live");
    std::fs::write(&t, prompt("live", &sandbox.project()) + &last_lines("live", &sandbox.project())).unwrap();
    hook(&sandbox, "Stop", &t);
    let out = sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(stderr.contains("still going  live") && stderr.contains("lcmem seal live"), "{stderr}");
    assert!(sealed_ids(&sandbox.journal()).is_empty());
    // Named, it is sealed, after its transcript was read to the end.
    std::fs::OpenOptions::new()
        .append(true)
        .open(&t)
        .unwrap()
        .write_all(
            record(
                "live",
                &sandbox.project(),
                5,
                "assistant",
                json!([{"type": "text", "text": "Also added a CHANGELOG entry for it."}]),
            )
            .as_bytes(),
        )
        .unwrap();
    sandbox.assert_cmd().args(["seal", "live"]).assert().success();
    let stored = std::fs::read_to_string(sandbox.store_dir().join("live.jsonl")).unwrap();
    assert!(stored.contains("Also added a CHANGELOG entry"), "the seal read the transcript to its end: {stored}");
}

#[test]
fn two_session_ends_at_once_seal_once() {
    let sandbox = Sandbox::new();
    let t = transcript(&sandbox, "twice");
    std::fs::write(&t, prompt("twice", &sandbox.project()) + &last_lines("twice", &sandbox.project())).unwrap();
    let input =
        json!({"session_id": "twice", "transcript_path": t, "cwd": sandbox.project(), "hook_event_name": "SessionEnd"});
    let hooks: Vec<_> = (0..2)
        .map(|_| {
            let mut child =
                sandbox.cmd().args(["hook", "claude-code"]).stdin(std::process::Stdio::piped()).spawn().unwrap();
            child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
            child
        })
        .collect();
    for mut child in hooks {
        assert!(child.wait().unwrap().success());
    }
    eventually_or(
        "both background seals said what they did",
        || hooks_log(&sandbox).matches("SessionEnd: ").count() == 2,
        || hooks_log(&sandbox),
    );
    let journal = std::fs::read_to_string(sandbox.journal()).unwrap();
    assert_eq!(journal.lines().filter(|l| l.contains("\"type\":\"sealed\"")).count(), 1, "{journal}");
}

#[test]
fn catch_up_says_what_it_sealed_as_json() {
    let sandbox = Sandbox::new();
    let t = transcript(&sandbox, "c1");
    std::fs::write(&t, prompt("c1", &sandbox.project()) + &last_lines("c1", &sandbox.project())).unwrap();
    hook(&sandbox, "Stop", &t);
    let none = sandbox.assert_cmd().args(["catch-up"]).assert().success();
    assert!(String::from_utf8_lossy(&none.get_output().stdout).contains("nothing to catch up"));
    age(&t);
    let out = sandbox.assert_cmd().args(["catch-up", "--json"]).assert().success();
    let rows: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!((rows[0]["session"].as_str(), rows[0]["sealed"].as_bool()), (Some("c1"), Some(true)), "{rows:#?}");
    assert_eq!(sealed_ids(&sandbox.journal()), ["c1"]);
}
