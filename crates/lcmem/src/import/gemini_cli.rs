//! Gemini CLI: transcripts at `~/.gemini/tmp/<project>/chats/session-*.jsonl`
//! (`$GEMINI_CLI_HOME/.gemini/…` when set), hooks and the MCP server in
//! `~/.gemini/settings.json` (or a project's `.gemini/settings.json`).
//!
//! A transcript is appended to, one record a line: a first line of metadata
//! (`sessionId`, `startTime`); messages `{"id", "timestamp", "type", "content"}`
//! of type `user`, `gemini` (the model, with its `toolCalls`, each holding its
//! own `result`), `info`, `error`, `warning`; `{"$set": {…}}`, which updates
//! the metadata or replaces the whole message list; `{"$rewindTo": id}`. A
//! message is written again under its id as it grows (its tool calls are
//! added), so what was converted of each id is remembered and only what is
//! new is converted; a `$set` of the messages after the conversation began
//! rewrites history already taken in (a resumed session) and is not read. The
//! user messages Gemini CLI writes itself are left out: its description of
//! the machine (`<session_context>`, which names the working folder), a
//! hook's context (`<hook_context>`: lcmem's own digest among them), and the
//! tool results it sends back in the user's name.

use std::collections::BTreeSet;

use serde_json::Value;

use super::commit::MessageFiles;
use super::emit::{Emitter, relative_to};
use super::fields::{call_evidence, str_field, timestamp};
use super::results;
use super::source::{HookStep, LineReader, Source, Transcripts, state_reader};
use super::wiring::{HookEvent, Hooks, Place, Server, Wiring};
use crate::session::Role;

/// Gemini CLI as a source of sessions and a place to wire lcmem into.
pub struct GeminiCli;

/// The variable that moves Gemini CLI's home: `$GEMINI_CLI_HOME/.gemini`.
const HOME: &str = "GEMINI_CLI_HOME";

impl Source for GeminiCli {
    fn name(&self) -> &'static str {
        "gemini-cli"
    }

    fn title(&self) -> &'static str {
        "Gemini CLI"
    }

    fn transcripts(&self) -> Option<Transcripts> {
        Some(Transcripts { env: Some(HOME), under_env: ".gemini/tmp", under_home: ".gemini/tmp" })
    }

    /// `<project>/chats/session-*.jsonl`: not a subagent's
    /// (`chats/<parent>/<id>.jsonl`), whose work the parent's tool result has.
    fn is_session(&self, relative: &std::path::Path) -> bool {
        let parts: Vec<&std::ffi::OsStr> = relative.iter().collect();
        let name = relative.file_name().and_then(|n| n.to_str()).unwrap_or("");
        parts.len() == 3 && parts[1] == "chats" && name.starts_with("session-") && name.ends_with(".jsonl")
    }

    fn recognises(&self, line: &serde_json::Map<String, Value>) -> bool {
        let has = |key: &str| line.contains_key(key);
        let kind = line.get("type").and_then(Value::as_str);
        (has("sessionId") && has("projectHash") && kind.is_none()) || (kind == Some("gemini") && has("id"))
    }

    fn reader(&self, saved: Option<&serde_json::value::RawValue>) -> Option<Box<dyn LineReader>> {
        state_reader::<Seen>(saved, convert_line)
    }

    fn hook_step(&self, event: &str) -> Option<HookStep> {
        match event {
            "SessionStart" => Some(HookStep::Start),
            "AfterAgent" => Some(HookStep::TakeIn),
            "SessionEnd" => Some(HookStep::End),
            _ => None,
        }
    }

    /// Gemini CLI files a project's transcripts in one `chats` folder.
    fn project_folder(&self, transcript: &std::path::Path) -> Option<std::path::PathBuf> {
        transcript.parent().map(std::path::Path::to_path_buf)
    }

    fn wiring(&self) -> Wiring {
        const EVENTS: &[HookEvent] = &[
            HookEvent { name: "SessionStart", matcher: None, timeout: 10, background: false },
            HookEvent { name: "AfterAgent", matcher: None, timeout: 30, background: false },
            HookEvent { name: "SessionEnd", matcher: None, timeout: 60, background: false },
        ];
        let settings = Place {
            env: Some((HOME, ".gemini/settings.json")),
            home: ".gemini/settings.json",
            project: ".gemini/settings.json",
        };
        Wiring {
            hooks: Some(Hooks { file: settings, events: EVENTS, millis: true }),
            // Not `"trust": true`: the person approves the calls, writes among them.
            server: Server::Json { file: settings, typed: false, project_arg: None },
            pass_store: false,
            after: None,
        }
    }
}

