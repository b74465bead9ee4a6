//! Session format v1: one JSONL file per session (see `docs/session-format.md`).
//!
//! The first line is a header, then messages, tool actions and status
//! changes. The parser is forgiving by design: unknown fields and unknown
//! line types are kept in the file and ignored, and a malformed line is
//! reported with its file and line and skipped. Only a file that cannot be a
//! session at all (no header, a version this build does not know) is an error.

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::jsonl::{self, Line};

/// The only version this build reads and writes.
pub const VERSION: u64 = 1;

/// The first line of a session file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Header {
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub created_at: Timestamp,
}

/// Who spoke a message.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    User,
    Assistant,
    System,
    /// Output of a tool: workspace content, possibly attacker-controlled.
    /// Searchable, never extracted into memory.
    Tool,
}

/// A change of a session's standing.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Done,
    Archived,
    Pinned,
    Unpinned,
}

/// One line of a session after the header.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Message { role: Role, text: String, ts: Option<Timestamp>, id: Option<String> },
    Tool { name: String, files: Vec<String>, ts: Option<Timestamp> },
    Status { status: Status, ts: Option<Timestamp> },
}

impl Event {
    pub fn ts(&self) -> Option<Timestamp> {
        match self {
            Event::Message { ts, .. } | Event::Tool { ts, .. } | Event::Status { ts, .. } => *ts,
        }
    }
}

/// An event and the line it came from, so that recall can cite it.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    pub line: usize,
    pub value: T,
}

/// A parsed session file.
#[derive(Debug, Clone)]
pub struct Session {
    pub path: PathBuf,
    pub header: Header,
    /// What the session is about now: the latest `{"type":"title"}` line
    /// (an importer writes one when the agent renames a session; the header
    /// never changes once written), else the header's title.
    pub title: String,
    pub events: Vec<Located<Event>>,
    /// Lines that were skipped, and why.
    pub diagnostics: Vec<Diagnostic>,
}

impl Session {
    /// Reads and parses a session file.
    pub fn read(path: &Path) -> Result<Session> {
        let lines = jsonl::read(path)?;
        Session::from_lines(path, lines)
    }

    /// Parses already-read lines; `path` names the file in diagnostics.
    pub fn from_lines(path: &Path, lines: Vec<Line>) -> Result<Session> {
        let mut lines = lines.into_iter();
        let mut diagnostics = Vec::new();
        let first = lines.next().ok_or_else(|| Error::Format {
            path: path.to_path_buf(),
            line: 1,
            message: "empty file: a session starts with a header line {\"type\":\"session\",\"v\":1,...}".into(),
        })?;
        let header = parse_header(path, &first)?;
        let mut title = header.title.clone();
        let mut events = Vec::new();
        for line in lines {
            let value = match line.parsed {
                Ok(v) => v,
                Err(problem) => {
                    diagnostics.push(Diagnostic::new(path, line.number, problem.to_string()));
                    continue;
                }
            };
            if value.get("type").and_then(|t| t.as_str()) == Some("title")
                && let Some(renamed) = value.get("title").and_then(|t| t.as_str()).filter(|t| !t.trim().is_empty())
            {
                title = renamed.trim().to_string();
            }
            match parse_event(&value) {
                Ok(Some(event)) => events.push(Located { line: line.number, value: event }),
                Ok(None) => {}
                Err(message) => diagnostics.push(Diagnostic::new(path, line.number, message)),
            }
        }
        Ok(Session { path: path.to_path_buf(), header, title, events, diagnostics })
    }

    pub fn id(&self) -> &str {
        &self.header.id
    }

    /// The time of the last event, or the creation time of an empty session.
    pub fn last_active(&self) -> Timestamp {
        self.events
            .iter()
            .filter_map(|e| e.value.ts())
            .max()
            .unwrap_or(self.header.created_at)
            .max(self.header.created_at)
    }

    /// The latest done/archived status recorded in the file, if any.
    pub fn closing_status(&self) -> Option<Status> {
        self.statuses().filter(|s| matches!(s, Status::Done | Status::Archived)).last()
    }

    /// Whether the file's latest pin status is pinned.
    pub fn pinned(&self) -> bool {
        self.statuses().filter(|s| matches!(s, Status::Pinned | Status::Unpinned)).last() == Some(Status::Pinned)
    }

