//! Importers: Claude Code and Codex CLI transcripts converted into session
//! format v1 and added to the store (see `docs/importers.md`).
//!
//! Conversion is a pure function of the transcript's bytes: it never looks
//! at the clock, the file system or the store, so the same transcript always
//! converts to the same bytes, and a transcript that grew converts to the
//! same bytes followed by new lines. That is what lets [`Store::import_bytes`]
//! treat a re-import as unchanged and a grown transcript as an append.
//! Malformed input is reported as `file:line` diagnostics and skipped; no
//! input makes conversion fail or panic.

mod batch;
mod claude_code;
mod codex;
mod commit;
mod cursor;
mod discover;
mod emit;
mod results;
mod shell_files;

use std::path::{Path, PathBuf};

use jiff::Timestamp;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::jsonl::{self, LineProblem};
use crate::store::{ImportOutcome, Store};

pub use batch::{Placement, import_all, place};
pub use cursor::{Known, Reading, Restart, import_growing, known, read_to_end};
pub use discover::{discover_claude_code, discover_codex, jsonl_files};
pub use emit::sanitize_id;

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A session in lcmem's own format v1: stored byte for byte.
    V1,
    /// A Claude Code transcript (`~/.claude/projects/<folder>/<uuid>.jsonl`).
    ClaudeCode,
    /// A Codex CLI rollout (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`).
    Codex,
}

impl Format {
    /// The name used on the command line and in converted headers.
    pub fn name(self) -> &'static str {
        match self {
            Format::V1 => "v1",
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How many lines of each kind a conversion wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Message lines, of every role.
    pub messages: usize,
    /// Tool action lines.
    pub tools: usize,
}

/// A transcript converted to format v1.
#[derive(Debug, Clone)]
pub struct Converted {
    pub format: Format,
    /// The session id, once there is a session.
    pub id: Option<String>,
    /// The v1 session: a header and its lines, each ended by `\n`. Empty when
    /// the transcript holds no user prompt yet, so nothing to import.
    pub session_bytes: Vec<u8>,
    /// The working directory the transcript was recorded in, as recorded.
    pub cwd: Option<PathBuf>,
    pub counts: Counts,
    /// Input lines that were skipped, and why, as `file:line` warnings.
    pub diagnostics: Vec<Diagnostic>,
}

impl Converted {
    /// Whether there is nothing to import (yet).
    pub fn is_empty(&self) -> bool {
        self.session_bytes.is_empty()
    }
}

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

/// Converts `bytes` (the content of the file at `path`, which names it in
/// diagnostics) from `format` to session format v1. A v1 file is passed
/// through untouched: the store validates it on import.
pub fn convert(format: Format, path: &Path, bytes: &[u8]) -> Converted {
    match Resume::start(format) {
        None => v1_passthrough(bytes),
        Some(start) => convert_more(path, bytes, start).0,
    }
}

/// Where a conversion stands after some whole lines of a transcript: the
/// emitter's state and the converter's memory of earlier lines. Converting
/// more lines from it writes exactly what converting the whole transcript
/// writes past them (see `emit`), which is what lets a growing transcript be
/// converted a piece at a time ([`cursor`]).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct Resume {
    /// Input lines consumed, for the numbers in diagnostics.
    lines: usize,
    emit: emit::EmitState,
    reader: Reader,
}

/// Each converter's memory of earlier lines.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
enum Reader {
    ClaudeCode(claude_code::Seen),
    Codex(codex::Seen),
}

impl Resume {
    /// The start of a conversion from `format`; `None` for v1, which is not converted.
    pub(crate) fn start(format: Format) -> Option<Resume> {
        let reader = match format {
            Format::V1 => return None,
            Format::ClaudeCode => Reader::ClaudeCode(claude_code::Seen::default()),
            Format::Codex => Reader::Codex(codex::Seen::default()),
        };
        Some(Resume { lines: 0, emit: emit::EmitState::default(), reader })
    }

    pub(crate) fn format(&self) -> Format {
        reader_format(&self.reader)
    }

    /// Whether the session's header has been written.
    pub(crate) fn settled(&self) -> bool {
        self.emit.settled()
    }
}

/// Converts `bytes`, the lines of a transcript that follow those `from`
/// covered: the output is only what they add, and the state after them is
/// returned to go on from. `bytes` should end at a line's end for the state
/// to be resumable; a last line without its newline is converted as it is.
pub(crate) fn convert_more(path: &Path, bytes: &[u8], from: Resume) -> (Converted, Resume) {
    let Resume { lines, emit, reader } = from;
    let mut emitter = emit::Emitter::resume(path, reader_format(&reader), emit);
    let reader = match reader {
        Reader::ClaudeCode(mut seen) => {
            each_line(path, bytes, lines, &mut emitter, |e, v| claude_code::convert_line(e, v, &mut seen));
            Reader::ClaudeCode(seen)
        }
        Reader::Codex(mut seen) => {
            each_line(path, bytes, lines, &mut emitter, |e, v| codex::convert_line(e, v, &mut seen));
            Reader::Codex(seen)
        }
    };
    let lines = lines + bytes.iter().filter(|&&b| b == b'\n').count();
    let state = Resume { lines, emit: emitter.state(), reader };
    (emitter.finish(), state)
}

