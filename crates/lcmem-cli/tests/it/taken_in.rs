//! Every real session is taken in: every transcript under `../shared`
//! imports, seals and consolidates; a session no hook saw is found in its
//! agent's folder; an import of a folder says what it found and asks first;
//! what one import brought in is taken back in one step; a torn line is told
//! once.

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::common::{Sandbox, claude_transcript, files_under};

fn stdout(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &std::process::Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Every transcript under `../shared`: the agents' sample transcripts and
/// the benchmarks' real sessions (not their references or the corpora).
fn shared_transcripts() -> Option<Vec<PathBuf>> {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared");
    if !shared.is_dir() {
        assert!(std::env::var_os("CI").is_none(), "CI runs with ../shared beside the project: {}", shared.display());
        println!("note: {} is absent; skipping", shared.display());
        return None;
    }
    let transcripts: Vec<PathBuf> = files_under(&shared)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| ["transcripts", "agents-kit", "bench"].iter().any(|d| p.starts_with(shared.join(d))))
        .collect();
    Some(transcripts)
}

#[test]
fn every_transcript_under_shared_imports_seals_and_consolidates_each_in_its_own_store() {
    let Some(transcripts) = shared_transcripts() else { return };
    assert!(transcripts.len() >= 30, "too few transcripts found to mean anything: {transcripts:?}");
    for transcript in &transcripts {
        let sandbox = Sandbox::new();
        let import = sandbox.cmd().arg("import").arg(transcript).output().unwrap();
        let said = format!("{}\n{}\n{}", transcript.display(), stdout(&import), stderr(&import));
        assert!(import.status.success(), "import failed: {said}");
        assert!(stdout(&import).starts_with("added "), "{said}");
        for args in [&["seal", "--all"][..], &["consolidate"], &["journal", "--json"], &["digest"]] {
            let out = sandbox.cmd().args(args).output().unwrap();
            assert!(out.status.success(), "{args:?}: {said}\n{}", stderr(&out));
            assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
        }
        let journal = sandbox.cmd().args(["journal", "--json"]).output().unwrap();
        let entries: Vec<serde_json::Value> = serde_json::from_slice(&journal.stdout).unwrap();
        assert_eq!(entries.len(), 1, "one sealed session: {said}");
    }
}

/// A Claude Code transcript of the sandbox's project, in the folder Claude
/// Code keeps it in, last written `ago`.
fn claude_session(sandbox: &Sandbox, id: &str, ago: Duration) -> PathBuf {
    let root = lcmem::project::Project::resolve(&sandbox.project()).unwrap().root;
    let folder: String =
        root.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    let path = sandbox.user().join(".claude/projects").join(folder).join(format!("{id}.jsonl"));
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, claude_transcript(id, &root, "Please fix the parser.")).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() - ago).unwrap();
    path
}

#[test]
fn a_session_no_hook_saw_is_listed_by_doctor_and_taken_in_by_catch_up_with_no_flag() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    // Two days old: older than what the hooks' catch-up looks at.
    claude_session(&sandbox, "a1b2c3d4-0000-4000-8000-000000000001", Duration::from_secs(2 * 24 * 3600));
    // Another project's transcript is not this one's.
    let other = sandbox.dir.path().join("other");
    std::fs::create_dir_all(&other).unwrap();
    let elsewhere = sandbox.user().join(".claude/projects/-elsewhere/b0000000-0000-4000-8000-000000000002.jsonl");
    std::fs::create_dir_all(elsewhere.parent().unwrap()).unwrap();
    std::fs::write(&elsewhere, claude_transcript("b0000000-0000-4000-8000-000000000002", &other, "Hi")).unwrap();

    let doctor = sandbox.cmd().arg("doctor").output().unwrap();
    let said = stdout(&doctor);
    assert!(said.contains("1 transcript(s) of this project were never taken in (1 Claude Code)"), "{said}");
    assert!(said.contains("`lcmem catch-up`"), "{said}");

    let caught = sandbox.cmd().arg("catch-up").output().unwrap();
    assert!(caught.status.success(), "{}", stderr(&caught));
    assert!(stdout(&caught).contains("added a1b2c3d4-0000-4000-8000-000000000001"), "{}", stdout(&caught));
    assert!(stdout(&caught).contains("sealed"), "{}", stdout(&caught));
    let journal = sandbox.cmd().args(["journal", "--json"]).output().unwrap();
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&journal.stdout).unwrap();
    assert_eq!(entries.len(), 1, "the other project's session stays out");

    let doctor = sandbox.cmd().arg("doctor").output().unwrap();
    assert!(
        stdout(&doctor).contains("every session of this project in the agents' folders is taken in"),
        "{}",
        stdout(&doctor)
    );
}

