//! Wiring into agents: `lcmem hook claude-code`, `lcmem install claude-code`
//! and `lcmem watch`, run as Claude Code and a user run them.

use std::path::{Path, PathBuf};

use crate::common::{Sandbox, claude_transcript, sealed_ids};
use serde_json::{Value, json};

fn examples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/sessions")
}

/// The hook as Claude Code runs it: the event's JSON on stdin.
fn hook(sandbox: &Sandbox, input: &str) -> std::process::Output {
    sandbox.assert_cmd().args(["hook", "claude-code"]).write_stdin(input.to_string()).output().unwrap()
}

fn event(name: &str, cwd: &Path, transcript: &Path) -> String {
    json!({
        "session_id": "5f1d", "transcript_path": transcript, "cwd": cwd, "hook_event_name": name,
        "source": "startup", "reason": "prompt_input_exit", "stop_hook_active": false
    })
    .to_string()
}

fn log_of(sandbox: &Sandbox) -> String {
    std::fs::read_to_string(sandbox.home().join("logs/hooks.log")).unwrap_or_default()
}

/// Claude Code's documented output for a command hook (code.claude.com/docs/en/hooks: "JSON output" and
/// "SessionStart decision control"): an object of the common fields, whose `hookSpecificOutput` for
/// SessionStart holds `hookEventName: "SessionStart"` and a string `additionalContext`.
fn check_session_start_output(stdout: &[u8]) -> String {
    let text = std::str::from_utf8(stdout).unwrap();
    assert_eq!(text.trim_end().lines().count(), 1, "one JSON object expected: {text}");
    let output: Value = serde_json::from_str(text).expect("stdout is JSON");
    let object = output.as_object().expect("a JSON object");
    let common = ["continue", "stopReason", "suppressOutput", "systemMessage", "hookSpecificOutput"];
    for key in object.keys() {
        assert!(common.contains(&key.as_str()), "{key} is not a documented field");
    }
    let specific = object["hookSpecificOutput"].as_object().expect("hookSpecificOutput is an object");
    let mut keys: Vec<_> = specific.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(keys, ["additionalContext", "hookEventName"]);
    assert_eq!(specific["hookEventName"], "SessionStart");
    assert!(object.get("continue").is_none_or(|c| c == true), "the hook must never stop the session");
    specific["additionalContext"].as_str().expect("additionalContext is a string").to_string()
}

#[test]
fn session_start_gives_the_framed_digest_in_claude_codes_schema() {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").arg(examples()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let out = hook(&sandbox, &event("SessionStart", &sandbox.project(), Path::new("/unused.jsonl")));
    assert!(out.status.success());
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
    let context = check_session_start_output(&out.stdout);
    let memory_md = std::fs::read_to_string(sandbox.store_dir().join("memory/MEMORY.md")).unwrap();
    assert!(context.contains("never instructions"), "{context}");
    // MEMORY.md as written, but for its notes to a person editing it.
    assert!(memory_md.contains("<!--") && !context.contains("<!--"), "{context}");
    for line in memory_md.lines().filter(|l| !l.trim().is_empty() && !l.contains("<!--")) {
        assert!(context.contains(line), "the digest lacks MEMORY.md's line {line:?}:\n{context}");
    }
    assert!(context.contains("`recall_sessions`"), "and says where the rest is: {context}");
    assert!(context.contains("CHANGELOG") && context.contains("v1.0.4"), "{context}");
}

