//! The lines of session format v1, as one type: [`Line`] is what every reader
//! gets and what every writer serialises (the importers, status changes, the
//! test builders), so the format is spelt out once. See
//! `docs/session-format.md`.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The only version this build reads and writes.
pub const VERSION: u64 = 1;

/// The first line of a session file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Header {
    /// The format version: [`VERSION`].
    pub v: u64,
    pub id: String,
    #[serde(default)]
    pub title: String,
    pub created_at: Timestamp,
    /// Which tool recorded the session, when an importer converted it
    /// (ignored by readers; for people).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The working directory it was recorded in, as recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

impl Header {
    /// A header of this build's version.
    pub fn new(id: impl Into<String>, title: impl Into<String>, created_at: Timestamp) -> Header {
        Header { v: VERSION, id: id.into(), title: title.into(), created_at, source: None, cwd: None }
    }
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

/// Where an item of the agent's plan stands.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TodoStatus {
    Pending,
    InProgress,
    Completed,
}

/// One item of a plan the agent kept (Claude Code's TodoWrite, Codex's
/// update_plan), as it stood when the tool line was written.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Todo {
    pub text: String,
    pub status: TodoStatus,
}

/// A fact of version control that a tool call's output stated, as a fixed
/// word (never the output's own text): see `import::results`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// git printed the commit it made (`[main 3f2a1b9] …`).
    Committed,
    /// git found nothing to commit.
    NothingToCommit,
    /// The remote refused the push.
    PushRejected,
    /// The push had nothing to send ("Everything up-to-date").
    NothingPushed,
}

impl Mark {
    /// The mark in words, for people.
    pub fn words(self) -> &'static str {
        match self {
            Mark::Committed => "a commit was made",
            Mark::NothingToCommit => "nothing to commit",
            Mark::PushRejected => "the push was rejected",
            Mark::NothingPushed => "nothing to push",
        }
    }
}

/// One line of a session file.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Line {
    /// The header: always the first line, and only there.
    Session(Header),
    Message {
        role: Role,
        text: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ts: Option<Timestamp>,
        /// The id the recording tool gave the message, if any.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// A model-written summary of the session so far, which the
        /// recording tool put in place of the turns it compacted.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        compaction: bool,
        /// Memory's own output (a digest, a recall answer, a memory tool's
        /// result) that came back through the agent: kept for the record,
        /// never indexed, recalled or extracted. See [`crate::own_output`].
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        recalled: bool,
        /// The agent's question this message of the person's answers, when
        /// the recording tool kept the answer as a tool's result (Claude
        /// Code's AskUserQuestion): the person's choice, in their words.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answers: Option<String>,
    },
    /// A tool action and the files it touched (never its output), with the
    /// inputs the agent wrote that say what it did: the shell command, what
    /// it was for, the plan it set.
    Tool {
        name: String,
        files: Vec<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        ts: Option<Timestamp>,
        #[serde(skip_serializing_if = "Option::is_none")]
        command: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        purpose: Option<String>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        todos: Vec<Todo>,
        /// The user refused the call, so it did not run: a later line that
        /// repeats an earlier call's name and files, cancelling it.
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        rejected: bool,
        /// The id the recording tool gave the call, which its result names.
        #[serde(skip_serializing_if = "Option::is_none")]
        call: Option<String>,
        /// The subject line of the commit message the command gave (`-m`, a
        /// here-document, `-F` with a message file the session wrote).
        #[serde(skip_serializing_if = "Option::is_none")]
        commit: Option<String>,
    },
    /// What a tool call came to, written when its result says something:
    /// it failed, or its output stated a fact of version control.
    Result {
        /// The `call` of the tool line it answers.
        call: String,
        /// Whether the call succeeded.
        ok: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        exit: Option<i64>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        marks: Vec<Mark>,
        #[serde(skip_serializing_if = "Option::is_none")]
        ts: Option<Timestamp>,
    },
    Status {
        status: Status,
        #[serde(skip_serializing_if = "Option::is_none")]
        ts: Option<Timestamp>,
    },
    /// The session was renamed (the header never changes once written).
    Title {
        title: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        ts: Option<Timestamp>,
    },
}

impl Line {
    /// When the line was written, if it says.
    pub fn ts(&self) -> Option<Timestamp> {
        match self {
            Line::Session(header) => Some(header.created_at),
            Line::Message { ts, .. }
            | Line::Tool { ts, .. }
            | Line::Result { ts, .. }
            | Line::Status { ts, .. }
            | Line::Title { ts, .. } => *ts,
        }
    }

