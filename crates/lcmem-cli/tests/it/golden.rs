//! Snapshots of what the user reads: the whole stdout of `lcmem tour`, and of
//! `digest`, `journal`, `facts --all` and `recall` (plain and `--json`) on the
//! example project imported, sealed and consolidated, at a fixed clock in a
//! temporary store. Temporary paths and the project slug's hash are
//! normalised, and `--json` scores rounded to 3 places (the plain output
//! prints 2), so the snapshots hold on any machine.
//!
//! A changed output fails the test. Under `CI=true` (as `.ci/run` sets) insta
//! writes nothing; locally it leaves a `.snap.new` beside the snapshot. To
//! accept an intended change: `cargo insta review`, or
//! `INSTA_UPDATE=always cargo test -p lcmem-cli --test it golden` and read the
//! diff of `tests/it/snapshots/` before committing it.

use lcmem_test_support::Normaliser;

use crate::common::{Sandbox, example_sessions};

/// The example project imported, sealed and consolidated.
pub(crate) fn sealed_example() -> Sandbox {
    let sandbox = Sandbox::new();
    sandbox.assert_cmd().arg("import").args(example_sessions()).assert().success();
    sandbox.assert_cmd().args(["seal", "--all"]).assert().success();
    sandbox.assert_cmd().arg("consolidate").assert().success();
    sandbox
}

/// The stdout of `lcmem ARGS` in `sandbox`, normalised; the command must succeed.
pub(crate) fn stdout(sandbox: &Sandbox, args: &[&str]) -> String {
    let output = sandbox.assert_cmd().args(args).assert().success().get_output().stdout.clone();
    normalise(sandbox, &String::from_utf8(output).expect("stdout is UTF-8"))
}

pub(crate) fn normalise(sandbox: &Sandbox, text: &str) -> String {
    Normaliser::new()
        .path(&sandbox.home(), "[HOME]")
        .path(&sandbox.project(), "[PROJECT]")
        .path(sandbox.dir.path(), "[SANDBOX]")
        .round("score", 3)
        .apply(text)
}

#[test]
fn tour() {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.assert_cmd();
    // The tour makes its own temporary store; HOME points away from the user's.
    let cmd = cmd.arg("tour").env("HOME", sandbox.dir.path());
    let output = cmd.assert().success().get_output().stdout.clone();
    insta::assert_snapshot!(normalise(&sandbox, &String::from_utf8(output).unwrap()));
}

#[test]
fn digest() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["digest"]));
}

#[test]
fn journal() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["journal"]));
}

#[test]
fn facts_all() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["facts", "--all"]));
}

#[test]
fn recall_refund_retries() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["recall", "refund", "retries"]));
}

#[test]
fn recall_cache_postgres_json() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["recall", "--json", "why is the product cache in Postgres"]));
}

#[test]
fn recall_journal_and_facts_json() {
    let sandbox = sealed_example();
    insta::assert_snapshot!(stdout(&sandbox, &["recall", "--json", "--kinds", "journal,fact", "stripe webhooks"]));
}
