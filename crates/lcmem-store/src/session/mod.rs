//! Session format v1: one JSONL file per session (see `docs/session-format.md`).
//!
//! The first line is a header, then messages, tool actions and status
//! changes. The parser is forgiving by design: unknown fields and unknown
//! line types are kept in the file and ignored, and a malformed line is
//! reported with its file and line and skipped. Only a file that cannot be a
//! session at all (no header, a version this build does not know) is an error.


use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::jsonl;

mod line;

pub use line::{Header, Line, Mark, Role, Status, Todo, TodoStatus, VERSION, validate_id};

/// A line and its number in the file, so that recall can cite it.
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
    /// The lines after the header that say what happened: messages, tool
    /// actions and status changes (a title line sets [`Session::title`]).
    pub events: Vec<Located<Line>>,
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
    pub fn from_lines(path: &Path, lines: Vec<jsonl::Line>) -> Result<Session> {
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
            match Line::from_value(&value) {
                Ok(Some(Line::Title { title: renamed, .. })) => title = renamed,
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
            Line::Status { status, .. } => Some(status),
            _ => None,
        })
    }

    pub fn message_count(&self) -> usize {
        self.events.iter().filter(|e| matches!(e.value, Line::Message { .. })).count()
    }
}

fn parse_header(path: &Path, line: &jsonl::Line) -> Result<Header> {
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
