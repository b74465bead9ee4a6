//! Consolidation and the digest on real stores.

use std::path::Path;

use jiff::Timestamp;
use lcmem::Store;
use lcmem::digest::{self, PINNED_END, PINNED_START};
use lcmem::extract::offline::OfflineExtractor;
use lcmem::facts::{self, Fold, State, SubjectKeyJudge};
use lcmem::journal::Journal;
use lcmem::seal::{seal, set_pinned};
use lcmem_test_support::{SessionFile, TempDirs};

fn ts(s: &str) -> Timestamp {
    s.parse().unwrap()
}

struct Fixture {
    _dirs: TempDirs,
    store: Store,
}

fn store() -> Fixture {
    let dirs = TempDirs::with_project("proj");
    let store = Store::open(&dirs.home(), &dirs.project()).unwrap();
    Fixture { _dirs: dirs, store }
}

/// Adds and seals a session whose assistant reports `did` and states `fact`.
fn session(store: &Store, id: &str, day: &str, did: &str, fact: &str, status: &str) {
    let file = SessionFile::new(id, format!("{day}T09:00:00Z"))
        .title(format!("Work on {id}"))
        .message("user", "Please do it.", format!("{day}T09:01:00Z"))
        .message("assistant", &format!("{did} {fact}"), format!("{day}T09:30:00Z"))
        .status(status, format!("{day}T09:31:00Z"));
    store.import_bytes(Path::new("t.jsonl"), file.bytes()).unwrap();
    seal(store, id, None, &OfflineExtractor, ts(&format!("{day}T10:00:00Z"))).unwrap();
}

fn memory(store: &Store) -> String {
    std::fs::read_to_string(store.memory_md_path()).unwrap()
}

#[test]
fn the_digest_is_framed_dated_and_sourced() {
    let f = store();
    session(&f.store, "s1", "2026-11-20", "Shipped the export feature.", "The export job runs on Sidekiq.", "done");
    digest::consolidate(&f.store, ts("2026-11-21T00:00:00Z")).unwrap().unwrap();
    let d = digest::digest(&f.store).unwrap().unwrap();
    assert!(d.text.starts_with("<project-memory project=\"proj\" as-of=\"2026-11-20\">"));
    for needle in [
        "may be stale or wrong",
        "verify",
        "never instructions",
        "Shipped the export feature.",
        "(inferred; s1, 2026-11-20)",
    ] {
        assert!(d.text.contains(needle), "missing {needle:?} in\n{}", d.text);
    }
    assert_eq!(d.sources, ["s1"]);
    assert!(!d.edited_since_generated);
    assert!(d.tokens.unwrap() < 300);
}

#[test]
fn pinned_blocks_survive_100_consolidations_byte_identical() {
    let f = store();
    session(&f.store, "s0", "2026-11-01", "Fixed the login bug.", "The login form uses htmx.", "done");
    digest::consolidate(&f.store, ts("2026-11-02T00:00:00Z")).unwrap();
    let block = format!(
        "{PINNED_START}\nOur  rule:\tno deploys after 4pm.\n  (indented, ünïcode, trailing space) \n{PINNED_END}\n"
    );
    let second = format!("{PINNED_START}\n- a list item that looks like a fact [f0000000000]\n{PINNED_END}\n");
    let text = memory(&f.store).replacen("\n## ", &format!("\n{block}\n{second}\n## "), 1);
    std::fs::write(f.store.memory_md_path(), text).unwrap();
    for round in 0..100 {
        if round % 10 == 0 {
            let id = format!("r{round}");
            session(&f.store, &id, "2026-11-03", &format!("Added feature {round}."), "", "done");
        }
        digest::consolidate(&f.store, ts("2026-11-04T00:00:00Z")).unwrap().unwrap();
        let now = memory(&f.store);
        assert!(now.contains(&block) && now.contains(&second), "round {round}: a pinned block changed:\n{now}");
    }
    let fold = Fold::read(&f.store.facts_path()).unwrap();
    assert!(
        fold.facts.iter().all(|fact| !fact.text.contains("looks like a fact")),
        "pinned text is never read as edits"
    );
}

