//! Conversion: a transcript's lines, read by its source's reader, written as
//! session format v1 by the emitter. A conversion can stop after any whole
//! line and go on later ([`Resume`]).
//!
//! A transcript an agent wrote as one JSON document (see
//! [`Source::document_records`]) is read as the records the source makes of
//! it, and always converted whole: the agent rewrites such a file in place.
//! A document that records no time at all (a saved conversation) is dated by
//! the file's modification time, the one thing conversion reads beside the
//! bytes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::emit::converted::{Converted, Counts, Format};
use crate::emit::emitter;
use crate::agents::source::{LineReader, Source};
use crate::jsonl::{self, LineProblem};

/// Converts `bytes` (the content of the file at `path`, which names it in
/// diagnostics) from `format` to session format v1. A v1 file is passed
/// through untouched: the store validates it on import.
pub fn convert(format: Format, path: &Path, bytes: &[u8]) -> Converted {
    match Resume::start(format) {
        None => v1_passthrough(bytes),
        Some(start) => match start.document(path, bytes) {
            Some(records) => convert_document(path, bytes, &records, start).0,
            None => convert_more(path, bytes, start).0,
        },
    }
}

/// Converts the `records` of a transcript written as one document (`bytes`,
/// see [`Resume::document`]), whole.
pub(crate) fn convert_document(path: &Path, bytes: &[u8], records: &[Value], start: Resume) -> (Converted, Resume) {
    let Resume { lines, emit, reader: (source, mut reader) } = start;
    let mut emitter = emitter::Emitter::resume(path, Format::of(source), emit);
    let mut from = 0;
    for record in records {
        // The line a record starts on, as near as its id tells.
        if let Some(at) = record.get("id").and_then(Value::as_str).and_then(|id| find_from(bytes, from, id)) {
            from = at;
        }
        emitter.at_line(1 + bytes.get(..from).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()));
        reader.line(&mut emitter, record);
        emitter.end_line();
    }
    if !emitter.state().settled()
        && let Some(modified) = std::fs::metadata(path).and_then(|m| m.modified()).ok()
        && let Ok(ts) = jiff::Timestamp::try_from(modified)
    {
        emitter.settle_at(ts);
    }
    let lines = lines + bytes.iter().filter(|&&b| b == b'\n').count();
    let state = Resume { lines, emit: emitter.state(), reader: (source, reader) };
    (emitter.finish(), state)
}

/// Where `"<id>"` next occurs in `bytes` at or after `from`.
fn find_from(bytes: &[u8], from: usize, id: &str) -> Option<usize> {
    let quoted = format!("\"{id}\"");
    memchr::memmem::find(bytes.get(from..)?, quoted.as_bytes()).map(|at| from + at)
}

/// Where a conversion stands after some whole lines of a transcript: the
/// emitter's state and the converter's memory of earlier lines. Converting
/// more lines from it writes exactly what converting the whole transcript
/// writes past them (see `emit`), which is what lets a growing transcript be
/// converted a piece at a time ([`growing`]).
#[derive(serde::Serialize, serde::Deserialize)]
pub(crate) struct Resume {
    /// Input lines consumed, for the numbers in diagnostics.
    pub(super) lines: usize,
    emit: emitter::EmitState,
    /// Saved as `{"<the source's tag>": <its reader's state>}`.
    #[serde(with = "saved")]
    reader: (&'static dyn Source, Box<dyn LineReader>),
}

impl Clone for Resume {
    fn clone(&self) -> Resume {
        Resume { lines: self.lines, emit: self.emit.clone(), reader: (self.reader.0, self.reader.1.boxed_clone()) }
    }
}

impl std::fmt::Debug for Resume {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resume").field("lines", &self.lines).field("source", &self.reader.0).finish_non_exhaustive()
    }
}

impl Resume {
    /// The start of a conversion from `format`; `None` for v1, which is not converted.
    pub(crate) fn start(format: Format) -> Option<Resume> {
        let source = format.source()?;
        let reader = source.reader(None)?;
        Some(Resume { lines: 0, emit: emitter::EmitState::default(), reader: (source, reader) })
    }

    pub(crate) fn format(&self) -> Format {
        Format::of(self.reader.0)
    }

    /// The records of `bytes` when they are one JSON document this
    /// conversion's source reads ([`Source::document_records`]).
    pub(crate) fn document(&self, path: &Path, bytes: &[u8]) -> Option<Vec<Value>> {
        let first = bytes.iter().find(|b| !b.is_ascii_whitespace())?;
        if !matches!(first, b'{' | b'[') {
            return None;
        }
        // A transcript of one record a line fails here at its second line.
        let value: Value = serde_json::from_slice(bytes).ok()?;
        self.reader.0.document_records(&value, path)
    }

    /// Whether the session's header has been written.
    pub(crate) fn settled(&self) -> bool {
        self.emit.settled()
    }
}

/// The reader's state in a saved [`Resume`], under its source's tag.
mod saved {
    use serde::de::Error as _;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use serde_json::value::RawValue;

    use crate::agents::source::{LineReader, Source};

    type Reader = (&'static dyn Source, Box<dyn LineReader>);

    pub fn serialize<S: Serializer>(reader: &Reader, s: S) -> Result<S::Ok, S::Error> {
        let mut map = std::collections::BTreeMap::new();
        map.insert(reader.0.tag(), reader.1.save());
        map.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Reader, D::Error> {
        let map = std::collections::BTreeMap::<String, Box<RawValue>>::deserialize(d)?;
        let mut entries = map.into_iter();
        let (Some((tag, state)), None) = (entries.next(), entries.next()) else {
            return Err(D::Error::custom("a reader's state names one source"));
        };
        let source = crate::agents::sources::by_tag(&tag).ok_or_else(|| D::Error::custom("an unknown source"))?;
        let reader =
            source.reader(Some(&state)).ok_or_else(|| D::Error::custom("a reader's state this build cannot read"))?;
        Ok((source, reader))
    }
}

/// Converts `bytes`, the lines of a transcript that follow those `from`
/// covered: the output is only what they add, and the state after them is
/// returned to go on from. `bytes` should end at a line's end for the state
/// to be resumable; a last line without its newline is converted as it is.
pub(crate) fn convert_more(path: &Path, bytes: &[u8], from: Resume) -> (Converted, Resume) {
    let Resume { lines, emit, reader: (source, mut reader) } = from;
    let mut emitter = emitter::Emitter::resume(path, Format::of(source), emit);
    each_line(path, bytes, lines, &mut emitter, |e, v| reader.line(e, v));
    let lines = lines + bytes.iter().filter(|&&b| b == b'\n').count();
    let state = Resume { lines, emit: emitter.state(), reader: (source, reader) };
    (emitter.finish(), state)
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
    emitter: &mut emitter::Emitter<'_>,
    mut convert_line: impl FnMut(&mut emitter::Emitter<'_>, &Value),
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
