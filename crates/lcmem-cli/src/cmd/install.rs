//! `lcmem install claude-code|codex|cursor` and `lcmem uninstall …`: wire
//! the hook and the MCP server into an agent's settings, keeping everything
//! the user wrote, and take them out again.
//!
//! Only additions are made: a hook group per event whose command is
//! lcmem's, and an `lcmem` MCP server entry. An event that already runs
//! lcmem's hook, or an existing `lcmem` server entry, is left as it is,
//! except that a command pointing at another lcmem (a moved binary) is
//! pointed at this one; so running the command again changes nothing. Each
//! file's change is shown as a diff of the lines that change before it is
//! written; the first time a file is changed a copy of the original is kept
//! beside it; every write is atomic and keeps the file's mode. Uninstall
//! takes out exactly those entries, and puts the original back byte for byte
//! when nothing else changed since. Claude Code lives here; the other agents
//! in `install/`.

mod codex;
mod cursor;
mod files;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Map, Value, json};

use self::files::{plan, plan_removal};
use crate::context::Context;

/// The Claude Code events lcmem's hook handles, with the time each may take
/// (seconds) before Claude Code gives up on it.
const EVENTS: [(&str, u64); 3] = [("SessionStart", 10), ("Stop", 30), ("SessionEnd", 60)];

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    /// Hooks in settings.json, the server in ~/.claude.json (or .claude/settings.json and .mcp.json)
    ClaudeCode,
    /// Hooks in ~/.codex/hooks.json, the server in ~/.codex/config.toml (under $CODEX_HOME when set)
    Codex,
    /// The server in ~/.cursor/mcp.json (or .cursor/mcp.json)
    Cursor,
}

#[derive(clap::Args)]
#[command(after_help = "claude-code, with --user (the default): hooks in ~/.claude/settings.json and the MCP \
server in ~/.claude.json (under $CLAUDE_CONFIG_DIR when set), for every project. With --project PATH: hooks in \
<project>/.claude/settings.json and the server in <project>/.mcp.json, for that project only (and shareable \
through git). Adds SessionStart (the digest), Stop (import so far) and SessionEnd (import and seal) hooks \
running `lcmem hook claude-code`, and an `lcmem` MCP server running `lcmem mcp`.\n\n\
codex: SessionStart (startup|resume|clear|compact) and Stop hooks running `lcmem hook codex` in \
~/.codex/hooks.json, and [mcp_servers.lcmem] plus [features] codex_hooks = true in ~/.codex/config.toml \
($CODEX_HOME when set; <project>/.codex/ with --project PATH).\n\n\
cursor: mcpServers.lcmem in ~/.cursor/mcp.json (<project>/.cursor/mcp.json with --project PATH), started with \
--project ${workspaceFolder}.\n\n\
Your own hooks and servers are kept; what is already installed is left alone, except a command that points at \
another lcmem (a moved binary), which is pointed at this one; running it twice changes nothing. Shows the diff \
(only the lines that change) first; --dry-run stops there. The first change to a file keeps its original as \
<file>.lcmem-backup; `lcmem uninstall AGENT` takes it all out again.")]
pub struct Args {
    /// The agent to wire lcmem into
    #[arg(value_enum)]
    agent: Agent,
    /// Install for every project of this user (the default; --project PATH installs for one project)
    #[arg(long)]
    user: bool,
    /// Show what would change and write nothing
    #[arg(long)]
    dry_run: bool,
    /// The lcmem command the agent should run [default: this executable's full path]
    #[arg(long, value_name = "PATH")]
    command: Option<String>,
}