fn reader_format(reader: &Reader) -> Format {
    match reader {
        Reader::ClaudeCode(_) => Format::ClaudeCode,
        Reader::Codex(_) => Format::Codex,
    }
}

fn v1_passthrough(bytes: &[u8]) -> Converted {
    let header = bytes
        .split(|&b| b == b'\n')
        .find(|l| !l.iter().all(u8::is_ascii_whitespace))
        .and_then(|l| serde_json::from_slice::<Value>(l).ok());
    let field = |key: &str| header.as_ref().and_then(|h| h.get(key)).and_then(Value::as_str).map(str::to_string);
    Converted {
        format: Format::V1,
        id: field("id"),
        session_bytes: bytes.to_vec(),
        cwd: field("cwd").map(PathBuf::from),
        counts: Counts::default(),
        diagnostics: Vec::new(),
    }
}

/// What importing one file did.
#[derive(Debug, Clone)]
pub struct Report {
    pub format: Format,
    /// `None` when the transcript held nothing to import yet.
    pub outcome: Option<ImportOutcome>,
    pub counts: Counts,
    pub cwd: Option<PathBuf>,
    /// Skipped lines: of the transcript for a conversion, of the file for v1.
    pub diagnostics: Vec<Diagnostic>,
    /// How much of the transcript was read, for [`import_growing`].
    pub reading: Option<Reading>,
}

/// Adds a converted file to `store`. An empty conversion writes nothing.
pub fn store_converted(store: &Store, path: &Path, converted: Converted) -> Result<Report> {
    let Converted { format, session_bytes, cwd, counts, mut diagnostics, .. } = converted;
    let outcome = if session_bytes.is_empty() && format != Format::V1 {
        None
    } else {
        let (outcome, more) = store.import_bytes(path, session_bytes)?;
        diagnostics.extend(more);
        Some(outcome)
    };
    Ok(Report { format, outcome, counts, cwd, diagnostics, reading: None })
}

/// Reads `path`, converts it (`format` `None`: detect it, and read a file
/// that looks like nothing known as v1 so that its errors say what v1
/// expects) and adds it to `store`.
pub fn import_file(store: &Store, format: Option<Format>, path: &Path) -> Result<Report> {
    let bytes = crate::input::read(path)?;
    let format = format.or_else(|| detect(&bytes)).unwrap_or(Format::V1);
    store_converted(store, path, convert(format, path, &bytes))
}

/// Like [`import_file`] for a file found in a folder, which may be anything:
/// `None` (nothing written) when `format` is `None` and the file looks like
/// nothing lcmem knows.
pub fn import_found(store: &Store, format: Option<Format>, path: &Path) -> Result<Option<Report>> {
    let bytes = crate::input::read(path)?;
    let Some(format) = format.or_else(|| detect(&bytes)) else { return Ok(None) };
    store_converted(store, path, convert(format, path, &bytes)).map(Some)
}

/// Feeds each line of a transcript to `convert_line`, reporting the lines
/// that are not JSON. A torn last line is most likely one still being
/// written: it is skipped now and converted once complete.
fn each_line(
    path: &Path,
    bytes: &[u8],
    before: usize,
    emitter: &mut emit::Emitter<'_>,
    mut convert_line: impl FnMut(&mut emit::Emitter<'_>, &Value),
) {
    let lines = match jsonl::read_from(bytes, path) {
        Ok(lines) => lines,
        Err(error) => {
            emitter.warn(error.to_string());
            Vec::new()
        }
    };
    for line in lines {
        emitter.at_line(before + line.number);
        match line.parsed {
            Ok(value) => convert_line(emitter, &value),
            Err(LineProblem::Torn) => {
                emitter.warn("last line is incomplete (still being written?); skipped until it is complete")
            }
            Err(problem) => emitter.warn(format!("{problem}; skipped")),
        }
        emitter.end_line();
    }
}

/// A timestamp field: `None` when absent, a warning when unreadable.
fn timestamp(value: &Value, key: &str, emitter: &mut emit::Emitter<'_>) -> Option<Timestamp> {
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

/// The text of content items as both tools write them: plain strings,
/// blocks with a `text` field, and `[image]` for an image.
fn item_texts(items: &[Value]) -> Vec<String> {
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
fn command_line(command: &str) -> Option<String> {
    if command.contains("*** Begin Patch") {
        return None;
    }
    let first = command.lines().map(str::trim).find(|l| !l.is_empty())?;
    Some(crate::extract::clip(first, 300))
}

/// A plan as both tools write it: a list of `{<text_key>, "status"}` items
/// (Claude Code's TodoWrite says `content`, Codex's update_plan `step`). An
/// item without text is left out; an unknown status counts as pending.
fn todo_items(value: &Value, text_key: &str) -> Vec<crate::session::Todo> {
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

fn str_field<'v>(value: &'v Value, key: &str) -> Option<&'v str> {
    value.get(key).and_then(Value::as_str)
}

/// The text between `<tag>` and `</tag>` in `text`, if both are there.
fn tag_content<'t>(text: &'t str, tag: &str) -> Option<&'t str> {
    let open = format!("<{tag}>");
    let close = format!("</{tag}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(&text[start..end])
}
