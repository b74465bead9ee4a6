//! Tombstones name nothing: a forgotten session's id is kept only as a keyed
//! hash, which import still honours; tombstones written before ids were
//! hashed are honoured and rewritten hashed by the next write.

use lcmem::Store;
use lcmem::error::Error;
use lcmem_test_support::{SessionFile, TempDirs};

const ID: &str = "2026-11-12-refund-retries";

fn store_with_the_session() -> (TempDirs, Store, std::path::PathBuf) {
    let dirs = TempDirs::new();
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let file = SessionFile::new(ID, "2026-11-12T09:00:00Z").message(
        "user",
        "Retry refunds three times.",
        "2026-11-12T09:01:00Z",
    );
    let path = dirs.inbox().join(format!("{ID}.jsonl"));
    std::fs::write(&path, file.bytes()).unwrap();
    store.import_file(&path).unwrap();
    (dirs, store, path)
}

/// Every file under `dir` whose bytes hold `needle`.
fn holding(dir: &std::path::Path, needle: &str) -> Vec<std::path::PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if std::fs::read(&path).unwrap().windows(needle.len()).any(|w| w == needle.as_bytes()) {
                found.push(path);
            }
        }
    }
    found
}

#[test]
fn a_forgotten_session_leaves_a_hash_that_import_still_honours() {
    let (dirs, store, transcript) = store_with_the_session();
    lcmem::forget::forget(&store, ID, "2026-11-30T10:00:00Z".parse().unwrap()).unwrap();
    assert_eq!(holding(&dirs.home(), "refund-retries"), Vec::<std::path::PathBuf>::new());
    let key = std::fs::read_to_string(store.tombstones_path().with_file_name("forgotten.key")).unwrap();
    assert_eq!(key.trim().len(), 32, "{key}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode =
            std::fs::metadata(store.tombstones_path().with_file_name("forgotten.key")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    match store.import_file(&transcript) {
        Err(Error::SessionForgotten { id, on }) => assert_eq!((id.as_str(), on.as_str()), (ID, "2026-11-30")),
        other => panic!("the hashed tombstone refuses it: {other:?}"),
    }
    assert!(store.tombstone(ID).unwrap().is_some());
    assert!(store.tombstone("2026-11-12-refund-retried").unwrap().is_none(), "another id is not matched");
    assert!(store.lift_tombstone(ID).unwrap().is_some());
    store.import_file(&transcript).unwrap();
}

#[test]
fn a_tombstone_written_before_hashing_is_honoured_then_rewritten_hashed() {
    let (dirs, store, transcript) = store_with_the_session();
    lcmem::forget::forget(&store, ID, "2026-11-30T10:00:00Z".parse().unwrap()).unwrap();
    // As the file was before ids were hashed, with a damaged line beside it.
    let old = format!("{{\"session_id\":\"{ID}\",\"forgotten_on\":\"2026-11-01\"}}\n{{\"session_id\": torn\n");
    std::fs::write(store.tombstones_path(), &old).unwrap();
    std::fs::remove_file(store.tombstones_path().with_file_name("forgotten.key")).unwrap();
    assert!(store.tombstone(ID).unwrap().is_some(), "read as it is, before any write");
    match store.import_file(&transcript) {
        Err(Error::SessionForgotten { on, .. }) => assert_eq!(on, "2026-11-01"),
        other => panic!("the old tombstone refuses it: {other:?}"),
    }
    let now = std::fs::read_to_string(store.tombstones_path()).unwrap();
    assert!(!now.contains(ID), "rewritten without the id: {now}");
    let lines: Vec<&str> = now.lines().collect();
    assert_eq!(lines.len(), 2, "{now}");
    assert!(lines[0].starts_with("{\"session\":\"k1:") && lines[0].contains("2026-11-01"), "{now}");
    assert_eq!(lines[1], "{\"session_id\": torn", "the damaged line is kept byte for byte");
    assert_eq!(holding(&dirs.home(), "refund-retries"), Vec::<std::path::PathBuf>::new());
    assert!(store.import_file(&transcript).is_err(), "and the hash still refuses it");
}

#[test]
fn a_forgotten_session_found_in_a_folder_stays_forgotten_and_named_by_hand_comes_back() {
    use lcmem::import::{Named, Taken, import_named};
    let (_dirs, store, transcript) = store_with_the_session();
    lcmem::forget::forget(&store, ID, "2026-11-30T10:00:00Z".parse().unwrap()).unwrap();
    match import_named(&store, None, &transcript, Named::InFolder).unwrap() {
        Taken::StillForgotten { id, on } => assert_eq!((id.as_str(), on.as_str()), (ID, "2026-11-30")),
        other => panic!("a file found in a folder stays forgotten: {other:?}"),
    }
    assert!(!store.session_ids().unwrap().iter().any(|s| s == ID));
    match import_named(&store, None, &transcript, Named::ByHand).unwrap() {
        Taken::Unforgot { id, report, .. } => {
            assert_eq!(id, ID);
            assert!(report.outcome.is_some(), "{report:?}");
        }
        other => panic!("a file named by hand brings the session back: {other:?}"),
    }
    assert!(store.session_ids().unwrap().iter().any(|s| s == ID));
    assert!(store.tombstone(ID).unwrap().is_none());
}
