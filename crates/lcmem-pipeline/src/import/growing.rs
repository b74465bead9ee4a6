//! Importing a growing transcript by reading only what was appended to it.
//!
//! For each transcript the project's store keeps a small state file,
//! `cache/transcripts/<hash of its path>.json` (derived data: deleting it
//! costs one full conversion, nothing else). It records:
//!
//! - `offset`: how many bytes of the transcript were converted, always ending
//!   at the end of a line;
//! - `head` and `tail`: a hash (64-bit FNV-1a) of the first 4 KiB of those
//!   bytes and of the last 4 KiB before `offset`. Checking them reads 8 KiB
//!   whatever the transcript's size. A transcript that is only ever appended
//!   to (as Claude Code and Codex write theirs) keeps both; one rewritten in
//!   place, or shorter than `offset`, does not, and is converted in full. An
//!   edit that keeps the file's length past `offset` and both windows intact
//!   is not seen: such an edit is not something either tool does;
//! - `stored`: the session the conversion went to, the length of its stored
//!   copy after the last write and a hash of that copy's last 4 KiB. A copy
//!   that is that, followed only by lcmem's own status lines (a pin, a seal),
//!   is appended to; any other change (forgotten, converted again, edited)
//!   means a full conversion, which the store reconciles as it always has;
//! - `resume`: the converter's state after those lines (the emitter's header
//!   and counts, the record uuids and tool calls seen, the working
//!   directory), so that the new lines convert exactly as they would in a
//!   conversion of the whole transcript.
//!
//! Reading and converting happen without the project's write lock: an import
//! takes it only to write. Under the lock it checks that the state file and
//! the stored copy are still what it converted against; if another import
//! went first, it converts again under the lock, so two hooks importing the
//! same transcript at once cannot both append the same lines. A last line
//! without its newline is still being written: it is left for the next
//! import. See `docs/importers.md`.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::batch::unstored;
use super::convert::{Resume, convert_document, convert_more};
use crate::emit::converted::Format;
use super::file::{Reading, FileReport, Restart, import_file};
use crate::diagnostic::Diagnostic;
use crate::error::{Error, IoContext, Result};
use crate::jsonl;
use crate::lock::WriteLock;
use crate::store::Store;

/// The state file's format; a file of another format (or from another
/// lcmem version) is not used.
const FORMAT: u32 = 2;
/// How many bytes each check window covers.
const WINDOW: u64 = 4096;
/// More status lines than lcmem ever appends between two imports.
const STATUS_TAIL_LIMIT: u64 = 1 << 20;

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    v: u32,
    lcmem: String,
    source: PathBuf,
    offset: u64,
    head: u64,
    tail: u64,
    stored: Mark,
    resume: Resume,
}

/// The stored copy as the last import left it.
#[derive(Serialize, Deserialize)]
struct Mark {
    id: String,
    len: u64,
    tail: u64,
}

/// A transcript this store took in through [`import_growing`], as its state
/// file says: where it is, its format, the session it became, and how much
/// of it was converted.
#[derive(Debug, Clone)]
pub struct Known {
    pub path: PathBuf,
    pub format: Format,
    pub session: String,
    pub converted: u64,
}

/// Every transcript the store keeps a state for, that this build can read.
/// A state it cannot read is left out (a later import rewrites it).
pub fn known(store: &Store) -> Vec<Known> {
    let dir = store.cache_dir().join("transcripts");
    let Ok(entries) = std::fs::read_dir(&dir) else { return Vec::new() };
    let mut out: Vec<Known> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| serde_json::from_slice::<Checkpoint>(&std::fs::read(e.path()).ok()?).ok())
        .filter(|c| c.v == FORMAT)
        .map(|c| Known { format: c.resume.format(), path: c.source, session: c.stored.id, converted: c.offset })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Imports the transcript at `path` (Claude Code or Codex) into `store`,
/// converting only the lines appended since the last import when the state
/// file says that is safe, and everything otherwise. The report says which.
pub fn import_growing(store: &Store, format: Format, path: &Path) -> Result<FileReport> {
    if format == Format::V1 {
        return import_file(store, Some(format), path);
    }
    // Checked before anything is opened: a pipe or a huge file is refused
    // without anyone waiting on it.
    crate::input::check(path)?;
    let mut file = crate::input::open(path)?;
    let state_path = state_path(store, path);
    // Read and convert without the lock; nobody waits on a large transcript.
    let planned = plan(store, format, &mut file, path, &state_path)?;
    let lock = store.lock()?;
    let planned = match planned.still_holds(store, &state_path) {
        true => planned,
        // Another import wrote in between: convert again, now under the lock.
        false => plan(store, format, &mut file, path, &state_path)?,
    };
    let (size, restart) = (planned.size, planned.restart);
    let done = match planned.resumed {
        Some((checkpoint, at)) => go_on(store, &lock, path, *checkpoint, at, planned.converted)?,
        None => start_over(store, &lock, path, planned.converted)?,
    };
    if let Some(next) = &done.next {
        save(store, &state_path, next)?;
    }
    let reading = Reading { read: done.read, size, from: done.from, restart };
    Ok(FileReport { reading: Some(reading), ..done.report })
}

