//! `lcmem catch-up`: seal the sessions that ended without a SessionEnd, and
//! finish a session in the background for the SessionEnd hook.
//!
//! The pipeline is the engine's (`lcmem::Memory::catch_up`); this parses,
//! calls and prints, or logs when the hooks ran it.
//! The hooks start it detached ([`spawn`]) so that an agent's exit never
//! waits for a seal.

use std::path::{Path, PathBuf};
use std::process::{ExitCode, Stdio};
use std::time::Duration;

use lcmem::{CatchUpRun, Memory};
use lcmem::{CaughtUp, Look};
use serde_json::json;

use super::shared::Agent;
use super::shared::hook_log::log;
use super::shared::parse_duration;
use crate::context::Context;

#[derive(clap::Args)]
#[command(after_help = "A session is over when its agent says so (SessionEnd), or once its transcript has not \
changed for memory.quiet_secs (300 by default; `lcmem config set memory.quiet_secs N`). Headless agents often \
end without a SessionEnd, so every session start and stop of a project runs a catch-up in the background when \
one is due, and `lcmem watch` does it for every project. Each transcript is read to its end before its session is \
sealed, so a seal never judges half a session; a session that goes on after it was sealed is sealed again as a \
revision.\n\nEach agent's transcripts folder is searched for this project's sessions that no hook took in (a \
headless run, an agent installed later): run by hand, whatever their age; from the hooks, those of the last day. \
`lcmem doctor` says how many there are.\n\nExamples:\n  lcmem catch-up                 seal what ended and went quiet\n  \
lcmem catch-up --quiet 0s      seal every session of this project that is not sealed, now")]
pub struct Args {
    /// Take a transcript unchanged for this long as ended [default: memory.quiet_secs]
    #[arg(long, value_parser = parse_duration, value_name = "DURATION")]
    quiet: Option<Duration>,
    /// Wait for this transcript to be still, then take it in and seal it first (what SessionEnd hands over)
    #[arg(long, value_name = "TRANSCRIPT")]
    ended: Option<PathBuf>,
    /// Leave this transcript alone: its session is still running
    #[arg(long, value_name = "TRANSCRIPT")]
    skip: Option<PathBuf>,
    /// Also look in this folder of --agent's transcripts (every agent's own folder is searched for this
    /// project's transcripts anyway)
    #[arg(long, value_name = "DIR")]
    transcripts: Option<PathBuf>,
    /// The agent whose transcript --ended is, and whose log lines these are [default: the first agent with hooks]
    #[arg(long, value_parser = super::shared::with_hooks(), default_value = super::shared::first_with_hooks(), hide_default_value = true)]
    agent: Agent,
    /// Write to the hooks' log (<home>/logs/hooks.log) instead of stdout: how the hooks run it
    #[arg(long)]
    log: bool,
    /// Print what was done as JSON
    #[arg(long, conflicts_with = "log")]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let (log_it, agent) = (args.log, args.agent);
    let event = if args.ended.is_some() { "SessionEnd" } else { "catch-up" };
    let result = catch_up_now(args, context);
    // Run by the hooks, nobody reads its stderr: a failure goes to their log.
    if let (true, Err(e)) = (log_it, &result) {
        log(context, agent, event, &format!("error: {}", crate::output::sentence(e)));
    }
    result
}

