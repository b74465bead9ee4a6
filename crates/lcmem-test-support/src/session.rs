//! Builds session files in format v1 (docs/session-format.md): a header
//! line, then message, tool, status and title lines, each ended by `\n`.
//!
//! The line functions give one line each, without its newline, with keys in
//! the order the format document shows them.

use std::fmt::Display;
use std::path::{Path, PathBuf};

use serde_json::json;

/// A v1 session file being written: header fields and the lines after it.
#[derive(Debug, Clone)]
pub struct SessionFile {
    id: String,
    title: Option<String>,
    created_at: String,
    lines: Vec<String>,
}

impl SessionFile {
    /// A session with no title and no lines yet; `created_at` is an RFC 3339 time.
    pub fn new(id: impl Into<String>, created_at: impl Display) -> SessionFile {
        SessionFile { id: id.into(), title: None, created_at: created_at.to_string(), lines: Vec::new() }
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Sets the header's `title`.
    pub fn title(mut self, title: impl Into<String>) -> SessionFile {
        self.title = Some(title.into());
        self
    }

    /// Appends one line as given (any JSON, or not JSON at all).
    pub fn line(mut self, line: impl Into<String>) -> SessionFile {
        self.lines.push(line.into());
        self
    }

    /// Appends lines as given.
    pub fn lines<L: Into<String>>(mut self, lines: impl IntoIterator<Item = L>) -> SessionFile {
        self.lines.extend(lines.into_iter().map(Into::into));
        self
    }

    /// Appends a message line; see [`message`].
    pub fn message(self, role: &str, text: &str, ts: impl Display) -> SessionFile {
        self.line(message(role, text, ts))
    }

    /// Appends a message line with an `id`; see [`message_with_id`].
    pub fn message_with_id(self, role: &str, text: &str, ts: impl Display, id: &str) -> SessionFile {
        self.line(message_with_id(role, text, ts, id))
    }

    /// Appends a tool line; see [`tool`].
    pub fn tool<F: AsRef<str>>(self, name: &str, files: &[F], ts: impl Display) -> SessionFile {
        self.line(tool(name, files, ts))
    }

    /// Appends a status line; see [`status`].
    pub fn status(self, value: &str, ts: impl Display) -> SessionFile {
        self.line(status(value, ts))
    }

    /// The header line: `{"type":"session","v":1,"id":…,"title":…,"created_at":…}`
    /// (`title` only when set).
    pub fn header(&self) -> String {
        let mut header = json!({"type": "session", "v": 1, "id": self.id});
        if let Some(title) = &self.title {
            header["title"] = json!(title);
        }
        header["created_at"] = json!(self.created_at);
        header.to_string()
    }

    /// The whole file: the header and every line, each ended by `\n`.
    pub fn text(&self) -> String {
        let mut text = self.header();
        text.push('\n');
        for line in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        text
    }

    pub fn bytes(&self) -> Vec<u8> {
        self.text().into_bytes()
    }

    /// Writes the file as `<dir>/<id>.jsonl` and returns its path.
    pub fn write_in(&self, dir: &Path) -> PathBuf {
        let path = dir.join(format!("{}.jsonl", self.id));
        self.write_to(&path);
        path
    }

    /// Writes the file at `path`, replacing what was there.
    pub fn write_to(&self, path: &Path) {
        std::fs::write(path, self.text()).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
    }
}

/// `{"type":"message","role":…,"text":…,"ts":…}`
pub fn message(role: &str, text: &str, ts: impl Display) -> String {
    json!({"type": "message", "role": role, "text": text, "ts": ts.to_string()}).to_string()
}

/// `{"type":"message","role":…,"text":…,"ts":…,"id":…}`
pub fn message_with_id(role: &str, text: &str, ts: impl Display, id: &str) -> String {
    json!({"type": "message", "role": role, "text": text, "ts": ts.to_string(), "id": id}).to_string()
}

/// `{"type":"tool","name":…,"files":[…],"ts":…}`
pub fn tool<F: AsRef<str>>(name: &str, files: &[F], ts: impl Display) -> String {
    let files: Vec<&str> = files.iter().map(AsRef::as_ref).collect();
    json!({"type": "tool", "name": name, "files": files, "ts": ts.to_string()}).to_string()
}

/// `{"type":"status","status":…,"ts":…}`: `done`, `archived`, `pinned` or `unpinned`.
pub fn status(status: &str, ts: impl Display) -> String {
    json!({"type": "status", "status": status, "ts": ts.to_string()}).to_string()
}

/// `{"type":"title","title":…,"ts":…}`: the session renamed.
pub fn title(title: &str, ts: impl Display) -> String {
    json!({"type": "title", "title": title, "ts": ts.to_string()}).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_is_a_header_then_lines_each_ended_by_a_newline() {
        let file = SessionFile::new("s-1", "2026-11-01T09:00:00Z")
            .title("Fix \"it\"")
            .message("user", "hi", "2026-11-01T09:01:00Z")
            .tool("Edit", &["a.rs"], "2026-11-01T09:02:00Z")
            .status("done", "2026-11-01T09:03:00Z");
        assert_eq!(
            file.text(),
            concat!(
                r#"{"type":"session","v":1,"id":"s-1","title":"Fix \"it\"","created_at":"2026-11-01T09:00:00Z"}"#,
                "\n",
                r#"{"type":"message","role":"user","text":"hi","ts":"2026-11-01T09:01:00Z"}"#,
                "\n",
                r#"{"type":"tool","name":"Edit","files":["a.rs"],"ts":"2026-11-01T09:02:00Z"}"#,
                "\n",
                r#"{"type":"status","status":"done","ts":"2026-11-01T09:03:00Z"}"#,
                "\n",
            )
        );
        assert_eq!(
            SessionFile::new("s", "2026-11-01T09:00:00Z").header(),
            r#"{"type":"session","v":1,"id":"s","created_at":"2026-11-01T09:00:00Z"}"#
        );
    }
}