#[test]
fn the_hooks_catch_up_takes_in_a_recent_unseen_session_but_leaves_older_history_to_a_catch_up_by_hand() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    claude_session(&sandbox, "c0000000-0000-4000-8000-000000000003", Duration::from_secs(3600));
    claude_session(&sandbox, "d0000000-0000-4000-8000-000000000004", Duration::from_secs(3 * 24 * 3600));
    let hooks = sandbox.cmd().args(["catch-up", "--log"]).output().unwrap();
    assert!(hooks.status.success(), "{}", stderr(&hooks));
    let ids = |sandbox: &Sandbox| {
        let out = sandbox.cmd().args(["sessions", "--json"]).output().unwrap();
        let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
        rows.iter().map(|r| r["id"].as_str().unwrap().to_string()).collect::<Vec<_>>()
    };
    assert_eq!(ids(&sandbox), ["c0000000-0000-4000-8000-000000000003"]);
    sandbox.cmd().arg("catch-up").assert_success();
    assert_eq!(ids(&sandbox).len(), 2);
}

/// A folder of `n` Claude Code transcripts recorded in another project, and
/// a file that is no session.
fn folder_of_transcripts(sandbox: &Sandbox, n: usize) -> PathBuf {
    let folder = sandbox.dir.path().join("downloads");
    std::fs::create_dir_all(&folder).unwrap();
    for i in 0..n {
        let id = format!("e{i:07}-0000-4000-8000-000000000000");
        std::fs::write(folder.join(format!("{id}.jsonl")), claude_transcript(&id, Path::new("/home/ana/other"), "Hi"))
            .unwrap();
    }
    std::fs::write(folder.join("package.json"), "{\"name\": \"not a session\"}").unwrap();
    folder
}

#[test]
fn an_import_of_a_folder_says_what_it_found_and_asks_before_taking_in_many_of_another_project() {
    let sandbox = Sandbox::new();
    let folder = folder_of_transcripts(&sandbox, 8);

    let dry = sandbox.cmd().arg("import").arg("--dry-run").arg(&folder).output().unwrap();
    assert!(dry.status.success(), "{}", stderr(&dry));
    let said = stdout(&dry);
    assert!(said.contains("found 8 session(s) (8 Claude Code) and 1 file(s) that are not sessions"), "{said}");
    assert!(said.contains("8  recorded in /home/ana/other"), "{said}");
    assert_eq!(said.matches("  claude-code  e").count(), 8, "each listed: {said}");
    assert!(said.contains("not a session or a transcript lcmem knows:") && said.contains("package.json"), "{said}");
    assert!(!sandbox.store_dir().exists(), "a dry run writes nothing");

    // More than a handful from elsewhere, and no terminal to ask on: nothing, and how to go on.
    let refused = sandbox.cmd().arg("import").arg(&folder).output().unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", stdout(&refused));
    assert!(stderr(&refused).contains("--yes"), "{}", stderr(&refused));
    let sessions = sandbox.cmd().args(["sessions", "--json"]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&sessions.stdout).trim(), "[]");

    let done = sandbox.cmd().args(["import", "--yes"]).arg(&folder).output().unwrap();
    assert!(done.status.success(), "{}", stderr(&done));
    assert_eq!(stdout(&done).matches("added     e").count(), 8, "{}", stdout(&done));
    assert!(stdout(&done).contains("8 session(s) added; `lcmem import --undo` takes them back"), "{}", stdout(&done));

    // A handful is no flood, and lcmem's own sessions were written to be imported.
    let few = Sandbox::new();
    assert!(few.cmd().arg("import").arg(folder_of_transcripts(&few, 3)).output().unwrap().status.success());
    let own = Sandbox::new();
    for i in 0..8 {
        own.write_session(&format!("s{i}"), &crate::common::working_session(i));
    }
    assert!(own.cmd().arg("import").arg(own.inbox()).output().unwrap().status.success());
}

