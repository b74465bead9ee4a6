//! `lcmem doctor`: is lcmem wired into each agent, and does the wiring work?
//! One line per check; a non-zero exit when something is broken.

mod probe;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde::Serialize;
use serde_json::Value;

use super::install::toml_settings;
use super::shared::agent_settings::{handlers, is_lcmem_hook, on_path, settings_file};
use crate::context::Context;
use lcmem::agents::{Server, Source};

#[derive(clap::Args)]
#[command(after_help = "For each agent (the user's settings): whether lcmem's hooks are there \
and run a binary that exists, whether the MCP server starts and lists its tools, and, for an agent that asks \
for it, whether the hooks are switched on and trusted. For the project: whether the store can be written, the last hook run and \
its errors (<home>/logs/hooks.log), the sessions waiting to be sealed, and whether recall has its semantic lane \
(an embedding model) or matches words only. An agent lcmem is not installed into \
is said, not counted as broken. Exit status: 0 when nothing is broken, 1 otherwise.")]
pub struct Args {
    /// Print the checks as JSON
    #[arg(long)]
    json: bool,
    /// Mend what can be mended in the store: move the lines of stored sessions that are not JSON into a .torn
    /// file beside each
    #[arg(long)]
    repair: bool,
}

#[derive(Serialize, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum State {
    Ok,
    /// Works, but not as expected (another lcmem binary, an old error).
    Warn,
    Broken,
    /// Not installed: nothing to check.
    Absent,
}

#[derive(Serialize)]
struct Check {
    what: String,
    state: State,
    detail: String,
}

#[derive(Default)]
struct Checks(Vec<Check>);

impl Checks {
    fn say(&mut self, what: impl Into<String>, state: State, detail: impl Into<String>) {
        self.0.push(Check { what: what.into(), state, detail: detail.into() });
    }
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let mut checks = Checks::default();
    for source in lcmem::agents::SOURCES {
        agent(&mut checks, *source, context);
    }
    store(&mut checks, context, args.repair);
    if args.json {
        crate::output::print_json(&checks.0)?;
    } else {
        for check in &checks.0 {
            let state = match check.state {
                State::Ok => "ok    ",
                State::Warn => "warn  ",
                State::Broken => "BROKEN",
                State::Absent => "--    ",
            };
            println!("{state}  {}: {}", check.what, check.detail);
        }
    }
    let broken = checks.0.iter().any(|c| c.state == State::Broken);
    Ok(if broken { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn read_json(path: &Path) -> Result<Option<Value>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text).map(Some).map_err(|e| format!("{} is not JSON: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", path.display())),
    }
}

/// The checks of one agent's wiring, as its source says what install wrote.
fn agent(checks: &mut Checks, source: &dyn Source, context: &Context) {
    let (name, wiring) = (source.name(), source.wiring());
    let mut hooks_found = None;
    if let Some(hooks) = wiring.hooks {
        let Ok(file) = settings_file(&hooks.file, None) else {
            return checks.say(name, State::Broken, "cannot find your home folder: set HOME");
        };
        let doc = match read_json(&file) {
            Ok(value) => value,
            Err(e) => return checks.say(format!("{name} hooks"), State::Broken, e),
        };
        let events: Vec<&str> = hooks.events.iter().map(|e| e.name).collect();
        let installed = hook_check(checks, name, &file, doc.as_ref(), &events);
        hooks_found = installed.then_some((file, doc));
    }
    let (Server::Json { file, .. } | Server::Toml { file }) = wiring.server;
    let Ok(path) = settings_file(&file, None) else {
        return checks.say(name, State::Broken, "cannot find your home folder: set HOME");
    };
    match wiring.server {
        Server::Json { project_arg, .. } => match read_json(&path) {
            Ok(value) => {
                let project = context.project_path().display().to_string();
                let placeholder = project_arg.map(|p| (p, project.as_str()));
                let entry = value.as_ref().and_then(|v| v.pointer("/mcpServers/lcmem"));
                server_check(checks, name, &path, entry, placeholder);
            }
            Err(e) => checks.say(format!("{name} MCP server"), State::Broken, e),
        },
        Server::Toml { .. } => toml_checks(checks, source, &path, hooks_found),
    }
}

