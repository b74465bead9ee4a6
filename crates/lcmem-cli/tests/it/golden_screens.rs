//! More snapshots of what people read: the tables and lists of the example
//! project, the install diff, and every command's `--help` (what teaches the
//! tool). Same rules as `golden`: paths normalised, a changed output fails,
//! an intended change is accepted by reading the `.snap.new` diff.

use crate::common::{Sandbox, message, tool};
use crate::golden::{normalise, sealed_example, stdout};

#[test]
fn sessions() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["sessions"]));
}

#[test]
fn sessions_json() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["sessions", "--json"]));
}

/// Ids of every length (an agent's UUIDs beside dated ids) keep the columns
/// straight, and an empty cell keeps its place.
#[test]
fn sessions_with_uuid_ids() {
    let sandbox = Sandbox::new();
    let body = [message("user", "Fix the flaky upload test."), tool("Edit", &["tests/upload.rs"])];
    let files = [
        sandbox.write_session("0b6f3c2e-8d1a-4f5e-9c7b-2a1d3e4f5a6b", &body),
        sandbox.write_session("2026-11-20-upload", &body),
    ];
    sandbox.assert_cmd().arg("import").args(files).assert().success();
    insta::assert_snapshot!(stdout(&sandbox, &["sessions"]));
}

#[test]
fn facts() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["facts"]));
}

#[test]
fn facts_pending() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["facts", "pending"]));
}

#[test]
fn facts_conflicts() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["facts", "conflicts"]));
}

#[test]
fn journal_json() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["journal", "--json"]));
}

#[test]
fn digest_json() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["digest", "--json"]));
}

#[test]
fn welcome() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["welcome"]));
}

/// With no model: what semantic recall is and the one command that turns it on.
#[test]
fn model_status_without_a_model() {
    let sandbox = sealed_example();
    insta::assert_snapshot!(format!(
        "{}{}",
        stdout(&sandbox, &["model", "status"]),
        stdout(&sandbox, &["model", "status", "--json"])
    ));
}

#[test]
fn export_memory() {
    insta::assert_snapshot!(stdout(&sealed_example(), &["export", "memory"]));
}

/// What `install` prints before it writes: a summary line per file and the
/// diff with context, here over the project's settings file as it was.
#[test]
fn install_claude_code_dry_run() {
    let sandbox = Sandbox::new();
    let settings = sandbox.project().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\n  \"theme\": \"dark\",\n  \"model\": \"opus\"\n}\n").unwrap();
    let output =
        sandbox.assert_cmd().args(["install", "claude-code", "--dry-run", "--command", "lcmem"]).assert().success();
    let text = String::from_utf8(output.get_output().stdout.clone()).unwrap();
    insta::assert_snapshot!(Normaliser(&sandbox).apply(&text));
}

struct Normaliser<'a>(&'a Sandbox);

impl Normaliser<'_> {
    fn apply(&self, text: &str) -> String {
        normalise(self.0, &text.replace(&self.0.user().display().to_string(), "[USER]"))
    }
}

/// `lcmem ARGS --help`, at a fixed width.
fn help(args: &[&str]) -> String {
    let sandbox = Sandbox::new();
    let mut cmd = sandbox.assert_cmd();
    cmd.args(args).arg("--help").env("COLUMNS", "100");
    let output = cmd.assert().success().get_output().stdout.clone();
    normalise(&sandbox, &String::from_utf8(output).unwrap())
}

macro_rules! help_snapshots {
    ($($name:ident => [$($arg:literal),*];)*) => {
        $(
            #[test]
            fn $name() {
                insta::assert_snapshot!(help(&[$($arg),*]));
            }
        )*
    };
}

help_snapshots! {
    help_lcmem => [];
    help_import => ["import"];
    help_seal => ["seal"];
    help_sessions => ["sessions"];
    help_journal => ["journal"];
    help_consolidate => ["consolidate"];
    help_digest => ["digest"];
    help_welcome => ["welcome"];
    help_pin => ["pin"];
    help_config => ["config"];
    help_facts => ["facts"];
    help_forget => ["forget"];
    help_guard => ["guard"];
    help_redact => ["redact"];
    help_recall => ["recall"];
    help_index => ["index"];
    help_model => ["model"];
    help_model_install => ["model", "install"];
    help_model_status => ["model", "status"];
    help_index_embed => ["index", "embed"];
    help_mcp => ["mcp"];
    help_hook => ["hook"];
    help_project => ["project"];
    help_share => ["share"];
    help_install => ["install"];
    help_uninstall => ["uninstall"];
    help_watch => ["watch"];
    help_catch_up => ["catch-up"];
    help_doctor => ["doctor"];
    help_tour => ["tour"];
    help_ui => ["ui"];
    help_export => ["export"];
}
