//! The Claude Code hook as it runs after every reply: it never hangs on its
//! input, and a Stop on a grown transcript reads what was appended, not the
//! whole transcript. Bytes are counted (from the hook's log), never time; the
//! wall-clock ceiling below only keeps a hanging binary from hanging the suite.

use std::io::Write;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Sandbox, claude_transcript, lcmem_bin};

/// Longer than any bound of the hook: a hook still running by then hangs.
const HANG_GUARD: Duration = Duration::from_secs(10);

fn event(name: &str, cwd: &Path, transcript: &Path) -> String {
    json!({
        "session_id": "5f1d", "transcript_path": transcript, "cwd": cwd, "hook_event_name": name,
        "stop_hook_active": false, "reason": "other"
    })
    .to_string()
}

fn log_of(sandbox: &Sandbox) -> String {
    std::fs::read_to_string(sandbox.home().join("logs/hooks.log")).unwrap_or_default()
}

fn spawn_hook(sandbox: &Sandbox) -> Child {
    Command::new(lcmem_bin())
        .arg("--home")
        .arg(sandbox.home())
        .args(["hook", "claude-code"])
        .env("LCMEM_NOW", crate::common::NOW)
        .env_remove("LEVELCODE_HOME")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child` to exit; kills it and fails past the hang guard.
fn exit_status(mut child: Child, what: &str) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > HANG_GUARD {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: the hook was still running after {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The hook run to the end with `input` on stdin, the pipe then closed.
fn run_hook(sandbox: &Sandbox, input: &str) -> std::process::Output {
    let mut child = spawn_hook(sandbox);
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_hook_whose_stdin_stays_open_returns_once_it_has_one_json_value() {
    let sandbox = Sandbox::new();
    let transcript = sandbox.inbox().join("5f1d.jsonl");
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    std::fs::write(&transcript, claude_transcript("5f1d", &sandbox.project(), "Please fix the parser.")).unwrap();

    // The whole event, then the pipe left open, as Claude Code sometimes does.
    let mut child = spawn_hook(&sandbox);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(event("Stop", &sandbox.project(), &transcript).as_bytes()).unwrap();
    stdin.flush().unwrap();
    let status = exit_status(child, "a complete event on an open pipe");
    assert_eq!(status.code(), Some(0));
    assert!(sandbox.store_dir().join("5f1d.jsonl").exists(), "the event was not handled: {}", log_of(&sandbox));
    drop(stdin);

    // Half an event and the pipe left open: the hook gives up within its bound.
    let mut child = spawn_hook(&sandbox);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(br#"{"hook_event_name": "Stop", "cwd": "#).unwrap();
    stdin.flush().unwrap();
    let status = exit_status(child, "half an event on an open pipe");
    assert_eq!(status.code(), Some(0));
    assert!(log_of(&sandbox).contains("no complete hook input on stdin within 2 s"), "{}", log_of(&sandbox));
    drop(stdin);
}

#[test]
fn a_hook_input_past_the_size_bound_is_given_up() {
    let sandbox = Sandbox::new();
    let mut child = spawn_hook(&sandbox);
    let mut stdin = child.stdin.take().unwrap();
    // An unfinished string of 2 MiB: never one JSON value within the bound.
    let big = format!(r#"{{"hook_event_name": "Stop", "cwd": "{}"#, "x".repeat(2 << 20));
    let _ = stdin.write_all(big.as_bytes());
    let status = exit_status(child, "an oversized input on an open pipe");
    assert_eq!(status.code(), Some(0));
    assert!(log_of(&sandbox).contains("larger than 1024 KiB"), "{}", log_of(&sandbox));
    drop(stdin);
}

/// Claude Code records: `n` user and assistant turns of about 1 KB each.
fn records(id: &str, cwd: &Path, range: std::ops::Range<usize>) -> String {
    range
        .map(|i| {
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            let text = format!("Turn {i}: {}", "the parser keeps its state between the lines it reads. ".repeat(18));
            json!({
                "type": role, "sessionId": id, "uuid": format!("{id}-{i}"), "cwd": cwd, "isSidechain": false,
                "timestamp": "2026-11-20T09:00:00Z", "message": {"role": role, "content": text}
            })
            .to_string()
                + "\n"
        })
        .collect()
}

/// The figures of the log's last line: "read the A bytes appended after
/// byte F of S, and C earlier bytes to check them" as (A, F, S, C).
fn last_reading(log: &str) -> Option<(u64, u64, u64, u64)> {
    let line = log.lines().last()?;
    let rest = &line[line.find("; read the ")? + "; read the ".len()..];
    let numbers: Vec<u64> =
        rest.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap()).collect();
    match numbers[..] {
        [appended, from, size, checked, ..] => Some((appended, from, size, checked)),
        _ => None,
    }
}

#[test]
fn a_grown_transcripts_stop_reads_only_the_new_lines() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    let transcript = sandbox.inbox().join("5f1d.jsonl");
    std::fs::write(&transcript, records("5f1d", &sandbox.project(), 0..1500)).unwrap();
    let stop = event("Stop", &sandbox.project(), &transcript);
    assert!(run_hook(&sandbox, &stop).status.success());
    assert!(log_of(&sandbox).contains("added 5f1d"), "{}", log_of(&sandbox));

    let mut file = std::fs::OpenOptions::new().append(true).open(&transcript).unwrap();
    let added = records("5f1d", &sandbox.project(), 1500..1520);
    file.write_all(added.as_bytes()).unwrap();
    assert!(run_hook(&sandbox, &stop).status.success());
    let log = log_of(&sandbox);
    assert!(log.lines().last().unwrap().contains("extended 5f1d by 20 line(s)"), "{log}");
    let (appended, from, size, checked) =
        last_reading(&log).unwrap_or_else(|| panic!("no bytes-read figure in the log: {log}"));
    let size_now = std::fs::metadata(&transcript).unwrap().len();
    assert_eq!(size, size_now);
    assert!(size > 1_500_000, "a large transcript: {size}");
    // The figures add up: what was appended is what follows `from`.
    assert_eq!((appended, from + appended), (added.len() as u64, size), "{log}");
    assert!(checked <= 16 * 1024, "read {checked} earlier bytes for {appended} appended");
    let stored = std::fs::read_to_string(sandbox.store_dir().join("5f1d.jsonl")).unwrap();
    assert!(stored.contains("Turn 1519:") && stored.matches("Turn 1500:").count() == 1);
}

#[test]
fn a_transcript_rewritten_in_place_is_converted_in_full_and_the_log_says_so() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    let transcript = sandbox.inbox().join("5f1d.jsonl");
    let snapshot = |n: u32| format!("{{\"type\":\"file-history-snapshot\",\"messageId\":\"m{n}\"}}\n");
    let body = records("5f1d", &sandbox.project(), 0..40);
    std::fs::write(&transcript, snapshot(1) + &body).unwrap();
    let stop = event("Stop", &sandbox.project(), &transcript);
    assert!(run_hook(&sandbox, &stop).status.success());
    // The same bytes but one, early on, in a record lcmem does not convert.
    std::fs::write(&transcript, snapshot(2) + &body).unwrap();
    assert!(run_hook(&sandbox, &stop).status.success());
    let log = log_of(&sandbox);
    let last = log.lines().last().unwrap();
    assert!(last.contains("rewritten since the last import") && last.contains("converted in full"), "{log}");
    assert!(last.contains("5f1d unchanged"), "{log}");
}

#[test]
fn an_unwritable_store_is_reported_on_stderr_and_in_the_log() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    let transcript = sandbox.inbox().join("5f1d.jsonl");
    std::fs::write(&transcript, claude_transcript("5f1d", &sandbox.project(), "Please fix the parser.")).unwrap();
    // The store's memory folder is a file: nothing can be written under it.
    std::fs::create_dir_all(sandbox.store_dir()).unwrap();
    std::fs::write(sandbox.store_dir().join("memory"), "not a folder").unwrap();
    let out = run_hook(&sandbox, &event("Stop", &sandbox.project(), &transcript));
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("lcmem hook: error:") && stderr.contains("memory"), "{stderr}");
    assert!(log_of(&sandbox).contains("Stop: error:"), "{}", log_of(&sandbox));
}

#[test]
fn install_makes_the_stop_hook_async_and_keeps_the_users_entries() {
    let sandbox = Sandbox::new();
    let claude = sandbox.dir.path().join("claude");
    std::fs::create_dir_all(&claude).unwrap();
    let users = json!({
        "model": "opus",
        "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}]}
    });
    std::fs::write(claude.join("settings.json"), users.to_string()).unwrap();
    let status = Command::new(lcmem_bin())
        .arg("--home")
        .arg(sandbox.home())
        .args(["install", "claude-code", "--command", "lcmem"])
        .env("CLAUDE_CONFIG_DIR", &claude)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let after: Value = serde_json::from_slice(&std::fs::read(claude.join("settings.json")).unwrap()).unwrap();
    assert_eq!(after["model"], "opus");
    let stop = after["hooks"]["Stop"].as_array().unwrap();
    assert_eq!(stop[0], users["hooks"]["Stop"][0], "the user's Stop hook changed");
    let ours = &stop.last().unwrap()["hooks"][0];
    assert_eq!(ours["command"], "lcmem hook claude-code");
    assert_eq!(ours["async"], true, "Claude Code waits for a synchronous Stop hook: {ours}");
    for event in ["SessionStart", "SessionEnd"] {
        let hook = &after["hooks"][event][0]["hooks"][0];
        assert!(hook.get("async").is_none(), "{event} must stay synchronous: {hook}");
    }
}

#[test]
fn the_importers_cache_keeps_no_secret_and_no_first_prompt() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.inbox()).unwrap();
    let transcript = sandbox.inbox().join("5f1d.jsonl");
    // A made-up key in the shape the redactor knows, pasted into the first prompt.
    let body: String = (0..24).map(|i| char::from(b'A' + (i * 7 % 26) as u8)).collect::<String>().repeat(3);
    let key = format!("-----BEGIN OPENSSH PRIVATE KEY-----\n{body}\n-----END OPENSSH PRIVATE KEY-----");
    let prompt = format!("Deploy with this key, then fix the parser:\n{key}");
    std::fs::write(&transcript, claude_transcript("5f1d", &sandbox.project(), &prompt)).unwrap();
    assert!(run_hook(&sandbox, &event("Stop", &sandbox.project(), &transcript)).status.success());
    let states: Vec<_> = crate::common::files_under(&sandbox.store_dir().join("cache/transcripts"));
    assert!(!states.is_empty(), "the Stop hook keeps a state for the transcript");
    for state in states {
        let text = std::fs::read_to_string(&state).unwrap();
        assert!(!text.contains(&body), "{}: the pasted key is in the cache: {text}", state.display());
        assert!(!text.contains("Deploy with this key"), "{}: the first prompt is kept: {text}", state.display());
    }
}
