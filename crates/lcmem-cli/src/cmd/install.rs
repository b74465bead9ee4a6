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
mod extract;
/// The settings editor of the agent whose settings are TOML.
pub(super) use codex as toml_settings;
mod files;
mod json_text;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

use self::files::{plan, plan_removal};
use self::json_text::{Doc, Seg, key};
use super::shared::Agent;
use super::shared::agent_settings::{handlers, is_lcmem_hook, on_path, settings_file};
use crate::context::Context;
use lcmem::agents::{HookEvent, Place, Server, Wiring};

/// The agents `lcmem install` wires lcmem into: every source.
fn agents() -> impl clap::builder::TypedValueParser<Value = Agent> {
    super::shared::agents(|_| true, |s| describe(s.wiring()))
}

/// What install writes for an agent, in a line of `--help`.
fn describe(wiring: Wiring) -> String {
    let file = |place: &Place| format!("~/{}", place.home);
    let server = match wiring.server {
        Server::Json { file: place, .. } | Server::Toml { file: place } => file(&place),
    };
    match wiring.hooks {
        Some(hooks) if file(&hooks.file) == server => format!("hooks and the server in {server}"),
        Some(hooks) => format!("hooks in {}, the server in {server}", file(&hooks.file)),
        None => format!("the server in {server}"),
    }
}

/// The help's closing part: where each agent's settings are, and what else
/// install does for it, from the engine's list of agents.
fn after_help() -> String {
    let mut out = String::from(
        "Where the settings go: with --user (the default), the user's, for every project; with --project PATH, the \
         project's own files, for that project only and shareable through git.\n",
    );
    for source in lcmem::agents::SOURCES {
        let wiring = source.wiring();
        let (Server::Json { file: server, .. } | Server::Toml { file: server }) = wiring.server;
        let mut places = vec![server];
        places.extend(wiring.hooks.map(|h| h.file).filter(|f| f.home != server.home));
        let user: Vec<String> = places.iter().map(|p| format!("~/{}", p.home)).collect();
        let project: Vec<&str> = places.iter().map(|p| p.project).collect();
        let moved = places
            .iter()
            .find_map(|p| p.env)
            .map(|(var, _)| format!(" (under ${var} when it is set)"))
            .unwrap_or_default();
        out.push_str(&format!(
            "  {:<12} {}{moved}; in a project: {}\n",
            source.name(),
            user.join(", "),
            project.join(", ")
        ));
        if let Some(note) = wiring.note {
            out.push_str(&format!("  {:<12} {note}\n", ""));
        }
    }
    out.push_str(
        "Hooks run `lcmem hook AGENT` at session start (the digest), after each turn (import so far) and at the end \
         (import and seal) where the agent has those events; the MCP server runs `lcmem mcp`, told the project with \
         the agent's own placeholder where it starts servers elsewhere, and told a store other than ~/.levelcode \
         with --home DIR where the agent gives its servers little of its environment.\n\n\
         The user's files run this executable by its full path; a project's files (meant for git) run `lcmem` from \
         PATH. Your own hooks and servers are kept, as you wrote them; what is already installed is left alone, \
         except a command that points at another lcmem (a moved binary), which is pointed at this one; running it \
         twice changes nothing. For each file it prints one line saying what changes (\"3 hooks and 1 MCP server \
         added to ~/.claude/settings.json\") and the diff, with two lines of context, then writes the file at once; \
         --dry-run prints the same and writes nothing. The first change to a file keeps its original as \
         <file>.lcmem-backup; `lcmem uninstall AGENT` takes it all out again.",
    );
    let headless: Vec<String> = lcmem::agents::SOURCES
        .iter()
        .filter_map(|s| s.wiring().headless.map(|command| format!("  {:<12} {command}\n", s.name())))
        .collect();
    out.push_str(&format!(
        "\n\n--extract: a session is sealed by the rules at once (the next session start has it), then read again in \
         the background by the agent's own CLI, headless, with your login and a small model; its answer passes the \
         same guard and redactor, within extract.max_usd_per_day. The command it sets (extract.command):\n{}\
         Other agents: choose a lane yourself (`lcmem config set extract.lane …`, docs/extract.md).",
        headless.concat()
    ));
    out
}

