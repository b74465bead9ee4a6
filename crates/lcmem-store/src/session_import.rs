//! Adding a session file to the store: validated, its secrets redacted line
//! by line, kept byte for byte otherwise, extended when it grew, and
//! reconciled when a converter reads more of it ([`crate::reimport`]).

use std::path::Path;

use crate::store::{ImportOutcome, Store};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::guards::Guards;
use crate::jsonl;
use crate::lock::WriteLock;
use crate::reimport::{Incoming, Merge};
use crate::session::Session;

impl Store {
    /// Validates a v1 session file and adds it to the store. The stored copy
    /// is byte-for-byte the file (malformed lines included: they are the
    /// user's, and are reported, not dropped). Importing the same file again
    /// changes nothing; a file that grew since is appended to. A converted
    /// transcript's copy is also reconciled around lcmem's own status lines
    /// and re-converted by a newer converter ([`crate::reimport`]); any other
    /// difference is [`Error::SessionConflict`].
    pub fn import_file(&self, path: &Path) -> Result<(ImportOutcome, Vec<Diagnostic>)> {
        let bytes = crate::input::read(path)?;
        self.import_bytes(path, bytes)
    }

    /// Like [`Store::import_file`], for content already in memory; `origin`
    /// names it in messages.
    pub fn import_bytes(&self, origin: &Path, bytes: Vec<u8>) -> Result<(ImportOutcome, Vec<Diagnostic>)> {
        self.import_as(origin, bytes, Incoming::File)
    }

    /// Like [`Store::import_bytes`], for what is being imported: a user's
    /// file, or a new conversion of an agent's transcript, which may replace
    /// the conversion stored before ([`crate::reimport`]).
    pub fn import_as(
        &self,
        origin: &Path,
        bytes: Vec<u8>,
        incoming: Incoming,
    ) -> Result<(ImportOutcome, Vec<Diagnostic>)> {
        let (prepared, parsed) = self.prepare(origin, bytes)?;
        let lock = self.lock()?;
        self.store_parsed(&lock, origin, (prepared, incoming), parsed)
    }

