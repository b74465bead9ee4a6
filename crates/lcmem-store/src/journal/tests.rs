use super::*;
use lcmem_test_support::SessionFile;

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

fn session(file: SessionFile) -> Session {
    let bytes = file.bytes();
    Session::from_lines(Path::new("s.jsonl"), jsonl::read_from(&bytes[..], Path::new("s.jsonl")).unwrap()).unwrap()
}

fn entry(summary: &str, last_active: &str, covers: Option<usize>) -> Entry {
    Entry {
        session_id: "s1".into(),
        sealed_at: ts("2026-11-30T00:00:00Z"),
        kind: SealKind::Done,
        title: "T".into(),
        summary: summary.into(),
        files: vec![],
        decisions: vec![],
        pinned: false,
        outcome: Outcome::Progress,
        created_at: ts("2026-11-01T09:00:00Z"),
        last_active: ts(last_active),
        extractor: "offline-v1".into(),
        covers,
        fallback: None,
        cost: None,
    }
}

#[test]
fn only_new_messages_and_tool_lines_outgrow_an_entry() {
    let sealed = SessionFile::new("s1", "2026-11-01T09:00:00Z")
        .message("user", "Fix it.", "2026-11-01T09:01:00Z")
        .tool("Edit", &["a.rs"], "2026-11-01T09:02:00Z");
    let covered = entry("Fixed it.", "2026-11-01T09:02:00Z", Some(work_lines(&session(sealed.clone()))));
    assert_eq!(covered.covers, Some(2));
    let old = entry("Fixed it.", "2026-11-01T09:02:00Z", None);
    let pinned = sealed.clone().status("pinned", "2026-11-05T00:00:00Z").status("done", "2026-11-06T00:00:00Z");
    for e in [&covered, &old] {
        assert!(!e.outgrown_by(&session(sealed.clone())));
        assert!(!e.outgrown_by(&session(pinned.clone())), "status lines are not work");
    }
    let resumed = pinned.message("user", "And the docs.", "2026-11-07T00:00:00Z");
    assert!(covered.outgrown_by(&session(resumed.clone())) && old.outgrown_by(&session(resumed)));
}

#[test]
fn a_later_seal_covering_more_is_the_current_revision_and_the_first_is_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let line = |r: &Record| format!("{}\n", serde_json::to_string(r).unwrap());
    let records = [
        Record::Sealed(entry("First.", "2026-11-01T10:00:00Z", None)),
        Record::Pin { session_id: "s1".into(), ts: ts("2026-11-02T00:00:00Z") },
        Record::Used { session_id: "s1".into(), ts: ts("2026-11-03T00:00:00Z") },
        Record::Sealed(entry("Second.", "2026-11-04T10:00:00Z", Some(4))),
        Record::Sealed(entry("Again.", "2026-11-04T10:00:00Z", Some(4))),
    ];
    std::fs::write(&path, records.iter().map(line).collect::<String>()).unwrap();
    let journal = Journal::read(&path).unwrap();
    assert_eq!(journal.entries.len(), 1);
    let current = journal.get("s1").unwrap();
    assert_eq!((current.entry.summary.as_str(), current.revision, current.line), ("Second.", 2, 4));
    assert_eq!(current.last_used, Some(ts("2026-11-03T00:00:00Z")), "use carries over");
    assert_eq!(journal.earlier.len(), 1);
    assert_eq!((journal.earlier[0].entry.summary.as_str(), journal.earlier[0].revision), ("First.", 1));
    assert!(journal.earlier[0].entry.pinned, "history as it stood");
    let all: Vec<&str> = journal.revisions().map(|c| c.entry.summary.as_str()).collect();
    assert_eq!(all, ["Second.", "First."]);
    assert_eq!(journal.revision(1).entry.summary, "First.");
    assert_eq!(journal.diagnostics.len(), 1, "the same lines sealed twice: {:?}", journal.diagnostics);
}

/// The rules seal first; a model lane that reads the same lines again
/// writes the current revision, and only once.
#[test]
fn a_model_lane_reading_the_rules_line_again_is_its_revision() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("journal.jsonl");
    let line = |r: &Record| format!("{}\n", serde_json::to_string(r).unwrap());
    let by = |summary: &str, extractor: &str| {
        let mut e = entry(summary, "2026-11-04T10:00:00Z", Some(4));
        e.extractor = extractor.into();
        Record::Sealed(e)
    };
    let records = [by("Rules.", "offline-v1"), by("Model.", "command:claude"), by("Model again.", "command:claude")];
    std::fs::write(&path, records.iter().map(line).collect::<String>()).unwrap();
    let journal = Journal::read(&path).unwrap();
    let current = journal.get("s1").unwrap();
    assert_eq!((current.entry.summary.as_str(), current.revision), ("Model.", 2));
    assert_eq!(journal.diagnostics.len(), 1, "{:?}", journal.diagnostics);
}
