//! Codex CLI rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`.
//!
//! Each line is `{"timestamp", "type", "payload"}`: `session_meta` (id, cwd,
//! start time), `response_item` (messages, tool calls and their outputs,
//! reasoning), `turn_context` (the working directory may change) and
//! `event_msg` (UI events that repeat the response items, so ignored).
//! Older rollouts put the items at the top level after a metadata line
//! without a `type`; both shapes are read. What becomes of each is in
//! `docs/importers.md`.

use jiff::Timestamp;
use serde_json::Value;

use crate::emit::commit::{self, MessageFiles};
use crate::emit::emitter::{Emitter, Evidence, relative_to};
use crate::emit::fields::{command_line, item_texts, str_field, timestamp, todo_items};
use crate::emit::results;
use super::source::{LineReader, Source, Transcripts, state_reader};
use super::wiring::{HookEvent, Hooks, Place, Server, Wiring};
use crate::session::Role;

/// Text Codex sends in the user's name that the user did not write: the
/// sandbox description and the project's instruction files (AGENTS.md),
/// repeated in every session.
const BOILERPLATE: &[&str] =
    &["<environment_context>", "<user_instructions>", "<INSTRUCTIONS>", "# AGENTS.md instructions", "<permissions"];

/// What the IDE extension puts before the request itself.
const IDE_REQUEST: &str = "## My request for Codex:";

const PATCH_HEADERS: &[&str] = &["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "];

/// Codex CLI as a source of sessions and a place to wire lcmem into.
pub struct Codex;

/// Codex's own folder: `$CODEX_HOME`, else `~/.codex`.
const HOME: &str = "CODEX_HOME";

/// How the user trusts the hooks, said after install: Codex runs none of
/// them, silently, until they are trusted.
const TRUST: &str = "Codex runs these hooks only once you trust them. Start Codex: it says the hooks need \
review; open /hooks there and trust lcmem's (Codex records that under [hooks.state] in config.toml, and asks \
again if the hooks change). A scripted run (`codex exec`) can pass --dangerously-bypass-hook-trust instead.";

impl Source for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn title(&self) -> &'static str {
        "Codex"
    }

    fn tag(&self) -> &'static str {
        "Codex"
    }

    /// Rollouts laid out as `YYYY/MM/DD/rollout-*.jsonl`, every one a session.
    fn transcripts(&self) -> Option<Transcripts> {
        Some(Transcripts { env: Some(HOME), under_env: "sessions", under_home: ".codex/sessions" })
    }

    fn recognises(&self, line: &serde_json::Map<String, Value>) -> bool {
        let has = |key: &str| line.contains_key(key);
        match line.get("type").and_then(Value::as_str) {
            Some("session_meta" | "response_item" | "turn_context" | "event_msg" | "compacted") => has("payload"),
            // Rollouts from before the `response_item` envelope.
            Some("message") => line.get("content").is_some_and(Value::is_array),
            None => has("record_type"),
            _ => false,
        }
    }

    fn reader(&self, saved: Option<&serde_json::value::RawValue>) -> Option<Box<dyn LineReader>> {
        state_reader::<Seen>(saved, convert_line)
    }

    fn wiring(&self) -> Wiring {
        const EVENTS: &[HookEvent] = &[
            HookEvent {
                name: "SessionStart",
                matcher: Some("startup|resume|clear|compact"),
                timeout: 10,
                background: false,
            },
            HookEvent { name: "Stop", matcher: None, timeout: 30, background: false },
        ];
        let dir = |file: &'static str, project: &'static str| Place { env: Some((HOME, file)), home: project, project };
        Wiring {
            // Codex's hooks.json has Claude Code's shape.
            hooks: Some(Hooks { file: dir("hooks.json", ".codex/hooks.json"), events: EVENTS, millis: false }),
            server: Server::Toml { file: dir("config.toml", ".codex/config.toml") },
            // Codex gives its MCP servers little of its environment.
            pass_store: true,
            after: Some(TRUST),
            headless: None,
            note: Some(
                "also turns on [features] hooks in config.toml ([features] codex_hooks before Codex 0.130); Codex runs the hooks once you trust them",
            ),
        }
    }
}

