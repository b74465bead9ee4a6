//! `lcmem install claude-code|codex|cursor` and `lcmem uninstall …`: wire
//! the hook and the MCP server into an agent's settings, keeping everything
//! the user wrote, and take them out again.
//!
//! Only additions are made, as edits of the file's text: a hook group per
//! event whose command is lcmem's, and an `lcmem` MCP server entry; not a
//! byte of the user's changes (key order, number spelling, layout, line
//! ends). An event that already runs lcmem's hook, or an existing `lcmem`
//! server entry, is left as it is, except that a command pointing at another
//! lcmem (a moved binary) is pointed at this one; so running the command
//! again changes nothing. Each file's change is shown as a diff of the lines
//! that change before it is written; the first time a file is changed a copy
//! of the original is kept beside it; every write is atomic and keeps the
//! file's mode. Uninstall takes out exactly those entries, puts the original
//! back byte for byte when nothing else changed since, and drops the copy.
//! Claude Code lives here; the other agents in `install/`.

pub(super) mod codex;
mod codex_toml;
pub(super) mod cursor;
mod files;
mod json_text;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

use self::files::{plan, plan_removal};
use self::json_text::{Doc, Seg, key};
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
~/.codex/hooks.json, and [mcp_servers.lcmem] plus [features] hooks = true (codex_hooks for a Codex older than \
0.130) in ~/.codex/config.toml ($CODEX_HOME when set; <project>/.codex/ with --project PATH). A store other than \
~/.levelcode is passed on with --home DIR (in a project: env_vars = [\"LEVELCODE_HOME\"]), as Codex gives its \
MCP servers little of its environment. Codex runs the hooks once you trust them.\n\n\
cursor: mcpServers.lcmem in ~/.cursor/mcp.json (<project>/.cursor/mcp.json with --project PATH), started with \
--project ${workspaceFolder}.\n\n\
The user's files run this executable by its full path; a project's files (meant for git) run `lcmem` from PATH. \
Your own hooks and servers are kept, as you wrote them; what is already installed is left alone, except a \
command that points at another lcmem (a moved binary), which is pointed at this one; running it twice changes \
nothing. Shows the diff (only the lines that change) first; --dry-run stops there. The first change to a file \
keeps its original as <file>.lcmem-backup; `lcmem uninstall AGENT` takes it all out again.")]
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
    /// The lcmem command the agent should run [default: this executable's full path; `lcmem` with --project]
    #[arg(long, value_name = "PATH")]
    command: Option<String>,
}

#[derive(clap::Args)]
#[command(after_help = "Takes out exactly what `lcmem install AGENT` adds: hook handlers that run \
`lcmem hook …` (and a group, event or object left empty by that, unless it was there before), the `lcmem` MCP \
server entry, and for codex the hooks switch install turned on. Everything else in the files stays as you wrote \
it. When nothing else changed since install, the original comes back byte for byte; the copy install kept \
(<file>.lcmem-backup) goes; a file lcmem made and nothing else is in is removed, and its folder when that is \
then empty. The store (your memory) is not touched. Shows the diff first; --dry-run stops there.")]
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
    let top = scope(context, args.user)?;
    let from_path = args.command.is_none() && top.is_some();
    let command = match args.command {
        Some(command) => command,
        // A project's files are meant for git: they name the command, found on PATH, not where it is here.
        None if from_path => "lcmem".to_string(),
        None => std::env::current_exe()
            .context("cannot tell where lcmem is installed: pass --command PATH")?
            .display()
            .to_string(),
    };
    let (changes, restart) = match args.agent {
        Agent::ClaudeCode => {
            let (settings, servers) = claude_files(top)?;
            let hook = format!("{} hook claude-code", quoted(&command));
            let groups = EVENTS.map(|(event, timeout)| {
                let mut handler = json!({"type": "command", "command": hook, "timeout": timeout});
                // Claude Code need not wait for the import after each reply; the
                // start (whose output is the context) and the end stay in step.
                if event == "Stop" {
                    handler["async"] = json!(true);
                }
                (event, json!({ "hooks": [handler] }))
            });
            let entry = json!({"type": "stdio", "command": command, "args": ["mcp"]});
            let changes = vec![
                plan(&settings, |doc| add_hook_groups(doc, "claude-code", &hook, groups))?,
                plan(&servers, |doc| add_server(doc, entry))?,
            ];
            (changes, "Claude Code")
        }
        Agent::Codex => {
            let store = explicit_store(context);
            if let (Some(_), Some(store)) = (&top, &store) {
                println!(
                    "the store is {}, not ~/.levelcode: the project's files name no path, so they let \
                     LEVELCODE_HOME through to lcmem; start Codex with LEVELCODE_HOME set to it",
                    store.display()
                );
            }
            (codex::install(top.as_deref(), &command, store.as_deref())?, "Codex")
        }
        Agent::Cursor => (vec![cursor::install(top.as_deref(), &command)?], "Cursor"),
    };
    let changed = files::apply(&changes, args.dry_run, "lcmem is already there")?;
    if changed > 0 {
        println!(
            "{}",
            if args.dry_run { "dry run: nothing written".into() } else { format!("installed: restart {restart}") }
        );
    }
    if from_path {
        println!("the project's files run `lcmem` from PATH, not this machine's path to it: they are meant for git");
        if !on_path("lcmem") {
            eprintln!(
                "warning: `lcmem` is not on PATH here, so {restart} will not find it: put the lcmem binary in a \
                 folder on PATH (`cargo install` uses ~/.cargo/bin)"
            );
        }
    }
    if args.agent == Agent::Codex && changed > 0 {
        println!("{}", codex::TRUST);
    }
    Ok(ExitCode::SUCCESS)
}

