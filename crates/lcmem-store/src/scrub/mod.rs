//! The write boundary: every line bound for a file of the store passes
//! through here, and every string of a memory record is redacted on the way.
//!
//! Memory files are the ones the user is invited to open, grep and check into
//! git, so a secret must never reach them. Rather than trusting each caller to
//! remember which fields to scrub, records are serialised and *every* string
//! value is redacted, whatever struct it came from. The durable append itself
//! ([`append`]) is private to this module: the journal ([`crate::journal`]),
//! the facts log ([`crate::facts`]) and the session files ([`crate::store`])
//! each write through the functions below, and nothing else can append.

mod append;

use std::borrow::Cow;
use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::Result;
use crate::guards::Guards;
use crate::lock::WriteLock;
use crate::plain::control_free;

/// Redacts every string in a JSON value, in place, and removes the control
/// characters that could steer a terminal ([`crate::plain`]). Returns
/// whether any string changed.
pub fn scrub_value(guards: &Guards, value: &mut Value) -> bool {
    match value {
        Value::String(s) => {
            let mut changed = false;
            if let Cow::Owned(clean) = (guards.redact)(s)
                && clean != *s
            {
                *s = clean;
                changed = true;
            }
            if let Cow::Owned(clean) = control_free(s) {
                *s = clean;
                changed = true;
            }
            changed
        }
        Value::Array(items) => items.iter_mut().fold(false, |changed, v| scrub_value(guards, v) | changed),
        Value::Object(map) => map.values_mut().fold(false, |changed, v| scrub_value(guards, v) | changed),
        _ => false,
    }
}

/// Serialises a record to one JSON line with every string redacted and free
/// of memory's own markup ([`crate::plain::markup_free`]).
pub fn scrubbed_line<T: Serialize>(guards: &Guards, record: &T) -> String {
    let mut value = serde_json::to_value(record).expect("memory records serialise to JSON");
    scrub_record(guards, &mut value);
    value.to_string()
}

/// [`scrub_value`], then memory's own markup out of every string: what a
/// journal entry or a fact holds (a session keeps what was said).
fn scrub_record(guards: &Guards, value: &mut Value) {
    scrub_value(guards, value);
    strip_markup(value);
}

fn strip_markup(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Cow::Owned(clean) = crate::plain::markup_free(s) {
                *s = clean;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(strip_markup),
        Value::Object(map) => map.values_mut().for_each(strip_markup),
        _ => {}
    }
}

/// Appends records to a file of the store, every string redacted. The only
/// way the engine appends to `journal.jsonl`, `facts.jsonl` and a session's
/// status lines.
pub(crate) fn append_records<T: Serialize>(
    guards: &Guards,
    lock: &WriteLock,
    path: &Path,
    records: &[T],
) -> Result<()> {
    let lines: Vec<String> = records.iter().map(|r| scrubbed_line(guards, r)).collect();
    append::append(lock, path, &lines)
}

/// Appends the lines a transcript grew by to its stored copy, as they are:
/// the stored session is the file it was imported from, byte for byte, so
/// that importing the grown file again is recognised as unchanged. The copy
/// is first cut back to `complete` bytes (its whole lines): what a killed
/// append left past them is the start of the first new line.
pub(crate) fn append_transcript_lines(lock: &WriteLock, path: &Path, complete: u64, lines: &[String]) -> Result<()> {
    append::append_after(lock, path, complete, lines)
}

/// Keeps `lines` (already redacted) of a session file that are not part of
/// the session, a torn or garbled line, in the `.torn` sidecar beside
/// `path`: nothing the user imported is lost, and the stored copy holds only
/// lines that parse. A line the sidecar holds already is not added again.
pub(crate) fn set_aside(lock: &WriteLock, path: &Path, lines: &[Vec<u8>]) -> Result<()> {
    append::set_aside(lock, path, lines)
}

/// Redacts a whole text (for Markdown and other non-JSON memory files) and
/// removes control characters.
pub fn scrub_text(guards: &Guards, text: &str) -> String {
    control_free(&(guards.redact)(text)).into_owned()
}

/// A fact's text as it is judged and stored: [`scrub_text`], then memory's
/// own markup taken out ([`crate::plain::markup_free`]), so that the guard
/// reads the sentence and not a forged provenance tail or comment beside it,
/// and the fact's id is that of what will be stored.
pub fn fact_text(guards: &Guards, text: &str) -> String {
    let clean = scrub_text(guards, text);
    crate::plain::markup_free(&clean).into_owned()
}

/// A record as the boundary writes it: every string redacted and free of
/// control characters. What a command prints of a record it wrote is this,
/// never the record before the boundary.
/// (The real redactor never touches a time or an enum, so the record keeps its
/// shape; a stand-in that does gets the record back as it was.)
pub fn scrubbed<T: Serialize + DeserializeOwned + Clone>(guards: &Guards, record: &T) -> T {
    let mut value = serde_json::to_value(record).expect("memory records serialise to JSON");
    scrub_record(guards, &mut value);
    serde_json::from_value(value).unwrap_or_else(|_| record.clone())
}
