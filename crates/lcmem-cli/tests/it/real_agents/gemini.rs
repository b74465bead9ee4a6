//! The real Gemini CLI against lcmem, offline: the npm package pinned in
//! `.ci/run` (`LCMEM_TEST_GEMINI` names its `gemini`), its model a scripted
//! Gemini API endpoint on 127.0.0.1 ([`super::gemini_api`]), with the
//! user's own `~/.gemini/settings.json` as a person would write it.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

use super::gemini_api::Endpoint;
use super::messages_api::QUESTION;
use crate::common::{NOW, Sandbox, eventually_or, hooks_log};

fn gemini() -> Option<PathBuf> {
    let found = std::env::var_os("LCMEM_TEST_GEMINI").map(PathBuf::from).filter(|p| p.exists());
    if found.is_none() {
        eprintln!("skipped: LCMEM_TEST_GEMINI does not name the Gemini CLI's `gemini` (.ci/run installs it)");
    }
    found
}

/// The user's own settings: an API key login, no update checks, spacing of
/// their own, which uninstall must give back byte for byte.
const USER_SETTINGS: &str = "{\n  \"security\": { \"auth\": { \"selectedType\": \"gemini-api-key\" } },\n  \
\"general\": { \"enableAutoUpdate\": false, \"enableAutoUpdateNotification\": false },\n  \
\"privacy\": { \"usageStatisticsEnabled\": false }\n}\n";

struct World {
    sandbox: Sandbox,
    user: PathBuf,
    endpoint: Endpoint,
}

impl World {
    fn new() -> World {
        let (sandbox, user) = super::remembering();
        sandbox.assert_cmd().args(["config", "set", "memory.quiet_secs", "0"]).assert().success();
        std::fs::create_dir_all(user.join(".gemini")).unwrap();
        std::fs::write(user.join(".gemini/settings.json"), USER_SETTINGS).unwrap();
        let endpoint = Endpoint::start(sandbox.project());
        World { sandbox, user, endpoint }
    }

    fn lcmem(&self, args: &[&str]) -> assert_cmd::assert::Assert {
        super::as_user(&self.sandbox, &self.user, args)
    }

    /// `gemini -p` in the project, as a script runs it; killed past two minutes.
    fn headless(&self, gemini: &Path) -> std::process::Output {
        let mut command = Command::new(gemini);
        command.args(["-p", "add a notes file", "--yolo", "-m", "gemini-2.5-flash", "-o", "json"]);
        command.current_dir(self.sandbox.project()).env("HOME", &self.user).env_remove("GEMINI_CLI_HOME");
        command.env("GEMINI_API_KEY", "scripted").env("GOOGLE_GEMINI_BASE_URL", &self.endpoint.url);
        command.env("GEMINI_CLI_TRUST_WORKSPACE", "true").env("LCMEM_NOW", NOW);
        command.env("LEVELCODE_HOME", self.sandbox.home());
        super::succeeded(super::bounded(command), "gemini -p")
    }

    /// The ids lcmem gives the sessions Gemini CLI recorded: each file's name
    /// (one `sessionId` may span several files), for a file whose first line
    /// is a session's.
    fn sessions(&self) -> Vec<String> {
        crate::common::files_under(&self.user.join(".gemini/tmp"))
            .iter()
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("session-")))
            .filter_map(|p| {
                let first = std::fs::read_to_string(p).ok()?.lines().next()?.to_owned();
                serde_json::from_str::<Value>(&first).ok()?["sessionId"].as_str()?;
                Some(p.file_stem()?.to_string_lossy().into_owned())
            })
            .collect()
    }
}

#[test]
fn headless_gemini_gets_the_digest_recalls_and_its_session_is_sealed_with_what_it_did() {
    let Some(gemini) = gemini() else { return };
    let world = World::new();
    let settings = world.user.join(".gemini/settings.json");
    world.lcmem(&["install", "gemini-cli"]).success();

    world.headless(&gemini);
    assert!(world.sandbox.project().join("notes.txt").exists(), "the scripted write_file did not run");
    let turns = world.endpoint.turns();
    let log = || format!("hooks log:\n{}", hooks_log(&world.sandbox));
    assert!(
        turns.iter().any(|body| body.to_string().contains("project-memory")),
        "the SessionStart digest never reached the model\n{}",
        log()
    );
    let offered = super::gemini_api::declared(&turns[0]);
    assert!(offered.iter().any(|t| t.ends_with("recall_sessions")), "lcmem's tools are not offered: {offered:?}");
    assert!(
        turns.iter().any(|body| body.to_string().contains("hit(s) for")),
        "the recall call returned no hits to the model: {:#}",
        turns.last().map(|t| t["contents"].clone()).unwrap_or_default()
    );

    // SessionEnd seals the session, with the file it wrote.
    let ids = world.sessions();
    let first = ids.first().expect("Gemini CLI recorded the session").clone();
    let sealed = || super::journal(&world.sandbox).iter().any(|e| e["session_id"] == first.as_str());
    eventually_or(&format!("{first} is sealed"), sealed, log);
    let entry = super::journal(&world.sandbox).into_iter().find(|e| e["session_id"] == first.as_str()).unwrap();
    assert!(!entry["summary"].as_str().unwrap().to_lowercase().contains("no changes made"), "{entry:#}");
    assert!(entry["files"].to_string().contains("notes.txt"), "{entry:#}\n{}", log());
    // The digest it was given is not the user's words: the session is titled by its request.
    assert_eq!(entry["title"], "Add a notes file", "{entry:#}");

    // What lcmem answered is never what recall finds.
    let out = world.sandbox.assert_cmd().args(["recall", "--json", QUESTION]).assert().success();
    let hits: Vec<Value> = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(hits[0]["session"], "2026-11-01-notes", "{:#}", hits[0]);
    assert!(hits.iter().all(|h| !h["snippet"].as_str().unwrap_or("").contains("hit(s) for")), "{hits:#?}");

    // Uninstall gives the user's own settings back byte for byte, after
    // Gemini CLI itself ran with them.
    world.lcmem(&["uninstall", "gemini-cli"]).success();
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), USER_SETTINGS);
    let leftovers: Vec<PathBuf> = crate::common::files_under(&world.user.join(".gemini"))
        .into_iter()
        .filter(|p| p.to_string_lossy().contains("lcmem"))
        .collect();
    assert!(leftovers.is_empty(), "uninstall left {leftovers:?}");
}