/// The agent CLI that lcmem's command lane asks runs with `LCMEM_LANE`
/// set: its hooks give no digest and take nothing in.
#[test]
fn under_the_command_lane_the_hook_does_nothing() {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").arg(examples()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let transcript = sandbox.inbox().join("lane.jsonl");
    std::fs::write(&transcript, claude_transcript("lane", &sandbox.project(), "Please fix the parser.")).unwrap();
    let run = |name: &str, lane: bool| {
        let mut command = sandbox.assert_cmd();
        command.args(["hook", "claude-code"]).write_stdin(event(name, &sandbox.project(), &transcript));
        if lane {
            command.env("LCMEM_LANE", "1");
        }
        command.output().unwrap()
    };
    let out = run("SessionStart", true);
    assert!(out.status.success() && out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(run("Stop", true).status.success());
    assert!(!sandbox.store_dir().join("lane.jsonl").exists(), "the lane's session was taken in");
    // Without it, the same hook gives the digest.
    assert!(!run("SessionStart", false).stdout.is_empty());
}

#[test]
fn session_end_imports_and_seals_stop_imports_only_and_again_is_a_no_op() {
    let sandbox = Sandbox::new();
    let transcript = sandbox.inbox().join("5f1d.jsonl");
    std::fs::write(&transcript, claude_transcript("5f1d", &sandbox.project(), "Please fix the parser.")).unwrap();

    let out = hook(&sandbox, &event("Stop", &sandbox.project(), &transcript));
    assert!(out.status.success() && out.stdout.is_empty());
    assert!(sandbox.store_dir().join("5f1d.jsonl").exists(), "Stop did not import: {}", log_of(&sandbox));
    assert!(sealed_ids(&sandbox.journal()).is_empty(), "Stop must not seal: the session goes on");

    for n in 0..2 {
        let out = hook(&sandbox, &event("SessionEnd", &sandbox.project(), &transcript));
        assert!(out.status.success() && out.stdout.is_empty());
        // The seal runs in the background; the second waits for the first.
        let said =
            if n == 0 { "SessionEnd: 5f1d unchanged, sealed" } else { "SessionEnd: 5f1d unchanged, already sealed" };
        crate::common::eventually(said, || log_of(&sandbox).contains(said));
    }
    assert_eq!(sealed_ids(&sandbox.journal()), ["5f1d"]);
    let stored = std::fs::read_to_string(sandbox.store_dir().join("5f1d.jsonl")).unwrap();
    let prompts = stored.lines().filter(|l| l.contains(r#""type":"message""#) && l.contains("Please fix the parser."));
    assert_eq!(prompts.count(), 1, "{stored}");
}

#[test]
fn the_hook_never_breaks_a_session() {
    let sandbox = Sandbox::new();
    let project = sandbox.project();
    let transcript = sandbox.inbox().join("t.jsonl");
    let quiet = |input: &str, why: &str| {
        let out = hook(&sandbox, input);
        assert_eq!(out.status.code(), Some(0), "{why}");
        assert!(out.stdout.is_empty(), "{why}: printed {}", String::from_utf8_lossy(&out.stdout));
        assert!(out.stderr.is_empty(), "{why}: {}", String::from_utf8_lossy(&out.stderr));
    };

    // No store at all yet.
    quiet(&event("SessionStart", &project, &transcript), "no store");
    assert!(!sandbox.home().join("sessions").exists(), "SessionStart created a store");
    // A transcript that is not there, one that is binary noise, one of broken JSON lines.
    quiet(&event("SessionEnd", &project, &transcript), "missing transcript");
    std::fs::write(&transcript, [0u8, 159, 146, 150, 255, 10, 1, 2]).unwrap();
    quiet(&event("SessionEnd", &project, &transcript), "binary transcript");
    std::fs::write(&transcript, "{\"type\": \"user\", \"message\": \n{not json\n[1,2]\n").unwrap();
    quiet(&event("SessionEnd", &project, &transcript), "corrupt transcript");
    // Input that is not a hook event at all, or lacks what is needed.
    quiet("", "empty input");
    quiet("not json", "garbage input");
    quiet(r#"{"hook_event_name": "SessionEnd"}"#, "no cwd, no transcript");
    quiet(&event("PreToolUse", &project, &transcript), "an event lcmem does not handle");
    // The binary and the corrupt transcripts were handed to the background.
    crate::common::eventually("both ended transcripts are read", || {
        log_of(&sandbox).matches("no user prompt in it yet").count() == 2
    });
    assert!(sealed_ids(&sandbox.journal()).is_empty());
    // Nothing to take in leaves no trace: no store, no folder, no lock.
    assert!(!sandbox.home().join("sessions").exists(), "a hook with nothing to do created a store");
    let log = log_of(&sandbox);
    assert!(
        log.contains("SessionEnd: nothing to take in at") && log.contains("t.jsonl: there is no such file"),
        "{log}"
    );
    assert!(log.lines().all(|l| l.matches("t.jsonl").count() <= 1), "a path said twice in one line: {log}");
    assert!(log.contains("not Claude Code's hook JSON"), "{log}");

    // Memory off: nothing printed at start, nothing imported at the end.
    sandbox.assert_cmd().arg("import").arg(examples()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "false"]).assert().success();
    std::fs::write(&transcript, claude_transcript("off1", &project, "Remember nothing of this.")).unwrap();
    quiet(&event("SessionStart", &project, &transcript), "memory off at start");
    quiet(&event("SessionEnd", &project, &transcript), "memory off at the end");
    crate::common::eventually("the background seal says memory is off", || {
        log_of(&sandbox).contains("SessionEnd: memory is off for this project")
    });
    assert!(!sandbox.store_dir().join("off1.jsonl").exists(), "a session was imported with memory off");
}

fn install(sandbox: &Sandbox, claude_dir: &Path, extra: &[&str]) -> assert_cmd::assert::Assert {
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_lcmem"));
    cmd.args(["--home"]).arg(sandbox.home()).args(["install", "claude-code", "--command", "/opt/lcmem/bin/lcmem"]);
    cmd.args(extra).env("CLAUDE_CONFIG_DIR", claude_dir).assert()
}

#[test]
fn install_keeps_the_users_hooks_shows_the_diff_and_is_idempotent() {
    let sandbox = Sandbox::new();
    let claude = sandbox.dir.path().join("claude");
    std::fs::create_dir_all(&claude).unwrap();
    let users = json!({
        "model": "opus",
        "permissions": {"allow": ["Bash(npm test)"]},
        "hooks": {
            "SessionStart": [{"matcher": "startup", "hooks": [{"type": "command", "command": "echo hello"}]}],
            "Stop": [{"hooks": [{"type": "command", "command": "notify-send done", "timeout": 5}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]
        }
    });
    let settings = claude.join("settings.json");
    std::fs::write(&settings, serde_json::to_string_pretty(&users).unwrap()).unwrap();
    std::fs::write(claude.join(".claude.json"), r#"{"mcpServers": {"db": {"command": "pg-mcp"}}, "numStartups": 7}"#)
        .unwrap();

    // A dry run shows the change and writes nothing.
    let before = std::fs::read(&settings).unwrap();
    let out = install(&sandbox, &claude, &["--dry-run"]).success();
    let shown = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(shown.contains("+") && shown.contains("hook claude-code") && shown.contains("dry run"), "{shown}");
    assert_eq!(std::fs::read(&settings).unwrap(), before);

    install(&sandbox, &claude, &[]).success();
    let after: Value = serde_json::from_slice(&std::fs::read(&settings).unwrap()).unwrap();
    assert_eq!(after["model"], "opus");
    assert_eq!(after["permissions"], users["permissions"]);
    assert_eq!(after["hooks"]["PreToolUse"], users["hooks"]["PreToolUse"]);
    for (event, users_groups) in [("SessionStart", 1), ("Stop", 1), ("SessionEnd", 0)] {
        let groups = after["hooks"][event].as_array().unwrap();
        assert_eq!(groups.len(), users_groups + 1, "{event}: {groups:?}");
        if users_groups == 1 {
            assert_eq!(groups[0], users["hooks"][event][0], "the user's {event} hook changed");
        }
        assert_eq!(groups.last().unwrap()["hooks"][0]["command"], "/opt/lcmem/bin/lcmem hook claude-code");
    }
    let servers: Value = serde_json::from_slice(&std::fs::read(claude.join(".claude.json")).unwrap()).unwrap();
    assert_eq!(servers["numStartups"], 7);
    assert_eq!(servers["mcpServers"]["db"]["command"], "pg-mcp");
    assert_eq!(
        servers["mcpServers"]["lcmem"],
        json!({"type": "stdio", "command": "/opt/lcmem/bin/lcmem", "args": ["mcp"]})
    );
    assert_eq!(std::fs::read(claude.join("settings.json.lcmem-backup")).unwrap(), before, "no backup of the original");

    // Again: nothing changes, byte for byte.
    let (settings_now, servers_now) =
        (std::fs::read(&settings).unwrap(), std::fs::read(claude.join(".claude.json")).unwrap());
    let out = install(&sandbox, &claude, &[]).success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).matches("unchanged").count() == 2);
    assert_eq!(std::fs::read(&settings).unwrap(), settings_now);
    assert_eq!(std::fs::read(claude.join(".claude.json")).unwrap(), servers_now);
}

#[test]
fn install_refuses_to_touch_a_broken_settings_file_and_can_target_one_project() {
    let sandbox = Sandbox::new();
    let claude = sandbox.dir.path().join("claude");
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::write(claude.join("settings.json"), "{\n  \"model\": \"opus\",\n  oops\n}\n").unwrap();
    let out = install(&sandbox, &claude, &[]).code(1);
    let error = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(error.contains("settings.json:3:") && error.contains("nothing was changed"), "{error}");
    assert_eq!(
        std::fs::read_to_string(claude.join("settings.json")).unwrap(),
        "{\n  \"model\": \"opus\",\n  oops\n}\n"
    );

    install(&sandbox, &claude, &["--project"]).code(2);
    let mut cmd = assert_cmd::Command::new(env!("CARGO_BIN_EXE_lcmem"));
    cmd.arg("--project").arg(sandbox.project()).args(["install", "claude-code", "--command", "lcmem"]);
    cmd.env("CLAUDE_CONFIG_DIR", &claude).assert().success();
    let project: Value =
        serde_json::from_slice(&std::fs::read(sandbox.project().join(".claude/settings.json")).unwrap()).unwrap();
    assert_eq!(project["hooks"]["SessionEnd"][0]["hooks"][0]["command"], "lcmem hook claude-code");
    let mcp: Value = serde_json::from_slice(&std::fs::read(sandbox.project().join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(mcp["mcpServers"]["lcmem"]["args"], json!(["mcp"]));
}

#[test]
fn watch_takes_in_quiet_transcripts_once_each() {
    let sandbox = Sandbox::new();
    let root = sandbox.dir.path().join("claude-projects");
    let folder = root.join("-work-project");
    std::fs::create_dir_all(&folder).unwrap();
    for id in ["w1", "w2"] {
        let text = claude_transcript(id, &sandbox.project(), &format!("Please look at bug {id}."));
        std::fs::write(folder.join(format!("{id}.jsonl")), text).unwrap();
    }
    let empty = sandbox.dir.path().join("no-codex");
    let watch = |idle: &str| {
        let out = sandbox
            .assert_cmd()
            .args(["watch", "--once", "--idle", idle, "--dir"])
            .arg(format!("claude-code={}", root.display()))
            .arg("--dir")
            .arg(format!("codex={}", empty.display()))
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stdout).into_owned()
    };
    // Just written: not quiet for an hour, so nothing is taken in.
    assert_eq!(watch("1h"), "");
    assert!(sealed_ids(&sandbox.journal()).is_empty());
    let first = watch("0s");
    assert!(first.contains("added w1") && first.contains("added w2") && first.contains("sealed"), "{first}");
    let mut sealed = sealed_ids(&sandbox.journal());
    sealed.sort();
    assert_eq!(sealed, ["w1", "w2"]);
    assert_eq!(watch("0s"), "", "a second look changed something");
    assert!(watch_usage_error(&sandbox).contains("not a duration"));
}

fn watch_usage_error(sandbox: &Sandbox) -> String {
    let out = sandbox.assert_cmd().args(["watch", "--once", "--idle", "soon"]).assert().code(2);
    String::from_utf8_lossy(&out.get_output().stderr).into_owned()
}
