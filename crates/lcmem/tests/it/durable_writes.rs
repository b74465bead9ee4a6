//! Tolerant reads and atomic rewrites, on real files. (The durable append and
//! its torn-tail repair are private to the write boundary; their tests are in
//! `src/scrub/append.rs`.)

use std::io::Write;

use lcmem::jsonl::{self, LineProblem};

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
