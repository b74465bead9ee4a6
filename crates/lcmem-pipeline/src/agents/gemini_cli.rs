//! Gemini CLI: transcripts at `~/.gemini/tmp/<project>/chats/session-*.jsonl`
//! (`$GEMINI_CLI_HOME/.gemini/…` when set), hooks and the MCP server in
//! `~/.gemini/settings.json` (or a project's `.gemini/settings.json`).
//! `<project>` is the sha256 of the project's folder (before version 0.29)
//! or a short name that `~/.gemini/projects.json` maps the folder to.
//!
//! Versions before 0.39 wrote each session as one JSON document,
//! `chats/session-*.json`, rewritten whole as it went on: `{"sessionId",
//! "projectHash", "startTime", "messages": [...]}` with messages of the same
//! shape. `/chat save` (`checkpoint-*.json`) and `/chat share` write the
//! model's own history instead, `[{"role", "parts"}]` or `{"history": [...]}`,
//! with no ids and no times. Both are read as the records below
//! ([`Source::document_records`]). A session is named by its file
//! (`session-2026-01-25T16-54-252bf0d8`): Gemini CLI starts a new file under
//! the same `sessionId` when it starts a new chat, and each file is a session.
//!
//! Versions from 0.39 append one record a line: a first line of metadata
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
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::emit::commit::MessageFiles;
use crate::emit::emitter::{Emitter, relative_to};
use crate::emit::fields::{call_evidence, str_field, timestamp};
use crate::emit::results;
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

    /// `<project>/chats/session-*.jsonl`, or `session-*.json` of an earlier
    /// version unless a resumed copy (`….jsonl`) replaced it; not a
    /// subagent's (`chats/<parent>/<id>.jsonl`), whose work the parent's tool
    /// result has.
    fn is_session(&self, path: &Path) -> bool {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let chats =
            path.parent().and_then(Path::file_name).is_some_and(|f| f == "chats") && name.starts_with("session-");
        chats && (name.ends_with(".jsonl") || name.ends_with(".json") && !path.with_extension("jsonl").exists())
    }

    fn recognises(&self, line: &serde_json::Map<String, Value>) -> bool {
        let has = |key: &str| line.contains_key(key);
        let kind = line.get("type").and_then(Value::as_str);
        (has("sessionId") && has("projectHash") && kind.is_none()) || (kind == Some("gemini") && has("id"))
    }

    fn reader(&self, saved: Option<&serde_json::value::RawValue>) -> Option<Box<dyn LineReader>> {
        state_reader::<Seen>(saved, convert_line)
    }

    fn document_records(&self, document: &Value, path: &Path) -> Option<Vec<Value>> {
        if let Some(messages) = document.get("messages").and_then(Value::as_array)
            && document.get("sessionId").is_some_and(Value::is_string)
        {
            let meta: serde_json::Map<String, Value> = ["sessionId", "projectHash", "startTime", "directories"]
                .into_iter()
                .filter_map(|key| Some((key.to_string(), document.get(key)?.clone())))
                .collect();
            return Some(std::iter::once(Value::Object(meta)).chain(messages.iter().cloned()).collect());
        }
        let history = document.get("history").unwrap_or(document).as_array()?;
        let turns = !history.is_empty()
            && history.iter().all(|turn| turn.get("role").is_some_and(Value::is_string) && turn.get("parts").is_some());
        turns.then(|| history::records(history, path))
    }

    fn hook_step(&self, event: &str) -> Option<HookStep> {
        match event {
            "SessionStart" => Some(HookStep::Start),
            "AfterAgent" => Some(HookStep::TakeIn),
            "SessionEnd" => Some(HookStep::End),
            _ => None,
        }
    }

    /// Gemini CLI files a project's transcripts in one folder: named by the
    /// sha256 of the project's path (before 0.29), or by the short name
    /// `projects.json` (beside `tmp/`) gives it, which also holds the path
    /// in a `.project_root` file.
    fn project_folders(&self, folder: &Path, root: &Path) -> Vec<PathBuf> {
        use sha2::Digest as _;
        let path = root.to_string_lossy();
        let hash: String = sha2::Sha256::digest(path.as_bytes()).iter().map(|b| format!("{b:02x}")).collect();
        let registry = folder.parent().map(|g| g.join("projects.json"));
        let registry: Option<Value> =
            registry.and_then(|r| std::fs::read(r).ok()).and_then(|b| serde_json::from_slice(&b).ok());
        let short = registry.as_ref().and_then(|r| r.get("projects")?.get(path.as_ref())?.as_str());
        let mut out: Vec<PathBuf> = std::iter::once(hash.as_str()).chain(short).map(|name| folder.join(name)).collect();
        let marked = std::fs::read_dir(folder).into_iter().flatten().flatten().map(|e| e.path()).filter(|dir| {
            std::fs::read_to_string(dir.join(".project_root")).is_ok_and(|p| Path::new(p.trim()) == root)
        });
        out.extend(marked);
        out.sort();
        out.dedup();
        out.retain(|dir| dir.is_dir());
        out
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
            headless: None,
            note: None,
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
        // The file names the session: one `sessionId` may span several files.
        let file = e.path().file_stem().and_then(|s| s.to_str()).filter(|s| s.starts_with("session-"));
        let name = file.unwrap_or(id).to_string();
        e.note_id(&name);
        if let Some(ts) = timestamp(value, "startTime", e) {
            e.note_time(ts);
        }
        let folders = value.get("directories").and_then(Value::as_array);
        if let Some(dir) = folders.and_then(|d| d.first()).and_then(Value::as_str).filter(|d| d.starts_with('/')) {
            e.note_cwd(dir);
            seen.cwd.get_or_insert_with(|| dir.to_string());
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
    while let Some((before, after)) = rest.split_once(open) {
        out.push_str(before);
        rest = after.split_once(close).map_or("", |(_, after)| after);
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
    let Some(rest) = name.strip_prefix("mcp_") else { return crate::own_output::is_memory_tool(name, None) };
    let shown = display.and_then(|d| d.strip_suffix(" MCP Server)")).and_then(|d| d.split_once(" ("));
    let (server, tool) = match shown {
        Some((tool, server)) => (server.to_string(), tool.to_string()),
        None => match rest.split_once('_') {
            Some((server, tool)) => (server.to_string(), tool.to_string()),
            None => return false,
        },
    };
    crate::own_output::is_memory_tool(&format!("mcp__{server}__{tool}"), None)
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

/// A saved or shared conversation (the model's history, with no ids and no
/// times) as the records a session file holds: a user's turn is a `user`
/// message, the model's a `gemini` message whose calls carry the responses
/// the next turn sent back. The first turn, Gemini CLI's description of the
/// machine, gives the working folder and is left out with its answer.
mod history {
    use std::path::Path;

    use serde_json::{Value, json};

    /// How Gemini CLI's description of the machine opens, in a history.
    const CONTEXT: &str = "This is the Gemini CLI. We are setting up the context";
    /// Where in it the working folder is named.
    const FOLDER: &str = "I'm currently working in the directory:";

    pub(crate) fn records(history: &[Value], path: &Path) -> Vec<Value> {
        let mut meta = serde_json::Map::new();
        let mut out = Vec::new();
        let mut skip_answer = false;
        for (turn, content) in history.iter().enumerate() {
            let parts = content.get("parts").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let text: Vec<&str> = parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect();
            let text = text.join("\n\n");
            let id = format!("turn-{turn}");
            match content.get("role").and_then(Value::as_str) {
                Some("user") if text.trim_start().starts_with(CONTEXT) => {
                    let folder = text.lines().find_map(|l| l.trim().strip_prefix(FOLDER)).map(str::trim);
                    if let Some(folder) = folder.filter(|f| f.starts_with('/')) {
                        meta.insert("directories".into(), json!([folder]));
                    }
                    skip_answer = true;
                }
                Some("user") => {
                    skip_answer = false;
                    answer_calls(&mut out, parts);
                    if !text.trim().is_empty() {
                        out.push(json!({"id": id, "type": "user", "content": text}));
                    }
                }
                Some("model") if skip_answer && calls(parts, turn).is_empty() => skip_answer = false,
                Some("model") => {
                    skip_answer = false;
                    out.push(json!({"id": id, "type": "gemini", "content": text, "toolCalls": calls(parts, turn)}));
                }
                _ => {}
            }
        }
        if let Some(ms) = exported_at(path) {
            meta.insert("startTime".into(), json!(ms));
        }
        if !meta.is_empty() {
            meta.insert("sessionId".into(), json!(""));
            out.insert(0, Value::Object(meta));
        }
        out
    }

    /// The calls of a model's turn, as a session file records them.
    fn calls(parts: &[Value], turn: usize) -> Vec<Value> {
        let calls = parts.iter().filter_map(|p| p.get("functionCall"));
        calls
            .enumerate()
            .map(|(k, call)| {
                let id = call.get("id").and_then(Value::as_str).map_or_else(|| format!("call-{turn}-{k}"), str::to_string);
                json!({"id": id, "name": call.get("name").cloned().unwrap_or(Value::Null), "args": call.get("args").cloned().unwrap_or(Value::Null), "status": "success"})
            })
            .collect()
    }

    /// Gives the calls of the model's last turn the responses `parts` sends
    /// back, matched by id, else by name in order.
    fn answer_calls(out: &mut [Value], parts: &[Value]) {
        let Some(calls) = out.last_mut().and_then(|m| m.get_mut("toolCalls")).and_then(Value::as_array_mut) else {
            return;
        };
        for response in parts.iter().filter_map(|p| p.get("functionResponse")) {
            let id = response.get("id").and_then(Value::as_str);
            let name = response.get("name").and_then(Value::as_str);
            let call = calls.iter_mut().find(|c| {
                c.get("result").is_none()
                    && match id {
                        Some(id) => c.get("id").and_then(Value::as_str) == Some(id),
                        None => c.get("name").and_then(Value::as_str) == name,
                    }
            });
            if let Some(call) = call.and_then(Value::as_object_mut) {
                call.insert("result".into(), json!([{"functionResponse": response}]));
            }
        }
    }

    /// The time in the name Gemini CLI gives a shared conversation
    /// (`gemini-conversation-<milliseconds>.json`).
    fn exported_at(path: &Path) -> Option<String> {
        let stem = path.file_stem()?.to_str()?;
        let ms: i64 = stem.strip_prefix("gemini-conversation-")?.parse().ok()?;
        jiff::Timestamp::from_millisecond(ms).ok().map(|ts| ts.to_string())
    }
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
