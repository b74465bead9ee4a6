//! Appends, torn tails and atomic rewrites, on real files.

use std::io::Write;

use lcmem::jsonl::{self, LineProblem};
use lcmem::lock::WriteLock;

fn lines_of(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn a_torn_tail_is_tolerated_on_read_and_moved_aside_by_the_next_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let lock = WriteLock::acquire(&dir.path().join(".lock")).unwrap();
    jsonl::append(&lock, &path, &[r#"{"n":1}"#.into(), r#"{"n":2}"#.into()]).unwrap();
    // A crash in the middle of the third append.
    std::fs::OpenOptions::new().append(true).open(&path).unwrap().write_all(br#"{"n":3,"te"#).unwrap();

    let read = jsonl::read(&path).unwrap();
    assert_eq!(read.len(), 3);
    assert!(read[0].parsed.is_ok() && read[1].parsed.is_ok());
    assert_eq!(read[2].parsed.as_ref().unwrap_err(), &LineProblem::Torn);

    jsonl::append(&lock, &path, &[r#"{"n":4}"#.into()]).unwrap();
    assert_eq!(lines_of(&path), [r#"{"n":1}"#, r#"{"n":2}"#, r#"{"n":4}"#]);
    assert_eq!(lines_of(&jsonl::torn_sidecar(&path)), [r#"{"n":3,"te"#], "the fragment is kept, not lost");
}

#[test]
fn a_complete_record_missing_only_its_newline_is_kept_in_place() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("facts.jsonl");
    std::fs::write(&path, "{\"n\":1}\n{\"n\":2}").unwrap();
    let lock = WriteLock::acquire(&dir.path().join(".lock")).unwrap();
    jsonl::append(&lock, &path, &[r#"{"n":3}"#.into()]).unwrap();
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
    jsonl::append(&lock, &path, &[r#"{"ok":3}"#.into()]).unwrap();
    assert!(std::fs::read(&path).unwrap().starts_with(&bytes), "appending never rewrites earlier lines");
}

#[test]
fn a_huge_line_is_reported_without_being_held_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(b"{\"a\":1}\n\"").unwrap();
    let chunk = vec![b'x'; 1 << 20];
    for _ in 0..(jsonl::MAX_LINE_BYTES >> 20) + 1 {
        f.write_all(&chunk).unwrap();
    }
    f.write_all(b"\"\n{\"b\":2}\n").unwrap();
    drop(f);
    let read = jsonl::read(&path).unwrap();
    assert_eq!(read.len(), 3);
    assert!(matches!(read[1].parsed, Err(LineProblem::TooLong(n)) if n > jsonl::MAX_LINE_BYTES));
    assert!(read[2].parsed.is_ok(), "the line after the huge one is still read");
}

#[test]
fn atomic_write_replaces_the_whole_file_and_leaves_no_temporary_behind() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("MEMORY.md");
    jsonl::atomic_write(&path, b"old").unwrap();
    jsonl::atomic_write(&path, b"new content").unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), b"new content");
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, [std::ffi::OsString::from("MEMORY.md")]);
}