#[test]
fn what_one_import_brought_in_is_taken_back_in_one_step_and_nothing_else() {
    let sandbox = Sandbox::new();
    let mine = sandbox.write_session("mine", &crate::common::working_session(1));
    assert!(sandbox.cmd().arg("import").arg(&mine).output().unwrap().status.success());
    let flood = sandbox.dir.path().join("flood");
    std::fs::create_dir_all(&flood).unwrap();
    for i in 0..7 {
        crate::common::write_session(&flood, &format!("f{i}"), &crate::common::working_session(i));
    }
    assert!(sandbox.cmd().args(["import", "--yes"]).arg(&flood).output().unwrap().status.success());
    assert!(sandbox.cmd().args(["seal", "--all"]).output().unwrap().status.success());

    let undo = sandbox.cmd().args(["import", "--undo"]).output().unwrap();
    assert!(undo.status.success(), "{}", stderr(&undo));
    assert!(stdout(&undo).contains("7 session(s) forgotten"), "{}", stdout(&undo));
    let out = sandbox.cmd().args(["sessions", "--json"]).output().unwrap();
    let rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.iter().map(|r| r["id"].as_str().unwrap()).collect::<Vec<_>>(), ["mine"]);
    let journal = std::fs::read_to_string(sandbox.journal()).unwrap();
    assert!(!journal.contains("\"f0\"") && journal.contains("\"mine\""), "{journal}");
    // The import before it is the next to take back.
    let again = sandbox.cmd().args(["import", "--undo"]).output().unwrap();
    assert!(stdout(&again).contains("forgot mine"), "{}", stdout(&again));
}

#[test]
fn a_torn_line_is_told_once_set_aside_and_doctor_repairs_an_old_stored_copy() {
    let sandbox = Sandbox::new();
    let whole = sandbox.write_session("cut", &crate::common::working_session(1));
    let bytes = std::fs::read(&whole).unwrap();
    let cut = sandbox.dir.path().join("cut.jsonl");
    std::fs::write(&cut, &bytes[..bytes.len() - 20]).unwrap();

    let import = sandbox.cmd().arg("import").arg(&cut).output().unwrap();
    assert!(import.status.success(), "{}", stderr(&import));
    let warned = stderr(&import);
    assert!(warned.contains("cut.jsonl:") && warned.contains("set aside"), "{warned}");
    for args in [&["seal", "--all"][..], &["sessions"], &["journal"]] {
        let out = sandbox.cmd().args(args).output().unwrap();
        assert!(out.status.success());
        assert_eq!(stderr(&out), "", "{args:?} says nothing of the line again");
    }
    let torn = std::fs::read_to_string(sandbox.store_dir().join("cut.jsonl.torn")).unwrap();
    assert_eq!(torn.lines().count(), 1, "kept beside the stored copy: {torn}");
    // Importing the whole file later completes the session.
    let again = sandbox.cmd().arg("import").arg(&whole).output().unwrap();
    assert!(stdout(&again).starts_with("extended  cut"), "{}", stdout(&again));

    // A copy stored by an earlier version, with the line in place.
    let stored = sandbox.store_dir().join("cut.jsonl");
    let mut old = std::fs::read(&stored).unwrap();
    old.extend_from_slice(b"{\"type\": \"message\", \"role\": \"us\n");
    std::fs::write(&stored, &old).unwrap();
    let doctor = sandbox.cmd().arg("doctor").output().unwrap();
    let said = stdout(&doctor);
    assert!(
        said.contains("1 line(s) that are not JSON in 1 stored session(s)") && said.contains("doctor --repair"),
        "{said}"
    );
    let repair = sandbox.cmd().args(["doctor", "--repair"]).output().unwrap();
    assert!(stdout(&repair).contains("repaired: 1 line(s)"), "{}", stdout(&repair));
    let doctor = sandbox.cmd().arg("doctor").output().unwrap();
    assert!(!stdout(&doctor).contains("not JSON"), "{}", stdout(&doctor));
    let torn = std::fs::read_to_string(sandbox.store_dir().join("cut.jsonl.torn")).unwrap();
    assert!(torn.contains("\"role\": \"us"), "nothing is lost: {torn}");
}

trait AssertSuccess {
    fn assert_success(&mut self);
}

impl AssertSuccess for std::process::Command {
    fn assert_success(&mut self) {
        let out = self.output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
}
