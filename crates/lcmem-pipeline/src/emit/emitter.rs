//! The v1 writer every agent's reader shares, and the rules that keep conversion
//! stable as a transcript grows.
//!
//! The store imports a grown file by appending the lines past the stored
//! copy, which only works if converting a longer transcript reproduces the
//! shorter one's output byte for byte before adding lines. So every output
//! line depends only on its input line and on what earlier lines said, and
//! the header is held back until everything it needs is known: it is
//! written ("settles") at the end of the first input line by which the
//! transcript has shown a user prompt and a timestamp. A transcript that
//! never gets that far yields nothing, and is imported once it does.

use std::path::{Component, Path, PathBuf};

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::diagnostic::Diagnostic;
use crate::session::{self, Header, Line, Role, Todo};

use super::converted::{Converted, Counts, Format};

/// How a message was written: a compaction summary, memory's own output.
#[derive(Clone, Copy)]
struct Written {
    compaction: bool,
    recalled: bool,
}

/// Longest title a header gets, in characters.
const TITLE_CHARS: usize = 80;

pub struct Emitter<'a> {
    path: &'a Path,
    format: Format,
    line: usize,
    /// What the lines so far said: all a resumed conversion needs.
    state: EmitState,
    out: Vec<u8>,
    diagnostics: Vec<Diagnostic>,
}

/// What a tool call's input says about the work, beyond the files it
/// names: the command the agent wrote and why, the plan it set.
#[derive(Debug, Default)]
pub(crate) struct Evidence {
    pub command: Option<String>,
    pub purpose: Option<String>,
    pub todos: Vec<Todo>,
    /// The user refused the call: see `Line::Tool::rejected`.
    pub rejected: bool,
    /// The call's id, which its result names.
    pub call: Option<String>,
    /// The subject of the commit the command made (see `commit`).
    pub commit: Option<String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
enum Kind {
    Message,
    Tool,
    Title,
    Result,
}

/// What an emitter knows after some input lines: all that converting the
/// lines after them needs, so that a conversion resumed from it writes what
/// the conversion of the whole transcript writes past that point.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct EmitState {
    id: Option<String>,
    created_at: Option<Timestamp>,
    cwd: Option<String>,
    /// The latest summary seen before the header settled.
    summary: Option<String>,
    first_prompt: Option<String>,
    settled: bool,
    /// Lines converted before the header settled, written right after it.
    pending: Vec<(String, Kind)>,
    counts: Counts,
}

impl EmitState {
    /// Whether the header was written.
    pub(crate) fn settled(&self) -> bool {
        self.settled
    }
}