#[derive(clap::Args)]
#[command(after_help = "Takes out exactly what `lcmem install AGENT` adds: hook handlers that run \
`lcmem hook …` (and a group or event left empty by that), and the `lcmem` MCP server entry. Everything else in \
the files stays. When what is left is the original install kept (<file>.lcmem-backup), the original comes back \
byte for byte and the backup goes; a file lcmem made and nothing else is in is removed. The store (your memory) \
is not touched. For codex, [features] codex_hooks stays as it is. Shows the diff first; --dry-run stops there.")]
pub struct UninstallArgs {
    /// The agent to take lcmem out of
    #[arg(value_enum)]
    agent: Agent,
    /// Take it out of this user's settings (the default; --project PATH takes it out of one project)
    #[arg(long)]
    user: bool,
    /// Show what would change and write nothing
    #[arg(long)]
    dry_run: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let command = match args.command {
        Some(command) => command,
        None => std::env::current_exe()
            .context("cannot tell where lcmem is installed: pass --command PATH")?
            .display()
            .to_string(),
    };
    let top = scope(context, args.user)?;
    let (changes, restart) = match args.agent {
        Agent::ClaudeCode => {
            let (settings, servers) = claude_files(top)?;
            let changes = vec![
                plan(&settings, |doc| add_hooks(doc, &command))?,
                plan(&servers, |doc| add_server(doc, &command))?,
            ];
            (changes, "Claude Code")
        }
        Agent::Codex => (codex::install(top.as_deref(), &command)?, "Codex"),
        Agent::Cursor => (vec![cursor::install(top.as_deref(), &command)?], "Cursor"),
    };
    if files::apply(&changes, args.dry_run, "lcmem is already there")? > 0 {
        println!(
            "{}",
            if args.dry_run { "dry run: nothing written".into() } else { format!("installed: restart {restart}") }
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn uninstall(args: UninstallArgs, context: &Context) -> anyhow::Result<ExitCode> {
    let top = scope(context, args.user)?;
    let changes = match args.agent {
        Agent::ClaudeCode => {
            let (settings, servers) = claude_files(top)?;
            vec![plan_removal(&settings, remove_hooks)?, plan_removal(&servers, remove_server)?]
        }
        Agent::Codex => codex::uninstall(top.as_deref())?,
        Agent::Cursor => vec![cursor::uninstall(top.as_deref())?],
    };
    if files::apply(&changes, args.dry_run, "lcmem is not there")? > 0 {
        println!("{}", if args.dry_run { "dry run: nothing written" } else { "uninstalled: restart the agent" });
    }
    Ok(ExitCode::SUCCESS)
}

/// `None` for the user's own settings, or the checkout's top level with
/// `--project PATH`.
fn scope(context: &Context, user: bool) -> anyhow::Result<Option<PathBuf>> {
    let Some(path) = context.explicit_project() else { return Ok(None) };
    if user {
        bail!("--user and --project PATH pick different places: give one of them");
    }
    let canonical = std::fs::canonicalize(path).with_context(|| format!("cannot find {}", path.display()))?;
    Ok(Some(lcmem::project::checkout_top(&canonical).unwrap_or(canonical)))
}

/// Claude Code's hooks file and servers file.
fn claude_files(top: Option<PathBuf>) -> anyhow::Result<(PathBuf, PathBuf)> {
    if let Some(root) = top {
        return Ok((root.join(".claude/settings.json"), root.join(".mcp.json")));
    }
    let dir = claude_dir()?;
    let servers = match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir).join(".claude.json"),
        None => home_dir()?.join(".claude.json"),
    };
    Ok((dir.join("settings.json"), servers))
}

pub(super) fn home_dir() -> anyhow::Result<PathBuf> {
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => bail!("cannot find your home folder: set HOME (or CLAUDE_CONFIG_DIR)"),
    }
}

/// Claude Code's own folder: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
fn claude_dir() -> anyhow::Result<PathBuf> {
    match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => Ok(PathBuf::from(dir)),
        None => Ok(home_dir()?.join(".claude")),
    }
}

/// Whether a hook group already runs lcmem's hook.
fn runs_lcmem_hook(group: &Value) -> bool {
    let hooks = group.get("hooks").and_then(Value::as_array);
    hooks.into_iter().flatten().any(|hook| is_lcmem_hook(hook, "claude-code"))
}

/// Whether one hook handler runs `lcmem hook AGENT`.
fn is_lcmem_hook(hook: &Value, agent: &str) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains("lcmem") && c.contains(&format!("hook {agent}")))
}

