//! Converted transcripts in the store: incremental, idempotent imports;
//! finding transcripts on disk; placing them in their projects.

use std::path::{Path, PathBuf};

use lcmem::Store;
use lcmem::import::{self, Format, Placement};
use lcmem::project::{Project, slug_for};
use lcmem::store::ImportOutcome;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name)
}

fn store_in(dir: &Path) -> Store {
    let project = dir.join("project");
    std::fs::create_dir_all(&project).unwrap();
    Store::open(&dir.join("home"), &project).unwrap()
}

/// The first `n` lines of a fixture, as a transcript that has not grown yet.
fn first_lines(name: &str, n: usize) -> String {
    std::fs::read_to_string(fixture(name)).unwrap().lines().take(n).map(|l| format!("{l}\n")).collect()
}

#[test]
fn importing_twice_changes_nothing_and_growth_appends_only_new_lines() {
    for (name, format, start) in [
        ("claude_code_session.jsonl", Format::named("claude-code").unwrap(), 6),
        ("codex_rollout.jsonl", Format::named("codex").unwrap(), 9),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let store = store_in(dir.path());
        let transcript = dir.path().join(name);

        std::fs::write(&transcript, first_lines(name, start)).unwrap();
        let report = import::import_file(&store, None, &transcript).unwrap();
        assert_eq!(report.format, format);
        let Some(ImportOutcome::Added { id }) = report.outcome else { panic!("{name}: {:?}", report.outcome) };
        let stored = store.session_path(&id);
        let before = std::fs::read(&stored).unwrap();

        let again = import::import_file(&store, None, &transcript).unwrap();
        assert_eq!(again.outcome, Some(ImportOutcome::Unchanged { id: id.clone() }));
        assert_eq!(std::fs::read(&stored).unwrap(), before);

        std::fs::copy(fixture(name), &transcript).unwrap();
        let grown = import::import_file(&store, Some(format), &transcript).unwrap();
        let full = import::convert(format, &transcript, &std::fs::read(&transcript).unwrap()).session_bytes;
        let new_lines = full[before.len()..].iter().filter(|b| **b == b'\n').count();
        assert!(new_lines > 0);
        assert_eq!(grown.outcome, Some(ImportOutcome::Extended { id: id.clone(), lines: new_lines }));
        let after = std::fs::read(&stored).unwrap();
        assert!(after.starts_with(&before), "earlier lines were rewritten");
        assert_eq!(after, full);

        let last = import::import_file(&store, None, &transcript).unwrap();
        assert_eq!(last.outcome, Some(ImportOutcome::Unchanged { id: id.clone() }));
        assert_eq!(store.read_session(&id).unwrap().diagnostics, []);
    }
}

#[test]
fn a_transcript_without_a_prompt_yet_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path());
    let transcript = dir.path().join("early.jsonl");
    std::fs::write(&transcript, first_lines("codex_rollout.jsonl", 4)).unwrap();
    let report = import::import_file(&store, Some(Format::named("codex").unwrap()), &transcript).unwrap();
    assert_eq!(report.outcome, None);
    assert_eq!(store.session_ids().unwrap(), Vec::<String>::new());
}

#[test]
fn an_unknown_file_is_read_as_v1_so_the_error_says_what_v1_expects() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_in(dir.path());
    let file = dir.path().join("notes.jsonl");
    std::fs::write(&file, "{\"a\":1}\n").unwrap();
    let error = import::import_file(&store, None, &file).unwrap_err().to_string();
    assert!(error.contains("notes.jsonl:1") && error.contains("header"), "{error}");
}

fn touch(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "{}\n").unwrap();
}

