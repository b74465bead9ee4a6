//! Reading the files recall searches into searchable units: the turns of a
//! session file (for the index and for the scan alike), journal entries and
//! facts. The bottom layer of recall: it knows the files, not the index.

use std::path::Path;

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::error::{IoContext, Result};
use crate::facts::{Fact, Fold};
use crate::journal::Current;
use crate::jsonl;
use crate::session::{Line, Role, Session, Status};

/// Who produced a turn. Tool actions (what a tool touched) are searchable
/// too: "which session edited parser.rs" is a fair question.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(rename_all = "lowercase")]
pub enum TurnRole {
    User,
    Assistant,
    System,
    /// Tool output: workspace content, possibly written by an attacker.
    Tool,
    /// A tool action line: the tool's name and the files it touched.
    Action,
}

impl TurnRole {
    pub(crate) fn code(self) -> u64 {
        self as u64
    }
    pub(crate) fn from_code(code: u64) -> TurnRole {
        match code {
            0 => TurnRole::User,
            1 => TurnRole::Assistant,
            2 => TurnRole::System,
            3 => TurnRole::Tool,
            _ => TurnRole::Action,
        }
    }
    pub fn as_str(self) -> &'static str {
        match self {
            TurnRole::User => "user",
            TurnRole::Assistant => "assistant",
            TurnRole::System => "system",
            TurnRole::Tool => "tool",
            TurnRole::Action => "action",
        }
    }
}

impl From<Role> for TurnRole {
    fn from(role: Role) -> TurnRole {
        match role {
            Role::User => TurnRole::User,
            Role::Assistant => TurnRole::Assistant,
            Role::System => TurnRole::System,
            Role::Tool => TurnRole::Tool,
        }
    }
}

/// What recall needs to know about a session without reading it again:
/// kept in the index manifest for indexed files.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct SessionMeta {
    pub title: String,
    pub created_at: Timestamp,
    /// The latest done/archived status in the file.
    pub closing: Option<Status>,
    pub pinned: bool,
}

/// One message or tool action, located in its file.
#[derive(Debug, Clone)]
pub struct TurnDoc {
    /// 1-based line in the session file.
    pub line: usize,
    /// Byte offset of that line, to read it back for a snippet.
    pub offset: u64,
    /// 0-based position among the session's turns: neighbours are ±1.
    pub turn: u32,
    pub role: TurnRole,
    /// The turn's time: its own `ts`, else the last time seen before it, else
    /// the session's creation.
    pub ts: Timestamp,
    pub text: String,
}

/// A session file, read for searching.
pub struct ParsedSession {
    pub meta: SessionMeta,
    pub turns: Vec<TurnDoc>,
}

/// The text a tool action is searched by: its name and the files it touched.
fn action_text(name: &str, files: &[String]) -> String {
    let mut text = name.to_string();
    for f in files {
        text.push(' ');
        text.push_str(f);
    }
    text
}

/// Parses a session file's bytes with the session parser itself (so recall
/// sees exactly the turns the rest of lcmem sees) and locates each turn.
pub fn parse_session(path: &Path, bytes: &[u8]) -> Result<ParsedSession> {
    let mut starts = vec![0u64];
    starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| i as u64 + 1));
    let session = Session::from_lines(path, jsonl::read_from(bytes, path)?)?;
    let meta = SessionMeta {
        // The index's metadata is a file too: the title as the boundary would write it.
        title: crate::scrub::scrub_text(&lcmem_store::guards::Guards::default(), &session.title),
        created_at: session.header.created_at,
        closing: session.closing_status(),
        pinned: session.pinned(),
    };
    let mut last_ts = session.header.created_at;
    let mut turns = Vec::new();
    for located in session.events {
        if let Some(ts) = located.value.ts() {
            last_ts = ts;
        }
        let (role, text) = match located.value {
            // Memory's own output coming back through the agent is never
            // indexed: recall would find its own answers (see `own_output`).
            // Files stored before the mark are read by the text's shape.
            Line::Message { recalled: true, .. } => continue,
            Line::Message { role, text, .. }
                if role != Role::Assistant && crate::own_output::is_memory_output(&text) =>
            {
                continue;
            }
            Line::Message { role, text, .. } => (TurnRole::from(role), text),
            Line::Tool { name, files, .. } => (TurnRole::Action, action_text(&name, &files)),
            Line::Result { .. } | Line::Status { .. } | Line::Title { .. } | Line::Session(_) => continue,
        };
        turns.push(TurnDoc {
            line: located.line,
            offset: starts[located.line - 1],
            turn: turns.len() as u32,
            role,
            ts: last_ts,
            text,
        });
    }
    Ok(ParsedSession { meta, turns })
}

/// Reads one turn back from its session file, for a snippet: the line at
/// `offset`, which must still be line `line` of the file's parse. Returns the
/// turn's text and its message id, if it has one.
pub fn read_turn(path: &Path, offset: u64) -> Result<Option<(String, Option<String>)>> {
    use std::io::{BufRead, BufReader, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).at(path)?;
    file.seek(SeekFrom::Start(offset)).at(path)?;
    let mut raw = Vec::new();
    BufReader::new(file).read_until(b'\n', &mut raw).at(path)?;
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(&raw) else { return Ok(None) };
    Ok(match Line::from_value(&value) {
        Ok(Some(Line::Message { text, id, .. })) => Some((text, id)),
        Ok(Some(Line::Tool { name, files, .. })) => Some((action_text(&name, &files), None)),
        _ => None,
    })
}

/// The searchable text of a journal entry.
pub fn journal_text(current: &Current) -> String {
    let e = &current.entry;
    let mut text = format!("{}\n{}", e.title, e.summary);
    if !e.files.is_empty() {
        text.push('\n');
        text.push_str(&e.files.join(" "));
    }
    // A decision is found as one ("what did we decide about retries?"),
    // though its own words rarely say so.
    for d in &e.decisions {
        text.push_str("\nDecision: ");
        text.push_str(d);
    }
    text
}

/// Facts recall may return: every fact of the fold except those the user
/// said are not true and those the user deleted.
pub fn searchable_facts(fold: &Fold) -> impl Iterator<Item = (usize, &Fact)> {
    fold.facts.iter().enumerate().filter(|(_, f)| !f.not_true && !f.deleted && !f.text.is_empty())
}
