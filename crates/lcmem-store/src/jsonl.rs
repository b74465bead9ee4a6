//! Durable JSONL: tolerant reads and atomic rewrites. Appends live behind the
//! write boundary ([`crate::scrub`]), which is the only way to add a line to
//! any file of the store.
//!
//! Every memory file is append-only JSONL, so the two things that can go wrong
//! are a crash in the middle of an append (a torn last line) and two writers at
//! once (interleaved lines). Appends therefore happen only under the project's
//! write lock ([`crate::lock::WriteLock`]), as one `write` of whole lines,
//! followed by `fsync`. A torn tail is tolerated on read and repaired by the
//! next append: the fragment is moved to a `.torn` sidecar file (nothing is
//! thrown away) and the file is cut back to its last complete line.


use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{IoContext, Result};
use crate::lock::WriteLock;

/// Lines longer than this are reported as malformed instead of parsed: no
/// record the engine writes comes near it, and parsing a gigabyte "line" of
/// binary garbage would only waste memory.
pub const MAX_LINE_BYTES: usize = 64 * 1024 * 1024;

/// One line of a JSONL file, numbered from 1 as editors number them.
#[derive(Debug)]
pub struct Line {
    pub number: usize,
    pub parsed: Result<Value, LineProblem>,
}

/// Why a line could not be read as JSON. The line stays in the file; the
/// reader only reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineProblem {
    NotUtf8,
    TooLong(usize),
    NotJson(String),
    /// The last line has no newline and does not parse: an append was cut off.
    Torn,
}

impl LineProblem {
    /// What is wrong with the line, without what the store does about it.
    pub fn plain(&self) -> String {
        match self {
            LineProblem::Torn => "last line is incomplete (the file was cut off)".to_string(),
            other => other.to_string(),
        }
    }
}

impl std::fmt::Display for LineProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineProblem::NotUtf8 => write!(f, "line is not UTF-8 text"),
            LineProblem::TooLong(n) => {
                write!(f, "line is {n} bytes, over the {MAX_LINE_BYTES}-byte limit")
            }
            LineProblem::NotJson(e) => write!(f, "line is not valid JSON ({e})"),
            LineProblem::Torn => {
                write!(f, "last line is incomplete (an interrupted write); the next write moves it aside")
            }
        }
    }
}

/// Reads every line of a JSONL file. A missing file reads as empty. Blank
/// lines are skipped silently; every other line comes back, parsed or with
/// the reason it could not be.
pub fn read(path: &Path) -> Result<Vec<Line>> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).at(path),
    };
    read_from(BufReader::with_capacity(256 * 1024, file), path)
}

/// Reads JSONL from any reader; `path` only names the source in errors.
pub fn read_from(mut reader: impl BufRead, path: &Path) -> Result<Vec<Line>> {
    let mut lines = Vec::new();
    let mut buf = Vec::new();
    let mut number = 0;
    loop {
        buf.clear();
        let n = read_line_capped(&mut reader, &mut buf).at(path)?;
        if n == 0 {
            break;
        }
        number += 1;
        let complete = buf.last() == Some(&b'\n');
        if complete {
            buf.pop();
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
        }
        if n > MAX_LINE_BYTES {
            lines.push(Line { number, parsed: Err(LineProblem::TooLong(n)) });
            continue;
        }
        if buf.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = match std::str::from_utf8(&buf) {
            Err(_) => Err(LineProblem::NotUtf8),
            Ok(text) => match serde_json::from_str::<Value>(text) {
                Ok(v) => Ok(v),
                Err(_) if !complete => Err(LineProblem::Torn),
                Err(e) => Err(LineProblem::NotJson(e.to_string())),
            },
        };
        lines.push(Line { number, parsed });
    }
    Ok(lines)
}

/// Reads one line into `buf`, but stops storing bytes past the cap so that a
/// huge line costs no memory; returns the line's full length.
fn read_line_capped(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let available = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match memchr::memchr(b'\n', available).and_then(|i| available.get(..=i)) {
            Some(line) => (line, true),
            None => (available, false),
        };
        let len = chunk.len();
        let room = (MAX_LINE_BYTES + 1).saturating_sub(buf.len());
        buf.extend(chunk.iter().take(room));
        total += len;
        reader.consume(len);
        if done {
            return Ok(total);
        }
    }
}

/// Whether a line that does not parse belongs to what is being removed.
pub(crate) type Owns<'a> = dyn Fn(&[u8]) -> bool + 'a;

/// Rewrites a JSONL file atomically, keeping the lines `keep` accepts.
/// Lines that do not parse are kept (they are the user's), unless
/// `drop_raw` attributes one to what is being removed (see [`holds_field`]):
/// a physical removal must not leave its text behind in a damaged line, nor
/// take a line it cannot attribute with it. Returns how many lines were
/// removed; the file is only rewritten when that is more than none.
pub fn rewrite_lines(
    _lock: &WriteLock,
    path: &Path,
    drop_raw: Option<&Owns<'_>>,
    mut keep: impl FnMut(&Value) -> bool,
) -> Result<usize> {
    let Some(bytes) = read_optional(path)? else { return Ok(0) };
    let mut out = Vec::with_capacity(bytes.len());
    let mut removed = 0;
    for raw in bytes.split_inclusive(|&b| b == b'\n') {
        let body = raw.strip_suffix(b"\n").unwrap_or(raw);
        let parsed = std::str::from_utf8(body).ok().and_then(|s| serde_json::from_str::<Value>(s).ok());
        let kept = match parsed {
            Some(value) => keep(&value),
            None => drop_raw.is_none_or(|owns| !owns(body)),
        };
        if kept {
            out.extend_from_slice(body);
            out.push(b'\n');
        } else {
            removed += 1;
        }
    }
    if removed > 0 {
        atomic_write(path, &out)?;
    }
    Ok(removed)
}

