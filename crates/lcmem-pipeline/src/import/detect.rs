//! Telling a file's format from its content.

use serde_json::Value;

use crate::emit::converted::Format;

/// Tells the format of a file from its content: the first line that is
/// typical of one format decides, or, for a file that is one JSON document,
/// the source that reads such documents. `None` when nothing does.
pub fn detect(bytes: &[u8]) -> Option<Format> {
    bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .take(200)
        .filter_map(|l| serde_json::from_slice::<Value>(l).ok())
        .find_map(|v| detect_line(&v))
        .or_else(|| detect_document(bytes))
}

fn detect_line(value: &Value) -> Option<Format> {
    let object = value.as_object()?;
    if object.get("type").and_then(Value::as_str) == Some("session") && object.contains_key("v") {
        return Some(Format::V1);
    }
    crate::agents::sources::importable().find(|s| s.recognises(object)).map(Format::of)
}

fn detect_document(bytes: &[u8]) -> Option<Format> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace())?;
    if !matches!(first, b'{' | b'[') {
        return None;
    }
    let document: Value = serde_json::from_slice(bytes).ok()?;
    let unnamed = std::path::Path::new("");
    crate::agents::sources::importable().find(|s| s.document_records(&document, unnamed).is_some()).map(Format::of)
}
