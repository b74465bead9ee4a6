//! `lcmem seal`: close sessions and write what they achieved to memory. The
//! pipeline is the engine's (`lcmem::Memory::seal`); this parses,
//! calls and prints.

use std::process::ExitCode;

use lcmem::SealOutcome;
use lcmem::journal::SealKind;
use lcmem::{Memory, ToSeal};

use crate::context::Context;

#[derive(clap::Args)]
#[command(after_help = "Sealing runs the extractor `extract.lane` chooses (offline rules by default; see \
docs/extract.md for the model lanes) over the session's user and assistant prose and its tool metadata (never \
tool output): it appends one journal line with a 1-3 sentence summary and appends \
candidate facts to facts.jsonl, every string scrubbed of secrets. Sealing a sealed session changes nothing, \
unless it went on after it was sealed (a resumed session): then it is sealed again, over the whole session, as a \
new revision of its journal entry; the earlier one stays in the journal.")]
pub struct Args {
    /// Session ids (or unique prefixes)
    #[arg(value_name = "SESSION", required_unless_present = "all")]
    sessions: Vec<String>,
    /// Seal every session not sealed yet, and every one that went on since it was sealed
    #[arg(long, conflicts_with = "sessions")]
    all: bool,
    /// Seal as finished work (the default, unless the session says archived)
    #[arg(long, conflicts_with = "archived")]
    done: bool,
    /// Seal as gone cold: it fades from the digest but stays in recall
    #[arg(long)]
    archived: bool,
    /// Print the journal entries as JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let memory = Memory::open(context.store()?);
    let now = context.now()?;
    let kind = match (args.done, args.archived) {
        (true, _) => Some(SealKind::Done),
        (_, true) => Some(SealKind::Archived),
        _ => None,
    };
    let mut entries = Vec::new();
    let which = if args.all { ToSeal::AllQuiet } else { ToSeal::Named(&args.sessions) };
    let run = memory.seal(
        which,
        kind,
        now,
        &mut super::shared::Bar::new(),
        // Lines of a stored copy that are not JSON were reported when it was
        // imported; `lcmem doctor` says where they are, not every seal.
        &mut |id, _skipped, outcome| {
            if !args.json {
                match outcome {
                    SealOutcome::Sealed { entry, facts } => {
                        println!("sealed  {id} ({:?}, {facts} candidate fact(s))", entry.kind);
                        println!("        {}", entry.summary);
                        print_lane(entry);
                    }
                    SealOutcome::Revised { entry, facts, revision } => {
                        println!(
                            "sealed again  {id} ({:?}, revision {revision}: it went on after it was sealed; \
                             {facts} candidate fact(s))",
                            entry.kind
                        );
                        println!("        {}", entry.summary);
                        print_lane(entry);
                    }
                    SealOutcome::AlreadySealed { .. } => println!("already sealed  {id}: nothing changed"),
                }
            }
            entries.push(outcome.entry().clone());
        },
    )?;
    for id in &run.still_going {
        eprintln!(
            "still going  {id}: its transcript changed less than {} s ago (memory.quiet_secs); seal it now with \
             `lcmem seal {id}`",
            run.quiet.as_secs()
        );
    }
    let sealed = run.sealed;
    for id in &sealed.forgotten {
        eprintln!("forgotten  {id}: it was forgotten while this ran, and stays forgotten (nothing was sealed)");
    }
    if args.json {
        crate::output::print_json(&entries)?;
    }
    if let Some(report) = &sealed.consolidated
        && report.written
        && !args.json
    {
        println!("consolidated MEMORY.md: {} of {} tokens", report.tokens, report.cap);
    }
    if let Some(e) = &sealed.cache_error {
        super::shared::warn_cache_not_refreshed(e);
    }
    Ok(ExitCode::SUCCESS)
}

/// Which lane wrote an entry and what it cost, when a model lane was asked:
/// `        by openai:qwen2.5-coder · 1 request · 2,310 tokens in, 182 out · $0.0005 · 1.2 s`.
fn print_lane(entry: &lcmem::journal::Entry) {
    if let Some(line) = super::shared::lane_line(entry) {
        println!("        {line}");
    }
}
