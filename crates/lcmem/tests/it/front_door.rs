//! `lcmem::Memory`, the front door: each call runs its whole piece of work
//! (what the front-ends no longer assemble), on a real store.

use std::path::Path;

use jiff::Timestamp;
use lcmem::facts::Action;
use lcmem::import::{Format, Named};
use lcmem::journal::Journal;
use lcmem::recall::{Projects, Query, Quiet};
use lcmem::{DigestAnswer, Memory, Padding, Store, ToImport, ToSeal, Whose};
use lcmem_test_support::{SessionFile, TempDirs};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

/// A v1 session file on disk, to be imported as a front-end would.
fn session_file(dir: &Path, id: &str, day: &str, said: &str, answered: &str) -> std::path::PathBuf {
    let file = SessionFile::new(id, format!("{day}T09:00:00Z"))
        .title(format!("Work on {id}"))
        .message("user", said, format!("{day}T09:01:00Z"))
        .message("assistant", answered, format!("{day}T09:30:00Z"))
        .status("done", format!("{day}T09:31:00Z"));
    let path = dir.join(format!("{id}.jsonl"));
    std::fs::write(&path, file.bytes()).unwrap();
    path
}

/// Two sessions imported and sealed through the door.
fn two_sealed(dirs: &TempDirs) -> Memory {
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    let inbox = dirs.home().join("inbox");
    std::fs::create_dir_all(&inbox).unwrap();
    let files = [
        session_file(
            &inbox,
            "s1",
            "2026-11-20",
            "The nightly exports go to the archive bucket, never to the web root.",
            "Moved the nightly exports to the archive bucket.",
        ),
        session_file(
            &inbox,
            "s2",
            "2026-11-21",
            "Please tidy the CHANGELOG for v1.0.4.",
            "Tidied the CHANGELOG; the exports section now names the bucket.",
        ),
    ];
    let memory = Memory::open(store);
    let asked: Vec<ToImport> =
        files.iter().map(|path| ToImport { path, format: Format::V1, named: Named::ByHand }).collect();
    let mut seen = Vec::new();
    let imported = memory
        .import(asked, ts("2026-11-22T08:00:00Z"), &mut Quiet, &mut |file, taken| {
            seen.push((file.path.to_path_buf(), taken.is_ok()))
        })
        .unwrap();
    assert_eq!(imported.added, ["s1", "s2"]);
    assert_eq!(imported.failed, 0);
    assert!(matches!(imported.caches, Some(Ok(_))), "{:?}", imported.caches);
    assert_eq!(seen.iter().filter(|(_, ok)| *ok).count(), 2, "each file's outcome is handed back: {seen:?}");
    let run = memory.seal(ToSeal::AllQuiet, None, ts("2026-11-22T09:00:00Z"), &mut Quiet, &mut |_, _, _| {}).unwrap();
    assert!(run.still_going.is_empty(), "{:?}", run.still_going);
    memory
}

#[test]
fn a_recall_through_the_door_marks_what_it_found_and_drops_padding_only_when_asked() {
    let dirs = TempDirs::with_project("proj");
    let mut memory = two_sealed(&dirs);
    let query = Query::new("where do the nightly exports go");
    let now = ts("2026-11-25T10:00:00Z");
    let kept = memory.recall(&query, &Projects::This, Padding::Kept, now, &mut Quiet).unwrap();
    let trimmed = memory.recall(&query, &Projects::This, Padding::DroppedUnder(0.9), now, &mut Quiet).unwrap();
    let scores = |r: &lcmem::Recalled| r.answer.hits.iter().map(|h| h.hit.score).collect::<Vec<f64>>();
    let (all, few) = (scores(&kept), scores(&trimmed));
    assert!(all.len() > few.len() && !few.is_empty(), "kept {all:?}, trimmed {few:?}");
    assert!(few.iter().all(|s| *s >= all[0] * 0.9), "{few:?} against the best {}", all[0]);
    // The sessions found are marked as used, each once, this project's only.
    let found: std::collections::HashSet<String> = kept
        .answer
        .hits
        .iter()
        .filter(|h| h.hit.kind != lcmem::recall::HitKind::Fact)
        .map(|h| h.hit.session.clone())
        .collect();
    assert_eq!(*kept.marked.as_ref().unwrap(), found.len(), "{found:?}");
    let journal = Journal::of(memory.store()).unwrap();
    for id in &found {
        assert_eq!(journal.get(id).unwrap().last_used, Some(now), "{id} was not marked");
    }
}