/// What the converter remembers from earlier lines (kept between imports of
/// a growing rollout: see `import::growing`).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Seen {
    /// The working directory in force, for making tool paths relative.
    cwd: Option<String>,
    /// Commit messages the session wrote to files, for `git commit -F`.
    messages: MessageFiles,
    /// Calls to memory tools waiting for their output, which is memory's
    /// own (see `crate::own_output`).
    #[serde(default)]
    memory_calls: std::collections::BTreeSet<String>,
}

/// What an item may need from earlier lines.
struct Context<'a> {
    cwd: Option<&'a str>,
    messages: &'a mut MessageFiles,
    memory_calls: &'a mut std::collections::BTreeSet<String>,
}

/// Converts one line.
fn convert_line(e: &mut Emitter<'_>, value: &Value, seen: &mut Seen) {
    let cwd = &mut seen.cwd;
    if !value.is_object() {
        return e.warn("line is not a JSON object; skipped");
    }
    let kind = match value.get("type") {
        Some(Value::String(kind)) => kind.as_str(),
        Some(_) => return e.warn("\"type\" is not a string; skipped"),
        // The first line of an old rollout: {"id", "timestamp", "instructions"}.
        None if value.get("id").is_some_and(Value::is_string) => {
            let ts = timestamp(value, "timestamp", e);
            return meta(e, value, ts, cwd);
        }
        None if value.get("record_type").is_some() => return,
        None => return e.warn("line has no \"type\" field; skipped"),
    };
    let payload = || value.get("payload").filter(|p| p.is_object());
    match kind {
        "session_meta" | "turn_context" | "response_item" => {
            let Some(payload) = payload() else {
                return e.warn(format!("{kind} line has no \"payload\" object; skipped"));
            };
            let ts = timestamp(value, "timestamp", e);
            match kind {
                "session_meta" => meta(e, payload, ts, cwd),
                "turn_context" => {
                    if let Some(dir) = str_field(payload, "cwd") {
                        e.note_cwd(dir);
                        *cwd = Some(dir.to_string());
                    }
                }
                _ => item(e, payload, ts, seen.context()),
            }
        }
        // The model's summary of the turns a compaction replaced.
        "compacted" => {
            let ts = timestamp(value, "timestamp", e);
            if let Some(text) = payload().and_then(|p| str_field(p, "message")) {
                e.compaction(text, ts, None);
            }
        }
        // Old rollouts: response items without the envelope.
        "message"
        | "function_call"
        | "function_call_output"
        | "custom_tool_call"
        | "custom_tool_call_output"
        | "local_shell_call" => item(e, value, None, seen.context()),
        _ => {}
    }
}

fn meta(e: &mut Emitter<'_>, payload: &Value, line_ts: Option<Timestamp>, cwd: &mut Option<String>) {
    if let Some(id) = str_field(payload, "id") {
        e.note_id(id);
    }
    if let Some(ts) = timestamp(payload, "timestamp", e).or(line_ts) {
        e.note_time(ts);
    }
    if let Some(dir) = str_field(payload, "cwd") {
        e.note_cwd(dir);
        *cwd = Some(dir.to_string());
    }
}

impl Seen {
    fn context(&mut self) -> Context<'_> {
        Context { cwd: self.cwd.as_deref(), messages: &mut self.messages, memory_calls: &mut self.memory_calls }
    }
}

