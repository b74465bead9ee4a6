//! The one durable append of the store, private to the write boundary.
//!
//! Every file the store appends to is JSONL, so the two things that can go
//! wrong are a crash in the middle of an append (a torn last line) and two
//! writers at once (interleaved lines). Appends therefore happen only under
//! the project's write lock ([`crate::lock::WriteLock`]), as one `write` of
//! whole lines, followed by `fsync`. A torn tail is tolerated on read and
//! repaired by the next append: the fragment is moved to a `.torn` sidecar
//! file (nothing is thrown away) and the file is cut back to its last
//! complete line.
//!
//! Only [`super`] calls it, so nothing reaches a file of the store without
//! passing the boundary.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::Path;

use serde_json::Value;

use crate::error::{IoContext, Result};
use crate::jsonl;
use crate::lock::WriteLock;

/// Appends `lines` (each one JSON document, without a newline) as a single
/// write, then fsyncs. Requires the project's write lock, which is what keeps
/// two processes from interleaving. Repairs a torn tail first.
pub(super) fn append(_lock: &WriteLock, path: &Path, lines: &[String]) -> Result<()> {
    if lines.is_empty() {
        return Ok(());
    }
    let mut file = OpenOptions::new().create(true).read(true).append(true).open(path).at(path)?;
    repair_torn_tail(&file, path)?;
    file.write_all(batch(lines).as_bytes()).at(path)?;
    file.sync_data().at(path)?;
    Ok(())
}

/// Appends `lines` after the first `complete` bytes of the file, cutting off
/// whatever follows them (a torn line the new lines replace whole), then
/// fsyncs. For transcripts, whose torn tail is always the start of a line
/// that is about to be written again.
pub(super) fn append_after(_lock: &WriteLock, path: &Path, complete: u64, lines: &[String]) -> Result<()> {
    let mut file = OpenOptions::new().create(true).read(true).append(true).open(path).at(path)?;
    if file.metadata().at(path)?.len() > complete {
        file.set_len(complete).at(path)?;
    }
    file.write_all(batch(lines).as_bytes()).at(path)?;
    file.sync_data().at(path)?;
    Ok(())
}

/// Appends to the `.torn` sidecar of `path` each of `lines` it does not hold
/// yet, then fsyncs.
pub(super) fn set_aside(_lock: &WriteLock, path: &Path, lines: &[Vec<u8>]) -> Result<()> {
    let sidecar = jsonl::torn_sidecar(path);
    let held = jsonl::read_optional(&sidecar)?.unwrap_or_default();
    let mut new: Vec<&[u8]> = Vec::new();
    for line in lines {
        if !held.split(|&b| b == b'\n').any(|l| l == line.as_slice()) && !new.contains(&line.as_slice()) {
            new.push(line);
        }
    }
    if new.is_empty() {
        return Ok(());
    }
    let mut side = OpenOptions::new().create(true).append(true).open(&sidecar).at(&sidecar)?;
    for line in new {
        side.write_all(line).at(&sidecar)?;
        side.write_all(b"\n").at(&sidecar)?;
    }
    side.sync_data().at(&sidecar)?;
    Ok(())
}

fn batch(lines: &[String]) -> String {
    let mut batch = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        debug_assert!(!line.contains('\n'), "a JSONL record must be one line");
        batch.push_str(line);
        batch.push('\n');
    }
    batch
}