#[test]
fn discovery_finds_sessions_and_leaves_subagents_out() {
    let dir = tempfile::tempdir().unwrap();
    let projects = dir.path().join("projects");
    let main = projects.join("-home-ana-shop/5f0c.jsonl");
    let other = projects.join("-home-ana-billing/77aa.jsonl");
    for path in [
        &main,
        &other,
        &projects.join("-home-ana-shop/agent-1234.jsonl"),
        &projects.join("-home-ana-shop/5f0c/subagents/agent-9.jsonl"),
        &projects.join("-home-ana-shop/notes.txt"),
    ] {
        touch(path);
    }
    assert_eq!(import::discover(lcmem::agents::source("claude-code").unwrap(), &projects).unwrap(), [other, main]);
    assert_eq!(
        import::discover(lcmem::agents::source("claude-code").unwrap(), &dir.path().join("missing")).unwrap(),
        Vec::<PathBuf>::new()
    );

    let sessions = dir.path().join("sessions");
    let late = sessions.join("2026/11/23/rollout-2026-11-23T14-00-00-b.jsonl");
    let early = sessions.join("2026/01/02/rollout-2026-01-02T03-04-05-a.jsonl");
    touch(&late);
    touch(&early);
    assert_eq!(import::discover(lcmem::agents::source("codex").unwrap(), &sessions).unwrap(), [early, late]);
}

#[test]
fn a_transcript_is_placed_in_the_project_of_its_recorded_folder() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir_all(repo.join(".git")).unwrap();
    std::fs::create_dir_all(repo.join("src/deep")).unwrap();
    let placed = import::place(&repo.join("src/deep")).unwrap();
    assert_eq!(placed, Project::resolve(&repo).unwrap(), "a subfolder belongs to its repository");

    let gone = dir.path().join("deleted/project/");
    let placed = import::place(&gone).unwrap();
    assert_eq!(placed.root, dir.path().join("deleted/project"));
    assert_eq!(placed.slug, slug_for(&dir.path().join("deleted/project")));
    assert_eq!(import::place(Path::new("relative/dir")), None);
}

#[test]
fn import_all_sorts_transcripts_into_their_projects_and_respects_memory_off() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let alpha = dir.path().join("alpha");
    std::fs::create_dir_all(alpha.join(".git")).unwrap();
    let beta = dir.path().join("beta");
    std::fs::create_dir_all(&beta).unwrap();
    let gamma = dir.path().join("gamma-not-there");

    let transcript = |name: &str, cwd: &Path| -> PathBuf {
        let text = std::fs::read_to_string(fixture("claude_code_summary_first.jsonl"))
            .unwrap()
            .replace("/home/ana/code/shop", cwd.to_str().unwrap())
            .replace("9a8b7c6d-0000-4000-8000-000000000002", name);
        let path = dir.path().join("in").join(format!("{name}.jsonl"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    };
    let files = [transcript("a1", &alpha), transcript("b1", &beta), transcript("c1", &gamma)];
    Store::open(&home, &beta)
        .unwrap()
        .config_files()
        .set(lcmem::config::Scope::Project, "memory.enabled", "false")
        .unwrap();

    let mut seen = Vec::new();
    import::import_all(&home, Format::named("claude-code").unwrap(), &files, &mut |path, placement| {
        seen.push((path.file_name().unwrap().to_string_lossy().into_owned(), placement.unwrap()));
    })
    .unwrap();
    assert_eq!(seen.len(), 3);
    match &seen[0].1 {
        Placement::Stored { project, report } => {
            assert_eq!(project.root, std::fs::canonicalize(&alpha).unwrap());
            assert_eq!(report.outcome, Some(ImportOutcome::Added { id: "a1".into() }));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        matches!(&seen[1].1, Placement::MemoryOff { why, .. } if why.to_string().contains("memory.enabled = false"))
    );
    match &seen[2].1 {
        Placement::Stored { project, .. } => assert_eq!(project.slug, slug_for(&gamma)),
        other => panic!("{other:?}"),
    }
    assert!(home.join("sessions").join(slug_for(&gamma)).join("c1.jsonl").is_file());
    assert!(Store::open(&home, &beta).unwrap().session_ids().unwrap().is_empty());

    // Memory off everywhere stops the run before anything is written.
    let everywhere = Store::open(&home, &alpha).unwrap();
    everywhere.config_files().set(lcmem::config::Scope::Global, "memory.enabled", "false").unwrap();
    let error = import::import_all(&home, Format::named("claude-code").unwrap(), &files, &mut |_, _| {}).unwrap_err();
    assert!(matches!(error, lcmem::Error::MemoryOff { scope: lcmem::config::Scope::Global, .. }), "{error}");
}
