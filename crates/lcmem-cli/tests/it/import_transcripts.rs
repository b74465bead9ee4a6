//! `lcmem import` on Claude Code and Codex CLI transcripts, as a user runs it.

use std::path::{Path, PathBuf};

use crate::common::{Sandbox, claude_transcript};
use predicates::prelude::*;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../lcmem/tests/fixtures").join(name)
}

fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// `lcmem` run in another project than the sandbox's.
fn in_project(sandbox: &Sandbox, project: &Path) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::from_std(std::process::Command::new(env!("CARGO_BIN_EXE_lcmem")));
    cmd.arg("--home").arg(sandbox.home()).arg("--project").arg(project);
    cmd.env("LCMEM_NOW", "2026-11-30T12:00:00Z").env_remove("LEVELCODE_HOME");
    cmd
}

fn store_dir(sandbox: &Sandbox, project: &Path) -> PathBuf {
    sandbox.home().join("sessions").join(lcmem::project::Project::resolve(project).unwrap().slug)
}

#[test]
fn a_claude_code_transcript_is_converted_once_and_extended_as_it_grows() {
    let sandbox = Sandbox::new();
    let source = std::fs::read_to_string(fixture("claude_code_session.jsonl")).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let transcript = sandbox.inbox().join("5f0c.jsonl");
    write(&transcript, &lines[..8].iter().map(|l| format!("{l}\n")).collect::<String>());

    // Imports the transcript as it is now; the first line of stdout must start with `said`.
    let import = |format: &[&str], said: &str| {
        let out = sandbox.assert_cmd().arg("import").args(format).arg(&transcript).output().unwrap();
        assert!(out.status.success() && stdout_of(&out).starts_with(said), "{}", stdout_of(&out));
    };
    import(&[], "added     5f0c1b9e-2a4d-4c7e-9b1a-0d3e6f7a8b9c (claude-code:");
    let stored = sandbox.store_dir().join("5f0c1b9e-2a4d-4c7e-9b1a-0d3e6f7a8b9c.jsonl");
    let before = std::fs::read(&stored).unwrap();
    import(&[], "unchanged 5f0c1b9e");
    assert_eq!(std::fs::read(&stored).unwrap(), before);

    write(&transcript, &source);
    import(&["--format", "claude-code"], "extended  5f0c1b9e-2a4d-4c7e-9b1a-0d3e6f7a8b9c: 9 new line(s)");
    let after = std::fs::read(&stored).unwrap();
    assert!(after.starts_with(&before));
    import(&[], "unchanged");

    let out = sandbox.assert_cmd().args(["sessions"]).output().unwrap();
    // The summary Claude Code wrote after the first import is the session's title now.
    assert!(stdout_of(&out).contains("HTTP client retries with backoff"), "{}", stdout_of(&out));
}

#[test]
fn malformed_lines_are_warned_about_with_file_and_line() {
    let sandbox = Sandbox::new();
    sandbox
        .assert_cmd()
        .arg("import")
        .arg(fixture("claude_code_malformed.jsonl"))
        .assert()
        .success()
        .stdout(
            predicate::str::contains("added     malformed-session").and(predicate::str::contains("7 line(s) skipped")),
        )
        .stderr(
            predicate::str::contains("warning: ")
                .and(predicate::str::contains("claude_code_malformed.jsonl:2: line is not valid JSON"))
                .and(predicate::str::contains("claude_code_malformed.jsonl:7: tool_use block 1 has no \"name\"")),
        );
}

