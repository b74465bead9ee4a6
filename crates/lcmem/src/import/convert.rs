//! Conversion: a transcript's lines, read by its source's reader
//! (`claude_code`, `codex`), written as session format v1 by the emitter.
//! A conversion can stop after any whole line and go on later ([`Resume`]).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::converted::{Converted, Counts, Format};
use super::{claude_code, codex, emit};
use crate::jsonl::{self, LineProblem};

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
    pub(super) lines: usize,
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
