//! One memory per repository: worktrees and subfolders share it, `--project`
//! takes a slug, and `lcmem project move` keeps a moved project's memory.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;

use crate::common::{NOW, Sandbox, lcmem_bin};

/// `lcmem --home …` with no `--project`: each test names the folder.
fn lcmem(sandbox: &Sandbox) -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(lcmem_bin());
    cmd.arg("--home").arg(sandbox.home()).env("LCMEM_NOW", NOW).env_remove("LEVELCODE_HOME");
    cmd
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid", "-c", "init.defaultBranch=main"])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

/// The sandbox's project as a git repository with one commit, and a linked
/// worktree of it beside it (`git worktree add`): the worktree's path.
fn repository_with_worktree(sandbox: &Sandbox) -> PathBuf {
    let project = sandbox.project();
    std::fs::create_dir_all(project.join("src/deep")).unwrap();
    git(&project, &["init", "-q"]);
    git(&project, &["commit", "-q", "--allow-empty", "-m", "init"]);
    let worktree = sandbox.dir.path().join("project-feature");
    git(&project, &["worktree", "add", "-q", "-b", "feature", "../project-feature"]);
    worktree
}

fn remember_the_example(sandbox: &Sandbox) {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/shop/sessions");
    sandbox.assert_cmd().arg("import").arg(examples).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
}

fn session_start(sandbox: &Sandbox, cwd: &Path) -> String {
    let input = json!({
        "session_id": "w1", "transcript_path": "/unused.jsonl", "cwd": cwd,
        "hook_event_name": "SessionStart", "source": "startup"
    });
    let out = sandbox.assert_cmd().args(["hook", "claude-code"]).write_stdin(input.to_string()).assert().success();
    String::from_utf8_lossy(&out.get_output().stdout).into_owned()
}

fn sessions_in(sandbox: &Sandbox, project: &Path) -> String {
    let mut cmd = lcmem(sandbox);
    cmd.args(["--project"]).arg(project).arg("sessions");
    String::from_utf8_lossy(&cmd.assert().success().get_output().stdout).into_owned()
}

#[test]
fn a_worktrees_session_start_gets_the_repositorys_digest() {
    let sandbox = Sandbox::new();
    let worktree = repository_with_worktree(&sandbox);
    remember_the_example(&sandbox);
    let out = session_start(&sandbox, &worktree);
    assert!(out.contains("additionalContext") && out.contains("v1.0.4"), "no digest in the worktree: {out:?}");
    assert_eq!(out, session_start(&sandbox, &sandbox.project()), "the worktree's digest is another one");
}

#[test]
fn a_subfolder_and_a_worktree_resolve_to_the_same_store() {
    let sandbox = Sandbox::new();
    let worktree = repository_with_worktree(&sandbox);
    remember_the_example(&sandbox);
    let main = sessions_in(&sandbox, &sandbox.project());
    assert!(main.contains("CHANGELOG"), "{main}");
    assert_eq!(sessions_in(&sandbox, &sandbox.project().join("src/deep")), main);
    assert_eq!(sessions_in(&sandbox, &worktree), main);
    std::fs::create_dir_all(worktree.join("lib")).unwrap();
    assert_eq!(sessions_in(&sandbox, &worktree.join("lib")), main);
}

#[test]
fn project_takes_a_store_slug() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    remember_the_example(&sandbox);
    let slug = sandbox.store_dir().file_name().unwrap().to_string_lossy().into_owned();
    let by_path = sessions_in(&sandbox, &sandbox.project());
    // From another folder, as for sessions recorded at a cwd this machine does not have.
    let mut cmd = lcmem(&sandbox);
    cmd.current_dir(sandbox.dir.path()).args(["--project", &slug, "sessions"]);
    let by_slug = String::from_utf8_lossy(&cmd.assert().success().get_output().stdout).into_owned();
    assert_eq!(by_slug, by_path);
    let mut cmd = lcmem(&sandbox);
    cmd.current_dir(sandbox.dir.path()).args(["--project", "nothing-00000000", "sessions"]);
    cmd.assert().code(1);
}

#[test]
fn project_move_keeps_a_moved_projects_memory() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.project()).unwrap();
    remember_the_example(&sandbox);
    let before = sessions_in(&sandbox, &sandbox.project());
    let moved = sandbox.dir.path().join("moved-project");
    std::fs::rename(sandbox.project(), &moved).unwrap();
    let mut cmd = sandbox.assert_cmd();
    cmd.args(["project", "move"]).arg(sandbox.project()).arg(&moved);
    let out = cmd.assert().success();
    assert!(String::from_utf8_lossy(&out.get_output().stdout).contains("moved the memory"));
    assert_eq!(sessions_in(&sandbox, &moved), before);
    // Again: the old folder has no memory any more, and it says so.
    let mut cmd = sandbox.assert_cmd();
    cmd.args(["project", "move"]).arg(sandbox.project()).arg(&moved);
    let error = String::from_utf8_lossy(&cmd.assert().code(1).get_output().stderr).into_owned();
    assert!(error.contains("has no memory"), "{error}");
}

#[test]
fn a_worktree_store_made_under_the_old_rule_is_kept() {
    let sandbox = Sandbox::new();
    let worktree = repository_with_worktree(&sandbox);
    // What an earlier lcmem made for the worktree: a store under the worktree's own slug.
    let old =
        sandbox.home().join("sessions").join(lcmem::project::slug_for(&std::fs::canonicalize(&worktree).unwrap()));
    let session = crate::common::write_session(&sandbox.inbox(), "old1", &crate::common::working_session(1));
    std::fs::create_dir_all(&old).unwrap();
    std::fs::copy(&session, old.join("old1.jsonl")).unwrap();
    let listed = sessions_in(&sandbox, &worktree);
    assert!(listed.contains("old1"), "the old store was lost: {listed}");
    assert_eq!(sessions_in(&sandbox, &sandbox.project()), listed, "the main checkout does not see it");
}