/// What an import will write, worked out without the lock.
struct Plan {
    size: u64,
    restart: Option<Restart>,
    /// The state file as it was read (its bytes), and the stored copy's
    /// append point it was checked against, to see under the lock that no
    /// other import went first.
    state: Option<Vec<u8>>,
    /// Where the conversion goes on: the checkpoint and the stored copy's length
    /// to append at; `None` when the whole conversion is imported.
    resumed: Option<(Box<Checkpoint>, u64)>,
    converted: Converted,
}

/// The lines past a checkpoint, converted. A conversion that goes on keeps the
/// converter's new state in its checkpoint; one that starts over keeps it here.
struct Converted {
    batch: crate::emit::converted::Converted,
    resume: Option<Resume>,
    from: u64,
    offset: u64,
    read: u64,
    whole: usize,
    /// The hashes of the new first and last windows, read with the rest.
    windows: (u64, u64),
}

fn plan(store: &Store, format: Format, file: &mut File, path: &Path, state_path: &Path) -> Result<Plan> {
    let size = file.metadata().at(path)?.len();
    let state = std::fs::read(state_path).ok();
    let checkpoint = state.as_deref().and_then(|bytes| parse(bytes, path, format));
    let resumed = match checkpoint {
        None => Err(Restart::Fresh),
        Some(checkpoint) => check(store, &checkpoint, file, size, path)?.map(|at| (checkpoint, at)),
    };
    Ok(match resumed {
        Ok((checkpoint, at)) => {
            let (checkpoint, converted) = convert_new(file, path, size, checkpoint)?;
            Plan { size, restart: None, state, resumed: Some((Box::new(checkpoint), at)), converted }
        }
        Err(restart) => {
            let converted = convert_all(file, path, size, format)?;
            Plan { size, restart: Some(restart), state, resumed: None, converted }
        }
    })
}

/// Reads the whole transcript and converts its whole lines.
fn convert_all(file: &mut File, path: &Path, size: u64, format: Format) -> Result<Converted> {
    let mut bytes = Vec::new();
    file.seek(SeekFrom::Start(0)).at(path)?;
    file.take(size).read_to_end(&mut bytes).at(path)?;
    let start = Resume::start(format).ok_or_else(|| Error::Format {
        path: path.to_path_buf(),
        line: 0,
        message: format!("{format} is not a transcript format lcmem converts"),
    })?;
    // A transcript written as one document is converted whole, every time.
    let (lines, (batch, resume)) = match start.document(path, &bytes) {
        Some(records) => (bytes.as_slice(), convert_document(path, &bytes, &records, start)),
        None => {
            let (lines, rest) = whole_lines(&bytes);
            let (mut batch, resume) = convert_more(path, lines, start);
            unfinished_line(rest, path, resume.lines, &mut batch.diagnostics);
            (lines, (batch, resume))
        }
    };
    let whole = lines.len();
    let read = bytes.len() as u64;
    let first = lines.get(..whole.min(WINDOW as usize)).unwrap_or_default();
    let last = lines.get(whole.saturating_sub(WINDOW as usize)..).unwrap_or_default();
    let windows = (hash(first), hash(last));
    Ok(Converted { batch, resume: Some(resume), from: 0, offset: whole as u64, read, whole, windows })
}

impl Plan {
    /// Whether nothing this plan was made against changed: the state file
    /// holds the same bytes, and the stored copy still ends where it was
    /// going to be appended to.
    fn still_holds(&self, store: &Store, state_path: &Path) -> bool {
        if std::fs::read(state_path).ok() != self.state {
            return false;
        }
        match &self.resumed {
            Some((checkpoint, at)) => stored_append_point(store, &checkpoint.stored) == Some(*at),
            None => true,
        }
    }
}