#[test]
fn folders_are_searched_and_formats_told_apart_per_file() {
    let sandbox = Sandbox::new();
    let inbox = sandbox.inbox();
    std::fs::copy(fixture("codex_rollout.jsonl"), inbox.join("rollout-1.jsonl")).unwrap();
    std::fs::create_dir_all(inbox.join("nested")).unwrap();
    std::fs::copy(fixture("claude_code_summary_first.jsonl"), inbox.join("nested/cc.jsonl")).unwrap();
    crate::common::write_session(&inbox, "plain-v1", &crate::common::working_session(1));
    write(&inbox.join("other.jsonl"), "{\"unrelated\":true}\n");
    let out = sandbox.assert_cmd().arg("import").arg(&inbox).assert().success().get_output().clone();
    let stdout = stdout_of(&out);
    assert!(stdout.contains("added     0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b (codex: 6 message(s), 4 tool action(s))"));
    assert!(stdout.contains("added     9a8b7c6d-0000-4000-8000-000000000002 (claude-code:"), "{stdout}");
    assert!(stdout.contains("added     plain-v1\n"), "v1 files keep their wording: {stdout}");
    assert!(stdout.contains("and 1 file(s) that are not sessions, left alone"), "{stdout}");
    let dry = sandbox.assert_cmd().args(["import", "--dry-run"]).arg(&inbox).assert().success().get_output().clone();
    let listed = stdout_of(&dry);
    assert!(
        listed.contains("not a session or a transcript lcmem knows:") && listed.contains("other.jsonl"),
        "{listed}"
    );
}

