//! `lcmem hook AGENT` (claude-code, codex, gemini-cli): what the agents'
//! hooks run at session start, after each turn and at the end. The agents
//! send the same fields (`hook_event_name`, `cwd`, `transcript_path`,
//! `session_id`) and take the same SessionStart output; what differs (the
//! events' names, the transcript's format, where its siblings are) is the
//! agent's source (`lcmem::agents::Source`).
//!
//! A hook runs inside someone's working session, so it must never break it:
//! whatever goes wrong (no store, memory off, a corrupt transcript, bad
//! input, even a panic), it prints nothing that could steer the agent, exits
//! 0, and writes what happened to `<home>/logs/hooks.log`. Nor may it hang:
//! it reads one JSON value from stdin and stops there, without waiting for
//! the end of input (Claude Code may leave the pipe open), within a bound on
//! time and on size.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context as _, bail};
use lcmem::Store;
use serde::Deserialize;
use serde_json::json;

use super::shared::Agent;
use super::shared::hook_log::log;
use crate::context::Context;
use lcmem::agents::HookStep;
use lcmem::{Memory, Then};

/// More input than any hook event carries: past it, the hook gives up.
const INPUT_LIMIT: usize = 1 << 20;
/// How long the hook waits for a complete JSON value on stdin.
const INPUT_WAIT: Duration = Duration::from_secs(2);

/// The help's closing part: what each event does, with the names agents give
/// the end of a turn, from the engine's list of agents.
fn after_help() -> String {
    let turn_ends: Vec<String> = lcmem::agents::SOURCES
        .iter()
        .filter_map(|s| Some((s, s.wiring().hooks?)))
        .flat_map(|(s, hooks)| {
            let events =
                hooks.events.iter().filter(|e| e.name != "Stop" && s.hook_step(e.name) == Some(HookStep::TakeIn));
            events.map(|e| format!("{} for {}", e.name, s.name())).collect::<Vec<_>>()
        })
        .collect();
    let named = if turn_ends.is_empty() { String::new() } else { format!(" (named {})", turn_ends.join(", ")) };
    format!(
        "Reads the hook's JSON on stdin (hook_event_name, cwd, transcript_path, session_id); the project is the \
         input's cwd.\n  \
         SessionStart  prints {{\"hookSpecificOutput\":{{\"hookEventName\":\"SessionStart\",\"additionalContext\":…}}}} \
         with the framed digest (nothing when memory is off or there is no digest yet)\n  \
         Stop          imports the transcript so far (recall sees it at once); it never seals: the session goes on{named}\n  \
         SessionEnd    starts `lcmem catch-up --ended TRANSCRIPT` in the background and returns at once: it waits for \
         the transcript to be still, imports it and seals the session, and logs what it did\n\
         At SessionStart and Stop, sessions of the project that ended without a SessionEnd and went quiet \
         (memory.quiet_secs), and the project's sessions in the agents' folders that no hook took in, are sealed in \
         the background too.\n\
         A seal is the rules' first, so that the next session start has it; with a model lane (extract.lane), \
         the same background process then has the model read the session again. Under LCMEM_LANE (set for \
         the agent CLI the command lane asks) the hook does nothing.\n\
         Other events are ignored. It always exits 0; errors go to <home>/logs/hooks.log. `lcmem install AGENT` wires \
         it up."
    )
}

#[derive(clap::Args)]
#[command(after_help = after_help())]
pub struct Args {
    /// The agent whose hook input this is
    #[arg(value_parser = super::shared::with_hooks())]
    agent: Agent,
}

/// The fields lcmem reads from an agent's hook input.
#[derive(Debug, Deserialize)]
struct HookInput {
    hook_event_name: String,
    cwd: Option<PathBuf>,
    transcript_path: Option<PathBuf>,
    session_id: Option<String>,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let agent = args.agent;
    let input = read_input(std::io::stdin(), INPUT_WAIT, INPUT_LIMIT);
    // The agent's CLI asked by lcmem's own command lane: its session is that
    // question, not the project's work, and it starts no seal of its own.
    if std::env::var_os(lcmem::LANE_ENV).is_some() {
        return Ok(ExitCode::SUCCESS);
    }
    let input = match input {
        Ok(input) => input,
        Err(problem) => {
            log(context, agent, "?", &format!("error: {problem}; nothing done"));
            return Ok(ExitCode::SUCCESS);
        }
    };
    // A panic is caught below and logged; its default report on stderr is not wanted.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| handle(&input, agent, context)));
    let (event, result) = match outcome {
        Ok((event, result)) => (event, result),
        Err(_) => ("?".to_string(), Err(anyhow::anyhow!("the hook panicked; nothing was printed"))),
    };
    match result {
        Ok(Some(output)) => {
            // A closed stdout is not worth failing over either.
            let _ = writeln!(std::io::stdout(), "{output}");
        }
        Ok(None) => {}
        Err(error) => {
            let line = format!("error: {}", crate::output::sentence(&error));
            // A store that cannot be written is the user's to fix: said on
            // stderr too, which the agent shows in its transcript view.
            if unwritable_store(&error, context) {
                eprintln!("lcmem hook: {line}");
            }
            log(context, agent, &event, &line);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Why the hook input could not be read.
#[derive(Debug)]
enum InputProblem {
    Slow(usize),
    Large,
    Unreadable(std::io::Error),
}

impl std::fmt::Display for InputProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputProblem::Slow(got) => {
                write!(f, "no complete hook input on stdin within {} s ({got} byte(s) came)", INPUT_WAIT.as_secs())
            }
            InputProblem::Large => {
                write!(f, "the hook input is larger than {} KiB without being one JSON value", INPUT_LIMIT >> 10)
            }
            InputProblem::Unreadable(e) => write!(f, "cannot read the hook input: {e}"),
        }
    }
}