/// Reads and converts the lines appended past `checkpoint`; the checkpoint comes
/// back holding the converter's state after them.
fn convert_new(file: &mut File, path: &Path, size: u64, mut checkpoint: Checkpoint) -> Result<(Checkpoint, Converted)> {
    let from = checkpoint.offset;
    let mut new = Vec::new();
    file.seek(SeekFrom::Start(from)).at(path)?;
    file.take(size - from).read_to_end(&mut new).at(path)?;
    let (lines, rest) = whole_lines(&new);
    let whole = lines.len();
    let offset = from + whole as u64;
    // The two windows checked, what was appended, and the new last window.
    let mut read = 2 * WINDOW.min(from) + new.len() as u64 + if whole > 0 { WINDOW.min(offset) } else { 0 };
    let (mut batch, resume) = convert_more(path, lines, checkpoint.resume);
    unfinished_line(rest, path, resume.lines, &mut batch.diagnostics);
    checkpoint.resume = resume;
    // The windows the next import checks, read now rather than under the lock.
    // The first window grows with a transcript shorter than it.
    let (mut head, mut tail) = (checkpoint.head, checkpoint.tail);
    if whole > 0 {
        tail = window_hash(file, path, offset)?;
        if from < WINDOW {
            read += WINDOW.min(offset);
            head = hash(&read_at(file, path, 0, WINDOW.min(offset))?);
        }
    }
    Ok((checkpoint, Converted { batch, resume: None, from, offset, read, whole, windows: (head, tail) }))
}

/// What one import did: its report, where it read from, how many bytes it
/// read, and the state to keep (`None`: keep what there is).
struct Done {
    report: FileReport,
    from: u64,
    read: u64,
    next: Option<Checkpoint>,
}

/// Appends the converted lines at `at` of the stored copy.
fn go_on(
    store: &Store,
    lock: &WriteLock,
    path: &Path,
    checkpoint: Checkpoint,
    at: u64,
    converted: Converted,
) -> Result<Done> {
    let Converted { mut batch, from, offset, read, whole, windows: (head, tail), .. } = converted;
    let id = checkpoint.stored.id.clone();
    let outcome = store.append_converted(lock, path, &id, at, std::mem::take(&mut batch.session_bytes))?;
    let next = match whole {
        0 => None,
        _ => Some(Checkpoint { offset, head, tail, stored: mark(store, &id)?, ..checkpoint }),
    };
    let report = FileReport { outcome: Some(outcome), ..unstored(batch) };
    Ok(Done { report, from, read, next })
}

/// Imports the whole conversion as the store always has.
fn start_over(store: &Store, lock: &WriteLock, path: &Path, converted: Converted) -> Result<Done> {
    let Converted { mut batch, resume, read, offset, windows: (head, tail), .. } = converted;
    let id = batch.id.clone();
    let (outcome, next) = match (id, resume) {
        (Some(id), Some(resume)) if resume.settled() => {
            let (outcome, more) = store.import_bytes_locked(
                lock,
                path,
                std::mem::take(&mut batch.session_bytes),
                batch.format.incoming(),
            )?;
            batch.diagnostics.extend(more);
            let checkpoint = Checkpoint {
                v: FORMAT,
                lcmem: env!("CARGO_PKG_VERSION").to_string(),
                source: path.to_path_buf(),
                offset,
                head,
                tail,
                stored: mark(store, &id)?,
                resume,
            };
            (Some(outcome), Some(checkpoint))
        }
        _ => (None, None),
    };
    let report = FileReport { outcome, ..unstored(batch) };
    Ok(Done { report, from: 0, read, next })
}

/// `bytes` split after its last newline: its whole lines, and the start of
/// a line still being written.
fn whole_lines(bytes: &[u8]) -> (&[u8], &[u8]) {
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    bytes.split_at_checked(whole).unwrap_or((bytes, &[]))
}

/// A last line without its newline is still being written: it is left for
/// the next import, and said so.
fn unfinished_line(rest: &[u8], path: &Path, lines: usize, diagnostics: &mut Vec<Diagnostic>) {
    if !rest.iter().all(u8::is_ascii_whitespace) {
        let message = "last line is incomplete (still being written?); skipped until it is complete";
        diagnostics.push(Diagnostic::new(path, lines + 1, message));
    }
}

/// Whether `checkpoint` still describes the transcript and the stored copy:
/// the length of the stored copy to append at, or why not.
fn check(
    store: &Store,
    checkpoint: &Checkpoint,
    file: &mut File,
    size: u64,
    path: &Path,
) -> Result<std::result::Result<u64, Restart>> {
    if size < checkpoint.offset {
        return Ok(Err(Restart::Shrunk));
    }
    let head = read_at(file, path, 0, WINDOW.min(checkpoint.offset))?;
    if hash(&head) != checkpoint.head || window_hash(file, path, checkpoint.offset)? != checkpoint.tail {
        return Ok(Err(Restart::Rewritten));
    }
    if !checkpoint.resume.settled() {
        return Ok(Err(Restart::StoredChanged));
    }
    Ok(stored_append_point(store, &checkpoint.stored).ok_or(Restart::StoredChanged))
}

