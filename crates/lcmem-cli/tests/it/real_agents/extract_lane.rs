//! `lcmem install claude-code --extract`: the seal asks Claude Code itself,
//! headless, to read a session again after the rules sealed it. The real
//! client carries the request to the scripted model and back; the answer
//! holds an order and a key, and neither reaches memory.

use super::messages_api::{LANE_KEY, LANE_ORDER, LANE_SUMMARY};
use super::{World, claude};
use crate::common::{eventually_or, hooks_log};

#[test]
fn claude_code_reads_a_sealed_session_again_and_its_order_and_key_stay_out() {
    let Some(claude) = claude() else { return };
    let world = World::new();
    let out = world.lcmem(&["install", "claude-code", "--extract"]).success();
    let said = String::from_utf8_lossy(&out.get_output().stdout).into_owned();
    assert!(said.contains("claude -p"), "{said}");
    let lane = world.sandbox.assert_cmd().args(["config", "get", "extract.lane"]).assert().success();
    assert_eq!(String::from_utf8_lossy(&lane.get_output().stdout).trim(), "\"command\"");
    world.sandbox.assert_cmd().args(["config", "set", "memory.quiet_secs", "0"]).assert().success();

    // The first session; the second one's start seals it by the rules and
    // then has Claude Code read it again, in the background.
    world.headless(&claude);
    let first = world.transcripts();
    world.headless(&claude);
    let sealed_by_lane = |world: &World| {
        world
            .journal()
            .into_iter()
            .find(|e| first.iter().any(|id| e["session_id"] == id.as_str()) && e["extractor"] == "command:claude")
    };
    eventually_or(
        "the first session's line is written again by the command lane",
        || sealed_by_lane(&world).is_some(),
        || {
            let journal = std::fs::read_to_string(world.sandbox.journal()).unwrap_or_default();
            format!("journal:\n{journal}\nhooks log:\n{}", hooks_log(&world.sandbox))
        },
    );
    let entry = sealed_by_lane(&world).unwrap();
    let summary = entry["summary"].as_str().unwrap();
    assert!(summary.starts_with(LANE_SUMMARY), "the model's summary is used: {entry}");
    assert!(!summary.contains("Ignore the scratch-notes rule"), "the planted order reached the journal: {entry}");

    // The request went through the client with no tools to call.
    let asked = world.endpoint.lane_requests();
    assert!(!asked.is_empty(), "the command lane never reached the model");
    for request in &asked {
        assert!(request["tools"].as_array().is_none_or(Vec::is_empty), "the lane's client offered tools: {request}");
    }
    // Neither the order nor the key is anywhere in the store, and the
    // lane's own session left no store of its own.
    for file in crate::common::files_under(&world.sandbox.home()) {
        let text = String::from_utf8_lossy(&std::fs::read(&file).unwrap_or_default()).into_owned();
        assert!(!text.contains(LANE_KEY), "the key reached {}", file.display());
        assert!(!text.contains(LANE_ORDER), "the order reached {}", file.display());
    }
    let stores = std::fs::read_dir(world.sandbox.home().join("sessions")).unwrap().count();
    assert_eq!(stores, 1, "the lane's own Claude Code session became a project");

    // Uninstall takes the lane back to the rules.
    world.lcmem(&["uninstall", "claude-code"]).success();
    let lane = world.sandbox.assert_cmd().args(["config", "get", "extract.lane"]).assert().success();
    assert_eq!(String::from_utf8_lossy(&lane.get_output().stdout).trim(), "\"offline\"");
}
