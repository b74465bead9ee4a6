//! `lcmem digest`, and Claude Code's SessionStart hook, as a fresh process on
//! a project with 10,000 sessions: what every session start pays.
//! Run: `cargo bench -p lcmem-cli --bench digest_process`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

use divan::Bencher;
use lcmem::Store;
use lcmem::extract::Outcome;
use lcmem::journal::{Entry, Record, SealKind};
use lcmem_test_support::SessionFile;

fn main() {
    divan::main();
}

const SESSIONS: usize = 10_000;

/// A store with 10,000 sealed sessions and its MEMORY.md: the folder that
/// holds it, the store root and the project.
fn big_project() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("big");
    std::fs::create_dir_all(&project).unwrap();
    let home = dir.path().join("home");
    let store = Store::open(&home, &project).unwrap();
    let now: jiff::Timestamp = "2026-11-30T12:00:00Z".parse().unwrap();
    std::fs::create_dir_all(store.dir()).unwrap();
    let mut records = Vec::new();
    for i in 0..SESSIONS {
        let id = format!("s{i:05}");
        let at = now - jiff::SignedDuration::from_mins(i as i64 * 50);
        SessionFile::new(&id, at)
            .title(format!("Session {i}"))
            .message("assistant", &format!("Fixed bug {i} in the parser."), at)
            .write_to(&store.session_path(&id));
        records.push(Record::Sealed(Entry {
            session_id: id,
            sealed_at: at,
            kind: SealKind::Done,
            title: format!("Session {i}"),
            summary: format!("Fixed bug {i} in the parser."),
            files: vec!["src/parser.rs".into()],
            decisions: vec![],
            pinned: false,
            outcome: Outcome::Fixed,
            created_at: at,
            last_active: at,
            extractor: "bench".into(),
            covers: None,
            fallback: None,
            cost: None,
        }));
    }
    let lock = store.lock().unwrap();
    lcmem::journal::append(&store, &lock, &records).unwrap();
    drop(lock);
    lcmem::digest::consolidate(&store, now).unwrap();
    (dir, home, project)
}

#[divan::bench(sample_count = 100)]
fn digest_fresh_process_10000_sessions(bencher: Bencher) {
    let (_dir, home, project) = big_project();
    bencher.bench(|| {
        let out = Command::new(env!("CARGO_BIN_EXE_lcmem"))
            .arg("--home")
            .arg(&home)
            .arg("--project")
            .arg(&project)
            .arg("digest")
            .output()
            .unwrap();
        assert!(out.status.success() && !out.stdout.is_empty());
    });
}

#[divan::bench(sample_count = 100)]
fn claude_code_session_start_hook_10000_sessions(bencher: Bencher) {
    let (_dir, home, project) = big_project();
    let input = serde_json::json!({
        "session_id": "bench", "transcript_path": "/unused.jsonl", "cwd": project,
        "hook_event_name": "SessionStart", "source": "startup"
    })
    .to_string();
    bencher.bench(|| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_lcmem"))
            .arg("--home")
            .arg(&home)
            .args(["hook", "claude-code"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success() && out.stdout.starts_with(b"{\"hookSpecificOutput\""));
    });
}