/// An agent whose settings are TOML: the hooks switch and the agent's trust
/// in lcmem's hooks (when they are installed, in `hooks`), and the server.
fn toml_checks(checks: &mut Checks, source: &dyn Source, config_path: &Path, hooks: Option<(PathBuf, Option<Value>)>) {
    let (name, title, trust) = (source.name(), source.title(), source.wiring().after.unwrap_or(""));
    let config: Option<toml::Table> = match std::fs::read_to_string(config_path) {
        Ok(text) => match text.parse() {
            Ok(table) => Some(table),
            Err(e) => {
                return checks.say(format!("{name} config"), State::Broken, format!("{}: {e}", config_path.display()));
            }
        },
        Err(_) => None,
    };
    if let Some((hooks_json, hooks)) = hooks {
        if !config.as_ref().is_some_and(toml_settings::hooks_switched_on) {
            let switch = toml_settings::HOOKS_SWITCH;
            checks.say(
                format!("{name} hooks switch"),
                State::Broken,
                format!("{switch} is not on in {}: `lcmem install {name}`", config_path.display()),
            );
        }
        if config.as_ref().is_some_and(|c| toml_settings::hooks_trusted(c, &hooks_json, hooks.as_ref())) {
            checks.say(format!("{name} hooks trust"), State::Ok, format!("{title} trusts lcmem's hooks"));
        } else {
            checks.say(
                format!("{name} hooks trust"),
                State::Broken,
                format!("{title} has not trusted lcmem's hooks, so it runs none of them. {trust}"),
            );
        }
    }
    let server = config.as_ref().and_then(|c| c.get("mcp_servers")).and_then(|m| m.get("lcmem"));
    let server = server.and_then(|s| serde_json::to_value(s).ok());
    server_check(checks, name, config_path, server.as_ref(), None);
}

/// lcmem's handlers for each of `events`, each running a binary that exists.
/// Returns whether the agent has lcmem's hooks at all.
fn hook_check(checks: &mut Checks, agent: &str, file: &Path, doc: Option<&Value>, events: &[&str]) -> bool {
    let what = format!("{agent} hooks");
    let commands: Vec<(&str, Option<String>)> = events
        .iter()
        .map(|event| {
            let groups = doc.and_then(|d| d.pointer(&format!("/hooks/{event}"))).and_then(Value::as_array);
            let handler = groups.into_iter().flatten().flat_map(handlers).find(|h| is_lcmem_hook(h, agent));
            (*event, handler.and_then(|h| h["command"].as_str()).map(str::to_string))
        })
        .collect();
    let missing: Vec<&str> = commands.iter().filter(|(_, c)| c.is_none()).map(|(e, _)| *e).collect();
    if missing.len() == events.len() {
        checks.say(what, State::Absent, format!("not installed in {} (`lcmem install {agent}`)", file.display()));
        return false;
    }
    if !missing.is_empty() {
        let detail =
            format!("no lcmem hook for {} in {}: `lcmem install {agent}` adds it", missing.join(", "), file.display());
        checks.say(what.clone(), State::Broken, detail);
    }
    let programs: Vec<String> = commands.iter().filter_map(|(_, c)| c.as_deref().map(program_of)).collect();
    for program in dedup(programs) {
        let (state, detail) = binary_state(&program);
        checks.say(what.clone(), state, format!("{} run {detail}", events.join(", ")));
    }
    true
}

