//! `lcmem doctor` on real settings files written by `lcmem install`, with
//! the MCP server it names really started.

use std::path::Path;

use serde_json::Value;

use crate::common::{Sandbox, lcmem_bin};

/// `lcmem doctor --json` with `user` as the home folder: the checks, and
/// whether it exited 0.
fn doctor(sandbox: &Sandbox, user: &Path) -> (Vec<Value>, bool) {
    let out = sandbox
        .cmd()
        .args(["doctor", "--json"])
        .env("HOME", user)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CODEX_HOME")
        .output()
        .unwrap();
    let checks: Vec<Value> = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (checks, out.status.success())
}

fn state_of<'a>(checks: &'a [Value], what: &str) -> Vec<&'a str> {
    checks.iter().filter(|c| c["what"] == what).filter_map(|c| c["state"].as_str()).collect()
}

/// `lcmem install AGENT` into the user's settings (no `--project`).
fn install(sandbox: &Sandbox, user: &Path, agent: &str, command: &Path) {
    let mut cmd = assert_cmd::Command::new(lcmem_bin());
    cmd.arg("--home").arg(sandbox.home()).args(["install", agent, "--command"]).arg(command);
    cmd.env("HOME", user).env_remove("CLAUDE_CONFIG_DIR").env_remove("CODEX_HOME").env_remove("LEVELCODE_HOME");
    cmd.assert().success();
}

#[test]
fn doctor_says_what_works_and_exits_non_zero_on_what_is_broken() {
    let sandbox = Sandbox::new();
    let user = sandbox.dir.path().join("user");
    std::fs::create_dir_all(&user).unwrap();
    // Nothing installed: said, not broken.
    let (checks, ok) = doctor(&sandbox, &user);
    assert!(ok, "{checks:#?}");
    assert_eq!(state_of(&checks, "claude-code hooks"), ["absent"]);

    install(&sandbox, &user, "claude-code", &lcmem_bin());
    install(&sandbox, &user, "codex", &lcmem_bin());
    let (checks, ok) = doctor(&sandbox, &user);
    assert_eq!(state_of(&checks, "claude-code hooks"), ["ok"], "{checks:#?}");
    assert_eq!(state_of(&checks, "claude-code MCP server"), ["ok"], "{checks:#?}");
    assert_eq!(state_of(&checks, "codex MCP server"), ["ok"], "{checks:#?}");
    // Codex runs no hook it has not trusted: broken, and it says how to trust them.
    assert_eq!(state_of(&checks, "codex hooks trust"), ["broken"], "{checks:#?}");
    assert!(!ok, "an untrusted hook is broken");
    let trust = checks.iter().find(|c| c["what"] == "codex hooks trust").unwrap();
    assert!(trust["detail"].as_str().unwrap().contains("/hooks"), "{trust}");

    // Trusted as Codex records it, the wiring is whole.
    let config = user.join(".codex/config.toml");
    let hooks_json = user.join(".codex/hooks.json");
    let mut text = std::fs::read_to_string(&config).unwrap();
    for event in ["session_start", "stop"] {
        text.push_str(&format!(
            "\n[hooks.state.\"{}:{event}:0:0\"]\ntrusted_hash = \"sha256:0\"\n",
            hooks_json.display()
        ));
    }
    std::fs::write(&config, text).unwrap();
    let (checks, ok) = doctor(&sandbox, &user);
    assert_eq!(state_of(&checks, "codex hooks trust"), ["ok"], "{checks:#?}");
    assert!(ok, "{checks:#?}");

    // A moved binary breaks the hooks and the server, and doctor says which.
    install(&sandbox, &user, "claude-code", Path::new("/nonexistent/bin/lcmem"));
    let (checks, ok) = doctor(&sandbox, &user);
    assert!(!ok);
    assert_eq!(state_of(&checks, "claude-code hooks"), ["broken"], "{checks:#?}");
    assert_eq!(state_of(&checks, "claude-code MCP server"), ["broken"], "{checks:#?}");
    let hooks = checks.iter().find(|c| c["what"] == "claude-code hooks").unwrap();
    assert!(hooks["detail"].as_str().unwrap().contains("/nonexistent/bin/lcmem"), "{hooks}");
}