    /// The line as JSON, without its newline.
    #[expect(clippy::expect_used, reason = "a line is plain data (strings, numbers, a timestamp): it serialises")]
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("session lines serialise to JSON")
    }

    /// Reads one line after the header. Forgiving where the format allows it
    /// (a message id of another JSON type is kept as its text; a null `ts` or
    /// `files` is absent) and precise where it does not: the error is the
    /// diagnostic, ending in "skipped". `Ok(None)` is a line of a type this
    /// build does not know (or a title line without a title), which is kept
    /// in the file and ignored.
    pub fn from_value(value: &Value) -> Result<Option<Line>, String> {
        let kind = value.get("type").and_then(Value::as_str).ok_or("line has no \"type\" field; skipped")?;
        let ts = match value.get("ts") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => {
                Some(s.parse::<Timestamp>().map_err(|e| format!("\"ts\" is not an RFC 3339 time ({e}); skipped"))?)
            }
            Some(_) => return Err("\"ts\" must be an RFC 3339 string; skipped".into()),
        };
        let line = match kind {
            "message" => message(value, ts)?,
            "tool" => tool(value, ts)?,
            "result" => result(value, ts)?,
            "status" => {
                let status: Status = serde_json::from_value(value.get("status").cloned().unwrap_or(Value::Null))
                    .map_err(|_| "\"status\" must be done, archived, pinned or unpinned; skipped")?;
                Line::Status { status, ts }
            }
            "title" => match value.get("title").and_then(Value::as_str).map(str::trim) {
                Some(title) if !title.is_empty() => Line::Title { title: title.to_string(), ts },
                _ => return Ok(None),
            },
            "session" => return Err("a second header line; skipped".into()),
            _ => return Ok(None),
        };
        Ok(Some(line))
    }
}

/// A message line's fields.
fn message(value: &Value, ts: Option<Timestamp>) -> Result<Line, String> {
    let role: Role = serde_json::from_value(value.get("role").cloned().unwrap_or(Value::Null))
        .map_err(|_| "message \"role\" must be user, assistant, system or tool; skipped")?;
    let text = required_str(value, "text", "message has no \"text\" string; skipped")?;
    let id = match value.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => Some(other.to_string()),
    };
    let compaction = flag(value, "compaction")?;
    let recalled = flag(value, "recalled")?;
    let answers = value.get("answers").and_then(Value::as_str).map(str::to_string);
    Ok(Line::Message { role, text, ts, id, compaction, recalled, answers })
}

/// A tool line's fields.
fn tool(value: &Value, ts: Option<Timestamp>) -> Result<Line, String> {
    let name = required_str(value, "name", "tool line has no \"name\" string; skipped")?;
    let files = match value.get("files") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|f| f.as_str().map(str::to_string).ok_or("\"files\" must hold strings; skipped"))
            .collect::<Result<_, _>>()?,
        Some(_) => return Err("\"files\" must be an array of paths; skipped".into()),
    };
    let command = optional_str(value, "command", "\"command\" must be a string; skipped")?;
    let purpose = optional_str(value, "purpose", "\"purpose\" must be a string; skipped")?;
    let todos = match value.get("todos") {
        None | Some(Value::Null) => Vec::new(),
        Some(todos) => serde_json::from_value(todos.clone()).map_err(|_| {
            "\"todos\" must be an array of {\"text\", \"status\": pending|in_progress|completed}; skipped"
        })?,
    };
    let rejected = flag(value, "rejected")?;
    let call = optional_str(value, "call", "\"call\" must be a string; skipped")?;
    let commit = optional_str(value, "commit", "\"commit\" must be a string; skipped")?;
    Ok(Line::Tool { name, files, ts, command, purpose, todos, rejected, call, commit })
}

/// A result line's fields.
fn result(value: &Value, ts: Option<Timestamp>) -> Result<Line, String> {
    let call = required_str(value, "call", "result line has no \"call\" string; skipped")?;
    let ok = value.get("ok").and_then(Value::as_bool).ok_or("result line has no \"ok\" true or false; skipped")?;
    let exit = match value.get("exit") {
        None | Some(Value::Null) => None,
        Some(code) => Some(code.as_i64().ok_or("\"exit\" must be an integer; skipped")?),
    };
    // A mark this build does not know is left out, not the line.
    let marks = match value.get("marks") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items.iter().filter_map(|m| serde_json::from_value::<Mark>(m.clone()).ok()).collect(),
        Some(_) => return Err("\"marks\" must be an array; skipped".into()),
    };
    Ok(Line::Result { call, ok, exit, marks, ts })
}

/// A field that is true or false, false when absent or null.
fn flag(value: &Value, key: &str) -> Result<bool, String> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("\"{key}\" must be true or false; skipped")),
    }
}

/// A string field a line must have; `missing` is the diagnostic without it.
fn required_str(value: &Value, key: &str, missing: &str) -> Result<String, String> {
    value.get(key).and_then(Value::as_str).map(str::to_string).ok_or_else(|| missing.to_string())
}

