//! `lcmem journal`: what each sealed session achieved.

use std::process::ExitCode;

use lcmem::journal::{Entry, Journal};

use lcmem::plain::control_free;

use crate::context::Context;
use crate::output::{day, print_json, warn_all};

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON array of entries (current pin and archive state applied; each with its revision number and
    /// how many earlier revisions the journal keeps)
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let journal = Journal::read(&store.journal_path())?;
    warn_all(&journal.diagnostics);
    if args.json {
        let entries: Vec<_> = journal
            .entries
            .iter()
            .map(|c| Shown { entry: &c.entry, revision: c.revision, earlier_revisions: c.revision - 1 })
            .collect();
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

/// A current entry as `--json` prints it: the entry, which revision it is,
/// and how many earlier ones the journal keeps (a session that went on after
/// it was sealed is sealed again).
#[derive(serde::Serialize)]
struct Shown<'a> {
    #[serde(flatten)]
    entry: &'a Entry,
    revision: usize,
    earlier_revisions: usize,
}

/// The journal as people read it: newest activity last, one block per entry
/// (at its current revision).
pub fn render(journal: &Journal) -> String {
    let mut out = String::new();
    let mut entries: Vec<_> = journal.entries.iter().collect();
    entries.sort_by_key(|c| c.entry.last_active);
    for current in entries {
        let e = &current.entry;
        let pin = if e.pinned { " · pinned" } else { "" };
        let revision = match current.revision {
            1 => String::new(),
            n => format!(" · revision {n}"),
        };
        out.push_str(&format!(
            "{}  {}  [{:?} · {:?}{pin}{revision}]  ({})\n",
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