fn item(e: &mut Emitter<'_>, payload: &Value, ts: Option<Timestamp>, seen: Context<'_>) {
    let Context { cwd, messages, memory_calls } = seen;
    if let Some(ts) = ts {
        e.note_time(ts);
    }
    let Some(kind) = str_field(payload, "type") else {
        return e.warn("response item has no \"type\"; skipped");
    };
    match kind {
        "message" => message(e, payload, ts),
        "function_call" | "custom_tool_call" | "local_shell_call" => {
            let name = match kind {
                "local_shell_call" => Some("local_shell"),
                _ => str_field(payload, "name"),
            };
            let Some(name) = name else {
                return e.warn(format!("{kind} has no \"name\"; skipped"));
            };
            let mut strings = Vec::new();
            for key in ["arguments", "input", "action"] {
                if let Some(value) = payload.get(key) {
                    collect_strings(value, &mut strings);
                }
            }
            let mut files: Vec<String> = patch_files(&strings, cwd);
            // A shell command that applies a patch is an edit, whatever the
            // tool it went through was called.
            let name = if files.is_empty() || name.contains("patch") { name } else { "apply_patch" };
            if files.is_empty() {
                // Else its files are those its redirections wrote.
                let written = script(payload).map(|s| crate::emit::shell_files::written(&s)).unwrap_or_default();
                files = written.iter().map(|p| relative_to(p, cwd)).collect();
            }
            let evidence = call_evidence(payload, messages);
            if crate::own_output::is_memory_tool(name, str_field(payload, "namespace"))
                && let Some(call) = &evidence.call
            {
                memory_calls.insert(call.clone());
            }
            e.tool(name, &files, evidence, ts);
        }
        "function_call_output" | "custom_tool_call_output" | "local_shell_call_output" => {
            let text = output_text(payload.get("output"));
            let call = str_field(payload, "call_id");
            if call.is_some_and(|c| memory_calls.remove(c)) {
                e.recalled(&text, ts, call);
            } else {
                e.message(Role::Tool, &text, ts, call);
            }
            if let Some(call) = call {
                e.result(call, results::read(&text, false, output_exit(payload.get("output"))), ts);
            }
        }
        "web_search_call" => e.tool("web_search", &[], Evidence::default(), ts),
        // reasoning is the model's scratch work (often encrypted); anything
        // newer is unknown and left out.
        _ => {}
    }
}

fn message(e: &mut Emitter<'_>, payload: &Value, ts: Option<Timestamp>) {
    let role = match str_field(payload, "role") {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        // developer and system messages are Codex's own instructions.
        Some(_) => return,
        None => return e.warn("message has no \"role\"; skipped"),
    };
    let parts: Vec<String> = match payload.get("content") {
        Some(Value::String(text)) => vec![text.clone()],
        Some(Value::Array(items)) => item_texts(items),
        _ => return e.warn("message has no \"content\"; skipped"),
    };
    let parts: Vec<String> = match role {
        Role::User => parts
            .into_iter()
            .filter(|p| !BOILERPLATE.iter().any(|b| p.trim_start().starts_with(b)))
            .map(|p| match p.find(IDE_REQUEST) {
                Some(i) => p.get(i + IDE_REQUEST.len()..).unwrap_or("").trim().to_string(),
                None => p,
            })
            .collect(),
        _ => parts,
    };
    e.message(role, &parts.join("\n\n"), ts, str_field(payload, "id"));
}

/// What a call's arguments say the agent did: the shell command it ran
/// (`shell`'s `command` list, `exec_command`'s `cmd`, a local shell's
/// action) or the plan it set (`update_plan`'s `plan`).
/// A call's arguments, as an object.
fn arguments(payload: &Value) -> Option<Value> {
    ["arguments", "action", "input"].iter().find_map(|key| match payload.get(*key)? {
        Value::String(s) => serde_json::from_str::<Value>(s).ok().filter(Value::is_object),
        object @ Value::Object(_) => Some(object.clone()),
        _ => None,
    })
}

/// The shell script a call ran, if it ran one.
fn script(payload: &Value) -> Option<String> {
    script_of(&arguments(payload)?)
}

fn script_of(arguments: &Value) -> Option<String> {
    match arguments.get("command").or_else(|| arguments.get("cmd")) {
        Some(Value::String(s)) => Some(s.clone()),
        // ["bash", "-lc", "git status"]: the script is the last word.
        Some(Value::Array(words)) => {
            let words: Vec<&str> = words.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [shell, flag, script] if shell.ends_with("sh") && flag.starts_with('-') => Some(script.to_string()),
                words => Some(words.join(" ")),
            }
        }
        _ => None,
    }
}

fn call_evidence(payload: &Value, messages: &mut MessageFiles) -> Evidence {
    let call = str_field(payload, "call_id").map(str::to_string);
    let Some(arguments) = arguments(payload) else { return Evidence { call, ..Evidence::default() } };
    let script = script_of(&arguments);
    if let Some(script) = &script {
        messages.wrote_by_shell(script);
    }
    Evidence {
        command: script.as_deref().and_then(command_line),
        purpose: str_field(&arguments, "justification").map(|j| crate::extract::clip(j.trim(), 200)),
        todos: arguments.get("plan").map(|p| todo_items(p, "step")).unwrap_or_default(),
        rejected: false,
        call,
        commit: script.as_deref().and_then(|s| commit::subject(s, messages)),
    }
}

