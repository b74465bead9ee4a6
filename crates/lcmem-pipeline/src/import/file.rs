//! One transcript file into the store: read it, tell its format, convert
//! it, add it.

use std::path::{Path, PathBuf};

use super::convert::convert;
use crate::emit::converted::{Converted, Counts, Format};
use super::detect::detect;
use crate::diagnostic::Diagnostic;
use crate::error::{Error, Result};
use crate::store::{ImportOutcome, Store};

/// What importing one file did.
#[derive(Debug, Clone)]
pub struct FileReport {
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
pub fn store_converted(store: &Store, path: &Path, converted: Converted) -> Result<FileReport> {
    let Converted { format, session_bytes, cwd, counts, mut diagnostics, .. } = converted;
    let outcome = if session_bytes.is_empty() && format != Format::V1 {
        None
    } else {
        let (outcome, more) = store.import_as(path, session_bytes, format.incoming())?;
        diagnostics.extend(more);
        Some(outcome)
    };
    Ok(FileReport { format, outcome, counts, cwd, diagnostics, reading: None })
}

/// Reads `path`, converts it (`format` `None`: detect it, and read a file
/// that looks like nothing known as v1 so that its errors say what v1
/// expects) and adds it to `store`.
pub fn import_file(store: &Store, format: Option<Format>, path: &Path) -> Result<FileReport> {
    let bytes = crate::input::read(path)?;
    let format = format.or_else(|| detect(&bytes)).unwrap_or(Format::V1);
    if format == Format::V1 && is_foreign_document(&bytes) {
        return Err(Error::Format {
            path: path.to_path_buf(),
            line: 1,
            message: "one JSON document that is no session lcmem knows (it reads session transcripts: JSON lines, \
                      or one conversation as a JSON document); `lcmem import --help` names the formats"
                .into(),
        });
    }
    store_converted(store, path, convert(format, path, &bytes))
}

/// How a file came to be imported, which decides what a tombstone means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Named {
    /// Named by hand: the person means it, and a forgotten session comes back.
    ByHand,
    /// Found in a folder being imported: a forgotten session stays forgotten.
    InFolder,
}

/// What importing a named file did, the tombstone rule applied.
#[derive(Debug, Clone)]
pub enum Taken {
    Imported(FileReport),
    /// Found in a folder, and forgotten on `on`: left out.
    StillForgotten { id: String, on: String },
    /// Named by hand, forgotten on `on`: the tombstone is lifted and the
    /// session imported again.
    Unforgot { id: String, on: String, report: FileReport },
}

/// [`import_file`], with the rule a forgotten session follows: a file found
/// in a folder stays forgotten; a file named by hand lifts the session's
/// tombstone and is imported again.
pub fn import_named(store: &Store, format: Option<Format>, path: &Path, named: Named) -> Result<Taken> {
    match (import_file(store, format, path), named) {
        (Err(Error::SessionForgotten { id, on }), Named::InFolder) => Ok(Taken::StillForgotten { id, on }),
        (Err(Error::SessionForgotten { id, on }), Named::ByHand) => {
            store.lift_tombstone(&id)?;
            let report = import_file(store, format, path)?;
            Ok(Taken::Unforgot { id, on, report })
        }
        (other, _) => other.map(Taken::Imported),
    }
}

/// One JSON document no source reads (a client's log of prompts, a
/// settings file): an array, or an object written over several lines. It is
/// said as such, not read as a broken v1 file (whose lines are each one
/// object).
fn is_foreign_document(bytes: &[u8]) -> bool {
    let lines = bytes.split(|&b| b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).count();
    serde_json::from_slice::<serde_json::Value>(bytes).is_ok_and(|v| v.is_array() || (v.is_object() && lines > 1))
}

/// How much of a transcript an import read, and why it read it all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// Bytes of the transcript read, the checks' windows included.
    pub read: u64,
    /// The transcript's size.
    pub size: u64,
    /// Where the conversion went on from (0 for a full conversion).
    pub from: u64,
    /// Set when the transcript was converted in full, with why.
    pub restart: Option<Restart>,
}

/// Why a transcript was converted in full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Restart {
    /// No usable state: the first import, a deleted cache, another version.
    Fresh,
    /// The transcript is shorter than what was converted.
    Shrunk,
    /// What was converted is no longer what the transcript starts with.
    Rewritten,
    /// The stored session is not what the last import left.
    StoredChanged,
}

impl Reading {
    /// A few words for a log line.
    pub fn describe(&self) -> String {
        let why = match self.restart {
            None => {
                // What was read is what was appended, and windows of what
                // came before it, read again to check it is unchanged.
                let appended = self.size.saturating_sub(self.from);
                let checked = self.read.saturating_sub(appended);
                return format!(
                    "read the {appended} bytes appended after byte {} of {}, and {checked} earlier bytes to check them",
                    self.from, self.size
                );
            }
            Some(Restart::Fresh) => "",
            Some(Restart::Shrunk) => "the transcript shrank since the last import, so ",
            Some(Restart::Rewritten) => "the transcript was rewritten since the last import, so ",
            Some(Restart::StoredChanged) => "the stored copy changed since the last import, so ",
        };
        format!("{why}read in full ({} bytes) and converted in full", self.size)
    }
}