pub fn uninstall(args: UninstallArgs, context: &Context) -> anyhow::Result<ExitCode> {
    let top = scope(context, args.user)?;
    let changes = match args.agent {
        Agent::ClaudeCode => {
            let (settings, servers) = claude_files(top)?;
            vec![
                plan_removal(&settings, |doc, original| remove_hook_groups(doc, "claude-code", original))?,
                plan_removal(&servers, remove_server)?,
            ]
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

/// The store, when it is not the default one (`~/.levelcode`): an agent
/// that starts lcmem without this environment has to be told.
fn explicit_store(context: &Context) -> Option<PathBuf> {
    let store = context.home().ok()?;
    let store = std::path::absolute(&store).unwrap_or(store);
    (home_dir().ok().map(|h| h.join(".levelcode")).as_ref() != Some(&store)).then_some(store)
}

/// Whether `name` is an executable file in a folder on PATH.
pub(super) fn on_path(name: &str) -> bool {
    use std::os::unix::fs::PermissionsExt as _;
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .any(|dir| std::fs::metadata(dir.join(name)).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0))
}

/// Claude Code's hooks file and servers file.
pub(super) fn claude_files(top: Option<PathBuf>) -> anyhow::Result<(PathBuf, PathBuf)> {
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

/// Whether one hook handler runs `lcmem hook AGENT`.
pub(super) fn is_lcmem_hook(hook: &Value, agent: &str) -> bool {
    hook.get("command")
        .and_then(Value::as_str)
        .is_some_and(|c| c.contains("lcmem") && c.contains(&format!("hook {agent}")))
}

/// The handlers of a hook group.
pub(super) fn handlers(group: &Value) -> &[Value] {
    group.get("hooks").and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Adds each event's group under `hooks` where the event runs no lcmem hook
/// yet, and points lcmem's handlers at `hook` (a moved binary leaves a stale
/// path); everything else stays.
fn add_hook_groups<const N: usize>(doc: &mut Doc, agent: &str, hook: &str, groups: [(&str, Value); N]) {
    for (event, group) in groups {
        let value = doc.value();
        let Some(hooks) = value.get("hooks") else {
            doc.add(&[], Some("hooks"), &json!({ event: [group] }));
            continue;
        };
        let Some(existing) = hooks.as_object().map(|h| h.get(event)) else { continue };
        let Some(existing) = existing else {
            doc.add(&[key("hooks")], Some(event), &json!([group]));
            continue;
        };
        let Some(existing) = existing.as_array() else { continue };
        if !existing.iter().any(|g| handlers(g).iter().any(|h| is_lcmem_hook(h, agent))) {
            doc.add(&[key("hooks"), key(event)], None, &group);
        }
        for (g, group) in existing.iter().enumerate() {
            for (h, handler) in handlers(group).iter().enumerate() {
                if is_lcmem_hook(handler, agent) && handler["command"] != hook {
                    let path = [key("hooks"), key(event), Seg::Index(g), key("hooks"), Seg::Index(h), key("command")];
                    doc.set(&path, &json!(hook));
                }
            }
        }
    }
}

/// Takes out every handler that runs `lcmem hook AGENT`, then any group,
/// event and `hooks` object that only held those, unless `original` (the
/// file before install) had it.
fn remove_hook_groups(doc: &mut Doc, agent: &str, original: Option<&Value>) {
    let value = doc.value();
    let Some(hooks) = value.get("hooks").and_then(Value::as_object) else { return };
    let had = |path: &[&str]| original.and_then(|o| path.iter().try_fold(o, |v, k| v.get(k))).is_some();
    let (mut cuts, mut emptied) = (Vec::new(), 0);
    for (event, groups) in hooks {
        let Some(groups) = groups.as_array() else { continue };
        let at = |rest: &[Seg]| [&[key("hooks"), key(event)], rest].concat();
        let (mut event_cuts, mut whole) = (Vec::new(), 0);
        for (g, group) in groups.iter().enumerate() {
            let ours: Vec<usize> =
                (0..handlers(group).len()).filter(|&h| is_lcmem_hook(&handlers(group)[h], agent)).collect();
            if ours.is_empty() {
                continue;
            }
            if ours.len() == handlers(group).len() {
                whole += 1;
                event_cuts.push(at(&[Seg::Index(g)]));
            } else {
                event_cuts.extend(ours.iter().map(|&h| at(&[Seg::Index(g), key("hooks"), Seg::Index(h)])));
            }
        }
        if whole > 0 && whole == groups.len() && !had(&["hooks", event]) {
            emptied += 1;
            cuts.push(at(&[]));
        } else {
            cuts.extend(event_cuts);
        }
    }
    if emptied > 0 && emptied == hooks.len() && !had(&["hooks"]) {
        cuts = vec![vec![key("hooks")]];
    }
    // Last first: what comes before a cut keeps its place.
    for cut in cuts.iter().rev() {
        doc.remove(cut);
    }
}

/// Whether a server entry runs an lcmem (by its command's name).
fn is_lcmem_server(entry: &Value) -> bool {
    entry.get("command").and_then(Value::as_str).is_some_and(|c| c.contains("lcmem"))
}

/// Adds `entry` as `mcpServers.lcmem`, or points an `lcmem` entry that runs
/// another lcmem at its command.
fn add_server(doc: &mut Doc, entry: Value) {
    let value = doc.value();
    match value.get("mcpServers") {
        None => doc.add(&[], Some("mcpServers"), &json!({ "lcmem": entry })),
        Some(Value::Object(servers)) => match servers.get("lcmem") {
            None => doc.add(&[key("mcpServers")], Some("lcmem"), &entry),
            Some(current) if is_lcmem_server(current) && current["command"] != entry["command"] => {
                doc.set(&[key("mcpServers"), key("lcmem"), key("command")], &entry["command"]);
            }
            Some(_) => {}
        },
        Some(_) => {}
    }
}

/// Takes out the `lcmem` server entry (when it runs lcmem), and
/// `mcpServers` when nothing else is in it and `original` did not have it.
fn remove_server(doc: &mut Doc, original: Option<&Value>) {
    let value = doc.value();
    let Some(servers) = value.get("mcpServers").and_then(Value::as_object) else { return };
    if servers.get("lcmem").is_some_and(is_lcmem_server) {
        if servers.len() == 1 && original.and_then(|o| o.get("mcpServers")).is_none() {
            doc.remove(&[key("mcpServers")]);
        } else {
            doc.remove(&[key("mcpServers"), key("lcmem")]);
        }
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

/// Words as a command line: each quoted when a shell would split it.
pub(super) fn shell_words(words: &[&str]) -> String {
    words.iter().map(|w| quoted(w)).collect::<Vec<_>>().join(" ")
}