    fn statuses(&self) -> impl Iterator<Item = Status> + '_ {
        self.events.iter().filter_map(|e| match e.value {
            Event::Status { status, .. } => Some(status),
            _ => None,
        })
    }

    pub fn message_count(&self) -> usize {
        self.events.iter().filter(|e| matches!(e.value, Event::Message { .. })).count()
    }
}

fn parse_header(path: &Path, line: &Line) -> Result<Header> {
    let fail = |message: String| Error::Format { path: path.to_path_buf(), line: line.number, message };
    let value = line
        .parsed
        .as_ref()
        .map_err(|p| fail(format!("{p}; a session starts with a header line {{\"type\":\"session\",\"v\":1,...}}")))?;
    if value.get("type").and_then(Value::as_str) != Some("session") {
        return Err(fail(
            "missing header: the first line must be {\"type\":\"session\",\"v\":1,\"id\":...,\"created_at\":...}"
                .into(),
        ));
    }
    match value.get("v").and_then(Value::as_u64) {
        Some(VERSION) => {}
        Some(v) => {
            return Err(fail(format!(
                "session format version {v} is not supported by this lcmem (it reads version {VERSION}); upgrade lcmem"
            )));
        }
        None => return Err(fail("header has no version: add \"v\":1".into())),
    }
    let header: Header = serde_json::from_value(value.clone()).map_err(|e| fail(format!("bad header: {e}")))?;
    validate_id(&header.id).map_err(fail)?;
    Ok(header)
}

/// Session ids become file names, so they are restricted to a safe alphabet.
pub fn validate_id(id: &str) -> std::result::Result<(), String> {
    let ok = !id.is_empty()
        && id.len() <= 128
        && !id.starts_with('.')
        && id.chars().all(|c| c.is_ascii_alphanumeric() || "-_.".contains(c));
    if ok {
        Ok(())
    } else {
        Err(format!(
            "session id {id:?} is not usable: use 1 to 128 characters of A-Z a-z 0-9 - _ . not starting with a dot"
        ))
    }
}

/// Parses one non-header line. `Ok(None)` is a line of a type this build
/// does not know, which is kept in the file and ignored.
fn parse_event(value: &Value) -> std::result::Result<Option<Event>, String> {
    let kind = value.get("type").and_then(Value::as_str).ok_or("line has no \"type\" field; skipped")?;
    let ts = match value.get("ts") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            Some(s.parse::<Timestamp>().map_err(|e| format!("\"ts\" is not an RFC 3339 time ({e}); skipped"))?)
        }
        Some(_) => return Err("\"ts\" must be an RFC 3339 string; skipped".into()),
    };
    let event = match kind {
        "message" => {
            let role: Role = serde_json::from_value(value.get("role").cloned().unwrap_or(Value::Null))
                .map_err(|_| "message \"role\" must be user, assistant, system or tool; skipped")?;
            let text =
                value.get("text").and_then(Value::as_str).ok_or("message has no \"text\" string; skipped")?.to_string();
            let id = match value.get("id") {
                None | Some(Value::Null) => None,
                Some(Value::String(s)) => Some(s.clone()),
                Some(other) => Some(other.to_string()),
            };
            Event::Message { role, text, ts, id }
        }
        "tool" => {
            let name = value
                .get("name")
                .and_then(Value::as_str)
                .ok_or("tool line has no \"name\" string; skipped")?
                .to_string();
            let files = match value.get("files") {
                None | Some(Value::Null) => Vec::new(),
                Some(Value::Array(items)) => items
                    .iter()
                    .map(|f| f.as_str().map(str::to_string).ok_or("\"files\" must hold strings; skipped"))
                    .collect::<std::result::Result<_, _>>()?,
                Some(_) => return Err("\"files\" must be an array of paths; skipped".into()),
            };
            Event::Tool { name, files, ts }
        }
        "status" => {
            let status: Status = serde_json::from_value(value.get("status").cloned().unwrap_or(Value::Null))
                .map_err(|_| "\"status\" must be done, archived, pinned or unpinned; skipped")?;
            Event::Status { status, ts }
        }
        "session" => return Err("a second header line; skipped".into()),
        _ => return Ok(None),
    };
    Ok(Some(event))
}

/// Builds the JSON line for a status change, for appending to a session file.
pub fn status_line(status: Status, ts: Timestamp) -> String {
    serde_json::json!({"type": "status", "status": status, "ts": ts}).to_string()
}
