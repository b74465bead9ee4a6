//! The real Claude Code CLI against lcmem, offline: the npm package pinned in
//! `.ci/run` (`LCMEM_TEST_CLAUDE` names its `claude`), installed with `lcmem
//! install claude-code`, talking to a scripted Messages endpoint on
//! 127.0.0.1 ([`messages_api`]). What no payload written here could show:
//! what the client really sends, when its hooks really fire, what its
//! transcripts really hold. Skipped, and said so, where the client is not
//! installed.

mod messages_api;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{NOW, Sandbox, eventually_or, hooks_log, message};
use messages_api::{Endpoint, QUESTION, REPORT};

fn claude() -> Option<PathBuf> {
    let found = std::env::var_os("LCMEM_TEST_CLAUDE").map(PathBuf::from).filter(|p| p.exists());
    if found.is_none() {
        eprintln!("skipped: LCMEM_TEST_CLAUDE does not name Claude Code's `claude` (.ci/run installs it)");
    }
    found
}

/// A store with one sealed session that says where scratch notes go, a
/// user home with lcmem installed into Claude Code, and the scripted model.
struct World {
    sandbox: Sandbox,
    user: PathBuf,
    endpoint: Endpoint,
}

impl World {
    fn new() -> World {
        let sandbox = Sandbox::new();
        sandbox.write_session(
            "2026-11-01-notes",
            &[
                message("user", "Scratch notes go in notes.txt at the repository root."),
                message("assistant", "Understood: scratch notes live in notes.txt at the repository root."),
            ],
        );
        sandbox.assert_cmd().arg("import").arg(sandbox.inbox()).assert().success();
        sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
        sandbox.assert_cmd().arg("consolidate").assert().success();
        let user = sandbox.dir.path().join("user");
        std::fs::create_dir_all(&user).unwrap();
        let bin = crate::common::lcmem_bin();
        // Into the user's settings, as `lcmem install claude-code` does without `--project`.
        let mut install = assert_cmd::Command::new(&bin);
        install.arg("--home").arg(sandbox.home()).args(["install", "claude-code", "--command"]).arg(&bin);
        install.env("HOME", &user).env_remove("CLAUDE_CONFIG_DIR").env_remove("LEVELCODE_HOME").assert().success();
        let endpoint = Endpoint::start(sandbox.project());
        World { sandbox, user, endpoint }
    }

    /// `claude ARGS` in the project, as a user runs it, against the scripted
    /// model; killed past two minutes.
    fn claude(&self, claude: &Path, args: &[&str]) -> std::process::Output {
        let mut command = Command::new(claude);
        command.args(args).current_dir(self.sandbox.project()).env("HOME", &self.user);
        command.env_remove("CLAUDE_CONFIG_DIR").env("LEVELCODE_HOME", self.sandbox.home()).env("LCMEM_NOW", NOW);
        command.env("ANTHROPIC_BASE_URL", &self.endpoint.url).env("ANTHROPIC_API_KEY", "scripted");
        command.env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1").env("DISABLE_AUTOUPDATER", "1");
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let child = command.spawn().unwrap();
        let pid = child.id();
        let start = Instant::now();
        let watchdog = std::thread::spawn(move || {
            while start.elapsed() < Duration::from_secs(120) {
                std::thread::sleep(Duration::from_millis(200));
            }
            let _ = Command::new("kill").arg(pid.to_string()).status();
        });
        let out = child.wait_with_output().unwrap();
        drop(watchdog);
        out
    }

