//! Codex: SessionStart and Stop hooks in `hooks.json`, and the MCP server and
//! the hooks feature switch in `config.toml` (see `codex_toml`), both in
//! `$CODEX_HOME` (else `~/.codex`), or a project's `.codex/`. Codex's
//! hooks.json has Claude Code's shape (event → matcher groups → handlers).

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::codex_toml::{self, Server};
use super::files::{Change, plan, plan_removal};

/// The events lcmem's Codex hook handles: matcher, and the seconds each may take.
const EVENTS: [(&str, Option<&str>, u64); 2] =
    [("SessionStart", Some("startup|resume|clear|compact"), 10), ("Stop", None, 30)];

/// How the user trusts the hooks, said after install: Codex runs none of
/// them, silently, until they are trusted.
pub const TRUST: &str = "Codex runs these hooks only once you trust them. Start Codex: it says the hooks need \
review; open /hooks there and trust lcmem's (Codex records that under [hooks.state] in config.toml, and asks \
again if the hooks change). A scripted run (`codex exec`) can pass --dangerously-bypass-hook-trust instead.";

/// The first Codex that reads `[features].hooks`: 0.130.0 renamed
/// `codex_hooks` (and warns about the old name at every start), as its
/// deprecation notice and the projects that followed it record.
const RENAMED_IN: (u64, u64, u64) = (0, 130, 0);

fn codex_dir(top: Option<&Path>) -> anyhow::Result<PathBuf> {
    Ok(match top {
        Some(root) => root.join(".codex"),
        None => match std::env::var_os("CODEX_HOME").filter(|d| !d.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => super::home_dir()?.join(".codex"),
        },
    })
}

/// `store` is the store when it is not the default: the user's files pass it
/// with `--home`; a project's (meant for git) let `LEVELCODE_HOME` through.
pub fn install(top: Option<&Path>, command: &str, store: Option<&Path>) -> anyhow::Result<Vec<Change>> {
    let dir = codex_dir(top)?;
    let home: Vec<String> = match (top, store) {
        (None, Some(store)) => vec!["--home".into(), store.display().to_string()],
        _ => Vec::new(),
    };
    let mut words: Vec<&str> = vec![command];
    words.extend(home.iter().map(String::as_str));
    words.extend(["hook", "codex"]);
    let hook = super::shell_words(&words);
    let groups = EVENTS.map(|(event, matcher, timeout)| {
        let handler = json!({"type": "command", "command": hook, "timeout": timeout});
        let group = match matcher {
            Some(matcher) => json!({"matcher": matcher, "hooks": [handler]}),
            None => json!({"hooks": [handler]}),
        };
        (event, group)
    });
    let hooks = plan(&dir.join("hooks.json"), |doc| super::add_hook_groups(doc, "codex", &hook, groups))?;
    let args = home.into_iter().chain(["mcp".to_string()]).collect();
    let server = Server { command, args, env_vars: top.is_some() && store.is_some() };
    Ok(vec![hooks, codex_toml::install(&dir.join("config.toml"), &server, hooks_switch())?])
}

pub fn uninstall(top: Option<&Path>) -> anyhow::Result<Vec<Change>> {
    let dir = codex_dir(top)?;
    let hooks =
        plan_removal(&dir.join("hooks.json"), |doc, original| super::remove_hook_groups(doc, "codex", original))?;
    // The switch stays on when hooks of the user's are left to need it.
    let others = hooks.after.as_deref().and_then(|t| serde_json::from_str::<Value>(t).ok());
    let others = others.and_then(|v| Some(!v.get("hooks")?.as_object()?.is_empty())).unwrap_or(false);
    Ok(vec![hooks, codex_toml::uninstall(&dir.join("config.toml"), others)?])
}

/// The `[features]` switch the Codex on PATH reads: `codex_hooks` for one
/// older than [`RENAMED_IN`], else (and when there is no codex to ask) `hooks`.
fn hooks_switch() -> &'static str {
    match codex_version() {
        Some(version) if version < RENAMED_IN => "codex_hooks",
        _ => "hooks",
    }
}

/// `codex --version` ("codex-cli 0.171.0"), given two seconds.
fn codex_version() -> Option<(u64, u64, u64)> {
    let mut child = Command::new("codex")
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(2);
    while child.try_wait().ok()?.is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let mut out = String::new();
    child.stdout.take()?.read_to_string(&mut out).ok()?;
    let version = out.split_whitespace().find(|w| w.starts_with(|c: char| c.is_ascii_digit()))?;
    let mut parts = version.split(['.', '-', '+']).map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??, parts.next().flatten().unwrap_or(0)))
}