/// If the file does not end in a newline, its last line was cut off by a
/// crash. A fragment that still parses just gets its newline; any other
/// fragment is moved to `<file>.torn` and cut from the file.
fn repair_torn_tail(file: &File, path: &Path) -> Result<()> {
    let len = file.metadata().at(path)?.len();
    if len == 0 {
        return Ok(());
    }
    let mut last = [0u8; 1];
    file.read_exact_at(&mut last, len - 1).at(path)?;
    if last[0] == b'\n' {
        return Ok(());
    }
    // Find where the fragment starts: just after the last newline.
    let mut start = len;
    let mut window = vec![0u8; 64 * 1024];
    while start > 0 {
        let from = start.saturating_sub(window.len() as u64);
        let chunk = &mut window[..(start - from) as usize];
        file.read_exact_at(chunk, from).at(path)?;
        if let Some(i) = memchr::memrchr(b'\n', chunk) {
            start = from + i as u64 + 1;
            break;
        }
        start = from;
    }
    let mut fragment = vec![0u8; (len - start) as usize];
    file.read_exact_at(&mut fragment, start).at(path)?;
    let parses = std::str::from_utf8(&fragment).ok().is_some_and(|s| serde_json::from_str::<Value>(s).is_ok());
    if parses {
        (&*file).write_all(b"\n").at(path)?;
    } else {
        let sidecar = jsonl::torn_sidecar(path);
        let mut side = OpenOptions::new().create(true).append(true).open(&sidecar).at(&sidecar)?;
        side.write_all(&fragment).at(&sidecar)?;
        side.write_all(b"\n").at(&sidecar)?;
        side.sync_data().at(&sidecar)?;
        file.set_len(start).at(path)?;
    }
    file.sync_data().at(path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::Write;

    use super::append;
    use crate::jsonl::{self, LineProblem};
    use crate::lock::WriteLock;

    fn lines_of(path: &std::path::Path) -> Vec<String> {
        std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
    }

    #[test]
    fn a_torn_tail_is_tolerated_on_read_and_moved_aside_by_the_next_append() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("journal.jsonl");
        let lock = WriteLock::acquire(&dir.path().join(".lock")).unwrap();
        append(&lock, &path, &[r#"{"n":1}"#.into(), r#"{"n":2}"#.into()]).unwrap();
        // A crash in the middle of the third append.
        std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(br#"{"n":3,"te"#).unwrap();

        let read = jsonl::read(&path).unwrap();
        assert_eq!(read.len(), 3);
        assert!(read[0].parsed.is_ok() && read[1].parsed.is_ok());
        assert_eq!(read[2].parsed.as_ref().unwrap_err(), &LineProblem::Torn);

        append(&lock, &path, &[r#"{"n":4}"#.into()]).unwrap();
        assert_eq!(lines_of(&path), [r#"{"n":1}"#, r#"{"n":2}"#, r#"{"n":4}"#]);
        assert_eq!(lines_of(&jsonl::torn_sidecar(&path)), [r#"{"n":3,"te"#], "the fragment is kept, not lost");
    }

    #[test]
    fn a_complete_record_missing_only_its_newline_is_kept_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("facts.jsonl");
        std::fs::write(&path, "{\"n\":1}\n{\"n\":2}").unwrap();
        let lock = WriteLock::acquire(&dir.path().join(".lock")).unwrap();
        append(&lock, &path, &[r#"{"n":3}"#.into()]).unwrap();
        assert_eq!(lines_of(&path), [r#"{"n":1}"#, r#"{"n":2}"#, r#"{"n":3}"#]);
        assert!(!jsonl::torn_sidecar(&path).exists());
    }

    #[test]
    fn malformed_lines_are_reported_with_their_number_and_left_in_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut bytes = b"{\"ok\":1}\nnot json\n\n".to_vec();
        bytes.extend_from_slice(&[0xff, 0xfe, b'\n']);
        bytes.extend_from_slice(b"{\"ok\":2}\n");
        std::fs::write(&path, &bytes).unwrap();
        let read = jsonl::read(&path).unwrap();
        let numbers: Vec<usize> = read.iter().map(|l| l.number).collect();
        assert_eq!(numbers, [1, 2, 4, 5], "blank line 3 is skipped, numbering stays true to the file");
        assert!(matches!(read[1].parsed, Err(LineProblem::NotJson(_))));
        assert_eq!(read[2].parsed.as_ref().unwrap_err(), &LineProblem::NotUtf8);
        let lock = WriteLock::acquire(&dir.path().join(".lock")).unwrap();
        append(&lock, &path, &[r#"{"ok":3}"#.into()]).unwrap();
        assert!(std::fs::read(&path).unwrap().starts_with(&bytes), "appending never rewrites earlier lines");
    }
}
