//! A forgotten session stays forgotten, whatever was running: a seal racing
//! the forget in another process, the hooks and the catch-up seeing its
//! transcript again. Only importing the transcript by hand brings it back.
//! Each test brought the session back on the build before tombstones.

use std::path::Path;
use std::process::{Child, Stdio};

use crate::common::{Sandbox, claude_transcript};
use crate::trust_forget::{holding, session_about};

/// Rounds of the race; each starts a seal and a forget of a fresh session at
/// once. 20 keep each test near 20 s on a debug build (the build before
/// tombstones brought the session back in about half of them);
/// `LCMEM_RACE_ROUNDS=100` measures more by hand.
fn rounds() -> usize {
    std::env::var("LCMEM_RACE_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(20)
}

fn spawn(sandbox: &Sandbox, args: &[&str]) -> Child {
    sandbox.cmd().args(args).stdout(Stdio::null()).stderr(Stdio::piped()).spawn().unwrap()
}

/// After a round: the session is in no listing, no memory file, and no byte
/// of its word is anywhere under the home, nor its id (the tombstone holds a
/// keyed hash of it).
/// Returns what brought it back, empty when nothing did.
fn came_back(sandbox: &Sandbox, id: &str, word: &str) -> Vec<String> {
    let mut back = Vec::new();
    let listed = sandbox.cmd().args(["sessions", "--json"]).output().unwrap();
    let rows: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap_or_default();
    if rows.as_array().is_some_and(|rows| rows.iter().any(|r| r["id"] == id)) {
        back.push("listed by `lcmem sessions`".to_string());
    }
    for file in holding(&sandbox.home(), word) {
        back.push(format!("its word in {}", file.display()));
    }
    for file in holding(&sandbox.store_dir(), id) {
        back.push(format!("its id in {}", file.display()));
    }
    back
}

/// Imports a fresh session, then starts `seal` (with `seal_args`) and
/// `forget` as two processes at once; counts the rounds that brought it back.
fn race(sandbox: &Sandbox, seal_args: impl Fn(&str) -> Vec<String>) -> Vec<(usize, Vec<String>)> {
    let mut failed = Vec::new();
    for round in 0..rounds() {
        let (id, word) = (format!("race-{round:02}"), format!("zebracorn{round:02}x"));
        let file = sandbox.write_session(&id, &session_about(&word));
        sandbox.assert_cmd().arg("import").arg(&file).assert().success();
        let args = seal_args(&id);
        let seal = spawn(sandbox, &args.iter().map(String::as_str).collect::<Vec<_>>());
        let forget = spawn(sandbox, &["forget", &id]);
        let forgot = forget.wait_with_output().unwrap();
        assert!(forgot.status.success(), "round {round}: {}", String::from_utf8_lossy(&forgot.stderr));
        seal.wait_with_output().unwrap();
        let back = came_back(sandbox, &id, &word);
        if !back.is_empty() {
            failed.push((round, back));
        }
    }
    failed
}

/// Some sessions already sealed, so that a seal has a journal to read.
fn busy_store() -> Sandbox {
    let sandbox = Sandbox::new();
    let others: Vec<_> =
        (0..5).map(|i| sandbox.write_session(&format!("other-{i}"), &session_about("otter"))).collect();
    sandbox.assert_cmd().arg("import").args(&others).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    sandbox
}

#[test]
fn a_seal_racing_a_forget_never_brings_the_session_back() {
    let sandbox = busy_store();
    let failed = race(&sandbox, |id| vec!["seal".into(), id.into()]);
    assert!(failed.is_empty(), "{} of {} rounds brought the session back: {failed:#?}", failed.len(), rounds());
}

#[test]
fn a_seal_all_racing_a_forget_never_brings_the_session_back() {
    let sandbox = busy_store();
    let failed = race(&sandbox, |_| vec!["seal".into(), "--all".into()]);
    assert!(failed.is_empty(), "{} of {} rounds brought the session back: {failed:#?}", failed.len(), rounds());
}

/// The Stop hook as Claude Code runs it (it takes the transcript in, in
/// the foreground), or what SessionEnd starts in the background, run here in
/// the foreground: `lcmem catch-up --ended`, and a catch-up of the folder.
fn take_in_again(sandbox: &Sandbox, transcript: &Path, how: &str) -> std::process::Output {
    let mut cmd = sandbox.cmd();
    match how {
        "Stop" => {
            let input = serde_json::json!({
                "session_id": "c0ffee01", "transcript_path": transcript, "cwd": sandbox.project(),
                "hook_event_name": "Stop", "stop_hook_active": false
            });
            let child = cmd.args(["hook", "claude-code"]).stdin(Stdio::piped()).stdout(Stdio::piped());
            let mut child = child.stderr(Stdio::piped()).spawn().unwrap();
            use std::io::Write;
            child.stdin.take().unwrap().write_all(input.to_string().as_bytes()).unwrap();
            return child.wait_with_output().unwrap();
        }
        "SessionEnd" => cmd.args(["catch-up", "--quiet", "0s", "--ended"]).arg(transcript),
        _ => cmd.args(["catch-up", "--quiet", "0s", "--transcripts"]).arg(transcript.parent().unwrap()),
    };
    cmd.output().unwrap()
}

#[test]
fn the_hooks_and_the_catch_up_leave_a_forgotten_session_out_and_an_import_by_hand_brings_it_back() {
    let sandbox = Sandbox::new();
    let transcript = sandbox.dir.path().join("claude/c0ffee01.jsonl");
    std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    let prompt = "Please fix the zebracorn parser.";
    std::fs::write(&transcript, claude_transcript("c0ffee01", &sandbox.project(), prompt)).unwrap();
    let out = take_in_again(&sandbox, &transcript, "Stop");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let ids = stored_ids(&sandbox);
    assert_eq!(ids.len(), 1, "the hook took the session in: {ids:?} {}", crate::common::hooks_log(&sandbox));
    let id = ids[0].clone();
    sandbox.assert_cmd().args(["seal", &id]).assert().success();
    sandbox.assert_cmd().args(["forget", &id]).assert().success();
    assert_eq!(came_back(&sandbox, &id, "zebracorn"), Vec::<String>::new(), "forgotten");

    for how in ["Stop", "SessionEnd", "catch-up", "Stop"] {
        let out = take_in_again(&sandbox, &transcript, how);
        assert!(out.status.success(), "{how}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(came_back(&sandbox, &id, "zebracorn"), Vec::<String>::new(), "after {how}");
    }
    let tombstone = sandbox.store_dir().join("memory/forgotten.jsonl");
    let stone = std::fs::read_to_string(&tombstone).unwrap();
    assert!(stone.contains("\"session\":\"k1:") && stone.contains("2026-11-30"), "a keyed hash and the day: {stone}");
    assert!(!stone.contains(&id) && !stone.contains("zebracorn"), "{stone}");

    let out = sandbox.cmd().arg("import").arg(&transcript).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("unforgot  {id}")) && said.contains("brings it back"), "{said}");
    assert_eq!(stored_ids(&sandbox), vec![id.clone()], "imported by hand, it is back");
    assert!(!std::fs::read_to_string(&tombstone).unwrap().contains("k1:"), "and its tombstone is lifted");
}

fn stored_ids(sandbox: &Sandbox) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(sandbox.store_dir()) else { return Vec::new() };
    let mut ids: Vec<String> = entries
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter_map(|name| name.strip_suffix(".jsonl").map(str::to_string))
        .collect();
    ids.sort();
    ids
}