    /// A headless session that adds the notes file, as `claude -p` runs one.
    fn headless(&self, claude: &Path) -> std::process::Output {
        let tools = ["--allowedTools", "Write", "mcp__lcmem__recall_sessions"];
        let out = self.claude(claude, &[&["-p", "add a notes file", "--output-format", "json"][..], &tools].concat());
        assert!(
            out.status.success(),
            "claude -p failed: {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    fn journal(&self) -> Vec<Value> {
        let out = self.sandbox.assert_cmd().args(["journal", "--json"]).assert().success();
        serde_json::from_slice(&out.get_output().stdout).unwrap()
    }

    /// The ids of the sessions Claude Code recorded for the project: its
    /// transcripts under `~/.claude/projects/`.
    fn transcripts(&self) -> Vec<String> {
        let projects = self.user.join(".claude/projects");
        let mut ids: Vec<String> = crate::common::files_under(&projects)
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .filter_map(|p| Some(p.file_stem()?.to_string_lossy().into_owned()))
            .collect();
        ids.sort();
        ids
    }
}

#[test]
fn headless_claude_code_gets_the_digest_recalls_and_every_session_is_sealed_with_what_it_did() {
    let Some(claude) = claude() else { return };
    let world = World::new();
    // A session ended by no SessionEnd is sealed once quiet: at once, here.
    world.sandbox.assert_cmd().args(["config", "set", "memory.quiet_secs", "0"]).assert().success();

    world.headless(&claude);
    assert!(world.sandbox.project().join("notes.txt").exists(), "the scripted Write did not run");
    // The session as Claude Code recorded it. Its Stop hook runs without
    // being waited for, and a headless run may exit before it imported
    // anything; SessionEnd fires in a minority of runs.
    let first = world.transcripts().pop().expect("Claude Code recorded the session");
    let log = || format!("hooks log:\n{}", hooks_log(&world.sandbox));
    let turns = world.endpoint.turns();
    assert!(
        turns.iter().any(|body| body.to_string().contains("project-memory")),
        "the SessionStart digest never reached the model"
    );
    let offered: Vec<String> =
        turns[0]["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).map(String::from).collect();
    assert!(offered.iter().any(|t| t == "mcp__lcmem__recall_sessions"), "lcmem's tools are not offered: {offered:?}");
    assert!(
        turns.iter().any(|body| body.to_string().contains("hit(s) for")),
        "the recall call returned no hits to the model"
    );

    // The next session's start seals the first, whether or not the client
    // fired SessionEnd for it.
    world.headless(&claude);
    let sealed = || world.journal().iter().any(|e| e["session_id"] == first.as_str());
    eventually_or(&format!("{first} is sealed"), sealed, log);
    let entry = world.journal().into_iter().find(|e| e["session_id"] == first.as_str()).unwrap();
    let summary = entry["summary"].as_str().unwrap();
    assert!(!summary.to_lowercase().contains("no changes made"), "a session that wrote a file: {entry:#}");
    assert!(summary.contains("notes.txt") || summary.contains(&REPORT[..20]), "{entry:#}");
    assert!(entry["files"].to_string().contains("notes.txt"), "{entry:#}\n{}", hooks_log(&world.sandbox));

    // Both sessions recalled the same question; what lcmem answered them is
    // never what recall finds.
    let out = world.sandbox.assert_cmd().args(["recall", "--json", QUESTION]).assert().success();
    let hits: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(hits[0]["session"], "2026-11-01-notes", "{:#}", hits[0]);
    assert!(hits.iter().all(|h| !h["snippet"].as_str().unwrap_or("").contains("hit(s) for")), "{hits:#?}");
}

#[test]
fn claude_mcp_list_sees_the_server_and_creates_nothing() {
    let Some(claude) = claude() else { return };
    let world = World::new();
    let elsewhere = world.sandbox.dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let before = crate::common::files_under(&world.sandbox.home());
    let mut command = Command::new(&claude);
    command.args(["mcp", "list"]).current_dir(&elsewhere).env("HOME", &world.user).env_remove("CLAUDE_CONFIG_DIR");
    command.env("LEVELCODE_HOME", world.sandbox.home()).env("DISABLE_AUTOUPDATER", "1");
    let out = command.output().unwrap();
    let listed = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && listed.contains("lcmem"), "{listed}\n{}", String::from_utf8_lossy(&out.stderr));
    // Whatever hooks it fired, no store, folder or lock appeared.
    std::thread::sleep(Duration::from_millis(800));
    let after: Vec<PathBuf> =
        crate::common::files_under(&world.sandbox.home()).into_iter().filter(|p| !p.ends_with("hooks.log")).collect();
    let before: Vec<PathBuf> = before.into_iter().filter(|p| !p.ends_with("hooks.log")).collect();
    assert_eq!(after, before, "claude mcp list changed the store:\n{}", hooks_log(&world.sandbox));
}
