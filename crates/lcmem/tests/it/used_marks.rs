//! What recall used lives in `memory/used.jsonl`, not in the journal: the
//! journal changes only when a session is sealed or its standing changes,
//! so it diffs cleanly; a journal of before keeps every mark when they move.

use std::path::Path;

use jiff::Timestamp;
use lcmem::Store;
use lcmem::extract::offline::OfflineExtractor;
use lcmem::journal::{self, Journal, Record};
use lcmem::seal::{record_use, seal};
use lcmem_test_support::{SessionFile, TempDirs};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn sealed(store: &Store, id: &str, day: &str) {
    let file = SessionFile::new(id, format!("{day}T09:00:00Z"))
        .title(format!("Work on {id}"))
        .message("user", "Please tidy the CHANGELOG.", format!("{day}T09:01:00Z"))
        .message("assistant", "Tidied the CHANGELOG for v1.0.4.", format!("{day}T09:30:00Z"))
        .status("done", format!("{day}T09:31:00Z"));
    store.import_bytes(Path::new("t.jsonl"), file.bytes()).unwrap();
    seal(store, id, None, &OfflineExtractor, ts(&format!("{day}T10:00:00Z"))).unwrap();
}

fn used_path(store: &Store) -> std::path::PathBuf {
    journal::used::path_beside(&store.journal_path())
}

#[test]
fn twenty_recalls_leave_the_journal_as_it_was() {
    let dirs = TempDirs::with_project("proj");
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    sealed(&store, "s1", "2026-11-20");
    sealed(&store, "s2", "2026-11-21");
    let before = std::fs::read(store.journal_path()).unwrap();
    for minute in 0..20 {
        let at = ts(&format!("2026-11-25T10:{minute:02}:00Z"));
        assert_eq!(record_use(&store, &["s1".into(), "s2".into(), "never-sealed".into()], at).unwrap(), 2);
    }
    assert_eq!(std::fs::read(store.journal_path()).unwrap(), before, "a recall changed the journal");
    let marks = std::fs::read_to_string(used_path(&store)).unwrap();
    assert_eq!(marks.lines().count(), 2, "one line per used session:\n{marks}");
    let journal = Journal::of(&store).unwrap();
    assert_eq!(journal.get("s1").unwrap().last_used, Some(ts("2026-11-25T10:19:00Z")));
    assert_eq!(journal.get("s2").unwrap().last_used, Some(ts("2026-11-25T10:19:00Z")));
}

#[test]
fn an_older_journal_s_marks_move_out_once_and_none_is_lost() {
    let dirs = TempDirs::with_project("proj");
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    sealed(&store, "s1", "2026-11-20");
    sealed(&store, "s2", "2026-11-21");
    // A journal written before the marks had a file of their own, with a
    // damaged line (the user's: kept) among them.
    let lock = store.lock().unwrap();
    let old = [("s1", "2026-11-22T00:00:00Z"), ("s2", "2026-11-23T00:00:00Z"), ("s1", "2026-11-24T00:00:00Z")];
    let records: Vec<Record> =
        old.iter().map(|(id, at)| Record::Used { session_id: (*id).into(), ts: ts(at) }).collect();
    journal::append(&store, &lock, &records).unwrap();
    drop(lock);
    let mut bytes = std::fs::read(store.journal_path()).unwrap();
    bytes.extend_from_slice(b"{\"type\": \"used\", \"session_id\": \"s2\"\n");
    std::fs::write(store.journal_path(), &bytes).unwrap();
    let read_before = Journal::of(&store).unwrap();
    assert_eq!(read_before.get("s1").unwrap().last_used, Some(ts("2026-11-24T00:00:00Z")), "old marks are read");

    // The first use noted moves them; s2 is not used now, and keeps its mark.
    record_use(&store, &["s1".into()], ts("2026-11-25T00:00:00Z")).unwrap();
    let journal_text = std::fs::read_to_string(store.journal_path()).unwrap();
    let used_lines: Vec<&str> = journal_text.lines().filter(|l| l.contains("\"used\"")).collect();
    assert_eq!(used_lines, ["{\"type\": \"used\", \"session_id\": \"s2\""], "only the damaged line stays");
    let after = Journal::of(&store).unwrap();
    assert_eq!(after.get("s1").unwrap().last_used, Some(ts("2026-11-25T00:00:00Z")));
    assert_eq!(after.get("s2").unwrap().last_used, Some(ts("2026-11-23T00:00:00Z")), "a moved mark was lost");
    assert_eq!(after.entries.len(), read_before.entries.len());

    // A second use moves nothing more and the journal stays byte for byte.
    let settled = std::fs::read(store.journal_path()).unwrap();
    record_use(&store, &["s2".into()], ts("2026-11-26T00:00:00Z")).unwrap();
    assert_eq!(std::fs::read(store.journal_path()).unwrap(), settled);
}

#[test]
fn forget_takes_a_session_s_mark_with_it() {
    let dirs = TempDirs::with_project("proj");
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    sealed(&store, "2026-11-20-refund-retries", "2026-11-20");
    sealed(&store, "s2", "2026-11-21");
    record_use(&store, &["2026-11-20-refund-retries".into(), "s2".into()], ts("2026-11-25T00:00:00Z")).unwrap();
    lcmem::forget::forget(&store, "2026-11-20-refund-retries", ts("2026-11-26T00:00:00Z")).unwrap();
    let marks = std::fs::read_to_string(used_path(&store)).unwrap();
    assert!(!marks.contains("refund-retries"), "{marks}");
    assert!(marks.contains("\"s2\""), "{marks}");
}