/// The MCP server entry starts and lists lcmem's tools.
fn server_check(
    checks: &mut Checks,
    agent: &str,
    file: &Path,
    entry: Option<&Value>,
    placeholder: Option<(&str, &str)>,
) {
    let what = format!("{agent} MCP server");
    let Some(entry) = entry else {
        return checks.say(
            what,
            State::Absent,
            format!("not installed in {} (`lcmem install {agent}`)", file.display()),
        );
    };
    let Some(program) = entry["command"].as_str() else {
        return checks.say(what, State::Broken, format!("the lcmem entry in {} has no command", file.display()));
    };
    let args: Vec<String> = entry["args"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(|a| placeholder.map_or(a.to_string(), |(name, project)| a.replace(name, project)))
        .collect();
    let mut env: Vec<(String, String)> = entry["env"]
        .as_object()
        .into_iter()
        .flatten()
        .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
        .collect();
    for name in entry["env_vars"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if let Ok(value) = std::env::var(name) {
            env.push((name.to_string(), value));
        }
    }
    match probe::tools(program, &args, &env) {
        Ok(tools) if crate::mcp::TOOLS.iter().all(|t| tools.iter().any(|x| x == t)) => {
            checks.say(what, State::Ok, format!("`{program} {}` lists {}", args.join(" "), tools.join(", ")))
        }
        Ok(tools) => checks.say(what, State::Broken, format!("`{program}` lists {tools:?}, not lcmem's tools")),
        Err(e) => checks.say(what, State::Broken, format!("`{program} {}`: {e}", args.join(" "))),
    }
}

/// The program a hook command runs: its first shell word.
fn program_of(command: &str) -> String {
    let command = command.trim_start();
    match command.strip_prefix('\'') {
        Some(rest) => rest.split('\'').next().unwrap_or("").to_string(),
        None => command.split_whitespace().next().unwrap_or("").to_string(),
    }
}

fn dedup(mut items: Vec<String>) -> Vec<String> {
    items.sort();
    items.dedup();
    items
}

/// Whether a hook's program is there, and whether it is this binary.
fn binary_state(program: &str) -> (State, String) {
    let this = std::env::current_exe().ok().and_then(|p| p.canonicalize().ok());
    let found: Option<PathBuf> = if program.contains('/') {
        Some(PathBuf::from(program)).filter(|p| p.is_file())
    } else if on_path(program) {
        let path = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&path).map(|d| d.join(program)).find(|p| p.is_file())
    } else {
        None
    };
    match found.and_then(|p| p.canonicalize().ok()) {
        None => {
            (State::Broken, format!("`{program}`, which does not exist: `lcmem install` points them at this binary"))
        }
        Some(p) if Some(&p) == this.as_ref() => (State::Ok, format!("{} (this binary)", p.display())),
        Some(p) => (
            State::Warn,
            format!(
                "{}, another lcmem than this one ({})",
                p.display(),
                this.map_or("?".into(), |t| t.display().to_string())
            ),
        ),
    }
}

fn store(checks: &mut Checks, context: &Context, repair: bool) {
    let home = match context.home() {
        Ok(home) => home,
        Err(e) => return checks.say("store", State::Broken, crate::output::sentence(&e)),
    };
    if !home.exists() {
        checks.say("store", State::Absent, format!("no store at {} yet: the first session makes it", home.display()));
        if let Ok(store) = context.store() {
            transcripts(checks, &store);
        }
        return;
    }
    let probe = home.join(".doctor-probe");
    let writable = std::fs::write(&probe, b"").and_then(|()| std::fs::remove_file(&probe));
    match writable {
        Ok(()) => checks.say("store", State::Ok, format!("{} can be written", home.display())),
        Err(e) => checks.say("store", State::Broken, format!("cannot write in {}: {e}", home.display())),
    }
    hook_log(checks, &home);
    let Ok(store) = context.store() else { return };
    transcripts(checks, &store);
    semantic(checks, &store);
    if !store.dir().exists() {
        return checks.say("project", State::Absent, format!("no memory of {} yet", store.project().root.display()));
    }
    let memory = lcmem::Memory::open(store.clone());
    let waiting = memory.waiting_to_seal().map(|ids| ids.len()).unwrap_or(0);
    let state = if waiting == 0 { State::Ok } else { State::Warn };
    let detail = match waiting {
        0 => "every session is sealed".to_string(),
        n => format!(
            "{n} session(s) wait to be sealed: `lcmem catch-up` seals those that went quiet, `lcmem seal --all` the rest"
        ),
    };
    checks.say("sessions", state, detail);
    malformed(checks, &store, repair);
}

