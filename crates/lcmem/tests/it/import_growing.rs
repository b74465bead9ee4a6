//! Importing a growing transcript a piece at a time (`import::import_growing`):
//! whatever the pieces, the stored session is byte for byte what importing
//! the whole transcript at once stores, and a transcript that changed other
//! than by growing is converted in full.

use std::io::Write;
use std::path::Path;

use lcmem::Store;
use lcmem::import::{self, Format, Restart, convert};
use proptest::prelude::*;

use super::import_convert::{any_line, fixture};

/// A project's store in `dir`.
fn store_in(dir: &Path, name: &str) -> Store {
    let project = dir.join(name);
    std::fs::create_dir_all(&project).unwrap();
    Store::open(&dir.join(format!("{name}-home")), &project).unwrap()
}

/// Every stored session file's bytes, by name.
fn stored(store: &Store) -> Vec<(String, Vec<u8>)> {
    store
        .session_ids()
        .unwrap()
        .into_iter()
        .map(|id| (id.clone(), std::fs::read(store.session_path(&id)).unwrap()))
        .collect()
}

/// The first lines of a real transcript of `format`: enough for the header to settle.
fn opening(format: Format) -> Vec<String> {
    let (name, lines) = match format.name() {
        "claude-code" => ("claude_code_session.jsonl", 6),
        "gemini-cli" => ("gemini_cli_session.jsonl", 8),
        _ => ("codex_rollout.jsonl", 6),
    };
    std::fs::read_to_string(fixture(name)).unwrap().lines().take(lines).map(str::to_string).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn a_transcript_imported_in_random_pieces_is_stored_as_its_whole_conversion(
        lines in proptest::collection::vec(any_line(), 0..25),
        opened in any::<bool>(),
        cuts in proptest::collection::vec(any::<prop::sample::Index>(), 0..6),
        format in prop_oneof![
            Just(Format::named("claude-code").unwrap()),
            Just(Format::named("codex").unwrap()),
            Just(Format::named("gemini-cli").unwrap()),
        ],
    ) {
        let mut bytes = Vec::new();
        let lines: Vec<String> = if opened { opening(format).into_iter().chain(lines).collect() } else { lines };
        for line in &lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let dir = tempfile::tempdir().unwrap();
        let transcript = dir.path().join("t.jsonl");
        let growing = store_in(dir.path(), "growing");
        let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len() + 1)).collect();
        cuts.sort();
        cuts.push(bytes.len());
        let mut file = std::fs::File::create(&transcript).unwrap();
        let mut written = 0;
        let mut stored_before = false;
        for cut in cuts {
            file.write_all(&bytes[written..cut]).unwrap();
            written = cut;
            let report = import::import_growing(&growing, format, &transcript).unwrap();
            let reading = report.reading.unwrap();
            prop_assert_eq!(reading.size, cut as u64);
            // Once the session is stored, every import goes on from the last.
            prop_assert_eq!(reading.restart.is_none(), stored_before, "{:?}", reading);
            stored_before |= report.outcome.is_some();
            if reading.restart.is_none() {
                prop_assert!(reading.read <= (cut as u64 - reading.from) + 4 * 4096, "{:?}", reading);
            }
        }
        let whole = store_in(dir.path(), "whole");
        let full = convert(format, &transcript, &bytes);
        if !full.is_empty() {
            whole.import_bytes(&transcript, full.session_bytes).unwrap();
        }
        prop_assert_eq!(stored(&growing), stored(&whole));
    }
}

fn claude_lines(n: std::ops::Range<usize>) -> String {
    n.map(|i| {
        serde_json::json!({
            "type": if i % 2 == 0 { "user" } else { "assistant" }, "uuid": format!("u{i}"), "sessionId": "s-grow",
            "timestamp": "2026-11-20T10:00:00Z", "cwd": "/home/ana/shop",
            "message": {"role": if i % 2 == 0 { "user" } else { "assistant" }, "content": format!("Message number {i}.")}
        })
        .to_string()
            + "\n"
    })
    .collect()
}

/// A record the converter ignores, whose bytes can change without changing the session.
fn snapshot(n: u32) -> String {
    format!("{{\"type\":\"file-history-snapshot\",\"messageId\":\"m{n}\"}}\n")
}

#[test]
fn a_transcript_changed_other_than_by_growing_is_converted_in_full() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path(), "p");
    let transcript = dir.path().join("t.jsonl");
    let import = || import::import_growing(&store, Format::named("claude-code").unwrap(), &transcript).unwrap();
    let restart = || import().reading.unwrap().restart;
    std::fs::write(&transcript, snapshot(1) + &claude_lines(0..10)).unwrap();
    assert_eq!(restart(), Some(Restart::Fresh));
    std::fs::write(&transcript, snapshot(1) + &claude_lines(0..12)).unwrap();
    assert_eq!(restart(), None, "grown: goes on");
    // Rewritten in place, the same length: converted in full (and the same session).
    std::fs::write(&transcript, snapshot(2) + &claude_lines(0..12)).unwrap();
    let report = import();
    assert_eq!(report.reading.unwrap().restart, Some(Restart::Rewritten));
    assert!(matches!(report.outcome, Some(lcmem::store::ImportOutcome::Unchanged { .. })), "{:?}", report.outcome);
    // Shrunk.
    std::fs::write(&transcript, snapshot(2) + &claude_lines(0..12) + &snapshot(3)).unwrap();
    assert_eq!(restart(), None, "back as it was and grown: goes on");
    std::fs::write(&transcript, snapshot(2) + &claude_lines(0..12)).unwrap();
    assert_eq!(restart(), Some(Restart::Shrunk));
    // The stored copy changed by lcmem's status lines: goes on; edited otherwise: in full.
    let id = store.session_ids().unwrap().remove(0);
    let lock = store.lock().unwrap();
    store.append_status(&lock, &id, lcmem::session::Status::Pinned, "2026-11-21T00:00:00Z".parse().unwrap()).unwrap();
    drop(lock);
    std::fs::write(&transcript, snapshot(2) + &claude_lines(0..14)).unwrap();
    assert_eq!(restart(), None, "a pin is not a change");
    let session = store.session_path(&id);
    let edited = std::fs::read_to_string(&session).unwrap().replacen("number 3.", "number 3?", 1);
    assert!(edited.contains("number 3?"), "{edited}");
    std::fs::write(&session, edited).unwrap();
    std::fs::write(&transcript, snapshot(2) + &claude_lines(0..16)).unwrap();
    assert_eq!(restart(), Some(Restart::StoredChanged), "converted again over the edit");
    // The cache deleted: a full conversion, which changes nothing.
    std::fs::remove_dir_all(store.cache_dir()).unwrap();
    let report = import();
    assert_eq!(report.reading.unwrap().restart, Some(Restart::Fresh));
    assert!(matches!(report.outcome, Some(lcmem::store::ImportOutcome::Unchanged { .. })), "{:?}", report.outcome);
    // Rewritten so that a message changed: converted in full, and the store
    // decides (here: the same session with as many messages, converted again).
    std::fs::write(&transcript, snapshot(2) + &claude_lines(0..16).replacen("number 5.", "number 5!", 1)).unwrap();
    let report = import();
    assert_eq!(report.reading.unwrap().restart, Some(Restart::Rewritten));
    assert!(matches!(report.outcome, Some(lcmem::store::ImportOutcome::Reconverted { .. })), "{:?}", report.outcome);
}