/// Where new lines go in the stored copy `mark` describes: its end, when it
/// is what the last import left followed only by status lines.
fn stored_append_point(store: &Store, mark: &Mark) -> Option<u64> {
    let path = store.session_path(&mark.id);
    let mut file = File::open(&path).ok()?;
    let len = file.metadata().ok()?.len();
    if len < mark.len || len - mark.len > STATUS_TAIL_LIMIT {
        return None;
    }
    if window_hash(&mut file, &path, mark.len).ok()? != mark.tail {
        return None;
    }
    let rest = read_at(&mut file, &path, mark.len, len - mark.len).ok()?;
    let statuses = rest.last().is_none_or(|&b| b == b'\n')
        && rest.split(|&b| b == b'\n').filter(|l| !l.is_empty()).all(|line| {
            serde_json::from_slice::<serde_json::Value>(line)
                .is_ok_and(|v| v.get("type").and_then(serde_json::Value::as_str) == Some("status"))
        });
    statuses.then_some(len)
}

/// The stored copy of session `id` as it is now.
fn mark(store: &Store, id: &str) -> Result<Mark> {
    let path = store.session_path(id);
    let mut file = File::open(&path).at(&path)?;
    let len = file.metadata().at(&path)?.len();
    Ok(Mark { id: id.to_string(), len, tail: window_hash(&mut file, &path, len)? })
}

/// The hash of the `WINDOW` bytes (or fewer, at the start) before `end`.
fn window_hash(file: &mut File, path: &Path, end: u64) -> Result<u64> {
    let start = end.saturating_sub(WINDOW);
    Ok(hash(&read_at(file, path, start, end - start)?))
}

fn read_at(file: &mut File, path: &Path, start: u64, len: u64) -> Result<Vec<u8>> {
    let mut bytes = Vec::with_capacity(len as usize);
    file.seek(SeekFrom::Start(start)).at(path)?;
    file.take(len).read_to_end(&mut bytes).at(path)?;
    Ok(bytes)
}

/// 64-bit FNV-1a: stable across builds and platforms, which is all a check
/// against accidental change needs.
fn hash(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Where the state of the transcript at `source` is kept.
fn state_path(store: &Store, source: &Path) -> PathBuf {
    let key = hash(source.as_os_str().as_encoded_bytes());
    store.cache_dir().join("transcripts").join(format!("{key:016x}.json"))
}

/// The state for `source`, if there is one this build can use.
fn parse(bytes: &[u8], source: &Path, format: Format) -> Option<Checkpoint> {
    let checkpoint: Checkpoint = serde_json::from_slice(bytes).ok()?;
    (checkpoint.v == FORMAT
        && checkpoint.lcmem == env!("CARGO_PKG_VERSION")
        && checkpoint.source == source
        && checkpoint.resume.format() == format)
        .then_some(checkpoint)
}

/// Replaces the state file atomically, never through a link out of the store.
#[expect(
    clippy::expect_used,
    reason = "a checkpoint is plain data (strings, numbers, maps with string keys): it serialises"
)]
fn save(store: &Store, state_path: &Path, checkpoint: &Checkpoint) -> Result<()> {
    let dir = state_path.parent().unwrap_or(state_path);
    crate::confine::refuse_links_outside(store.dir(), &[dir.to_path_buf(), state_path.to_path_buf()])?;
    // The state is memory too: what the converter holds back (a first prompt,
    // lines before the header, commit messages written to files) passes the
    // redactor like every memory file. The transcript's path and the stored
    // copy's mark are what the next import matches on, and are kept as they are.
    let mut value = serde_json::to_value(checkpoint).expect("the state serialises");
    let kept: Vec<(&str, serde_json::Value)> =
        ["source", "stored"].into_iter().filter_map(|key| Some((key, value.as_object_mut()?.remove(key)?))).collect();
    crate::scrub::scrub_value(store.guards(), &mut value);
    if let Some(fields) = value.as_object_mut() {
        fields.extend(kept.into_iter().map(|(key, v)| (key.to_string(), v)));
    }
    let bytes = serde_json::to_vec(&value).expect("the state serialises");
    jsonl::atomic_write(state_path, &bytes)
}

/// Reads the transcripts `session` was imported from to their end, so that
/// a seal judges the whole session. `known` is [`known`], read once
/// by a caller that seals many sessions. A transcript that is gone leaves
/// the stored copy as it is.
pub fn read_to_end(store: &Store, known: &[Known], session: &str) -> Result<()> {
    for known in known.iter().filter(|k| k.session == session) {
        let grew = std::fs::metadata(&known.path).is_ok_and(|m| m.is_file() && m.len() != known.converted);
        if grew {
            import_growing(store, known.format, &known.path)?;
        }
    }
    Ok(())
}
