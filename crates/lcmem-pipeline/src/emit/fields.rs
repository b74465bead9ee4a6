//! Reading the fields the agents' transcripts have in common: times, content items,
//! the shell commands and plans the agent wrote, tagged text.

use jiff::Timestamp;
use serde_json::Value;

use super::emitter;

/// A timestamp field: `None` when absent, a warning when unreadable.
pub(crate) fn timestamp(value: &Value, key: &str, emitter: &mut emitter::Emitter<'_>) -> Option<Timestamp> {
    match value.get(key)? {
        Value::String(s) => match s.parse::<Timestamp>() {
            Ok(ts) => Some(ts),
            Err(_) => {
                emitter.warn(format!("\"{key}\" {s:?} is not an RFC 3339 time; converted without it"));
                None
            }
        },
        Value::Null => None,
        _ => {
            emitter.warn(format!("\"{key}\" is not a string; converted without it"));
            None
        }
    }
}

/// The text of content items as the agents write them: plain strings,
/// blocks with a `text` field, and `[image]` for an image.
pub(crate) fn item_texts(items: &[Value]) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| match item {
            Value::String(text) => Some(text.clone()),
            _ => match str_field(item, "type") {
                Some("image" | "input_image") => Some("[image]".to_string()),
                _ => str_field(item, "text").map(str::to_string),
            },
        })
        .collect()
}

/// The first line of a shell command the agent wrote, at most 300
/// characters: what it ran, not what a here-document carried. A command
/// that applies a patch holds file contents and is left out (its files are
/// recorded instead).
pub(crate) fn command_line(command: &str) -> Option<String> {
    if command.contains("*** Begin Patch") {
        return None;
    }
    let first = command.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(crate::extract::clip(first, 300))
}

/// A plan as the agents write it: a list of `{<text_key>, "status"}` items
/// (Claude Code's TodoWrite says `content`, Codex's update_plan `step`). An
/// item without text is left out; an unknown status counts as pending.
pub(crate) fn todo_items(value: &Value, text_key: &str) -> Vec<crate::session::Todo> {
    use crate::session::{Todo, TodoStatus};
    let Some(items) = value.as_array() else { return Vec::new() };
    items
        .iter()
        .filter_map(|item| {
            let text = str_field(item, text_key)?.trim();
            let status = match str_field(item, "status") {
                Some("completed" | "done") => TodoStatus::Completed,
                Some("in_progress") => TodoStatus::InProgress,
                _ => TodoStatus::Pending,
            };
            (!text.is_empty()).then(|| Todo { text: crate::extract::clip(text, 300), status })
        })
        .collect()
}

pub(crate) fn str_field<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The text between `<tag>` and `</tag>` in `text`, if both are there.
pub(crate) fn tag_content<'t>(text: &'t str, tag: &str) -> Option<&'t str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = text.find(&open)? + open.len();
    let inner = text.get(start..)?;
    inner.get(..inner.find(&close)?)
}

/// What a tool call's input says the agent did, as Claude Code and Gemini
/// CLI write it: a shell `command` (with its `description` as the purpose),
/// a file written (`file_path` and `content`, for `git commit -F`), a plan
/// (`todos`, each item's text under `todo_text`).
pub(crate) fn call_evidence(
    input: Option<&Value>,
    call: Option<&str>,
    messages: &mut super::commit::MessageFiles,
    todo_text: &str,
) -> emitter::Evidence {
    let call = call.map(str::to_string);
    let Some(input) = input else { return emitter::Evidence { call, ..emitter::Evidence::default() } };
    let full = str_field(input, "command");
    if let (Some(path), Some(content)) = (str_field(input, "file_path"), str_field(input, "content")) {
        messages.wrote(path, content);
    }
    if let Some(full) = full {
        messages.wrote_by_shell(full);
    }
    emitter::Evidence {
        command: full.and_then(command_line),
        purpose: str_field(input, "description").map(|d| d.trim().to_string()).filter(|d| !d.is_empty()),
        todos: input.get("todos").map(|t| todo_items(t, todo_text)).unwrap_or_default(),
        rejected: false,
        call,
        commit: full.and_then(|c| super::commit::subject(c, messages)),
    }
}