/// Reads `input` until it holds one complete JSON value (returned, without
/// what follows it) or ends; gives up after `wait` or past `limit` bytes. The
/// reading happens on a thread of its own, left blocked when the hook gives
/// up or stops early: the process exits without waiting for it.
fn read_input(mut input: impl Read + Send + 'static, wait: Duration, limit: usize) -> Result<Vec<u8>, InputProblem> {
    let deadline = Instant::now() + wait;
    let (send, receive) = mpsc::channel::<std::io::Result<Vec<u8>>>();
    std::thread::spawn(move || {
        let mut chunk = vec![0u8; 64 << 10];
        loop {
            let read = input.read(&mut chunk).map(|n| chunk[..n].to_vec());
            let done = !matches!(&read, Ok(bytes) if !bytes.is_empty());
            if send.send(read).is_err() || done {
                return;
            }
        }
    });
    let mut buf = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match receive.recv_timeout(left) {
            Ok(Ok(bytes)) if bytes.is_empty() => return Ok(buf),
            Ok(Ok(bytes)) => buf.extend_from_slice(&bytes),
            Ok(Err(e)) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Ok(Err(e)) => return Err(InputProblem::Unreadable(e)),
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(buf),
            Err(mpsc::RecvTimeoutError::Timeout) => return Err(InputProblem::Slow(buf.len())),
        }
        let mut values = serde_json::Deserializer::from_slice(&buf).into_iter::<serde::de::IgnoredAny>();
        match values.next() {
            Some(Ok(_)) => {
                let end = values.byte_offset();
                buf.truncate(end);
                return Ok(buf);
            }
            // Not JSON: no use waiting for more; handled as bad input.
            Some(Err(e)) if !e.is_eof() => return Ok(buf),
            _ if buf.len() > limit => return Err(InputProblem::Large),
            _ => {}
        }
    }
}

/// Whether `error` is the store (or the log beside it) refusing a write.
fn unwritable_store(error: &anyhow::Error, context: &Context) -> bool {
    let Ok(home) = context.home() else { return false };
    error.chain().any(|cause| match cause.downcast_ref::<lcmem::Error>() {
        Some(lcmem::Error::Io { path, .. }) => path.starts_with(&home),
        Some(lcmem::Error::SymlinkOutside { .. }) => true,
        _ => false,
    })
}

/// Handles one event: the event's name (for the log) and what to print.
fn handle(input: &[u8], agent: Agent, context: &Context) -> (String, anyhow::Result<Option<String>>) {
    let input: HookInput = match serde_json::from_slice(input) {
        Ok(input) => input,
        Err(e) => {
            let what = agent.possessive();
            return ("?".into(), Err(anyhow::anyhow!("the hook input is not {what} hook JSON: {e}")));
        }
    };
    let event = input.hook_event_name.clone();
    let result = match agent.0.hook_step(&event) {
        Some(HookStep::Start) => session_start(&input, agent, context),
        Some(HookStep::TakeIn) => take_in(&input, agent, context, false).map(|()| None),
        Some(HookStep::End) => take_in(&input, agent, context, true).map(|()| None),
        None => Ok(None),
    };
    (event, result)
}

fn store_for(input: &HookInput, context: &Context) -> anyhow::Result<Store> {
    let Some(cwd) = &input.cwd else { bail!("the hook input has no cwd, so there is no project") };
    Store::open(&context.home()?, cwd).with_context(|| format!("cannot open the project at {}", cwd.display()))
}

/// The framed digest as the agent's SessionStart output, or nothing.
fn session_start(input: &HookInput, agent: Agent, context: &Context) -> anyhow::Result<Option<String>> {
    let store = store_for(input, context)?;
    let started = catch_up_if_due(input, agent, context, &store);
    wait_for_catch_up(&store, started);
    let start = Memory::open(store).session_start(context.now()?)?;
    if let Some(e) = start.consolidate_error {
        log(context, agent, &input.hook_event_name, &format!("error: cannot consolidate: {e}; the digest as it was"));
    }
    let Some(digest) = start.digest else { return Ok(None) };
    let output = json!({
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": digest.text}
    });
    Ok(Some(output.to_string()))
}