impl<'a> Emitter<'a> {
    /// An emitter that goes on from `state`: its output is only what the
    /// lines fed to it add.
    pub(crate) fn resume(path: &'a Path, format: Format, state: EmitState) -> Emitter<'a> {
        Emitter { path, format, line: 0, state, out: Vec::new(), diagnostics: Vec::new() }
    }

    /// What this emitter knows now, to resume from later.
    pub(crate) fn state(&self) -> EmitState {
        self.state.clone()
    }

    /// Starts input line `number`: warnings name it from now on.
    pub(crate) fn at_line(&mut self, number: usize) {
        self.line = number;
    }

    pub(crate) fn warn(&mut self, message: impl Into<String>) {
        self.diagnostics.push(Diagnostic::new(self.path, self.line, message));
    }

    /// The session id as recorded; the first one seen before the header
    /// settles wins.
    pub(crate) fn note_id(&mut self, raw: &str) {
        if !self.state.settled && self.state.id.is_none() {
            self.state.id = sanitize_id(raw);
        }
    }

    pub(crate) fn note_time(&mut self, ts: Timestamp) {
        if !self.state.settled && self.state.created_at.is_none() {
            self.state.created_at = Some(ts);
        }
    }

    /// The recorded working directory. The first one is the session's.
    pub(crate) fn note_cwd(&mut self, cwd: &str) {
        if self.state.cwd.is_none() && !cwd.is_empty() {
            self.state.cwd = Some(cwd.to_string());
        }
    }

    pub(crate) fn message(&mut self, role: Role, text: &str, ts: Option<Timestamp>, id: Option<&str>) {
        // What the assistant says is its own words even when it repeats
        // memory; anything else shaped like memory's output is memory's.
        let recalled = role != Role::Assistant && crate::own_output::is_memory_output(text);
        self.write_message(role, text, ts, id, Written { compaction: false, recalled })
    }

    /// The person's answer to a question the agent asked, which the client
    /// recorded as a tool's result: a message of the person's, saying which
    /// question it answers.
    pub(crate) fn answer(&mut self, question: &str, answer: &str, ts: Option<Timestamp>, id: Option<&str>) {
        if answer.trim().is_empty() {
            return;
        }
        let line = Line::Message {
            role: Role::User,
            text: answer.to_string(),
            ts,
            id: id.map(str::to_string),
            compaction: false,
            recalled: false,
            answers: Some(question.to_string()),
        }
        .to_json();
        self.push(line, Kind::Message);
    }

    /// A memory tool's result (lcmem's, or an agent's own memory tool):
    /// kept as a tool message marked `recalled`.
    pub(crate) fn recalled(&mut self, text: &str, ts: Option<Timestamp>, id: Option<&str>) {
        self.write_message(Role::Tool, text, ts, id, Written { compaction: false, recalled: true })
    }

    /// A model-written summary of the conversation so far (a compaction):
    /// the assistant's prose, marked as a summary. It is never the prompt
    /// that settles the header.
    pub(crate) fn compaction(&mut self, text: &str, ts: Option<Timestamp>, id: Option<&str>) {
        self.write_message(Role::Assistant, text, ts, id, Written { compaction: true, recalled: false })
    }

    fn write_message(&mut self, role: Role, text: &str, ts: Option<Timestamp>, id: Option<&str>, how: Written) {
        let Written { compaction, recalled } = how;
        if text.trim().is_empty() {
            return;
        }
        if role == Role::User && !recalled && !self.state.settled && self.state.first_prompt.is_none() {
            self.state.first_prompt = Some(text.to_string());
        }
        let line = Line::Message {
            role,
            text: text.to_string(),
            ts,
            id: id.map(str::to_string),
            compaction,
            recalled,
            answers: None,
        }
        .to_json();
        self.push(line, Kind::Message);
    }

    pub(crate) fn tool(&mut self, name: &str, files: &[String], evidence: Evidence, ts: Option<Timestamp>) {
        let Evidence { command, purpose, todos, rejected, call, commit } = evidence;
        let line = Line::Tool {
            name: name.to_string(),
            files: files.to_vec(),
            ts,
            command,
            purpose,
            todos,
            rejected,
            call,
            commit,
        }
        .to_json();
        self.push(line, Kind::Tool);
    }

    /// What call `call` came to, when its result says something (see
    /// `results`): a `result` line.
    pub(crate) fn result(&mut self, call: &str, result: super::results::CallResult, ts: Option<Timestamp>) {
        if !result.telling() {
            return;
        }
        let line =
            Line::Result { call: call.to_string(), ok: !result.failed, exit: result.exit, marks: result.marks, ts }
                .to_json();
        self.push(line, Kind::Result);
    }

    /// A title (a Claude Code summary). Before the header settles it becomes
    /// the header's title; afterwards it is a `title` line.
    pub(crate) fn title(&mut self, text: &str, ts: Option<Timestamp>) {
        let title = clip_title(text);
        if title.is_empty() {
            return;
        }
        if self.state.settled {
            let line = Line::Title { title, ts }.to_json();
            self.push(line, Kind::Title);
        } else {
            self.state.summary = Some(title);
        }
    }

    fn push(&mut self, line: String, kind: Kind) {
        if self.state.settled {
            self.write(&line, kind);
        } else {
            self.state.pending.push((line, kind));
        }
    }

    fn write(&mut self, line: &str, kind: Kind) {
        self.out.extend_from_slice(line.as_bytes());
        self.out.push(b'\n');
        match kind {
            Kind::Message => self.state.counts.messages += 1,
            Kind::Tool => self.state.counts.tools += 1,
            Kind::Title | Kind::Result => {}
        }
    }

    /// Dates a session whose transcript recorded no time at all, and writes
    /// its header if a prompt is known.
    pub(crate) fn settle_at(&mut self, ts: Timestamp) {
        self.note_time(ts);
        self.end_line();
    }

    /// The transcript's path, which names the session when nothing in it does.
    pub(crate) fn path(&self) -> &Path {
        self.path
    }

    /// Ends the current input line: writes the header (and what was held
    /// back) once a prompt and a time are known.
    pub(crate) fn end_line(&mut self) {
        if self.state.settled {
            return;
        }
        let (Some(prompt), Some(created_at)) = (&self.state.first_prompt, self.state.created_at) else { return };
        let title = self.state.summary.clone().unwrap_or_else(|| clip_title(prompt));
        let id = self.state.id.clone().or_else(|| stem_id(self.path)).unwrap_or_else(|| "session".to_string());
        let header = Line::Session(Header {
            source: Some(self.format.name().to_string()),
            cwd: self.state.cwd.clone(),
            ..Header::new(id.clone(), title, created_at)
        })
        .to_json();
        self.state.id = Some(id);
        self.state.settled = true;
        // Only the header needed it; the state keeps no more of the prompt.
        self.state.first_prompt = None;
        self.out.extend_from_slice(header.as_bytes());
        self.out.push(b'\n');
        for (line, kind) in std::mem::take(&mut self.state.pending) {
            self.write(&line, kind);
        }
    }

    pub(crate) fn finish(self) -> Converted {
        let settled = self.state.settled;
        Converted {
            format: self.format,
            id: if settled { self.state.id } else { None },
            session_bytes: self.out,
            cwd: self.state.cwd.map(PathBuf::from),
            counts: if settled { self.state.counts } else { Counts::default() },
            diagnostics: self.diagnostics,
        }
    }
}

/// Turns a recorded id into a v1 session id: characters outside
/// `[A-Za-z0-9._-]` become `-`, leading dots go, at most 128 characters.
pub fn sanitize_id(raw: &str) -> Option<String> {
    let mapped: String =
        raw.chars().map(|c| if c.is_ascii_alphanumeric() || "-_.".contains(c) { c } else { '-' }).collect();
    let id: String = mapped.trim_start_matches('.').chars().take(128).collect();
    (id.chars().any(|c| c.is_ascii_alphanumeric()) && session::validate_id(&id).is_ok()).then_some(id)
}

fn stem_id(path: &Path) -> Option<String> {
    path.file_stem().and_then(|s| s.to_str()).and_then(sanitize_id)
}

/// A title from free text: its first paragraph (a request typed in a narrow
/// terminal wraps its sentence over several lines), white space collapsed,
/// cut at a word boundary.
pub fn clip_title(text: &str) -> String {
    // A line that ends a sentence ends the title; one that does not was
    // wrapped, and the next line goes on with it.
    let mut first: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim).skip_while(|l| l.is_empty()) {
        if line.is_empty() {
            break;
        }
        first.push(line);
        if line.ends_with(['.', '!', '?', ':']) {
            break;
        }
    }
    let collapsed = first.join(" ").split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= TITLE_CHARS {
        return collapsed;
    }
    let cut: String = collapsed.chars().take(TITLE_CHARS - 1).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > TITLE_CHARS / 2 => cut.get(..i).unwrap_or(&cut),
        _ => &cut,
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', ' ']))
}