/// Whether `haystack` holds `id` as a whole token: not preceded nor followed
/// by a character ids are made of (`[A-Za-z0-9._-]`), so that `s1` is found
/// in `"s1"` or `(done; s1)` and not in `s10`, `runs1` or `s1.5`.
pub fn contains_id(haystack: &[u8], id: &str) -> bool {
    let is_id_byte = |b: u8| b.is_ascii_alphanumeric() || b"._-".contains(&b);
    !id.is_empty()
        && memchr::memmem::find_iter(haystack, id.as_bytes()).any(|at| {
            let before = at.checked_sub(1).and_then(|i| haystack.get(i)).copied();
            let after = haystack.get(at + id.len()).copied();
            !before.is_some_and(is_id_byte) && !after.is_some_and(is_id_byte)
        })
}

/// Whether a (possibly damaged) JSON line holds the field `"key": "value"`
/// whole: the way the engine's records name their session (`session_id`,
/// `source_session`) or their fact (`fact`). A damaged line is attributed
/// only by such a field, never by the value appearing somewhere in its text.
pub fn holds_field(line: &[u8], key: &str, value: &str) -> bool {
    let quoted = format!("\"{key}\"");
    memchr::memmem::find_iter(line, quoted.as_bytes()).any(|at| {
        let rest = trim_start(line.get(at + quoted.len()..).unwrap_or_default());
        let Some(rest) = rest.strip_prefix(b":") else { return false };
        let rest = trim_start(rest);
        rest.strip_prefix(b"\"")
            .and_then(|r| r.strip_prefix(value.as_bytes()))
            .is_some_and(|r| r.first() == Some(&b'"'))
    })
}

fn trim_start(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii_start()
}

/// Where a torn fragment of `path` is kept.
pub fn torn_sidecar(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".torn");
    path.with_file_name(name)
}

/// The prefix of [`atomic_write`]'s temporary files (swept when a killed
/// writer leaves one, `crate::sweep`).
pub const TEMP_PREFIX: &str = ".lcmem-tmp-";

/// Replaces the file's content atomically: write a temporary file beside it,
/// fsync it, rename it over the old one, fsync the directory. A crash at any
/// point leaves either the old content or the new, never a mix.
pub fn atomic_write(path: &Path, content: &[u8]) -> Result<()> {
    atomic_write_as(path, content, None)
}

/// [`atomic_write`], the new file given `permissions` (a file of the user's
/// own, such as an agent's settings, keeps its mode); `None` keeps the
/// temporary file's owner-only mode, which memory files have.
pub fn atomic_write_as(path: &Path, content: &[u8], permissions: Option<std::fs::Permissions>) -> Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).at(dir)?;
    let mut tmp = tempfile::Builder::new().prefix(TEMP_PREFIX).tempfile_in(dir).at(dir)?;
    tmp.write_all(content).at(tmp.path())?;
    if let Some(permissions) = permissions {
        tmp.as_file().set_permissions(permissions).at(tmp.path())?;
    }
    tmp.as_file().sync_all().at(tmp.path())?;
    tmp.persist(path).map_err(|e| e.error).at(path)?;
    sync_dir(dir)
}

/// Fsyncs a directory so that a rename or a new file in it is durable.
pub fn sync_dir(dir: &Path) -> Result<()> {
    File::open(dir).and_then(|d| d.sync_all()).at(dir)
}

/// Reads a whole file as bytes; a missing file reads as `None`.
pub fn read_optional(path: &Path) -> Result<Option<Vec<u8>>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).at(path),
    };
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes).at(path)?;
    Ok(Some(bytes))
}

#[cfg(test)]
mod tests {
    use super::contains_id;

    #[test]
    fn ids_match_as_whole_tokens_only() {
        for hit in ["s1", "\"s1\"", "(done; s1)", "x s1, 2026", "{\"session_id\":\"s1\",\"t"] {
            assert!(contains_id(hit.as_bytes(), "s1"), "{hit}");
        }
        for miss in ["s10", "runs1", "s1.5", "s1-b", "a_s1", "sessions", ""] {
            assert!(!contains_id(miss.as_bytes(), "s1"), "{miss}");
        }
        assert!(contains_id(b"s10 and s1", "s1"), "a later whole match counts");
    }

    #[test]
    fn a_damaged_line_is_attributed_by_its_field_only() {
        use super::holds_field;
        assert!(holds_field(br#"{"type":"sealed","session_id":"s1","summary":"zebr"#, "session_id", "s1"));
        assert!(holds_field(br#"{"source_session" : "s1"}"#, "source_session", "s1"));
        for miss in [&br#"{"session_id":"s10","x"#[..], br#"damaged line about s1"#, br#"{"title":"session_id s1"#] {
            assert!(!holds_field(miss, "session_id", "s1"), "{}", String::from_utf8_lossy(miss));
        }
    }
}
