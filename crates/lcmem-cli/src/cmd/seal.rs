//! `lcmem seal`: close sessions and write what they achieved to memory.

use std::process::ExitCode;

use lcmem::extract::offline::OfflineExtractor;
use lcmem::journal::SealKind;
use lcmem::seal::{SealOutcome, seal};

use crate::context::Context;
use crate::output::warn_all;

#[derive(clap::Args)]
#[command(after_help = "Sealing runs the offline extractor over the session's user and assistant prose and \
its tool metadata (never tool output): it appends one journal line with a 1-3 sentence summary and appends \
candidate facts to facts.jsonl, every string scrubbed of secrets. Sealing a sealed session changes nothing.")]
pub struct Args {
    /// Session ids (or unique prefixes)
    #[arg(value_name = "SESSION", required_unless_present = "all")]
    sessions: Vec<String>,
    /// Seal every session not sealed yet
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
    let store = context.store()?;
    store.ensure_enabled()?;
    let now = context.now()?;
    let kind = match (args.done, args.archived) {
        (true, _) => Some(SealKind::Done),
        (_, true) => Some(SealKind::Archived),
        _ => None,
    };
    let ids = if args.all {
        let journal = lcmem::journal::Journal::read(&store.journal_path())?;
        store.session_ids()?.into_iter().filter(|id| journal.get(id).is_none()).collect()
    } else {
        args.sessions.iter().map(|q| store.resolve_session(q)).collect::<Result<Vec<_>, _>>()?
    };
    let mut entries = Vec::new();
    for id in ids {
        warn_all(&store.read_session(&id)?.diagnostics);
        let outcome = seal(&store, &id, kind, &OfflineExtractor, now)?;
        if !args.json {
            match &outcome {
                SealOutcome::Sealed { entry, facts } => {
                    println!("sealed  {id} ({:?}, {facts} candidate fact(s))", entry.kind);
                    println!("        {}", entry.summary);
                }
                SealOutcome::AlreadySealed { .. } => {
                    println!("already sealed  {id}: nothing changed")
                }
            }
        }
        entries.push(outcome.entry().clone());
    }
    if args.json {
        crate::output::print_json(&entries)?;
    }
    if let Some(report) = lcmem::digest::consolidate_if_due(&store, now)?
        && report.written
        && !args.json
    {
        println!("consolidated MEMORY.md: {} of {} tokens", report.tokens, report.cap);
    }
    super::recall::refresh_after_write(&store);
    Ok(ExitCode::SUCCESS)
}