/// A path a tool touched, relative to the working directory it was recorded
/// in when it lies inside it (memory reads better, and survives the project
/// moving); otherwise as recorded. Purely lexical: conversion never looks at
/// the file system, so it gives the same answer on every run.
pub fn relative_to(file: &str, cwd: Option<&str>) -> String {
    let Some(cwd) = cwd.filter(|c| !c.is_empty()) else { return file.to_string() };
    match Path::new(file).strip_prefix(cwd) {
        Ok(rest) if !rest.as_os_str().is_empty() && rest.components().all(|c| matches!(c, Component::Normal(_))) => {
            rest.to_string_lossy().into_owned()
        }
        _ => file.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_sanitised() {
        assert_eq!(sanitize_id("abc-123").as_deref(), Some("abc-123"));
        assert_eq!(sanitize_id("../a b/c").as_deref(), Some("-a-b-c"));
        assert_eq!(sanitize_id("..."), None);
        assert_eq!(sanitize_id("é"), None);
        assert_eq!(sanitize_id(&"x".repeat(300)).map(|s| s.len()), Some(128));
    }

    #[test]
    fn titles_are_one_clipped_line() {
        assert_eq!(clip_title("\n  Fix   the\tparser \n\nmore"), "Fix the parser");
        assert_eq!(
            clip_title("I want to migrate\n  this app to Prisma\n\nDetails"),
            "I want to migrate this app to Prisma"
        );
        assert_eq!(clip_title("Add retries.\nKeep the API."), "Add retries.");
        let long = clip_title(&"word ".repeat(40));
        assert!(long.ends_with('…') && long.chars().count() <= TITLE_CHARS, "{long}");
    }

    #[test]
    fn paths_inside_the_working_directory_become_relative() {
        assert_eq!(relative_to("/repo/src/a.rs", Some("/repo")), "src/a.rs");
        assert_eq!(relative_to("/repo/src/a.rs", Some("/repo/")), "src/a.rs");
        assert_eq!(relative_to("/repo/../etc/passwd", Some("/repo")), "/repo/../etc/passwd");
        assert_eq!(relative_to("/elsewhere/a.rs", Some("/repo")), "/elsewhere/a.rs");
        assert_eq!(relative_to("/repo", Some("/repo")), "/repo");
        assert_eq!(relative_to("src/a.rs", Some("/repo")), "src/a.rs");
        assert_eq!(relative_to("/repo/a.rs", None), "/repo/a.rs");
    }
}