/// Points every handler that runs `lcmem hook AGENT` at `command` (a moved
/// binary leaves a stale path); everything else in the handler stays.
fn update_stale(groups: &mut [Value], agent: &str, command: &str) {
    let handlers = groups.iter_mut().filter_map(|g| g.get_mut("hooks").and_then(Value::as_array_mut)).flatten();
    for hook in handlers.filter(|h| is_lcmem_hook(h, agent)) {
        if hook["command"] != command {
            hook["command"] = json!(command);
        }
    }
}

/// Takes out every handler that runs `lcmem hook AGENT`, then any group, event
/// and `hooks` object that only held those.
fn remove_lcmem_hooks(doc: &mut Map<String, Value>, agent: &str) {
    let Some(hooks) = doc.get_mut("hooks").and_then(Value::as_object_mut) else { return };
    let mut emptied = Vec::new();
    for (event, groups) in hooks.iter_mut() {
        let Some(groups) = groups.as_array_mut() else { continue };
        let before = groups.len();
        groups.retain_mut(|group| {
            let Some(handlers) = group.get_mut("hooks").and_then(Value::as_array_mut) else { return true };
            let had = handlers.len();
            handlers.retain(|h| !is_lcmem_hook(h, agent));
            handlers.len() == had || !handlers.is_empty()
        });
        if groups.is_empty() && before > 0 {
            emptied.push(event.clone());
        }
    }
    for event in emptied {
        hooks.remove(&event);
    }
    if hooks.is_empty() {
        doc.remove("hooks");
    }
}

/// Takes out the `lcmem` entry of `key` (when it runs lcmem), and `key` when
/// nothing else is in it.
fn remove_lcmem_server(doc: &mut Map<String, Value>, key: &str) {
    let Some(servers) = doc.get_mut(key).and_then(Value::as_object_mut) else { return };
    if servers.get("lcmem").is_some_and(is_lcmem_server) {
        servers.remove("lcmem");
        if servers.is_empty() {
            doc.remove(key);
        }
    }
}

/// Whether a server entry runs an lcmem (by its command's name).
fn is_lcmem_server(entry: &Value) -> bool {
    entry.get("command").and_then(Value::as_str).is_some_and(|c| c.contains("lcmem"))
}

/// Points an `lcmem` server entry that runs another lcmem at `command`.
fn update_server_command(entry: &mut Value, command: &str) {
    if is_lcmem_server(entry) && entry["command"] != command {
        entry["command"] = json!(command);
    }
}

fn remove_hooks(doc: &mut Map<String, Value>) {
    remove_lcmem_hooks(doc, "claude-code");
}

fn remove_server(doc: &mut Map<String, Value>) {
    remove_lcmem_server(doc, "mcpServers");
}

fn add_hooks(doc: &mut Map<String, Value>, command: &str) {
    let hooks = doc.entry("hooks").or_insert_with(|| json!({}));
    let Some(hooks) = hooks.as_object_mut() else { return };
    for (event, timeout) in EVENTS {
        let groups = hooks.entry(event).or_insert_with(|| json!([]));
        let Some(groups) = groups.as_array_mut() else { continue };
        if !groups.iter().any(runs_lcmem_hook) {
            let mut hook = json!({"type": "command", "command": format!("{} hook claude-code", quoted(command)), "timeout": timeout});
            // Claude Code need not wait for the import after each reply; the
            // start (whose output is the context) and the end stay in step.
            if event == "Stop" {
                hook["async"] = json!(true);
            }
            groups.push(json!({ "hooks": [hook] }));
        }
        update_stale(groups, "claude-code", &format!("{} hook claude-code", quoted(command)));
    }
}

fn add_server(doc: &mut Map<String, Value>, command: &str) {
    let servers = doc.entry("mcpServers").or_insert_with(|| json!({}));
    if let Some(servers) = servers.as_object_mut() {
        let entry =
            servers.entry("lcmem").or_insert_with(|| json!({"type": "stdio", "command": command, "args": ["mcp"]}));
        update_server_command(entry, command);
    }
}

/// A path as a shell word: quoted when it holds anything a shell would split.
pub(super) fn quoted(command: &str) -> String {
    if command.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c)) {
        command.to_string()
    } else {
        format!("'{}'", command.replace('\'', r"'\''"))
    }
}