#[test]
fn all_claude_code_transcripts_go_to_the_projects_they_were_recorded_in() {
    let sandbox = Sandbox::new();
    let root = sandbox.dir.path();
    let alpha = root.join("work/alpha");
    std::fs::create_dir_all(alpha.join(".git")).unwrap();
    std::fs::create_dir_all(alpha.join("src")).unwrap();
    let beta = root.join("work/beta");
    std::fs::create_dir_all(&beta).unwrap();
    let claude = root.join("claude-config");
    let projects = claude.join("projects");
    write(&projects.join("-work-alpha/a1.jsonl"), &claude_transcript("a1", &alpha.join("src"), "Fix the parser."));
    write(&projects.join("-work-beta/b1.jsonl"), &claude_transcript("b1", &beta, "Tidy the CHANGELOG."));
    // A subagent's transcript carries its parent's id and is left out.
    write(&projects.join("-work-beta/b1/subagents/agent-x.jsonl"), &claude_transcript("b1", &beta, "Search."));
    write(&projects.join("-work-beta/agent-y.jsonl"), &claude_transcript("b1", &beta, "Search."));

    let out = sandbox
        .assert_cmd()
        .args(["import", "--all", "claude-code"])
        .env("CLAUDE_CONFIG_DIR", &claude)
        .assert()
        .success()
        .get_output()
        .clone();
    let stdout = stdout_of(&out);
    assert!(stdout.contains("2 claude-code transcript(s) into 2 project(s): 2 added"), "{stdout}");
    assert!(store_dir(&sandbox, &alpha).join("a1.jsonl").is_file(), "a subfolder's session belongs to its repository");
    assert!(store_dir(&sandbox, &beta).join("b1.jsonl").is_file());
    let stored = std::fs::read_to_string(store_dir(&sandbox, &alpha).join("a1.jsonl")).unwrap();
    // Paths are made relative to the folder the session was recorded in.
    assert!(stored.contains(r#""files":["src/lib.rs"]"#), "{stored}");

    // Again: nothing changes. --from points elsewhere explicitly.
    let import_all = || sandbox.assert_cmd().args(["import", "--all", "claude-code", "--from"]).arg(&projects).assert();
    import_all().success().stdout(predicate::str::contains("0 added, 0 extended, 2 unchanged"));

    // Sealing in a project works on what was imported there.
    in_project(&sandbox, &alpha)
        .args(["seal", "--all"])
        .assert()
        .success()
        .stdout(predicate::str::contains("sealed  a1"));

    // A project with memory off is skipped, and said to be.
    in_project(&sandbox, &beta).args(["config", "set", "memory.enabled", "false"]).assert().success();
    let grown = claude_transcript("b1", &beta, "Tidy the CHANGELOG.")
        + &claude_transcript("b1", &beta, "And the README.").replace("b1-u1", "b1-u2").replace("b1-a1", "b1-a2");
    write(&projects.join("-work-beta/b1.jsonl"), &grown);
    let before = std::fs::read(store_dir(&sandbox, &beta).join("b1.jsonl")).unwrap();
    import_all()
        .success()
        .stderr(predicate::str::contains("skipped   transcripts of").and(predicate::str::contains("memory is off")))
        .stdout(predicate::str::contains("1 skipped"));
    assert_eq!(std::fs::read(store_dir(&sandbox, &beta).join("b1.jsonl")).unwrap(), before);

    // Memory off everywhere: exit 3, as for every command that would write.
    sandbox.assert_cmd().args(["config", "set", "memory.enabled", "false", "--global"]).assert().success();
    sandbox.assert_cmd().args(["import", "--all", "claude-code", "--from"]).arg(&projects).assert().code(3);
}

#[test]
fn all_codex_rollouts_are_found_under_codex_home() {
    let sandbox = Sandbox::new();
    let root = sandbox.dir.path();
    let project = root.join("billing");
    std::fs::create_dir_all(&project).unwrap();
    let codex_home = root.join("codex");
    let rollout = std::fs::read_to_string(fixture("codex_rollout.jsonl"))
        .unwrap()
        .replace("/home/ana/code/billing", project.to_str().unwrap());
    write(&codex_home.join("sessions/2026/11/23/rollout-2026-11-23T14-00-00-0199a1b2.jsonl"), &rollout);
    // An old rollout records no folder, so it has no project to go to.
    let legacy = std::fs::read_to_string(fixture("codex_legacy.jsonl")).unwrap();
    write(&codex_home.join("sessions/2025/05/02/rollout-2025-05-02T09-00-00-0d6e5f4a.jsonl"), &legacy);
    sandbox
        .assert_cmd()
        .args(["import", "--all", "codex"])
        .env("CODEX_HOME", &codex_home)
        .assert()
        .success()
        .stdout(predicate::str::contains("2 codex transcript(s) into 1 project(s): 1 added"))
        .stderr(predicate::str::contains("records no working directory"));
    assert!(store_dir(&sandbox, &project).join("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl").is_file());
}

#[test]
fn help_teaches_formats_and_all() {
    sandbox_help().stdout(
        predicate::str::contains("--all <TOOL>")
            .and(predicate::str::contains("claude-code"))
            .and(predicate::str::contains("lcmem import --all codex"))
            .and(predicate::str::contains("--from <DIR>")),
    );
    // --all takes the place of files; --from needs --all.
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().args(["import", "--all", "codex", "x.jsonl"]).assert().code(2);
    sandbox.assert_cmd().args(["import", "--from", "x", "y.jsonl"]).assert().code(2);
    sandbox.assert_cmd().args(["import", "--all", "cursor"]).assert().code(2);
}

fn sandbox_help() -> assert_cmd::assert::Assert {
    Sandbox::new().assert_cmd().args(["import", "--help"]).assert().success()
}

/// The public sample transcripts in `../shared/transcripts/`, when present.
#[test]
fn every_shared_sample_transcript_imports_seals_and_reimports_as_unchanged() {
    let samples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/transcripts");
    if !samples.is_dir() {
        println!("note: {} is absent; skipping the sample transcripts", samples.display());
        return;
    }
    let count = std::fs::read_dir(&samples).unwrap().filter(|e| e.as_ref().unwrap().path().is_file()).count();
    let sandbox = Sandbox::new();
    let out = sandbox.assert_cmd().arg("import").arg(&samples).assert().success().get_output().clone();
    let stdout = stdout_of(&out);
    assert_eq!(stdout.matches("added     ").count(), count, "{stdout}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("claude-code-log_edge_cases.jsonl:"), "the malformed sample is reported: {stderr}");
    assert!(stderr.lines().all(|l| l.starts_with("warning: ")), "{stderr}");

    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    let out = sandbox.assert_cmd().args(["journal", "--json"]).output().unwrap();
    let entries: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(entries.len(), count);
    for entry in &entries {
        let summary = entry["summary"].as_str().unwrap();
        assert!(!summary.is_empty() && summary.len() <= 600, "{summary}");
    }
    let journal = serde_json::to_string(&entries).unwrap();
    assert!(journal.contains("decorator_example.py"), "files touched reach the journal: {journal}");

    let again = sandbox.assert_cmd().arg("import").arg(&samples).assert().success().get_output().clone();
    let stdout = stdout_of(&again);
    assert_eq!(stdout.matches("unchanged ").count(), count, "{stdout}");
    assert!(!stdout.contains("added") && !stdout.contains("extended"), "{stdout}");
}