/// Starts a catch-up in the background when one is due: sessions of the
/// project that ended without a SessionEnd and went quiet. Best effort; the
/// process started, if any.
fn catch_up_if_due(input: &HookInput, agent: Agent, context: &Context, store: &Store) -> Option<std::process::Child> {
    let cwd = input.cwd.as_ref()?;
    let look = look(input, store.settings().ok()?.quiet());
    if !Memory::open(store.clone()).catch_up_due(&look) {
        return None;
    }
    match super::catch_up::spawn(context, cwd, agent, None, &look) {
        Ok(child) => Some(child),
        Err(e) => {
            log(context, agent, &input.hook_event_name, &format!("error: cannot start a catch-up: {e}"));
            None
        }
    }
}

/// How long a session start waits for a catch-up (its own, or the one the
/// last session's end started) before it gives the digest as it is.
const CATCH_UP_WAIT: Duration = Duration::from_secs(4);

/// Waits, at most [`CATCH_UP_WAIT`], for `started` and any other catch-up of
/// the project to end, so that the sessions they seal reach this digest;
/// past that they go on in the background.
fn wait_for_catch_up(store: &Store, mut started: Option<std::process::Child>) {
    let memory = Memory::open(store.clone());
    let begun = Instant::now();
    while begun.elapsed() < CATCH_UP_WAIT {
        let ours_done = started.as_mut().is_none_or(|c| !matches!(c.try_wait(), Ok(None)));
        if ours_done && !memory.catching_up() {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Where a catch-up for this hook looks: every transcript the store knows,
/// and the recent ones of this project in every agent's transcripts folder
/// (a headless run may exit before its Stop hook imported anything); never
/// at the session that is running.
fn look(input: &HookInput, quiet: Duration) -> lcmem::Look {
    lcmem::Look::hooks(quiet, input.transcript_path.clone(), super::shared::transcript_folders())
}

/// Imports the transcript at Stop; at SessionEnd, hands it to a catch-up in
/// the background, which waits for the transcript to be still, imports and
/// seals it, so that the agent's exit never waits. Memory being off is not
/// an error: nothing is written and the log says so.
fn take_in(input: &HookInput, agent: Agent, context: &Context, end: bool) -> anyhow::Result<()> {
    let Some(transcript) = &input.transcript_path else { bail!("the hook input has no transcript_path") };
    // A hook with nothing to take in does nothing but say so: clients fire
    // SessionEnd for commands that are no session (`claude mcp list`), with
    // a path that does not exist.
    let nothing = match std::fs::metadata(transcript) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some("there is no such file"),
        Ok(meta) if !meta.is_file() => Some("it is not a regular file"),
        Ok(meta) if meta.len() == 0 => Some("it is empty"),
        _ => None,
    };
    if let Some(why) = nothing {
        log(context, agent, &input.hook_event_name, &format!("nothing to take in at {}: {why}", transcript.display()));
        return Ok(());
    }
    let store = store_for(input, context)?;
    let mut then = Then::KeepOpen;
    if end {
        let Some(cwd) = &input.cwd else { bail!("the hook input has no cwd, so there is no project") };
        // The catch-up reads the quiet time itself; the ended transcript is sealed whatever it is.
        let look = lcmem::Look { skip: None, ..look(input, Duration::ZERO) };
        match super::catch_up::spawn(context, cwd, agent, Some(transcript), &look) {
            Ok(_) => return Ok(()),
            Err(e) => {
                let line = format!("cannot seal in the background ({e}): taking the session in now");
                log(context, agent, &input.hook_event_name, &line);
                then = Then::Seal;
            }
        }
    }
    let result = Memory::open(store.clone()).take_in(agent.format(), transcript, then, context.now()?);
    if !end {
        // Reaped by whoever outlives it: the stop hook does not wait.
        drop(catch_up_if_due(input, agent, context, &store));
    }
    match result {
        Ok(done) => {
            let mut line = done.describe(transcript);
            // The skipped lines are listed once, when they are new, not at every Stop.
            for diagnostic in done.diagnostics.iter().filter(|_| done.changed()) {
                line.push_str(&format!("\n    skipped {diagnostic}"));
            }
            log(context, agent, &input.hook_event_name, &line);
            Ok(())
        }
        Err(lcmem::Error::MemoryOff { .. }) => {
            let session = input.session_id.as_deref().unwrap_or("?");
            log(
                context,
                agent,
                &input.hook_event_name,
                &format!("memory is off for this project: session {session} not taken in"),
            );
            Ok(())
        }
        Err(lcmem::Error::SessionForgotten { id, on }) => {
            let line = format!("session {id} was forgotten on {on}: its transcript is not taken in again");
            log(context, agent, &input.hook_event_name, &line);
            Ok(())
        }
        // The error names the file; the context says what was being done.
        Err(error) => Err(anyhow::Error::new(error).context("cannot take in the session's transcript")),
    }
}
