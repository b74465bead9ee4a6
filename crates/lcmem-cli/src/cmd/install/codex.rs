//! Codex's `config.toml`: the MCP server and the hooks feature switch (see
//! `codex_toml`), and the trust Codex records in lcmem's hooks. Which hooks
//! go in `hooks.json`, and where the files are, the engine's source says.

use std::io::Read as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::codex_toml::{self, Server};
use super::files::Change;

/// The first Codex that reads `[features].hooks`: 0.130.0 renamed
/// `codex_hooks` (and warns about the old name at every start), as its
/// deprecation notice and the projects that followed it record.
const RENAMED_IN: (u64, u64, u64) = (0, 130, 0);

/// `[mcp_servers.lcmem]` (running `command` with `home` before `mcp`) and the
/// hooks switch in `config`; `env_vars`: let `LEVELCODE_HOME` through.
pub fn install(config: &Path, command: &str, home: Vec<String>, env_vars: bool) -> anyhow::Result<Change> {
    let args = home.into_iter().chain(["mcp".to_string()]).collect();
    let server = Server { command, args, env_vars };
    codex_toml::install(config, &server, hooks_switch())
}

/// Takes lcmem out of `config`; `hooks` is the hooks file and the change
/// uninstall makes of it: the switch stays on when hooks of the user's are
/// left to need it, and the trust Codex recorded in lcmem's hooks goes.
pub fn uninstall(config: &Path, hooks: Option<(&Path, &Change)>) -> anyhow::Result<Change> {
    let value_of = |text: Option<&str>| text.and_then(|t| serde_json::from_str::<Value>(t).ok());
    let others = hooks
        .and_then(|(_, change)| value_of(change.after.as_deref()))
        .and_then(|v| Some(!v.get("hooks")?.as_object()?.is_empty()));
    let trusted = match hooks {
        Some((path, change)) => trust_keys(path, value_of(change.before.as_deref()).as_ref()),
        None => Vec::new(),
    };
    codex_toml::uninstall(config, others.unwrap_or(false), &trusted)
}

/// The switch Codex's hooks need, in words.
pub(in crate::cmd) const HOOKS_SWITCH: &str = "[features].hooks";

/// Whether `config` turns Codex's hooks on (under either name).
pub(in crate::cmd) fn hooks_switched_on(config: &toml::Table) -> bool {
    let features = config.get("features").and_then(|f| f.as_table());
    features.is_some_and(|f| ["hooks", "codex_hooks"].iter().any(|k| f.get(*k).and_then(|v| v.as_bool()) == Some(true)))
}

/// Whether `config` records Codex's trust in lcmem's hooks of the hooks
/// file at `hooks_json` (holding `hooks`).
pub(in crate::cmd) fn hooks_trusted(config: &toml::Table, hooks_json: &Path, hooks: Option<&Value>) -> bool {
    let state = config.get("hooks").and_then(|h| h.get("state")).and_then(|s| s.as_table());
    trust_keys(hooks_json, hooks)
        .iter()
        .any(|k| state.and_then(|s| s.get(k)).and_then(|t| t.get("trusted_hash")).is_some())
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