    /// A session's bytes as they would be stored (redacted, ending with a
    /// newline, without the lines that are not JSON), and the session they
    /// hold. The lines set aside come back in the session's diagnostics,
    /// numbered as in `origin`, and are kept beside the stored copy
    /// ([`Store::set_aside`]).
    fn prepare(&self, origin: &Path, bytes: Vec<u8>) -> Result<(Prepared, Session)> {
        let bytes = redact_lines(self.guards(), bytes);
        let lines = jsonl::read_from(&bytes[..], origin)?;
        let malformed: Vec<(usize, jsonl::LineProblem)> =
            lines.iter().filter_map(|l| Some((l.number, l.parsed.as_ref().err()?.clone()))).collect();
        let well_formed: Vec<jsonl::Line> = lines.into_iter().filter(|l| l.parsed.is_ok()).collect();
        let mut parsed = Session::from_lines(origin, well_formed)?;
        let (mut kept, mut aside) = (Vec::with_capacity(bytes.len()), Vec::new());
        for (number, raw) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            match malformed.iter().any(|(n, _)| *n == number + 1) {
                true => aside.push(raw.strip_suffix(b"\n").unwrap_or(raw).to_vec()),
                false => kept.extend_from_slice(raw),
            }
        }
        if !kept.is_empty() && kept.last() != Some(&b'\n') {
            kept.push(b'\n');
        }
        let mut said: Vec<Diagnostic> = malformed
            .into_iter()
            .map(|(n, problem)| {
                Diagnostic::new(origin, n, format!("{}; set aside, not part of the session", problem.plain()))
            })
            .collect();
        said.append(&mut parsed.diagnostics);
        said.sort_by_key(|d| d.line);
        parsed.diagnostics = said;
        Ok((Prepared { bytes: kept, aside }, parsed))
    }

    /// [`Store::import_bytes`] for a writer that holds the lock already.
    pub fn import_bytes_locked(
        &self,
        lock: &WriteLock,
        origin: &Path,
        bytes: Vec<u8>,
        incoming: Incoming,
    ) -> Result<(ImportOutcome, Vec<Diagnostic>)> {
        let (prepared, parsed) = self.prepare(origin, bytes)?;
        self.store_parsed(lock, origin, (prepared, incoming), parsed)
    }

    /// Appends `lines` (whole lines of a converted session, each ended by
    /// `\n`) to session `id`'s file after its first `at` bytes, redacted as
    /// [`Store::import_bytes`] would: for an importer that knows the stored
    /// copy is the conversion so far (`import::growing`).
    pub fn append_converted(
        &self,
        lock: &WriteLock,
        origin: &Path,
        id: &str,
        at: u64,
        lines: Vec<u8>,
    ) -> Result<ImportOutcome> {
        let bytes = redact_lines(self.guards(), lines);
        let text = std::str::from_utf8(&bytes).map_err(|_| Error::Format {
            path: origin.to_path_buf(),
            line: 0,
            message: "new lines are not UTF-8 text".into(),
        })?;
        let new_lines: Vec<String> = text.lines().map(str::to_string).collect();
        if new_lines.is_empty() {
            return Ok(ImportOutcome::Unchanged { id: id.to_string() });
        }
        crate::tombstone::refuse_forgotten(&self.tombstones_path(), lock, id)?;
        self.refuse_session_link(id)?;
        crate::scrub::append_transcript_lines(lock, &self.session_path(id), at, &new_lines)?;
        self.mark_sessions_changed();
        Ok(ImportOutcome::Extended { id: id.to_string(), lines: new_lines.len() })
    }

    fn store_parsed(
        &self,
        lock: &WriteLock,
        origin: &Path,
        (Prepared { bytes, aside }, incoming): (Prepared, Incoming),
        parsed: Session,
    ) -> Result<(ImportOutcome, Vec<Diagnostic>)> {
        let id = parsed.header.id.clone();
        crate::tombstone::refuse_forgotten(&self.tombstones_path(), lock, &id)?;
        self.refuse_session_link(&id)?;
        let target = self.session_path(&id);
        let outcome = match jsonl::read_optional(&target)? {
            None => {
                jsonl::atomic_write(&target, &bytes)?;
                ImportOutcome::Added { id }
            }
            Some(existing) => match crate::reimport::merge(&existing, &bytes, incoming) {
                Merge::Unchanged => ImportOutcome::Unchanged { id },
                // Append what it grew by; a fragment a killed append left
                // past the whole lines is cut back and the line written whole.
                Merge::Append { complete, tail } => {
                    let tail = std::str::from_utf8(&tail).map_err(|_| Error::Format {
                        path: origin.to_path_buf(),
                        line: 0,
                        message: "new lines are not UTF-8 text".into(),
                    })?;
                    let new_lines: Vec<String> = tail.lines().map(str::to_string).collect();
                    let count = new_lines.len();
                    crate::scrub::append_transcript_lines(lock, &target, complete as u64, &new_lines)?;
                    self.mark_sessions_changed();
                    ImportOutcome::Extended { id, lines: count }
                }
                // A converted copy re-converted: the bytes are the boundary's
                // (the new conversion, redacted above, and the status lines
                // lcmem wrote through it), replaced atomically.
                Merge::Rewrite { bytes } => {
                    jsonl::atomic_write(&target, &bytes)?;
                    ImportOutcome::Reconverted { id, lines: bytes.iter().filter(|&&b| b == b'\n').count() }
                }
                Merge::Conflict => {
                    return Err(Error::SessionConflict { id, path: origin.to_path_buf(), stored: target });
                }
            },
        };
        crate::scrub::set_aside(lock, &target, &aside)?;
        Ok((outcome, parsed.diagnostics))
    }
}

/// A session's bytes ready to store, and the lines of its file set aside
/// (not JSON: a torn or garbled line), which are kept beside it.
struct Prepared {
    bytes: Vec<u8>,
    aside: Vec<Vec<u8>>,
}

/// A session file's lines with every secret redacted and control characters
/// removed, as the store keeps them: a line the boundary leaves unchanged
/// keeps its bytes exactly, so a clean file is stored byte for byte, and the
/// same input always gives the same output (a grown file's copy is still a
/// prefix of it). A line that is not JSON is only redacted, as text; one
/// that is not UTF-8 is kept as it is.
fn redact_lines(guards: &Guards, bytes: Vec<u8>) -> Vec<u8> {
    const STRUCTURAL: &[&str] = &["type", "v", "id", "ts", "created_at", "role", "status"];
    let mut out = Vec::with_capacity(bytes.len());
    for raw in bytes.split_inclusive(|&b| b == b'\n') {
        let (body, end) = match raw.strip_suffix(b"\n") {
            Some(body) => (body, &b"\n"[..]),
            None => (raw, &b""[..]),
        };
        let Ok(text) = std::str::from_utf8(body) else {
            out.extend_from_slice(raw);
            continue;
        };
        let clean = match serde_json::from_str::<serde_json::Value>(text) {
            Ok(mut value) => {
                let changed = match value.as_object_mut() {
                    // The fields that say what a line is and when are the
                    // format's own; every other string is content.
                    Some(fields) => fields
                        .iter_mut()
                        .filter(|(key, _)| !STRUCTURAL.contains(&key.as_str()))
                        .fold(false, |changed, (_, v)| crate::scrub::scrub_value(guards, v) | changed),
                    None => crate::scrub::scrub_value(guards, &mut value),
                };
                if changed { value.to_string() } else { text.to_string() }
            }
            // A malformed line is the user's and is kept as it is, but for a secret in it.
            Err(_) => (guards.redact)(text).into_owned(),
        };
        out.extend_from_slice(clean.as_bytes());
        out.extend_from_slice(end);
    }
    out
}
