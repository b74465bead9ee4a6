//! `lcmem install` and `lcmem uninstall` for Claude Code, Codex and Cursor,
//! against files that hold the user's own settings, in a temporary HOME;
//! `lcmem hook codex` as Codex runs it; the cap's ceiling; and the crate as
//! `cargo install` gets it.

use std::os::unix::fs::PermissionsExt as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::common::{NOW, Sandbox, lcmem_bin};

/// `lcmem --home … <args>` with HOME, CLAUDE_CONFIG_DIR and CODEX_HOME in the sandbox.
fn lcmem(sandbox: &Sandbox, args: &[&str]) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(lcmem_bin());
    cmd.arg("--home").arg(sandbox.home()).args(args);
    cmd.env("HOME", user_home(sandbox)).env("CLAUDE_CONFIG_DIR", user_home(sandbox).join(".claude"));
    cmd.env("CODEX_HOME", user_home(sandbox).join(".codex")).env("LCMEM_NOW", NOW).env_remove("LEVELCODE_HOME");
    cmd
}

fn user_home(sandbox: &Sandbox) -> PathBuf {
    sandbox.dir.path().join("user")
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn stdout(assert: assert_cmd::assert::Assert) -> String {
    String::from_utf8_lossy(&assert.get_output().stdout).into_owned()
}

fn json_of(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A user's settings in their own layout: four-space indents, their own hooks.
const USERS_SETTINGS: &str = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"Stop\": [{\"hooks\": \
[{\"type\": \"command\", \"command\": \"notify-send done\"}]}]\n    }\n}\n";

#[test]
fn uninstall_claude_code_restores_the_users_settings_byte_for_byte() {
    let sandbox = Sandbox::new();
    let claude = user_home(&sandbox).join(".claude");
    write(&claude.join("settings.json"), USERS_SETTINGS);
    write(&claude.join(".claude.json"), "{\"numStartups\": 7, \"mcpServers\": {\"db\": {\"command\": \"pg-mcp\"}}}");
    let out = stdout(lcmem(&sandbox, &["install", "claude-code", "--command", "/opt/lcmem"]).assert().success());
    assert_ne!(std::fs::read_to_string(claude.join("settings.json")).unwrap(), USERS_SETTINGS);
    // The user's four-space layout is kept: the only line of theirs that changes is the one lcmem's hook goes
    // into (JSON is written one value a line), and the one-line ~/.claude.json.
    let removed: Vec<&str> = out.lines().filter(|l| l.starts_with('-') && !l.starts_with("---")).collect();
    assert!(removed.iter().all(|l| l.contains("notify-send") || l.contains("numStartups")), "{out}");
    assert!(out.contains("+            {\n"), "not indented as the user's file: {out}");

    let out = stdout(lcmem(&sandbox, &["uninstall", "claude-code"]).assert().success());
    assert!(out.contains("-") && out.contains("hook claude-code"), "{out}");
    assert_eq!(std::fs::read_to_string(claude.join("settings.json")).unwrap(), USERS_SETTINGS);
    assert!(!claude.join("settings.json.lcmem-backup").exists(), "the backup was left behind");
    let servers = json_of(&claude.join(".claude.json"));
    assert_eq!(servers, json!({"numStartups": 7, "mcpServers": {"db": {"command": "pg-mcp"}}}));
    // Again: nothing of lcmem is left, so nothing changes.
    let again = stdout(lcmem(&sandbox, &["uninstall", "claude-code"]).assert().success());
    assert_eq!(again.matches("unchanged").count(), 2, "{again}");

    // The user changed something after installing: only lcmem's entries go.
    lcmem(&sandbox, &["install", "claude-code", "--command", "/opt/lcmem"]).assert().success();
    let mut edited = json_of(&claude.join("settings.json"));
    edited["theme"] = json!("dark");
    write(&claude.join("settings.json"), &serde_json::to_string_pretty(&edited).unwrap());
    lcmem(&sandbox, &["uninstall", "claude-code"]).assert().success();
    let left = json_of(&claude.join("settings.json"));
    assert_eq!(left["theme"], "dark");
    assert_eq!(left["hooks"], json!({"Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]}));
}

#[test]
fn install_points_a_stale_command_at_this_lcmem_and_shows_only_that() {
    let sandbox = Sandbox::new();
    let claude = user_home(&sandbox).join(".claude");
    write(&claude.join("settings.json"), USERS_SETTINGS);
    lcmem(&sandbox, &["install", "claude-code", "--command", "/old/bin/lcmem"]).assert().success();
    std::fs::set_permissions(claude.join("settings.json"), std::fs::Permissions::from_mode(0o640)).unwrap();

    let out = stdout(lcmem(&sandbox, &["install", "claude-code", "--command", "/new/bin/lcmem"]).assert().success());
    let settings = json_of(&claude.join("settings.json"));
    for event in ["SessionStart", "Stop", "SessionEnd"] {
        let groups = settings["hooks"][event].as_array().unwrap();
        let lcmem = groups.last().unwrap();
        assert_eq!(lcmem["hooks"][0]["command"], "/new/bin/lcmem hook claude-code", "{event}");
        assert_eq!(groups.len(), if event == "Stop" { 2 } else { 1 }, "{event}: {groups:?}");
    }
    assert_eq!(json_of(&claude.join(".claude.json"))["mcpServers"]["lcmem"]["command"], "/new/bin/lcmem");
    // The diff lists the changed lines and nothing else.
    let changed: Vec<&str> = out.lines().filter(|l| l.starts_with(['-', '+']) && !l.starts_with("---")).collect();
    assert_eq!(changed.len(), 8, "{out}");
    assert!(changed.iter().all(|l| l.contains("/old/bin/lcmem") || l.contains("/new/bin/lcmem")), "{out}");
    let mode = std::fs::metadata(claude.join("settings.json")).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640, "the file's mode was not kept");
    let again = stdout(lcmem(&sandbox, &["install", "claude-code", "--command", "/new/bin/lcmem"]).assert().success());
    assert_eq!(again.matches("unchanged").count(), 2, "{again}");
}

#[test]
fn install_codex_writes_hooks_and_server_keeps_the_users_and_is_idempotent() {
    let sandbox = Sandbox::new();
    let codex = user_home(&sandbox).join(".codex");
    let config = "# my Codex settings\nmodel = \"gpt-5-codex\"\n\n[mcp_servers.db]\ncommand = \"pg-mcp\"\n\n[features]\nweb_search = true\n";
    write(&codex.join("config.toml"), config);
    let users_hooks = json!({"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}});
    write(&codex.join("hooks.json"), &serde_json::to_string_pretty(&users_hooks).unwrap());

    lcmem(&sandbox, &["install", "codex", "--command", "/opt/lcmem"]).assert().success();
    let hooks = json_of(&codex.join("hooks.json"));
    let start = &hooks["hooks"]["SessionStart"][0];
    assert_eq!(start["matcher"], "startup|resume|clear|compact");
    // The store is not the default one: it is named, as Codex starts lcmem without LEVELCODE_HOME.
    let hook = format!("/opt/lcmem --home {} hook codex", sandbox.home().display());
    assert_eq!(start["hooks"][0], json!({"type": "command", "command": hook, "timeout": 10}));
    assert_eq!(hooks["hooks"]["Stop"][0], users_hooks["hooks"]["Stop"][0], "the user's Stop hook changed");
    assert_eq!(hooks["hooks"]["Stop"][1]["hooks"][0]["command"], json!(hook));
    let text = std::fs::read_to_string(codex.join("config.toml")).unwrap();
    // The user's lines stay where they were, comments too: one line is added under [features].
    assert!(text.replace("hooks = true\n", "").starts_with(config), "the user's lines moved: {text}");
    let toml: toml::Table = text.parse().unwrap();
    assert_eq!(toml["mcp_servers"]["lcmem"]["command"].as_str(), Some("/opt/lcmem"));
    assert_eq!(toml["mcp_servers"]["lcmem"]["args"].as_array().unwrap().len(), 3);
    assert_eq!(toml["mcp_servers"]["db"]["command"].as_str(), Some("pg-mcp"));
    assert_eq!(toml["features"]["hooks"].as_bool(), Some(true));
    assert_eq!(toml["features"]["web_search"].as_bool(), Some(true));

    let before = (std::fs::read(codex.join("hooks.json")).unwrap(), std::fs::read(codex.join("config.toml")).unwrap());
    let again = stdout(lcmem(&sandbox, &["install", "codex", "--command", "/opt/lcmem"]).assert().success());
    assert_eq!(again.matches("unchanged").count(), 2, "{again}");
    assert_eq!(
        (std::fs::read(codex.join("hooks.json")).unwrap(), std::fs::read(codex.join("config.toml")).unwrap()),
        before
    );
    // A moved binary: both files point at the new one.
    lcmem(&sandbox, &["install", "codex", "--command", "/usr/bin/lcmem"]).assert().success();
    let text = std::fs::read_to_string(codex.join("config.toml")).unwrap();
    assert!(text.contains("command = \"/usr/bin/lcmem\"") && !text.contains("/opt/lcmem"), "{text}");
    assert!(!std::fs::read_to_string(codex.join("hooks.json")).unwrap().contains("/opt/lcmem"));
    // And out again: the user's entries stay.
    lcmem(&sandbox, &["uninstall", "codex"]).assert().success();
    assert_eq!(json_of(&codex.join("hooks.json")), users_hooks);
    let toml: toml::Table = std::fs::read_to_string(codex.join("config.toml")).unwrap().parse().unwrap();
    assert!(toml["mcp_servers"].get("lcmem").is_none() && toml["mcp_servers"].get("db").is_some());
}

#[test]
fn install_cursor_writes_the_server_keeps_the_users_and_is_idempotent() {
    let sandbox = Sandbox::new();
    let mcp = user_home(&sandbox).join(".cursor/mcp.json");
    write(&mcp, "{\"mcpServers\": {\"github\": {\"command\": \"gh-mcp\", \"env\": {\"X\": \"1\"}}}}");
    lcmem(&sandbox, &["install", "cursor", "--command", "/opt/lcmem"]).assert().success();
    let servers = json_of(&mcp);
    assert_eq!(servers["mcpServers"]["github"], json!({"command": "gh-mcp", "env": {"X": "1"}}));
    assert_eq!(
        servers["mcpServers"]["lcmem"],
        json!({"command": "/opt/lcmem", "args": ["--project", "${workspaceFolder}", "mcp"]})
    );
    let before = std::fs::read(&mcp).unwrap();
    let again = stdout(lcmem(&sandbox, &["install", "cursor", "--command", "/opt/lcmem"]).assert().success());
    assert!(again.contains("unchanged"), "{again}");
    assert_eq!(std::fs::read(&mcp).unwrap(), before);
    lcmem(&sandbox, &["uninstall", "cursor"]).assert().success();
    assert_eq!(json_of(&mcp), json!({"mcpServers": {"github": {"command": "gh-mcp", "env": {"X": "1"}}}}));
}

fn codex_rollout(cwd: &Path) -> String {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../lcmem/tests/fixtures/codex_rollout.jsonl");
    std::fs::read_to_string(fixture).unwrap().replace("/home/ana/code/billing", cwd.to_str().unwrap())
}

#[test]
fn hook_codex_gives_the_digest_at_start_and_imports_the_rollout_at_stop() {
    let sandbox = Sandbox::new();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/sessions");
    sandbox.assert_cmd().arg("import").arg(examples).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let rollout = sandbox.inbox().join("rollout-2026-11-23T14-00-00-0199a1b2.jsonl");
    write(&rollout, &codex_rollout(&sandbox.project()));
    let event = |name: &str| {
        json!({"session_id": "0199a1b2", "transcript_path": rollout, "cwd": sandbox.project(),
               "hook_event_name": name, "source": "startup", "model": "gpt-5-codex", "permission_mode": "default"})
        .to_string()
    };
    let out = lcmem(&sandbox, &["hook", "codex"]).write_stdin(event("SessionStart")).assert().success();
    let output: Value = serde_json::from_slice(&out.get_output().stdout).expect("one JSON object");
    assert_eq!(output["hookSpecificOutput"]["hookEventName"], "SessionStart");
    assert!(output["hookSpecificOutput"]["additionalContext"].as_str().unwrap().contains("v1.0.4"), "{output}");

    let sessions = || stdout(sandbox.assert_cmd().arg("sessions").assert().success());
    let before = sessions();
    let out = lcmem(&sandbox, &["hook", "codex"]).write_stdin(event("Stop")).assert().success();
    assert!(out.get_output().stdout.is_empty());
    assert_eq!(sessions().lines().count(), before.lines().count() + 1, "Stop did not import the rollout");
    // Garbage is not a reason to break the session.
    let out = lcmem(&sandbox, &["hook", "codex"]).write_stdin("not json").assert().success();
    assert!(out.get_output().stdout.is_empty() && out.get_output().stderr.is_empty());
}

#[test]
fn a_cap_past_claude_codes_context_limit_is_refused_with_a_sentence() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    let out = sandbox.assert_cmd().args(["config", "set", "memory.cap_tokens", "3000"]).assert().code(1);
    let error = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(error.contains("at most 2000") && error.contains("10,000 characters"), "{error}");
    sandbox.assert_cmd().args(["config", "set", "memory.cap_tokens", "2000"]).assert().success();
    // A file edited by hand past the bound is refused when it is read, naming the file.
    write(&sandbox.store_dir().join("config.toml"), "[memory]\ncap_tokens = 9000\n");
    let out = sandbox.assert_cmd().args(["consolidate"]).assert().code(1);
    let error = String::from_utf8_lossy(&out.get_output().stderr).into_owned();
    assert!(error.contains("config.toml") && error.contains("at most 2000") && error.contains("lower it"), "{error}");
}

#[test]
fn the_crate_is_ready_for_cargo_install() {
    // `cargo install --locked --path crates/lcmem-cli` builds this same binary; building it again into a
    // temporary root takes minutes, so this checks what that install depends on: the built binary runs, and
    // the package metadata crates.io needs is there, with every path dependency versioned.
    let out = assert_cmd::Command::new(lcmem_bin()).arg("--version").assert().success();
    assert!(stdout(out).starts_with("lcmem "), "no version");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(&cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let metadata: Value = serde_json::from_slice(&out.stdout).unwrap();
    let packages = metadata["packages"].as_array().unwrap();
    let cli = packages.iter().find(|p| p["name"] == "lcmem-cli").unwrap();
    for field in ["description", "license", "repository", "readme"] {
        assert!(cli[field].as_str().is_some_and(|v| !v.is_empty()), "lcmem-cli has no {field}");
    }
    assert!(!cli["keywords"].as_array().unwrap().is_empty(), "no keywords");
    for dependency in cli["dependencies"].as_array().unwrap() {
        if dependency.get("path").is_some_and(|p| !p.is_null()) && dependency["kind"].is_null() {
            assert_ne!(dependency["req"], "*", "{} has no version for crates.io", dependency["name"]);
        }
    }
    // What `cargo package` would upload: the README it names comes along.
    let out = std::process::Command::new(cargo)
        .args(["package", "--list", "-p", "lcmem-cli", "--offline", "--allow-dirty"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let listed = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(listed.lines().any(|l| l == "README.md") && listed.lines().any(|l| l == "src/main.rs"), "{listed}");
}
