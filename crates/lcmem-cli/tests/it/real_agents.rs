//! The real Claude Code CLI against lcmem, offline: the npm package pinned in
//! `.ci/run` (`LCMEM_TEST_CLAUDE` names its `claude`), installed with `lcmem
//! install claude-code`, talking to a scripted Messages endpoint on
//! 127.0.0.1 ([`messages_api`]). What no payload written here could show:
//! what the client really sends, when its hooks really fire, what its
//! transcripts really hold. Skipped, and said so, where the client is not
//! installed.

mod codex;
mod conventions;
mod extract_lane;
mod gemini;
mod gemini_api;
mod http;
mod interactive;
mod messages_api;
mod responses_api;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{NOW, Sandbox, eventually_or, hooks_log, message};
use messages_api::{Endpoint, QUESTION, REPORT};

/// A store with one sealed session that says where scratch notes go, and
/// an empty home for the user whose agent is driven.
fn remembering() -> (Sandbox, PathBuf) {
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
    (sandbox, user)
}

/// `lcmem ARGS` with the user's home, as a person runs `lcmem install …`
/// without `--project`; an install points the agent at this build.
fn as_user(sandbox: &Sandbox, user: &Path, args: &[&str]) -> assert_cmd::assert::Assert {
    let bin = crate::common::lcmem_bin();
    let mut command = assert_cmd::Command::new(&bin);
    command.arg("--home").arg(sandbox.home()).args(args);
    if args[0] == "install" {
        command.arg("--command").arg(&bin);
    }
    let command = command.env("HOME", user).env_remove("CLAUDE_CONFIG_DIR").env_remove("CODEX_HOME");
    command.env_remove("LEVELCODE_HOME").assert()
}

/// Runs an agent's command to its end, killed past two minutes.
fn bounded(mut command: Command) -> std::process::Output {
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

/// `out`, once it is seen to be a success.
fn succeeded(out: std::process::Output, what: &str) -> std::process::Output {
    let said = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    assert!(out.status.success(), "{what} failed: {}\n{}", said(&out.stdout), said(&out.stderr));
    out
}

fn journal(sandbox: &Sandbox) -> Vec<Value> {
    let out = sandbox.assert_cmd().args(["journal", "--json"]).assert().success();
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

/// What the tools answered the model in a session's turns, each answer on
/// its own lines: the first thing to read when a call came back empty.
fn tool_results(turns: &[Value]) -> String {
    let mut out = Vec::new();
    for message in turns.last().and_then(|t| t["messages"].as_array()).into_iter().flatten() {
        for block in message["content"].as_array().into_iter().flatten() {
            if block["type"] == "tool_result" || block["type"] == "function_call_output" {
                out.push(format!("{:#}", block));
            }
        }
    }
    if out.is_empty() { "(no tool answered)".to_string() } else { out.join("\n") }
}

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
        let (sandbox, user) = remembering();
        let endpoint = Endpoint::start(sandbox.project());
        let world = World { sandbox, user, endpoint };
        world.lcmem(&["install", "claude-code"]).success();
        world
    }

    /// `lcmem ARGS` against the user's settings, as `lcmem install
    /// claude-code` runs without `--project`.
    fn lcmem(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        as_user(&self.sandbox, &self.user, args)
    }

    /// `claude ARGS` in the project, as a user runs it, against the scripted
    /// model; killed past two minutes.
    fn claude(&self, claude: &Path, args: &[&str]) -> std::process::Output {
        let mut command = Command::new(claude);
        command.args(args);
        self.client_env(&mut command);
        // As installed, `claude` is on the PATH its hooks (and the command
        // lane they start) run with.
        let path = std::env::var_os("PATH").unwrap_or_default();
        let dirs = claude.parent().map(Path::to_path_buf).into_iter().chain(std::env::split_paths(&path));
        command.env("PATH", std::env::join_paths(dirs).unwrap());
        bounded(command)
    }

    /// The project as working folder, the user's home, the scripted model.
    fn client_env(&self, command: &mut Command) {
        command.current_dir(self.sandbox.project()).env("HOME", &self.user);
        command.env_remove("CLAUDE_CONFIG_DIR").env("LEVELCODE_HOME", self.sandbox.home()).env("LCMEM_NOW", NOW);
        command.env("ANTHROPIC_BASE_URL", &self.endpoint.url).env("ANTHROPIC_API_KEY", "scripted");
        command.env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1").env("DISABLE_AUTOUPDATER", "1");
    }

    /// A headless session that adds the notes file, as `claude -p` runs one.
    fn headless(&self, claude: &Path) -> std::process::Output {
        let tools = ["--allowedTools", "Write", "mcp__lcmem__recall_sessions"];
        let out = self.claude(claude, &[&["-p", "add a notes file", "--output-format", "json"][..], &tools].concat());
        succeeded(out, "claude -p")
    }

    fn journal(&self) -> Vec<Value> {
        journal(&self.sandbox)
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
        "the recall call returned no hits to the model; what the tools answered:\n{}\n{}",
        tool_results(&turns),
        log()
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

/// Every file under `dir` with its bytes.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    crate::common::files_under(dir).into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap_or_default())).collect()
}

#[test]
fn install_then_uninstall_gives_back_the_files_claude_code_wrote_byte_for_byte() {
    let Some(claude) = claude() else { return };
    let world = World::new();
    world.lcmem(&["uninstall", "claude-code"]).success();
    // Claude Code writes its own state (~/.claude.json: startups, projects,
    // caches; ~/.claude/: settings, transcripts) in a session without lcmem.
    world.headless(&claude);
    let settings = world.user.join(".claude/settings.json");
    if !settings.exists() {
        // What a person's settings hold: permissions of their own, on one line.
        std::fs::write(&settings, "{\"permissions\": {\"allow\": [\"Bash(git status)\"]}, \"hooks\": {}}").unwrap();
    }
    let state = world.user.join(".claude.json");
    let before_state = std::fs::read(&state).unwrap();
    let before: Vec<_> = snapshot(&world.user.join(".claude")).into_iter().filter(|(p, _)| !is_transcript(p)).collect();

    world.lcmem(&["install", "claude-code"]).success();
    assert_ne!(std::fs::read(&state).unwrap(), before_state, "install wrote nothing into ~/.claude.json");
    world.lcmem(&["uninstall", "claude-code"]).success();

    assert_eq!(String::from_utf8_lossy(&std::fs::read(&state).unwrap()), String::from_utf8_lossy(&before_state));
    let after: Vec<_> = snapshot(&world.user.join(".claude")).into_iter().filter(|(p, _)| !is_transcript(p)).collect();
    let names = |files: &[(PathBuf, Vec<u8>)]| files.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    assert_eq!(names(&after), names(&before), "files added or left behind");
    for ((path, bytes), (_, was)) in after.iter().zip(&before) {
        assert!(bytes == was, "{} changed:\n{}", path.display(), String::from_utf8_lossy(bytes));
    }
    let backups = crate::common::files_under(&world.user).into_iter().filter(|p| p.to_string_lossy().contains("lcmem"));
    assert_eq!(backups.count(), 0, "a backup or lcmem file left in the user's home");
}

/// Claude Code's own records of sessions, which go on changing by themselves.
fn is_transcript(path: &Path) -> bool {
    let text = path.to_string_lossy();
    text.contains("/projects/")
        || text.contains("/statsig/")
        || text.contains("/todos/")
        || text.contains("/shell-snapshots/")
}
