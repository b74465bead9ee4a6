//! `lcmem journal`: what each sealed session achieved.

use std::process::ExitCode;

use lcmem::journal::Journal;

use lcmem::plain::control_free;

use crate::context::Context;
use crate::output::{day, print_json, warn_all};

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON array of entries (current pin and archive state applied)
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let journal = Journal::read(&store.journal_path())?;
    warn_all(&journal.diagnostics);
    if args.json {
        let entries: Vec<_> = journal.entries.iter().map(|c| &c.entry).collect();
        print_json(&entries)?;
        return Ok(ExitCode::SUCCESS);
    }
    if journal.entries.is_empty() {
        println!("The journal is empty: seal a session with `lcmem seal SESSION` to add its first entry.");
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", control_free(&render(&journal)));
    Ok(ExitCode::SUCCESS)
}

/// The journal as people read it: newest activity last, one block per entry.
pub fn render(journal: &Journal) -> String {
    let mut out = String::new();
    let mut entries: Vec<_> = journal.entries.iter().map(|c| &c.entry).collect();
    entries.sort_by_key(|e| e.last_active);
    for e in entries {
        let pin = if e.pinned { " · pinned" } else { "" };
        out.push_str(&format!(
            "{}  {}  [{:?} · {:?}{pin}]  ({})\n",
            day(e.last_active),
            e.title,
            e.kind,
            e.outcome,
            e.session_id
        ));
        out.push_str(&format!("    {}\n", e.summary));
        if !e.files.is_empty() {
            out.push_str(&format!("    files: {}\n", e.files.join(", ")));
        }
        for d in &e.decisions {
            out.push_str(&format!("    decision: {d}\n"));
        }
    }
    out
}