#[derive(clap::Args)]
#[command(after_help = after_help())]
pub struct Args {
    /// The agent to wire lcmem into
    #[arg(value_parser = agents())]
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
    /// Also have the agent's own CLI (headless, your login, a small model) read each session again after the rules
    /// sealed it: sets extract.lane = command (globally, or for the project with --project)
    #[arg(long)]
    extract: bool,
}

#[derive(clap::Args)]
#[command(after_help = "Takes out exactly what `lcmem install AGENT` adds: hook handlers that run \
`lcmem hook …` (and a group, event or object left empty by that, unless it was there before), the `lcmem` MCP \
server entry, and a switch install turned on for an agent that needs one. Everything else in the files stays as you wrote \
it. When nothing else changed since install, the original comes back byte for byte; the copy install kept \
(<file>.lcmem-backup) goes; a file lcmem made and nothing else is in is removed, and its folder when that is \
then empty. The command lane `install --extract` set goes back to the rules when it is still that agent's \
command. The store (your memory) is not touched. For each file it prints what goes and the diff, then writes \
at once; --dry-run prints the same and writes nothing.")]
pub struct UninstallArgs {
    /// The agent to take lcmem out of
    #[arg(value_parser = agents())]
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
    let (source, wiring) = (args.agent.0, args.agent.0.wiring());
    let store = if wiring.pass_store { explicit_store(context) } else { None };
    if let (Some(_), Some(store)) = (&top, &store) {
        println!(
            "the store is {}, not ~/.levelcode: the project's files name no path, so they let LEVELCODE_HOME \
             through to lcmem; start {} with LEVELCODE_HOME set to it",
            store.display(),
            source.title()
        );
    }
    // The user's files name the store; a project's (meant for git) let `LEVELCODE_HOME` through.
    let home: Vec<String> = match (&top, &store) {
        (None, Some(store)) => vec!["--home".into(), store.display().to_string()],
        _ => Vec::new(),
    };
    // The edits of each JSON file, made as one change of that file.
    let mut edits: Vec<(PathBuf, Vec<Edit>)> = Vec::new();
    let mut toml = None;
    if let Some(hooks) = wiring.hooks {
        let mut words: Vec<&str> = vec![&command];
        words.extend(home.iter().map(String::as_str));
        words.extend(["hook", source.name()]);
        let hook = shell_words(&words);
        let groups: Vec<(&str, Value)> =
            hooks.events.iter().map(|event| (event.name, group(event, &hook, hooks.millis))).collect();
        let name = source.name();
        let edit: Edit = Box::new(move |doc| add_hook_groups(doc, name, &hook, &groups));
        push(&mut edits, settings_file(&hooks.file, top.as_deref())?, edit);
    }
    match wiring.server {
        Server::Json { file, typed, project_arg } => {
            let mut server_args = home.clone();
            if let Some(placeholder) = project_arg {
                server_args.extend(["--project".to_string(), placeholder.to_string()]);
            }
            server_args.push("mcp".into());
            let entry = match typed {
                true => json!({"type": "stdio", "command": command, "args": server_args}),
                false => json!({"command": command, "args": server_args}),
            };
            push(&mut edits, settings_file(&file, top.as_deref())?, Box::new(move |doc| add_server(doc, entry)));
        }
        Server::Toml { file } => {
            let file = settings_file(&file, top.as_deref())?;
            toml = Some(toml_settings::install(&file, &command, home, top.is_some() && store.is_some())?);
        }
    }
    let mut changes = Vec::new();
    for (file, list) in edits {
        changes.push(plan(&file, |doc| list.into_iter().for_each(|edit| edit(doc)))?);
    }
    changes.extend(toml);
    let restart = source.title();
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
    if let (Some(after), true) = (wiring.after, changed > 0) {
        println!("{after}");
    }
    if args.extract {
        extract::switch_on(context, source, top.is_some(), args.dry_run)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// An edit of a JSON settings file, and one that takes lcmem out of it
/// (given the file as it was before install).
type Edit = Box<dyn FnOnce(&mut Doc)>;
type Removal = Box<dyn FnOnce(&mut Doc, Option<&Value>)>;

/// Adds `edit` to those of `file`.
fn push<E>(edits: &mut Vec<(PathBuf, Vec<E>)>, file: PathBuf, edit: E) {
    match edits.iter_mut().find(|(f, _)| *f == file) {
        Some((_, list)) => list.push(edit),
        None => edits.push((file, vec![edit])),
    }
}

/// One event's hook group: the handler, under the event's matcher if any.
fn group(event: &HookEvent, hook: &str, millis: bool) -> Value {
    let timeout = if millis { event.timeout * 1000 } else { event.timeout };
    let mut handler = json!({"type": "command", "command": hook, "timeout": timeout});
    if event.background {
        handler["async"] = json!(true);
    }
    match event.matcher {
        Some(matcher) => json!({"matcher": matcher, "hooks": [handler]}),
        None => json!({"hooks": [handler]}),
    }
}

pub fn uninstall(args: UninstallArgs, context: &Context) -> anyhow::Result<ExitCode> {
    let top = scope(context, args.user)?;
    let (source, wiring) = (args.agent.0, args.agent.0.wiring());
    let mut edits: Vec<(PathBuf, Vec<Removal>)> = Vec::new();
    let mut hooks_file = None;
    if let Some(hooks) = wiring.hooks {
        let file = settings_file(&hooks.file, top.as_deref())?;
        let name = source.name();
        push(&mut edits, file.clone(), Box::new(move |doc, original| remove_hook_groups(doc, name, original)));
        hooks_file = Some(file);
    }
    let mut toml = None;
    match wiring.server {
        Server::Json { file, .. } => push(&mut edits, settings_file(&file, top.as_deref())?, Box::new(remove_server)),
        Server::Toml { file } => toml = Some(settings_file(&file, top.as_deref())?),
    }
    let mut changes = Vec::new();
    for (file, list) in edits {
        changes.push(plan_removal(&file, |doc, original| list.into_iter().for_each(|edit| edit(doc, original)))?);
    }
    if let Some(file) = toml {
        let hooks = hooks_file.as_deref().zip(changes.first());
        let change = toml_settings::uninstall(&file, hooks)?;
        changes.push(change);
    }
    if files::apply(&changes, args.dry_run, "lcmem is not there")? > 0 {
        println!("{}", if args.dry_run { "dry run: nothing written" } else { "uninstalled: restart the agent" });
    }
    extract::switch_off(context, source, top.is_some(), args.dry_run)?;
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
    Ok(Some(lcmem::checkout_top(&canonical).unwrap_or(canonical)))
}

/// The store, when it is not the default one (`~/.levelcode`): an agent
/// that starts lcmem without this environment has to be told.
fn explicit_store(context: &Context) -> Option<PathBuf> {
    let store = context.home().ok()?;
    let store = std::path::absolute(&store).unwrap_or(store);
    (home_dir().ok().map(|h| h.join(".levelcode")).as_ref() != Some(&store)).then_some(store)
}

pub(super) fn home_dir() -> anyhow::Result<PathBuf> {
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home)),
        None => bail!("cannot find your home folder: set HOME"),
    }
}

/// Adds each event's group under `hooks` where the event runs no lcmem hook
/// yet, and points lcmem's handlers at `hook` (a moved binary leaves a stale
/// path); everything else stays.
fn add_hook_groups(doc: &mut Doc, agent: &str, hook: &str, groups: &[(&str, Value)]) {
    for (event, group) in groups {
        let (event, group) = (*event, group.clone());
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