/// The exit code a tool's output states beside its text (`{"output": …,
/// "metadata": {"exit_code": 1}}`), if it states one.
fn output_exit(output: Option<&Value>) -> Option<i64> {
    let from = |map: &Value| map.get("metadata").and_then(|m| m.get("exit_code")).and_then(Value::as_i64);
    match output? {
        Value::String(s) => serde_json::from_str::<Value>(s).ok().as_ref().and_then(from),
        object @ Value::Object(_) => from(object).or_else(|| object.get("exit_code").and_then(Value::as_i64)),
        _ => None,
    }
}

/// Every string inside a value, and inside strings that are themselves JSON
/// (function call arguments are a JSON document in a string), unwrapping at
/// most a few levels so that crafted input cannot make it slow.
fn collect_strings(value: &Value, out: &mut Vec<String>) {
    collect_strings_within(value, out, 3)
}

fn collect_strings_within(value: &Value, out: &mut Vec<String>, unwraps: u8) {
    match value {
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(inner @ (Value::Object(_) | Value::Array(_))) if unwraps > 0 => {
                collect_strings_within(&inner, out, unwraps - 1)
            }
            _ => out.push(s.clone()),
        },
        Value::Array(items) => items.iter().for_each(|v| collect_strings_within(v, out, unwraps)),
        Value::Object(map) => map.values().for_each(|v| collect_strings_within(v, out, unwraps)),
        _ => {}
    }
}

/// The files an `apply_patch` patch names, wherever the patch sits: a custom
/// tool's input, a function's arguments, or a shell command's here-document.
/// Shell commands are not otherwise guessed at: what a command touches
/// cannot be read off it safely.
fn patch_files(strings: &[String], cwd: Option<&str>) -> Vec<String> {
    let mut files: Vec<String> = Vec::new();
    for text in strings.iter().filter(|s| s.contains("*** Begin Patch")) {
        for line in text.lines() {
            let line = line.trim_start();
            let Some(path) = PATCH_HEADERS.iter().find_map(|h| line.strip_prefix(h)) else { continue };
            let path = relative_to(path.trim(), cwd);
            if !path.is_empty() && !files.contains(&path) {
                files.push(path);
            }
        }
    }
    files
}

/// A tool's output: a string (older shells wrap it as `{"output": …}`), or
/// content items.
fn output_text(output: Option<&Value>) -> String {
    match output {
        Some(Value::String(s)) => match serde_json::from_str::<Value>(s) {
            Ok(Value::Object(map)) if map.get("output").is_some_and(Value::is_string) => {
                map.get("output").and_then(Value::as_str).unwrap_or_default().to_string()
            }
            _ => s.clone(),
        },
        Some(Value::Array(items)) => item_texts(items).join("\n"),
        Some(object @ Value::Object(_)) => {
            str_field(object, "content").or_else(|| str_field(object, "output")).unwrap_or_default().to_string()
        }
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patch_headers_name_the_files() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: /repo/b.rs\n+z\n\
                     *** Delete File: c.rs\n*** Update File: d.rs\n*** Move to: e.rs\n*** End Patch"
            .to_string();
        assert_eq!(patch_files(&[patch], Some("/repo")), ["src/a.rs", "b.rs", "c.rs", "d.rs", "e.rs"]);
        assert!(patch_files(&["*** Update File: x.rs".to_string()], None).is_empty(), "not a patch");
    }

    #[test]
    fn arguments_in_a_json_string_are_searched() {
        let mut out = Vec::new();
        let args = serde_json::json!(r#"{"command":["bash","-lc","apply_patch <<'EOF'\n*** Begin Patch\n"]}"#);
        collect_strings(&args, &mut out);
        assert_eq!(out, ["bash", "-lc", "apply_patch <<'EOF'\n*** Begin Patch\n"]);
    }

    #[test]
    fn outputs_are_unwrapped() {
        let wrapped = serde_json::json!(r#"{"output":"ok\n","metadata":{"exit_code":0}}"#);
        assert_eq!(output_text(Some(&wrapped)), "ok\n");
        let items = serde_json::json!([{"type":"output_text","text":"a"},{"type":"input_image"}]);
        assert_eq!(output_text(Some(&items)), "a\n[image]");
        assert_eq!(output_text(Some(&serde_json::json!("plain"))), "plain");
    }
}