fn catch_up_now(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let event = if args.ended.is_some() { "SessionEnd" } else { "catch-up" };
    let say = |line: &str| if args.log { log(context, args.agent, event, line) } else { println!("{line}") };
    let settings = store.settings()?;
    if !settings.memory_enabled {
        say("memory is off for this project: nothing taken in");
        return Ok(ExitCode::SUCCESS);
    }
    let look = Look {
        quiet: args.quiet.unwrap_or_else(|| settings.quiet()),
        skip: args.skip.clone().or(args.ended.clone()),
        folder: args.transcripts.clone().map(|dir| (dir, args.agent.format())),
        agents: super::shared::transcript_folders(),
        // The hooks take in what ran lately; a catch-up asked for by hand, the
        // project's whole history in the agents' folders.
        unseen_within: args.log.then_some(Look::UNSEEN_WITHIN),
    };
    let ended = args.ended.as_deref().map(|path| (args.agent.format(), path));
    let CatchUpRun { done, refined, embed_error } = Memory::open(store).catch_up(ended, &look, context.now()?)?;
    if let Some(e) = embed_error {
        let line = format!("warning: the semantic cache was not updated: {}", crate::error_words::cli(&e));
        if args.log { log(context, args.agent, event, &line) } else { eprintln!("{line}") }
    }
    if args.json {
        let mut rows: Vec<_> = done.iter().map(row).collect();
        rows.extend(refined.iter().map(|(id, result)| refined_row(id, result)));
        crate::output::print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    if done.is_empty() && !args.log {
        println!("nothing to catch up: every session that went quiet for {} s is sealed", look.quiet.as_secs());
    }
    for caught in &done {
        say(&describe(caught));
    }
    for (id, result) in &refined {
        say(&describe_refined(id, result));
    }
    Ok(ExitCode::SUCCESS)
}

/// What the model lane made of a session the rules sealed.
fn describe_refined(id: &str, result: &lcmem::Result<lcmem::SealOutcome>) -> String {
    match result {
        Ok(outcome) if !outcome.wrote() => format!("{id}: already sealed by a model lane"),
        Ok(outcome) => {
            let entry = outcome.entry();
            match &entry.fallback {
                Some(why) => format!("{id}: the model lane was not used ({why}); the rules' line stands"),
                None => format!("{id}: read again by {}", entry.extractor),
            }
        }
        Err(e) => format!("error: cannot read {id} again with the model lane: {}", crate::error_words::cli(e)),
    }
}

fn refined_row(id: &str, result: &lcmem::Result<lcmem::SealOutcome>) -> serde_json::Value {
    match result {
        Ok(outcome) => json!({
            "session": id,
            "refined": outcome.wrote(),
            "extractor": outcome.entry().extractor,
            "fallback": outcome.entry().fallback,
        }),
        Err(e) => json!({"session": id, "error": crate::error_words::cli(e)}),
    }
}

fn describe(caught: &CaughtUp) -> String {
    match &caught.result {
        Ok(done) => done.describe(&caught.transcript),
        Err(e) => format!("error: cannot take in {}: {}", caught.transcript.display(), crate::error_words::cli(e)),
    }
}

fn row(caught: &CaughtUp) -> serde_json::Value {
    match &caught.result {
        Ok(done) => json!({
            "transcript": caught.transcript,
            "session": done.outcome.as_ref().map(|o| o.id().to_string()),
            "sealed": done.sealed.as_ref().is_some_and(lcmem::SealOutcome::wrote),
            "said": done.describe(&caught.transcript),
        }),
        Err(e) => json!({"transcript": caught.transcript, "error": crate::error_words::cli(e)}),
    }
}

/// Starts `lcmem catch-up` for the project at `cwd` as a process of its
/// own, which outlives the agent: it takes the store's lock only to write,
/// and logs what it did. The hook does not wait for it.
pub fn spawn(
    context: &Context,
    cwd: &Path,
    agent: Agent,
    ended: Option<&Path>,
    look: &Look,
) -> anyhow::Result<std::process::Child> {
    let mut command = std::process::Command::new(std::env::current_exe()?);
    command.arg("--home").arg(context.home()?).arg("--project").arg(cwd).arg("catch-up").arg("--log");
    command.arg("--agent").arg(agent.name());
    if let Some(ended) = ended {
        command.arg("--ended").arg(ended);
    }
    if let Some(skip) = &look.skip {
        command.arg("--skip").arg(skip);
    }
    if let Some((folder, _)) = &look.folder {
        command.arg("--transcripts").arg(folder);
    }
    command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    // A group of its own: the agent's end (a signal to its process group,
    // the terminal closing) does not end the seal.
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(&mut command, 0);
    Ok(command.spawn()?)
}
