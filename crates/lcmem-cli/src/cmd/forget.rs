//! `lcmem forget`: remove a session's whole contribution, physically.

use std::process::ExitCode;

use crate::context::Context;
use crate::output::print_json;

#[derive(clap::Args)]
#[command(after_help = "Removes the session's file, its journal lines, the facts it alone supported (every event \
about them), its provenance on facts other sessions also support, the torn-line fragments and leftover temporary \
files holding it, the derived cache, and MEMORY.md's lines and history snapshots citing it. The id is matched \
exactly (forgetting s1 leaves s10 alone), and a session whose file is already gone can still be forgotten by its \
full id. The files are rewritten atomically: afterwards nothing of the session is on disk, not even its id, but its \
tombstone (a keyed hash of the id and the day, in memory/forgotten.jsonl; the key is memory/forgotten.key), which keeps the hooks, the catch-up and a seal already running from \
bringing it back; `lcmem import FILE` of its transcript, by hand, is the only way back. There is no undo.")]
pub struct Args {
    /// A session's whole id (an id that names no session is refused, with the ids close to it)
    session: String,
    /// Print what was removed as JSON
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let (id, report) = lcmem::Memory::open(context.store()?).forget(&args.session, context.now()?)?;
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
    for file in &report.files_removed {
        println!("  file removed: {}", file.display());
    }
    if report.memory_lines_removed > 0 {
        println!("  MEMORY.md lines citing it removed: {}", report.memory_lines_removed);
    }
    if report.history_entries_removed > 0 {
        println!("  MEMORY.md history snapshots removed: {}", report.history_entries_removed);
    }
    if report.cache_cleared {
        println!("  derived cache cleared (it is rebuilt on demand)");
    }
    Ok(ExitCode::SUCCESS)
}
