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
pub(in crate::cmd) const TRUST: &str = "Codex runs these hooks only once you trust them. Start Codex: it says the hooks need \
review; open /hooks there and trust lcmem's (Codex records that under [hooks.state] in config.toml, and asks \
again if the hooks change). A scripted run (`codex exec`) can pass --dangerously-bypass-hook-trust instead.";

/// The first Codex that reads `[features].hooks`: 0.130.0 renamed
/// `codex_hooks` (and warns about the old name at every start), as its
/// deprecation notice and the projects that followed it record.
const RENAMED_IN: (u64, u64, u64) = (0, 130, 0);

pub(in crate::cmd) fn codex_dir(top: Option<&Path>) -> anyhow::Result<PathBuf> {
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
    let hooks_json = dir.join("hooks.json");
    let hooks = plan_removal(&hooks_json, |doc, original| super::remove_hook_groups(doc, "codex", original))?;
    let value_of = |text: Option<&str>| text.and_then(|t| serde_json::from_str::<Value>(t).ok());
    // The switch stays on when hooks of the user's are left to need it.
    let others = value_of(hooks.after.as_deref()).and_then(|v| Some(!v.get("hooks")?.as_object()?.is_empty()));
    let trusted = trust_keys(&hooks_json, value_of(hooks.before.as_deref()).as_ref());
    Ok(vec![hooks, codex_toml::uninstall(&dir.join("config.toml"), others.unwrap_or(false), &trusted)?])
}

/// The keys Codex records its trust in lcmem's hooks under
/// (`[hooks.state."<hooks.json>:<event>:<group>:<handler>"]`, the event in
/// snake case), for the file as it is, under its path as given and as
/// resolved.
pub(in crate::cmd) fn trust_keys(hooks_json: &Path, hooks: Option<&Value>) -> Vec<String> {
    let Some(events) = hooks.and_then(|h| h.get("hooks")).and_then(Value::as_object) else { return Vec::new() };
    let mut paths = vec![hooks_json.display().to_string()];
    paths.extend(std::fs::canonicalize(hooks_json).ok().map(|p| p.display().to_string()));
    let mut keys = Vec::new();
    for (event, groups) in events {
        let snake: String = event
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                let lower = c.to_ascii_lowercase();
                if c.is_ascii_uppercase() && i > 0 { vec!['_', lower] } else { vec![lower] }
            })
            .collect();
        for (g, group) in groups.as_array().into_iter().flatten().enumerate() {
            for (h, handler) in super::handlers(group).iter().enumerate() {
                if super::is_lcmem_hook(handler, "codex") {
                    keys.extend(paths.iter().map(|path| format!("{path}:{snake}:{g}:{h}")));
                }
            }
        }
    }
    keys
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