/// What the converter remembers from earlier lines.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
struct Seen {
    /// The working folder, from Gemini CLI's description of the machine.
    cwd: Option<String>,
    /// Messages whose text was converted, by id.
    texts: BTreeSet<String>,
    /// Tool calls converted, by id.
    calls: BTreeSet<String>,
    /// Whether a message of the conversation was converted: a `$set` of
    /// the messages after that rewrites what was taken in.
    started: bool,
    /// Commit messages the session wrote to files, for `git commit -F`.
    messages: MessageFiles,
}

/// Converts one line.
fn convert_line(e: &mut Emitter<'_>, value: &Value, seen: &mut Seen) {
    if !value.is_object() {
        return e.warn("line is not a JSON object; skipped");
    }
    if let Some(set) = value.get("$set") {
        if let (Some(messages), false) = (set.get("messages").and_then(Value::as_array), seen.started) {
            messages.iter().for_each(|m| message(e, m, seen));
        }
        return;
    }
    if value.get("$rewindTo").is_some() {
        // The conversation went back; what was said stays in the record.
        return;
    }
    if let Some(id) = str_field(value, "sessionId") {
        e.note_id(id);
        if let Some(ts) = timestamp(value, "startTime", e) {
            e.note_time(ts);
        }
        return;
    }
    message(e, value, seen);
}

/// The tag around a hook's context in the prompt it was given with.
const HOOK_CONTEXT: (&str, &str) = ("<hook_context>", "</hook_context>");
/// How Gemini CLI's description of the machine opens.
const SESSION_CONTEXT: &str = "<session_context>";

fn message(e: &mut Emitter<'_>, value: &Value, seen: &mut Seen) {
    let Some(kind) = str_field(value, "type") else {
        return e.warn("message has no \"type\"; skipped");
    };
    let id = str_field(value, "id");
    let ts = timestamp(value, "timestamp", e);
    if let Some(ts) = ts {
        e.note_time(ts);
    }
    match kind {
        "user" => {
            let text = texts(value.get("content")).join("\n\n");
            if text.trim_start().starts_with(SESSION_CONTEXT) {
                if let Some(cwd) = workspace(&text) {
                    e.note_cwd(&cwd);
                    seen.cwd.get_or_insert(cwd);
                }
                return;
            }
            let text = without_hook_context(&text);
            if text.trim().is_empty() || id.is_some_and(|id| seen.texts.contains(id)) {
                return;
            }
            seen.started = true;
            seen.texts.extend(id.map(str::to_string));
            e.message(Role::User, &text, ts, id);
        }
        "gemini" => {
            seen.started = true;
            let text = texts(value.get("content")).join("\n\n");
            if !text.trim().is_empty() && !id.is_some_and(|id| seen.texts.contains(id)) {
                seen.texts.extend(id.map(str::to_string));
                e.message(Role::Assistant, &text, ts, id);
            }
            for call in value.get("toolCalls").and_then(Value::as_array).into_iter().flatten() {
                tool_call(e, call, seen);
            }
        }
        // The client's own notices.
        "info" | "error" | "warning" => {}
        other => e.warn(format!("message of type {other:?} is not one lcmem knows; skipped")),
    }
}

/// The text parts of a message's content: a string, or parts with `text`
/// (tool calls and their responses are read from `toolCalls`).
fn texts(content: Option<&Value>) -> Vec<String> {
    match content {
        Some(Value::String(text)) => vec![text.clone()],
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| str_field(p, "text")).map(str::to_string).collect(),
        _ => Vec::new(),
    }
}

