//! The next session knows what the last ones said: three headless Claude Code
//! sessions each state a convention of the project in the person's words,
//! and the fourth session's request to the model carries all three in its
//! digest, with no `lcmem consolidate` and no flag; `lcmem share
//! --agents-md` then keeps them for teammates.

use std::process::Command;

use super::{World, claude, succeeded};
use crate::common::hooks_log;

/// What the person says in each session, and a piece of it the digest must hold.
const SAID: [(&str, &str); 3] = [
    ("We use pnpm in this repo, never npm. Add a notes file.", "never npm"),
    ("Deploys go out from tags only. Add a notes file.", "Deploys go out from tags only"),
    ("We use Conventional Commits for every commit. Add a notes file.", "Conventional Commits"),
];

#[test]
fn three_conventions_said_in_three_sessions_reach_the_fourth_sessions_request() {
    let Some(claude) = claude() else { return };
    let world = World::new();
    // A session no SessionEnd closed is over once quiet: at once, here, so
    // that each session's start seals the one before it.
    world.sandbox.assert_cmd().args(["config", "set", "memory.quiet_secs", "0"]).assert().success();
    let tools = ["--allowedTools", "Write", "mcp__lcmem__recall_sessions"];
    for (prompt, _) in SAID {
        let out = world.claude(&claude, &[&["-p", prompt, "--output-format", "json"][..], &tools].concat());
        succeeded(out, "claude -p");
    }
    let before = world.endpoint.turns().len();
    let out = world.claude(&claude, &[&["-p", "add a notes file", "--output-format", "json"][..], &tools].concat());
    succeeded(out, "claude -p (the fourth session)");
    let fourth: Vec<String> = world.endpoint.turns().iter().skip(before).map(|t| t.to_string()).collect();
    let first = fourth.first().cloned().unwrap_or_default();
    assert!(first.contains("project-memory"), "the fourth session got no digest\n{}", hooks_log(&world.sandbox));
    for (_, piece) in SAID {
        assert!(
            first.contains(piece),
            "the fourth session's request lacks {piece:?}\nMEMORY.md:\n{}\nhooks log:\n{}",
            std::fs::read_to_string(world.sandbox.store_dir().join("memory/MEMORY.md")).unwrap_or_default(),
            hooks_log(&world.sandbox)
        );
    }

    // The conventions the person stated are theirs to share, with no flag.
    let git = |args: &[&str]| {
        let status = Command::new("git").args(args).current_dir(world.sandbox.project()).status().unwrap();
        assert!(status.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    world.sandbox.assert_cmd().args(["share", "--agents-md"]).assert().success();
    let agents = std::fs::read_to_string(world.sandbox.project().join("AGENTS.md")).unwrap();
    for (_, piece) in SAID {
        assert!(agents.contains(piece), "AGENTS.md lacks {piece:?}:\n{agents}");
    }
}
