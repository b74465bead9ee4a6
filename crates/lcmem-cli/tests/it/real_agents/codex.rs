//! The real Codex CLI against lcmem, offline: the npm package pinned in
//! `.ci/run` (`LCMEM_TEST_CODEX` names its `codex`), its model provider a
//! scripted Responses endpoint on 127.0.0.1 ([`super::responses_api`]),
//! written into the user's own `~/.codex/config.toml` the way a person would.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::messages_api::QUESTION;
use super::responses_api::Endpoint;
use crate::common::{NOW, Sandbox, eventually_or, hooks_log};

fn codex() -> Option<PathBuf> {
    let found = std::env::var_os("LCMEM_TEST_CODEX").map(PathBuf::from).filter(|p| p.exists());
    if found.is_none() {
        eprintln!("skipped: LCMEM_TEST_CODEX does not name the Codex CLI's `codex` (.ci/run installs it)");
    }
    found
}

/// The user's own Codex settings: their provider (the scripted endpoint),
/// a comment, a profile and spacing of their own, which uninstall must give
/// back byte for byte.
fn user_config(url: &str) -> String {
    format!(
        "# my codex settings\nmodel = \"gpt-5-codex\"\nmodel_provider = \"scripted\"\n\n\
         [model_providers.scripted]\nname   = \"scripted\"\nbase_url = \"{url}\"\nwire_api = \"responses\"\n\
         env_key = \"SCRIPTED_KEY\"\n\n[profiles.quiet]\nmodel_reasoning_effort = \"low\"\n"
    )
}

struct World {
    sandbox: Sandbox,
    user: PathBuf,
    endpoint: Endpoint,
}

impl World {
    fn new() -> World {
        let (sandbox, user) = super::remembering();
        sandbox.assert_cmd().args(["config", "set", "memory.quiet_secs", "0"]).assert().success();
        let git = |args: &[&str]| {
            let ok = Command::new("git").args(args).current_dir(sandbox.project()).output().unwrap().status.success();
            assert!(ok, "git {args:?}");
        };
        std::fs::create_dir_all(sandbox.project()).unwrap();
        git(&["init", "-q", "-b", "main"]);
        std::fs::create_dir_all(user.join(".codex")).unwrap();
        let endpoint = Endpoint::start();
        std::fs::write(user.join(".codex/config.toml"), user_config(&endpoint.url)).unwrap();
        World { sandbox, user, endpoint }
    }

    fn lcmem(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        super::as_user(&self.sandbox, &self.user, args)
    }

    /// `codex exec` in the project, as a script runs it; killed past two minutes.
    fn exec(&self, codex: &Path) -> std::process::Output {
        let mut command = Command::new(codex);
        command.args([
            "exec",
            "--json",
            "--dangerously-bypass-hook-trust",
            "-s",
            "workspace-write",
            "add a notes file",
        ]);
        command.current_dir(self.sandbox.project()).env("HOME", &self.user).env_remove("CODEX_HOME");
        command.env("SCRIPTED_KEY", "scripted").env("LCMEM_NOW", NOW).env_remove("LEVELCODE_HOME");
        super::succeeded(super::bounded(command), "codex exec")
    }

    fn journal(&self) -> Vec<Value> {
        super::journal(&self.sandbox)
    }

    /// The ids of the rollouts Codex recorded, oldest first.
    fn rollouts(&self) -> Vec<String> {
        let mut files: Vec<PathBuf> = crate::common::files_under(&self.user.join(".codex/sessions"))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        files
            .iter()
            .filter_map(|p| {
                let first = std::fs::read_to_string(p).ok()?.lines().next()?.to_owned();
                let meta: Value = serde_json::from_str(&first).ok()?;
                Some(meta["payload"]["id"].as_str()?.to_owned())
            })
            .collect()
    }
}

#[test]
fn codex_exec_gets_the_digest_recalls_and_its_session_is_sealed_with_what_it_did() {
    let Some(codex) = codex() else { return };
    let world = World::new();
    let config = world.user.join(".codex/config.toml");
    let before = std::fs::read(&config).unwrap();
    world.lcmem(&["install", "codex"]).success();

    world.exec(&codex);
    assert!(world.sandbox.project().join("notes.txt").exists(), "the scripted shell command did not run");
    let first = world.rollouts().pop().expect("Codex recorded the session");
    let turns = world.endpoint.turns();
    assert!(
        turns.iter().any(|body| body.to_string().contains("project-memory")),
        "the SessionStart digest never reached the model"
    );
    assert!(turns[0].to_string().contains("recall_sessions"), "lcmem's tools are not offered: {:#}", turns[0]["tools"]);
    assert!(
        turns.iter().any(|body| body.to_string().contains("hit(s) for")),
        "the recall call returned no hits to the model; the last request:\n{:#}",
        turns.last().map(|t| t["input"].clone()).unwrap_or_default()
    );

    // Codex fires no SessionEnd: the next session's start seals this one.
    std::fs::remove_file(world.sandbox.project().join("notes.txt")).unwrap();
    world.exec(&codex);
    let log = || format!("hooks log:\n{}", hooks_log(&world.sandbox));
    let sealed = || world.journal().iter().any(|e| e["session_id"] == first.as_str());
    eventually_or(&format!("{first} is sealed"), sealed, log);
    let entry = world.journal().into_iter().find(|e| e["session_id"] == first.as_str()).unwrap();
    let summary = entry["summary"].as_str().unwrap();
    assert!(!summary.to_lowercase().contains("no changes made"), "a session that wrote a file: {entry:#}");
    assert!(entry["files"].to_string().contains("notes.txt"), "{entry:#}\n{}", log());

    // What lcmem answered is never what recall finds.
    let out = world.sandbox.assert_cmd().args(["recall", "--json", QUESTION]).assert().success();
    let hits: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(hits[0]["session"], "2026-11-01-notes", "{:#}", hits[0]);
    assert!(hits.iter().all(|h| !h["snippet"].as_str().unwrap_or("").contains("hit(s) for")), "{hits:#?}");

    // Uninstall gives the user's own settings back byte for byte, after
    // Codex itself ran with them.
    world.lcmem(&["uninstall", "codex"]).success();
    assert_eq!(String::from_utf8_lossy(&std::fs::read(&config).unwrap()), String::from_utf8_lossy(&before));
    assert!(!world.user.join(".codex/hooks.json").exists(), "uninstall left lcmem's hooks file");
    let leftovers: Vec<PathBuf> = crate::common::files_under(&world.user.join(".codex"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("lcmem"))
        .collect();
    assert!(leftovers.is_empty(), "uninstall left {leftovers:?}");
}
