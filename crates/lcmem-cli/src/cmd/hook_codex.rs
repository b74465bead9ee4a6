//! `lcmem hook codex`: what Codex's hooks run (`~/.codex/hooks.json`), and
//! the `lcmem hook AGENT` front door that sends Claude Code's events to
//! `hook.rs`.
//!
//! Like the Claude Code hook it never breaks a session: whatever goes wrong,
//! it prints nothing, exits 0 and writes one line to `<home>/logs/hooks.log`.
//! The transcript goes through the same engine path as Claude Code's
//! (`lcmem::ingest::ingest`), read as a Codex rollout.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, bail};
use clap::{Args as _, FromArgMatches as _};
use jiff::Timestamp;
use lcmem::Store;
use lcmem::import::Format;
use lcmem::ingest::ingest;
use serde::Deserialize;
use serde_json::json;

use super::hook;
use crate::context::Context;

/// More input than any hook event carries: the rest is not read.
const INPUT_LIMIT: u64 = 4 << 20;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Agent {
    /// Claude Code's hooks (`lcmem install claude-code`)
    ClaudeCode,
    /// Codex's hooks (`lcmem install codex`)
    Codex,
}

#[derive(clap::Args)]
#[command(after_help = "Reads the hook's JSON on stdin; the project is the input's cwd.\n\n\
claude-code:\n  \
SessionStart  prints {\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":…}} with the \
framed digest (nothing when memory is off or there is no digest yet)\n  \
Stop          imports the transcript so far (recall sees it at once)\n  \
SessionEnd    imports the transcript and seals the session\n\n\
codex (session_id, transcript_path, cwd, hook_event_name):\n  \
SessionStart  prints the same hookSpecificOutput object, which Codex adds to the session's context\n  \
Stop          imports the rollout at transcript_path so far (after each turn; sealing is left to `lcmem watch` \
or `lcmem seal --all`)\n  \
SessionEnd    imports the rollout and seals the session, where Codex sends it\n\n\
Other events are ignored. It always exits 0; errors go to <home>/logs/hooks.log. `lcmem install AGENT` \
wires it up.")]
pub struct Args {
    /// The agent whose hook input this is
    #[arg(value_enum)]
    agent: Agent,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    match args.agent {
        Agent::ClaudeCode => {
            let matches =
                hook::Args::augment_args(clap::Command::new("hook")).try_get_matches_from(["hook", "claude-code"])?;
            hook::run(hook::Args::from_arg_matches(&matches)?, context)
        }
        Agent::Codex => Ok(codex(context)),
    }
}

/// The fields lcmem reads from Codex's hook input.
#[derive(Debug, Deserialize)]
struct Input {
    hook_event_name: String,
    cwd: Option<PathBuf>,
    transcript_path: Option<PathBuf>,
    session_id: Option<String>,
}

fn codex(context: &Context) -> ExitCode {
    let mut input = Vec::new();
    let read = std::io::stdin().take(INPUT_LIMIT).read_to_end(&mut input);
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match read {
        Ok(_) => handle(&input, context),
        Err(e) => ("?".to_string(), Err(anyhow::Error::new(e).context("cannot read the hook input"))),
    }));
    let (event, result) =
        outcome.unwrap_or_else(|_| ("?".to_string(), Err(anyhow::anyhow!("the hook panicked; nothing was printed"))));
    match result {
        Ok(Some(output)) => {
            let _ = writeln!(std::io::stdout(), "{output}");
        }
        Ok(None) => {}
        Err(error) => log(context, &event, &format!("error: {}", crate::output::sentence(&error))),
    }
    ExitCode::SUCCESS
}

fn handle(input: &[u8], context: &Context) -> (String, anyhow::Result<Option<String>>) {
    let input: Input = match serde_json::from_slice(input) {
        Ok(input) => input,
        Err(e) => return ("?".into(), Err(anyhow::anyhow!("the hook input is not Codex's hook JSON: {e}"))),
    };
    let event = input.hook_event_name.clone();
    let result = match event.as_str() {
        "SessionStart" => session_start(&input, context),
        "Stop" => take_in(&input, context, false).map(|()| None),
        "SessionEnd" => take_in(&input, context, true).map(|()| None),
        _ => Ok(None),
    };
    (event, result)
}

fn store_for(input: &Input, context: &Context) -> anyhow::Result<Store> {
    let Some(cwd) = &input.cwd else { bail!("the hook input has no cwd, so there is no project") };
    Store::open(&context.home()?, cwd).with_context(|| format!("cannot open the project at {}", cwd.display()))
}

fn session_start(input: &Input, context: &Context) -> anyhow::Result<Option<String>> {
    let store = store_for(input, context)?;
    let Some(digest) = lcmem::digest::digest(&store)? else { return Ok(None) };
    let output = json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": digest.text}});
    Ok(Some(output.to_string()))
}

fn take_in(input: &Input, context: &Context, seal: bool) -> anyhow::Result<()> {
    let Some(transcript) = &input.transcript_path else { bail!("the hook input has no transcript_path") };
    let store = store_for(input, context)?;
    match ingest(&store, Format::Codex, transcript, seal, context.now()?) {
        Ok(done) => {
            log(context, &input.hook_event_name, &done.describe(transcript));
            Ok(())
        }
        Err(lcmem::Error::MemoryOff { .. }) => {
            let session = input.session_id.as_deref().unwrap_or("?");
            let line = format!("memory is off for this project: session {session} not taken in");
            log(context, &input.hook_event_name, &line);
            Ok(())
        }
        Err(error) => Err(anyhow::Error::new(error).context(format!("cannot take in {}", transcript.display()))),
    }
}

/// One line in the hooks' shared log; best effort, never failing the session.
fn log(context: &Context, event: &str, message: &str) {
    let Ok(home) = context.home() else { return };
    let path = hook::log_path(&home);
    let _ = std::fs::create_dir_all(path.parent().unwrap_or(&home));
    let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(&path) else { return };
    let _ = writeln!(file, "{} codex {event}: {message}", Timestamp::now());
}