#[test]
fn pinned_blocks_over_the_cap_are_refused_loudly_not_cut() {
    let f = store();
    session(&f.store, "s0", "2026-11-01", "Fixed the login bug.", "", "done");
    f.store.config_files().set(lcmem::config::Scope::Project, "memory.cap_tokens", "60").unwrap();
    let before = format!("# Project memory\n{PINNED_START}\n{}\n{PINNED_END}\n", "word ".repeat(200));
    std::fs::create_dir_all(f.store.memory_dir()).unwrap();
    std::fs::write(f.store.memory_md_path(), &before).unwrap();
    let err = digest::consolidate(&f.store, ts("2026-11-02T00:00:00Z")).unwrap_err().to_string();
    assert!(err.contains("pinned blocks") && err.contains("over the cap of 60"), "{err}");
    assert_eq!(memory(&f.store), before, "nothing was cut");
}

#[test]
fn the_cap_holds_and_evicts_the_lowest_signal_first() {
    let f = store();
    for i in 0..40 {
        let day = format!("2026-11-{:02}", 1 + i % 28);
        session(
            &f.store,
            &format!("s{i:02}"),
            &day,
            &format!("Added module number {i} with a long description of the change."),
            &format!("The module{i} service uses the queue number {i}."),
            "done",
        );
    }
    f.store.config_files().set(lcmem::config::Scope::Project, "memory.cap_tokens", "400").unwrap();
    let report = digest::consolidate(&f.store, ts("2026-11-29T00:00:00Z")).unwrap().unwrap();
    assert!(report.tokens <= 400 && report.evicted > 0, "{report:?}");
    let text = memory(&f.store);
    // Everything left out is still in the journal and the facts log.
    assert_eq!(Journal::read(&f.store.journal_path()).unwrap().entries.len(), 40);
    assert!(text.contains("s25") || text.contains("s26") || text.contains("s27"), "the newest work is kept:\n{text}");
    assert!(!text.contains("(done; s00)"), "the oldest work is evicted first:\n{text}");
}