/// The prompt without the hooks' context put before it.
fn without_hook_context(text: &str) -> String {
    let (open, close) = HOOK_CONTEXT;
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(open) {
        out.push_str(&rest[..start]);
        match rest[start..].find(close) {
            Some(end) => rest = &rest[start + end + close.len()..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out.trim().to_string()
}

/// The first workspace folder Gemini CLI's description of the machine names.
fn workspace(text: &str) -> Option<String> {
    let mut lines = text.lines().skip_while(|l| !l.contains("Workspace Directories:")).skip(1);
    let dir = lines.next()?.trim().strip_prefix("- ")?.trim();
    dir.starts_with('/').then(|| dir.to_string())
}

/// What Gemini CLI's tools are to the rest of lcmem: Claude Code's names for
/// the same acts, so that a write is a write wherever it was made.
fn canonical(name: &str) -> &str {
    match name {
        "write_file" => "Write",
        "replace" | "edit" => "Edit",
        "run_shell_command" => "Bash",
        "read_file" | "read_many_files" => "Read",
        "glob" => "Glob",
        "search_file_content" | "grep_search" => "Grep",
        "list_directory" => "LS",
        "write_todos" => "TodoWrite",
        "web_fetch" => "WebFetch",
        "google_web_search" => "WebSearch",
        other => other,
    }
}

/// One tool call, once: the call, and what its result says.
fn tool_call(e: &mut Emitter<'_>, call: &Value, seen: &mut Seen) {
    let id = str_field(call, "id");
    if id.is_some_and(|id| seen.calls.contains(id)) {
        return;
    }
    let Some(raw) = str_field(call, "name") else {
        return e.warn("tool call has no \"name\"; skipped");
    };
    seen.calls.extend(id.map(str::to_string));
    let ts = timestamp(call, "timestamp", e);
    let args = call.get("args").filter(|a| a.is_object());
    let cwd = seen.cwd.as_deref();
    let files: Vec<String> = args
        .into_iter()
        .flat_map(|a| ["file_path", "absolute_path"].into_iter().filter_map(move |k| str_field(a, k)))
        .map(|p| relative_to(p, cwd))
        .collect();
    let mut evidence = call_evidence(args, id, &mut seen.messages, "description");
    let status = str_field(call, "status");
    evidence.rejected = status == Some("cancelled");
    let memory = is_memory(raw, str_field(call, "displayName"));
    e.tool(canonical(raw), &files, evidence, ts);
    let output = result_text(call.get("result"));
    let Some(id) = id else { return };
    if output.trim().is_empty() {
        return;
    }
    if memory {
        e.recalled(&output, ts, Some(id));
    } else {
        e.message(Role::Tool, &output, ts, Some(id));
    }
    e.result(id, results::read(&output, status == Some("error"), None), ts);
}

/// Whether a call went to a memory tool: Gemini CLI names an MCP tool
/// `mcp_<server>_<tool>` and shows it as `<tool> (<server> MCP Server)`.
fn is_memory(name: &str, display: Option<&str>) -> bool {
    let Some(rest) = name.strip_prefix("mcp_") else { return crate::recalled::is_memory_tool(name, None) };
    let shown = display.and_then(|d| d.strip_suffix(" MCP Server)")).and_then(|d| d.split_once(" ("));
    let (server, tool) = match shown {
        Some((tool, server)) => (server.to_string(), tool.to_string()),
        None => match rest.split_once('_') {
            Some((server, tool)) => (server.to_string(), tool.to_string()),
            None => return false,
        },
    };
    crate::recalled::is_memory_tool(&format!("mcp__{server}__{tool}"), None)
}

/// A call's result: the `output` (or `error`) of each function response.
fn result_text(result: Option<&Value>) -> String {
    let mut out = Vec::new();
    for part in result.and_then(Value::as_array).into_iter().flatten() {
        let response = part.get("functionResponse").and_then(|f| f.get("response"));
        if let Some(text) = response.and_then(|r| str_field(r, "output").or_else(|| str_field(r, "error"))) {
            out.push(text.to_string());
        }
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hooks_context_is_not_the_users_prompt() {
        let prompt = "<hook_context>&lt;project-memory&gt; notes</hook_context>\n\nadd a notes file";
        assert_eq!(without_hook_context(prompt), "add a notes file");
        assert_eq!(without_hook_context("<hook_context>only the digest</hook_context>"), "");
        assert_eq!(without_hook_context("plain"), "plain");
    }

    #[test]
    fn the_working_folder_is_read_from_the_machines_description() {
        let text = "<session_context>\nOS: linux\n- **Workspace Directories:**\n  - /home/a/proj\n- **Directory";
        assert_eq!(workspace(text).as_deref(), Some("/home/a/proj"));
        assert_eq!(workspace("<session_context>\nnothing"), None);
    }

    #[test]
    fn an_mcp_tool_is_known_by_its_server() {
        assert!(is_memory("mcp_lcmem_recall_sessions", Some("recall_sessions (lcmem MCP Server)")));
        assert!(is_memory("mcp_lcmem_recall_sessions", None));
        assert!(!is_memory("mcp_github_search_issues", Some("search_issues (github MCP Server)")));
        assert!(!is_memory("write_file", Some("WriteFile")));
    }
}