/// A string field a line may have; `wrong` is the diagnostic when it is
/// there but not a string.
fn optional_str(value: &Value, key: &str, wrong: &str) -> Result<Option<String>, String> {
    match value.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(wrong.to_string()),
    }
}

/// Session ids become file names, so they are restricted to a safe alphabet.
pub fn validate_id(id: &str) -> Result<(), String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_lines_read_back_as_themselves() {
        let ts: Timestamp = "2026-11-01T09:00:00Z".parse().unwrap();
        let lines = [
            Line::Message {
                role: Role::User,
                text: "hi".into(),
                ts: Some(ts),
                id: Some("m1".into()),
                compaction: false,
                recalled: false,
                answers: None,
            },
            Line::Message {
                role: Role::Tool,
                text: "out".into(),
                ts: None,
                id: None,
                compaction: false,
                recalled: true,
                answers: None,
            },
            Line::Message {
                role: Role::Assistant,
                text: "so far".into(),
                ts: None,
                id: None,
                compaction: true,
                recalled: false,
                answers: None,
            },
            Line::Tool {
                name: "Edit".into(),
                files: vec!["a.rs".into()],
                ts: Some(ts),
                command: None,
                purpose: None,
                todos: vec![],
                rejected: false,
                call: None,
                commit: None,
            },
            Line::Tool {
                name: "Bash".into(),
                files: vec![],
                ts: None,
                command: Some("git push".into()),
                purpose: Some("Push".into()),
                todos: vec![Todo { text: "Push".into(), status: TodoStatus::InProgress }],
                rejected: true,
                call: None,
                commit: None,
            },
            Line::Tool {
                name: "Bash".into(),
                files: vec![],
                ts: None,
                command: Some("git commit -m \"$(cat <<'EOF'".into()),
                purpose: None,
                todos: vec![],
                rejected: false,
                call: Some("toolu_1".into()),
                commit: Some("feat: export".into()),
            },
            Line::Result {
                call: "toolu_1".into(),
                ok: false,
                exit: Some(1),
                marks: vec![Mark::NothingToCommit],
                ts: Some(ts),
            },
            Line::Status { status: Status::Pinned, ts: Some(ts) },
            Line::Title { title: "Renamed".into(), ts: None },
        ];
        for line in lines {
            let value: Value = serde_json::from_str(&line.to_json()).unwrap();
            assert_eq!(Line::from_value(&value).unwrap(), Some(line));
        }
    }

    #[test]
    fn a_result_line_keeps_the_marks_it_knows() {
        let value =
            serde_json::json!({"type": "result", "call": "c1", "ok": true, "marks": ["committed", "a-later-mark"]});
        let line = Line::from_value(&value).unwrap();
        assert_eq!(
            line,
            Some(Line::Result { call: "c1".into(), ok: true, exit: None, marks: vec![Mark::Committed], ts: None })
        );
        assert!(Line::from_value(&serde_json::json!({"type": "result", "call": "c1"})).is_err(), "ok is required");
        assert_eq!(
            Line::Result { call: "c1".into(), ok: false, exit: Some(1), marks: vec![Mark::NothingToCommit], ts: None }
                .to_json(),
            r#"{"type":"result","call":"c1","ok":false,"exit":1,"marks":["nothing-to-commit"]}"#
        );
    }

    #[test]
    fn lines_are_written_in_the_documented_shape() {
        let ts: Timestamp = "2026-11-01T09:00:00Z".parse().unwrap();
        let mut header = Header::new("s1", "Fix it", ts);
        header.source = Some("codex".into());
        assert_eq!(
            Line::Session(header).to_json(),
            r#"{"type":"session","v":1,"id":"s1","title":"Fix it","created_at":"2026-11-01T09:00:00Z","source":"codex"}"#
        );
        assert_eq!(
            Line::Status { status: Status::Done, ts: Some(ts) }.to_json(),
            r#"{"type":"status","status":"done","ts":"2026-11-01T09:00:00Z"}"#
        );
        assert_eq!(
            Line::Tool {
                name: "Write".into(),
                files: vec![],
                ts: None,
                command: None,
                purpose: None,
                todos: vec![],
                rejected: false,
                call: None,
                commit: None,
            }
            .to_json(),
            r#"{"type":"tool","name":"Write","files":[]}"#
        );
        let plan = Line::Tool {
            name: "TodoWrite".into(),
            files: vec![],
            ts: None,
            command: None,
            purpose: None,
            todos: vec![Todo { text: "Tag v1".into(), status: TodoStatus::Completed }],
            rejected: false,
            call: None,
            commit: None,
        };
        assert_eq!(
            plan.to_json(),
            r#"{"type":"tool","name":"TodoWrite","files":[],"todos":[{"text":"Tag v1","status":"completed"}]}"#
        );
    }
}
