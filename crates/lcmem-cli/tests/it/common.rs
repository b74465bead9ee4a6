//! Shared helpers for tests that run the real `lcmem` binary.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use lcmem_test_support::{SessionFile, TempDirs, session};

/// The clock every command in these tests runs at.
pub const NOW: &str = "2026-11-30T12:00:00Z";

/// A throwaway store and project, and a way to run `lcmem` against them.
pub struct Sandbox {
    pub dir: TempDirs,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox { dir: TempDirs::new() }
    }
    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }
    pub fn project(&self) -> PathBuf {
        self.dir.path().join("project")
    }
    pub fn inbox(&self) -> PathBuf {
        self.dir.path().join("inbox")
    }
    /// `lcmem --home … --project …` with a fixed clock.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::new(lcmem_bin());
        cmd.arg("--home").arg(self.home()).arg("--project").arg(self.project());
        cmd.env("LCMEM_NOW", NOW).env_remove("LEVELCODE_HOME");
        // The agents' folders are the sandbox's own (empty until a test
        // writes there), never the machine's.
        cmd.env("HOME", self.user()).env_remove("CLAUDE_CONFIG_DIR").env_remove("CODEX_HOME");
        cmd.env_remove("GEMINI_CLI_HOME");
        cmd
    }
    /// The home folder commands run with, where the agents keep their files.
    pub fn user(&self) -> PathBuf {
        self.dir.path().join("user")
    }
    pub fn assert_cmd(&self) -> assert_cmd::Command {
        assert_cmd::Command::from_std(self.cmd())
    }
    /// The project's folder in the store.
    pub fn store_dir(&self) -> PathBuf {
        let project = lcmem::project::Project::resolve(&self.project()).unwrap();
        self.home().join("sessions").join(project.slug)
    }
    pub fn journal(&self) -> PathBuf {
        self.store_dir().join("memory/journal.jsonl")
    }
    /// Writes a v1 session file into the inbox and returns its path.
    pub fn write_session(&self, id: &str, body: &[String]) -> PathBuf {
        write_session(&self.inbox(), id, body)
    }
}

/// The binary under test: this build's `lcmem`, or the one `LCMEM_TEST_BIN`
/// names (to show that a test fails on an older build).
pub fn lcmem_bin() -> PathBuf {
    std::env::var_os("LCMEM_TEST_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_lcmem")), PathBuf::from)
}

/// Writes `<dir>/<id>.jsonl`, titled "Session <id>", holding `body`, and returns its path.
pub fn write_session(dir: &Path, id: &str, body: &[String]) -> PathBuf {
    SessionFile::new(id, "2026-11-01T09:00:00Z")
        .title(format!("Session {id}"))
        .lines(body.iter().cloned())
        .write_in(dir)
}

pub fn message(role: &str, text: &str) -> String {
    session::message(role, text, "2026-11-01T09:05:00Z")
}

pub fn tool(name: &str, files: &[&str]) -> String {
    session::tool(name, files, "2026-11-01T09:06:00Z")
}

/// A small but real working session.
pub fn working_session(n: usize) -> Vec<String> {
    vec![
        message("user", &format!("Please fix issue {n} in the parser.")),
        tool("Edit", &[&format!("src/parser_{n}.rs")]),
        message(
            "assistant",
            &format!(
                "Fixed issue {n}: the parser now accepts trailing commas. The parser uses a recursive descent design."
            ),
        ),
    ]
}

/// Reads the journal and returns its sealed session ids, asserting every line parses.
pub fn sealed_ids(journal: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    let mut ids = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("journal line {} is damaged ({e}): {line:?}", i + 1));
        if value["type"] == "sealed" {
            ids.push(value["session_id"].as_str().unwrap().to_string());
        }
    }
    ids
}

/// A small Claude Code transcript recorded in `cwd`.
pub fn claude_transcript(id: &str, cwd: &Path, prompt: &str) -> String {
    let user = serde_json::json!({
        "type": "user", "sessionId": id, "uuid": format!("{id}-u1"), "cwd": cwd, "isSidechain": false,
        "timestamp": "2026-11-20T09:00:00Z", "message": {"role": "user", "content": prompt}
    });
    let assistant = serde_json::json!({
        "type": "assistant", "sessionId": id, "uuid": format!("{id}-a1"), "cwd": cwd,
        "timestamp": "2026-11-20T09:01:00Z",
        "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Edit", "input": {"file_path": cwd.join("src/lib.rs")}},
            {"type": "text", "text": "Fixed the parser: it now accepts trailing commas."}
        ]}
    });
    format!("{user}\n{assistant}\n")
}

/// Every file below `dir`, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The example project's session files (`examples/shop/sessions`), sorted.
pub fn example_sessions() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/sessions");
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
}

/// Lets `child` run for a random moment under `max_micros`, then kills it
/// with SIGKILL and reaps it: a crash at an arbitrary point of its work.
pub fn kill_at_random(mut child: std::process::Child, rng: &mut lcmem_test_support::Rng, max_micros: u64) {
    std::thread::sleep(std::time::Duration::from_micros(rng.below(max_micros)));
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
}

/// Waits for `done` to hold, looking every 50 ms for at most 30 s: for work
/// the hooks hand to a process in the background (a seal at SessionEnd).
/// Panics with `what` when it never does.
pub fn eventually(what: &str, done: impl FnMut() -> bool) {
    eventually_or(what, done, String::new);
}

/// [`eventually`], with `why` saying more when it never happens (a log).
pub fn eventually_or(what: &str, mut done: impl FnMut() -> bool, why: impl Fn() -> String) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(start.elapsed() < std::time::Duration::from_secs(30), "never happened: {what}\n{}", why());
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The hooks' log, or nothing.
pub fn hooks_log(sandbox: &Sandbox) -> String {
    std::fs::read_to_string(sandbox.home().join("logs/hooks.log")).unwrap_or_default()
}

/// `strace`, when it can trace here; under CI it must.
pub fn strace() -> Option<String> {
    let program = std::env::var("LCMEM_TEST_STRACE").unwrap_or_else(|_| "strace".into());
    let ok = Command::new(&program).args(["-f", "-e", "trace=none", "true"]).output().is_ok_and(|o| o.status.success());
    if !ok {
        assert!(std::env::var_os("CI").is_none(), "CI must install strace (see .ci/run)");
        eprintln!("skipped: strace is not installed or cannot trace here");
    }
    ok.then_some(program)
}

/// What Claude Code's SessionStart hook hands a new session.
pub fn session_start(sandbox: &Sandbox) -> String {
    let input = serde_json::json!({"session_id": "new", "hook_event_name": "SessionStart", "cwd": sandbox.project(),
                       "source": "startup", "transcript_path": "/nonexistent.jsonl"});
    let out = sandbox.assert_cmd().args(["hook", "claude-code"]).write_stdin(input.to_string()).output().unwrap();
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("the hook prints its JSON");
    value["hookSpecificOutput"]["additionalContext"].as_str().unwrap().to_string()
}