/// Stored sessions holding lines that are not JSON (said once when imported,
/// and from then on only here), and the repair that sets them aside.
fn malformed(checks: &mut Checks, store: &lcmem::Store, repair: bool) {
    let memory = lcmem::Memory::open(store.clone());
    let found = match memory.malformed() {
        Ok(found) => found,
        Err(e) => return checks.say("stored sessions", State::Broken, crate::error_words::cli(&e)),
    };
    let lines: usize = found.iter().map(|m| m.lines.len()).sum();
    let Some(first) = found.first().and_then(|m| m.lines.first()) else { return };
    if !repair {
        let detail = format!(
            "{lines} line(s) that are not JSON in {} stored session(s), first {first}: `lcmem doctor --repair` moves \
             them into a .torn file beside each",
            found.len()
        );
        return checks.say("stored sessions", State::Warn, detail);
    }
    let moved = match memory.set_aside_malformed(&found) {
        Ok(moved) => moved,
        Err(e) => return checks.say("stored sessions", State::Broken, crate::error_words::cli(&e)),
    };
    let detail = format!("repaired: {moved} line(s) that are not JSON moved into the .torn file beside their session");
    checks.say("stored sessions", State::Ok, detail);
}

/// The project's transcripts in the agents' folders that were never taken in
/// (a session no hook saw), by agent, and the command that takes them in.
fn transcripts(checks: &mut Checks, store: &lcmem::Store) {
    let found = lcmem::Memory::open(store.clone()).never_taken_in(&super::shared::transcript_folders());
    if found.is_empty() {
        return checks.say(
            "transcripts",
            State::Ok,
            "every session of this project in the agents' folders is taken in",
        );
    }
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for f in &found {
        match counts.iter_mut().find(|(title, _)| *title == f.source.title()) {
            Some((_, n)) => *n += 1,
            None => counts.push((f.source.title(), 1)),
        }
    }
    let list: Vec<String> = counts.iter().map(|(title, n)| format!("{n} {title}")).collect();
    let detail = format!(
        "{} transcript(s) of this project were never taken in ({}): `lcmem catch-up` takes them in and seals them",
        found.len(),
        list.join(", ")
    );
    checks.say("transcripts", State::Warn, detail);
}

/// Whether recall has its semantic lane, and how to give it one.
fn semantic(checks: &mut Checks, store: &lcmem::Store) {
    let model = match store.settings() {
        Ok(settings) => settings.recall_model,
        Err(e) => return checks.say("semantic recall", State::Broken, crate::error_words::cli(&e)),
    };
    let Some(model) = model else {
        return checks.say(
            "semantic recall",
            State::Absent,
            "off: recall matches words, not meaning; `lcmem model install` fetches all-MiniLM-L6-v2 (91 MB) and turns \
             it on",
        );
    };
    let dir = store.home().join(&model);
    match lcmem::recall::semantic::model::Encoder::load(&dir) {
        Ok(_) => {
            let state = match lcmem::Memory::open(store.clone()).embeddings() {
                Ok(state) => super::shared::embedding_words(&state),
                Err(e) => format!("cannot read the semantic cache: {}", crate::error_words::cli(&e)),
            };
            checks.say("semantic recall", State::Ok, format!("on: the model in {}; {state}", dir.display()))
        }
        Err(e) => checks.say(
            "semantic recall",
            State::Warn,
            format!(
                "{}: recall matches words only until it is mended; `lcmem model install` fetches a model that loads",
                crate::error_words::cli(&e)
            ),
        ),
    }
}

/// The last hook run, and the last error among the recent ones.
fn hook_log(checks: &mut Checks, home: &Path) {
    let text = std::fs::read_to_string(home.join("logs/hooks.log")).unwrap_or_default();
    let recent: Vec<&str> = text.lines().rev().take(200).collect();
    let Some(last) = recent.first() else {
        return checks.say("hooks log", State::Absent, "no hook has run yet");
    };
    checks.say("last hook run", State::Ok, last.to_string());
    if let Some(error) = recent.iter().find(|l| l.contains(": error: ")) {
        checks.say("last hook error", State::Warn, error.to_string());
    }
}
