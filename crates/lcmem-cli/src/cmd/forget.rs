//! `lcmem forget`: remove a session's whole contribution, physically.

use std::process::ExitCode;

use crate::context::Context;
use crate::output::print_json;

#[derive(clap::Args)]
#[command(after_help = "Removes the session's file, its journal lines, the facts it alone supported (every event \
about them), its provenance on facts other sessions also support, and the derived cache. The files are rewritten \
atomically: afterwards nothing of the session is on disk. There is no undo.")]
pub struct Args {
    /// A session id (or a unique prefix)
    session: String,
    /// Print what was removed as JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let id = store.resolve_session(&args.session)?;
    let report = lcmem::forget::forget(&store, &id, context.now()?)?;
    if args.json {
        print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    println!("forgot {id}:");
    println!("  session file removed: {}", if report.session_file_removed { "yes" } else { "no (already gone)" });
    println!("  journal lines removed: {}", report.journal_lines_removed);
    println!("  facts removed (this session was their only source): {}", report.facts_removed.len());
    println!("  observations removed from facts other sessions support: {}", report.provenance_removed);
    if report.other_lines_removed > 0 {
        println!("  lines removed from .torn fragments: {}", report.other_lines_removed);
    }
    if report.history_entries_removed > 0 {
        println!("  MEMORY.md history snapshots removed: {}", report.history_entries_removed);
    }
    if report.cache_cleared {
        println!("  derived cache cleared (it is rebuilt on demand)");
    }
    Ok(ExitCode::SUCCESS)
}
