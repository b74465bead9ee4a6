//! `lcmem install claude-code`: wire the hook and the MCP server into Claude
//! Code's settings, keeping everything the user wrote.
//!
//! Only additions are made: a hook group per event whose command is
//! lcmem's, and an `mcpServers.lcmem` entry. An event that already runs
//! lcmem's hook, or an existing `lcmem` server entry, is left exactly as it
//! is, so running the command again changes nothing. Each file's change is
//! shown as a diff before it is written; the first time a file is changed a
//! copy of the original is kept beside it; every write is atomic.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Map, Value, json};

use crate::context::Context;

/// The Claude Code events lcmem's hook handles, with the time each may take
/// (seconds) before Claude Code gives up on it.
const EVENTS: [(&str, u64); 3] = [("SessionStart", 10), ("Stop", 30), ("SessionEnd", 60)];

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    ClaudeCode,
}

#[derive(clap::Args)]
#[command(after_help = "With --user (the default): hooks in ~/.claude/settings.json and the MCP server in \
~/.claude.json (under $CLAUDE_CONFIG_DIR when set), for every project. With --project PATH: hooks in \
<project>/.claude/settings.json and the server in <project>/.mcp.json, for that project only (and shareable \
through git).\n\n\
Adds SessionStart (the digest), Stop (import so far) and SessionEnd (import and seal) hooks running \
`lcmem hook claude-code`, and an `lcmem` MCP server running `lcmem mcp`. Your own hooks and servers are kept; \
what is already installed is left alone, so running it twice changes nothing. Shows the diff first; \
--dry-run stops there. The first change to a file keeps its original as <file>.lcmem-backup.")]
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

/// One settings file and what lcmem adds to it.
struct Change {
    path: PathBuf,
    before: Option<String>,
    after: String,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let Agent::ClaudeCode = args.agent;
    let command = match args.command {
        Some(command) => command,
        None => std::env::current_exe()
            .context("cannot tell where lcmem is installed: pass --command PATH")?
            .display()
            .to_string(),
    };
    let project_scope = context.explicit_project().is_some();
    if project_scope && args.user {
        bail!("--user and --project PATH pick different places: give one of them");
    }
    let (settings, servers) = if project_scope {
        let root = lcmem::project::Project::resolve(&context.project_path())?.root;
        (root.join(".claude/settings.json"), root.join(".mcp.json"))
    } else {
        let dir = claude_dir()?;
        let servers = match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|d| !d.is_empty()) {
            Some(dir) => PathBuf::from(dir).join(".claude.json"),
            None => home_dir()?.join(".claude.json"),
        };
        (dir.join("settings.json"), servers)
    };
    let changes = [plan(&settings, |doc| add_hooks(doc, &command))?, plan(&servers, |doc| add_server(doc, &command))?];
    let mut changed = 0;
    for change in &changes {
        if change.before.as_deref() == Some(change.after.as_str()) {
            println!("unchanged {}: lcmem is already there", change.path.display());
            continue;
        }
        changed += 1;
        println!("--- {}", change.path.display());
        print!("{}", diff(change.before.as_deref().unwrap_or(""), &change.after));
        if !args.dry_run {
            write(change)?;
        }
    }
    if changed > 0 {
        println!("{}", if args.dry_run { "dry run: nothing written" } else { "installed: restart Claude Code" });
    }
    Ok(ExitCode::SUCCESS)
}

fn home_dir() -> anyhow::Result<PathBuf> {
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

/// Reads `path` (a missing file is an empty object), applies `edit`, and
/// returns both texts. A file that is not a JSON object is an error: it is
/// never overwritten.
fn plan(path: &Path, edit: impl FnOnce(&mut Map<String, Value>)) -> anyhow::Result<Change> {
    let before = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut doc = match before.as_deref().map(str::trim) {
        None | Some("") => Map::new(),
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => bail!("{} is not a JSON object; fix it by hand, nothing was changed", path.display()),
            Err(e) => bail!(
                "{}:{}:{}: not valid JSON ({e}); fix it by hand, nothing was changed",
                path.display(),
                e.line(),
                e.column()
            ),
        },
    };
    let original = doc.clone();
    edit(&mut doc);
    let after = if doc == original && before.is_some() {
        before.clone().unwrap_or_default()
    } else {
        serde_json::to_string_pretty(&doc)? + "\n"
    };
    Ok(Change { path: path.to_path_buf(), before, after })
}

/// Whether a hook group already runs lcmem's hook.
fn runs_lcmem_hook(group: &Value) -> bool {
    let hooks = group.get("hooks").and_then(Value::as_array);
    hooks.into_iter().flatten().any(|hook| {
        hook.get("command")
            .and_then(Value::as_str)
            .is_some_and(|c| c.contains("lcmem") && c.contains("hook claude-code"))
    })
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
    }
}

fn add_server(doc: &mut Map<String, Value>, command: &str) {
    let servers = doc.entry("mcpServers").or_insert_with(|| json!({}));
    if let Some(servers) = servers.as_object_mut() {
        servers.entry("lcmem").or_insert_with(|| json!({"type": "stdio", "command": command, "args": ["mcp"]}));
    }
}

/// A path as a shell word: quoted when it holds anything a shell would split.
fn quoted(command: &str) -> String {
    if command.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c)) {
        command.to_string()
    } else {
        format!("'{}'", command.replace('\'', r"'\''"))
    }
}

/// The lines that differ, between the common head and tail, as `-`/`+`
/// lines. lcmem only adds, so this shows exactly what it adds.
fn diff(before: &str, after: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(a, b)| a == b).count();
    let mut out = String::new();
    for line in &old[head..old.len() - tail] {
        out.push_str(&format!("-{line}\n"));
    }
    for line in &new[head..new.len() - tail] {
        out.push_str(&format!("+{line}\n"));
    }
    out
}

fn write(change: &Change) -> anyhow::Result<()> {
    if let Some(parent) = change.path.parent() {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    if let Some(before) = &change.before {
        let backup = PathBuf::from(format!("{}.lcmem-backup", change.path.display()));
        if !backup.exists() {
            lcmem::jsonl::atomic_write(&backup, before.as_bytes())?;
        }
    }
    lcmem::jsonl::atomic_write(&change.path, change.after.as_bytes())?;
    Ok(())
}