#[test]
fn the_digest_says_why_there_is_none() {
    let dirs = TempDirs::with_project("proj");
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    assert!(matches!(Memory::open(store.clone()).digest().unwrap(), DigestAnswer::NotYet));
    let memory = two_sealed(&dirs);
    let DigestAnswer::Digest(digest) = memory.digest().unwrap() else { panic!("no digest after two seals") };
    assert!(digest.text.contains("archive bucket"), "{}", digest.text);
    let files = store.config_files();
    files.set(lcmem::config::Scope::Project, "memory.enabled", "false").unwrap();
    assert!(matches!(memory.digest().unwrap(), DigestAnswer::MemoryOff));
    // Switched off, the door takes nothing in and seals nothing.
    let error = memory.seal(ToSeal::AllQuiet, None, ts("2026-11-23T09:00:00Z"), &mut Quiet, &mut |_, _, _| {});
    assert!(matches!(error, Err(lcmem::Error::MemoryOff { .. })), "{error:?}");
}

#[test]
fn a_forgotten_session_found_in_a_folder_stays_forgotten_and_named_by_hand_comes_back() {
    let dirs = TempDirs::with_project("proj");
    let memory = two_sealed(&dirs);
    let (id, _) = memory.forget("s1", ts("2026-11-23T09:00:00Z")).unwrap();
    assert_eq!(id, "s1");
    let path = dirs.home().join("inbox/s1.jsonl");
    let again = |named| {
        let file = ToImport { path: &path, format: Format::V1, named };
        memory.import([file], ts("2026-11-24T09:00:00Z"), &mut Quiet, &mut |_, _| {}).unwrap()
    };
    assert!(again(Named::InFolder).added.is_empty(), "a file found in a folder brought a forgotten session back");
    assert!(memory.store().session_ids().unwrap().iter().all(|s| s != "s1"));
    assert_eq!(again(Named::ByHand).added, ["s1"]);
}

#[test]
fn a_person_s_fact_reaches_the_digest_at_once_and_leaves_it_when_marked_not_true() {
    let dirs = TempDirs::with_project("proj");
    let memory = two_sealed(&dirs);
    let text = |m: &Memory| match m.digest().unwrap() {
        DigestAnswer::Digest(d) => d.text,
        other => panic!("{other:?}"),
    };
    let now = ts("2026-11-23T09:00:00Z");
    let id = memory.add_fact("The release branch is cut on Thursdays.", Whose::Project, false, now).unwrap();
    assert!(text(&memory).contains("The release branch is cut on Thursdays."), "{}", text(&memory));
    let mine = memory.add_fact("I review every pull request myself.", Whose::Person, false, now).unwrap();
    assert!(text(&memory).contains("I review every pull request myself."), "{}", text(&memory));
    // An action that changes nothing writes nothing, MEMORY.md included.
    let before = std::fs::read(memory.store().memory_md_path()).unwrap();
    let again = memory.act_on_fact(&id, Action::Confirm, Whose::Project, ts("2026-11-24T09:00:00Z")).unwrap();
    assert!(!again.changed);
    assert_eq!(std::fs::read(memory.store().memory_md_path()).unwrap(), before);
    let gone = memory.act_on_fact(&id, Action::NotTrue, Whose::Project, ts("2026-11-24T09:00:00Z")).unwrap();
    assert!(gone.changed);
    assert!(!text(&memory).contains("cut on Thursdays"), "{}", text(&memory));
    memory.delete_fact(&mine, Whose::Person, ts("2026-11-24T10:00:00Z")).unwrap();
    assert!(!text(&memory).contains("pull request"), "{}", text(&memory));
}