#[test]
fn each_kind_of_hand_edit_round_trips_into_the_logs() {
    let f = store();
    session(&f.store, "s1", "2026-11-20", "Added the exporter.", "The exporter writes to S3.", "done");
    session(&f.store, "s2", "2026-11-21", "Fixed the importer.", "The importer reads from SFTP.", "done");
    session(&f.store, "s3", "2026-11-22", "Added a cron job.", "The cron job runs on Kubernetes.", "done");
    digest::consolidate(&f.store, ts("2026-11-23T00:00:00Z")).unwrap();
    let text = memory(&f.store);
    let exporter = facts::fact_id("The exporter writes to S3.");
    let importer = facts::fact_id("The importer reads from SFTP.");
    let edited = text
        .replace("The exporter writes to S3.", "The exporter writes to GCS.")
        .lines()
        .filter(|l| !l.contains(&importer) && !l.contains("(done; s3)"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("Fixed the importer.", "Fixed the importer for good.")
        + "- Releases are cut on Thursdays.\n";
    std::fs::write(f.store.memory_md_path(), edited).unwrap();
    let report = digest::consolidate(&f.store, ts("2026-11-24T00:00:00Z")).unwrap().unwrap();
    assert_eq!(report.hand_edits.len(), 5, "{:?}", report.hand_edits);

    let fold = Fold::read(&f.store.facts_path()).unwrap();
    let exp = fold.get(&exporter).unwrap();
    assert_eq!((exp.text.as_str(), exp.state), ("The exporter writes to GCS.", State::Confirmed));
    assert!(fold.get(&importer).unwrap().deleted);
    let raw = std::fs::read_to_string(f.store.facts_path()).unwrap();
    assert!(!raw.contains("SFTP"), "a removed line deletes the fact's text from disk");
    let added = fold.get(&facts::fact_id("Releases are cut on Thursdays.")).unwrap();
    assert!(added.user_authored && added.state == State::Confirmed);
    let journal = Journal::read(&f.store.journal_path()).unwrap();
    assert_eq!(journal.get("s2").unwrap().entry.summary, "Fixed the importer for good.");
    assert_eq!(journal.get("s3").unwrap().entry.kind, lcmem::journal::SealKind::Archived);

    let after = memory(&f.store);
    assert!(after.contains("The exporter writes to GCS.") && after.contains("Releases are cut on Thursdays."));
    assert!(!after.contains("SFTP") && !after.contains("(done; s3)"));
    let again = digest::consolidate(&f.store, ts("2026-11-24T01:00:00Z")).unwrap().unwrap();
    assert!(again.hand_edits.is_empty(), "the rewrite is not mistaken for an edit: {:?}", again.hand_edits);
}

#[test]
fn losing_most_of_the_file_is_not_read_as_deleting_everything() {
    let f = store();
    for i in 0..6 {
        session(
            &f.store,
            &format!("s{i}"),
            "2026-11-20",
            &format!("Added part {i}."),
            &format!("The part{i} service uses Redis."),
            "done",
        );
    }
    digest::consolidate(&f.store, ts("2026-11-21T00:00:00Z")).unwrap();
    std::fs::write(f.store.memory_md_path(), "").unwrap();
    let report = digest::consolidate(&f.store, ts("2026-11-22T00:00:00Z")).unwrap().unwrap();
    assert!(report.removals_ignored.is_some());
    assert!(Fold::read(&f.store.facts_path()).unwrap().facts.iter().all(|f| !f.deleted));
}

#[test]
fn undo_restores_the_exact_previous_file() {
    let f = store();
    session(&f.store, "s1", "2026-11-20", "Added the exporter.", "", "done");
    digest::consolidate(&f.store, ts("2026-11-21T00:00:00Z")).unwrap();
    let first = memory(&f.store);
    session(&f.store, "s2", "2026-11-22", "Added the importer.", "", "done");
    digest::consolidate(&f.store, ts("2026-11-23T00:00:00Z")).unwrap();
    assert_ne!(memory(&f.store), first);
    digest::undo(&f.store, ts("2026-11-23T00:30:00Z")).unwrap();
    assert_eq!(memory(&f.store), first);
    let again = digest::consolidate(&f.store, ts("2026-11-23T01:00:00Z")).unwrap().unwrap();
    assert!(again.hand_edits.is_empty(), "an undone file is not mistaken for hand edits: {:?}", again.hand_edits);
    for n in 0..30 {
        // Each session did something of its own: identical work is one line
        // of the digest, which would not change the file.
        session(&f.store, &format!("x{n}"), "2026-11-24", &format!("Added feature number {n}."), "", "done");
        digest::consolidate(&f.store, ts("2026-11-25T00:00:00Z")).unwrap();
    }
    assert_eq!(digest::history_entries(&f.store).unwrap().len(), 20, "history is bounded");
}

#[test]
fn decay_orders_sessions_done_recent_and_pinned_first() {
    let f = store();
    session(&f.store, "old-done", "2026-10-01", "Added the old feature.", "", "done");
    session(&f.store, "mid-done", "2026-11-10", "Added the middle feature.", "", "done");
    session(&f.store, "new-done", "2026-11-27", "Added the new feature.", "", "done");
    session(&f.store, "new-cold", "2026-11-27", "Added a cold thing.", "", "archived");
    session(&f.store, "old-pinned", "2026-09-01", "Added the pinned refactor step.", "", "done");
    set_pinned(&f.store, "old-pinned", true, ts("2026-09-02T00:00:00Z")).unwrap();
    let report = digest::consolidate(&f.store, ts("2026-11-28T00:00:00Z")).unwrap().unwrap();
    let text = memory(&f.store);
    assert!(report.archived.contains(&"old-done".to_string()), "inactive 30 days: auto-archived");
    assert!(text.contains("old-pinned") && !text.contains("old-done") && !text.contains("new-cold"), "{text}");
    let pos = |id: &str| text.find(id).unwrap();
    assert!(pos("old-pinned") < pos("new-done") && pos("new-done") < pos("mid-done"), "{text}");
    let journal = Journal::read(&f.store.journal_path()).unwrap();
    let now = ts("2026-11-28T00:00:00Z");
    let signal = |id: &str| digest::session_signal(journal.get(id).unwrap(), now);
    assert!(signal("new-done") > signal("mid-done") && signal("new-done") > signal("new-cold"));
}

#[test]
fn confirmed_facts_hold_their_place_and_withheld_ones_never_appear() {
    let f = store();
    session(&f.store, "s1", "2026-11-20", "Added the exporter.", "The exporter writes to S3.", "done");
    let confirmed =
        facts::add(&f.store, "The team reviews every migration.", &SubjectKeyJudge, ts("2026-01-01T00:00:00Z"))
            .unwrap();
    facts::add(&f.store, "The api uses Redis.", &SubjectKeyJudge, ts("2026-11-20T00:00:00Z")).unwrap();
    facts::add(&f.store, "The api uses Postgres.", &SubjectKeyJudge, ts("2026-11-21T00:00:00Z")).unwrap();
    let gone =
        facts::add(&f.store, "The staging box is shared.", &SubjectKeyJudge, ts("2026-11-21T00:00:00Z")).unwrap();
    facts::apply(&f.store, &gone, facts::Action::NotTrue, &SubjectKeyJudge, ts("2026-11-22T00:00:00Z")).unwrap();
    digest::consolidate(&f.store, ts("2026-11-28T00:00:00Z")).unwrap();
    let text = memory(&f.store);
    assert!(text.contains(&confirmed) && text.contains("The api uses Postgres."));
    assert!(!text.contains("The api uses Redis.") && !text.contains("staging box"), "{text}");
    assert!(text.find(&confirmed).unwrap() < text.find("The exporter writes to S3.").unwrap());
    assert!(text.contains("The exporter writes to S3. (inferred;"), "inferred facts are labelled");
}

#[test]
fn memory_off_consolidates_nothing_and_the_digest_is_empty() {
    let f = store();
    session(&f.store, "s1", "2026-11-20", "Added the exporter.", "", "done");
    digest::consolidate(&f.store, ts("2026-11-21T00:00:00Z")).unwrap();
    f.store.config_files().set(lcmem::config::Scope::Project, "memory.enabled", "false").unwrap();
    assert!(digest::consolidate(&f.store, ts("2026-11-22T00:00:00Z")).unwrap().is_none());
    assert!(digest::digest(&f.store).unwrap().is_none());
    assert!(digest::welcome(&f.store, ts("2026-11-22T00:00:00Z")).unwrap().is_none());
}

#[test]
fn welcome_names_the_recent_arc_and_greets_a_new_project() {
    let f = store();
    assert_eq!(
        digest::welcome(&f.store, ts("2026-11-22T00:00:00Z")).unwrap().unwrap(),
        digest::welcome_for_new_project()
    );
    session(&f.store, "s1", "2026-11-20", "Tidied the CHANGELOG for v2.0.", "", "done");
    session(&f.store, "s2", "2026-11-21", "Fixed the flaky upload test.", "", "done");
    set_pinned(&f.store, "s1", true, ts("2026-11-21T00:00:00Z")).unwrap();
    let line = digest::welcome(&f.store, ts("2026-11-22T00:00:00Z")).unwrap().unwrap();
    assert_eq!(line, "This project, lately: fixed the flaky upload test. 1 pinned thread.");
}

#[test]
fn use_keeps_an_old_session_alive() {
    let f = store();
    session(&f.store, "used", "2026-10-20", "Added the used feature.", "", "done");
    session(&f.store, "unused", "2026-10-20", "Added the unused feature.", "", "done");
    let noted =
        lcmem::seal::record_use(&f.store, &["used".into(), "used".into(), "nope".into()], ts("2026-11-25T00:00:00Z"));
    assert_eq!(noted.unwrap(), 1);
    let report = digest::consolidate(&f.store, ts("2026-11-28T00:00:00Z")).unwrap().unwrap();
    assert_eq!(report.archived, ["unused"]);
    let text = memory(&f.store);
    assert!(text.contains("(done; used)") && !text.contains("(done; unused)"), "{text}");
}

#[test]
fn sessions_that_did_the_same_thing_are_one_line_sourced_by_all() {
    let f = store();
    for (id, day) in [("h1", "2026-11-20"), ("h2", "2026-11-21"), ("h3", "2026-11-22")] {
        session(&f.store, id, day, "Added notes.txt with the release checklist.", "", "done");
    }
    session(&f.store, "other", "2026-11-22", "Shipped the export feature.", "", "done");
    digest::consolidate(&f.store, ts("2026-11-23T00:00:00Z")).unwrap().unwrap();
    let text = memory(&f.store);
    assert_eq!(text.matches("Added notes.txt with the release checklist").count(), 1, "{text}");
    assert!(text.contains("Shipped the export feature"), "{text}");
    let d = digest::digest(&f.store).unwrap().unwrap();
    for id in ["h1", "h2", "h3", "other"] {
        assert!(d.sources.iter().any(|s| s == id), "{id} among the sources {:?}", d.sources);
    }
}
