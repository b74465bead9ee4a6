//! Telling a file's format from its content.

use serde_json::Value;

use super::converted::Format;

/// Tells the format of a file from its content: the first line that is
/// typical of one format decides. `None` when no line is.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .take(200)
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .find_map(|v| detect_line(&v))
}

fn detect_line(value: &Value) -> Option<Format> {
    let object = value.as_object()?;
    let kind = object.get("type").and_then(Value::as_str);
    let has = |key: &str| object.contains_key(key);
    match kind {
        Some("session") if has("v") => Some(Format::V1),
        Some("session_meta" | "response_item" | "turn_context" | "event_msg" | "compacted") if has("payload") => {
            Some(Format::Codex)
        }
        Some("user" | "assistant" | "summary" | "system") if has("sessionId") || has("uuid") || has("leafUuid") => {
            Some(Format::ClaudeCode)
        }
        // Codex rollouts from before the `response_item` envelope.
        Some("message") if object.get("content").is_some_and(Value::is_array) => Some(Format::Codex),
        None if has("record_type") => Some(Format::Codex),
        _ => None,
    }
}
