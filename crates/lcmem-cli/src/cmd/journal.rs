//! `lcmem journal`: what each sealed session achieved.

use std::process::ExitCode;

use lcmem::DaySpend;
use lcmem::journal::{Cost, Entry, Journal};

use lcmem::control_free;

use super::shared::{render_journal, spend};
use crate::context::Context;
use crate::output::{print_json, warn_all};

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON array of entries (current pin and archive state applied; each with its revision number and
    /// how many earlier revisions the journal keeps)
    #[arg(long)]
    json: bool,
    /// What the model lanes cost: tokens and estimated US dollars by day and lane, with the total (with --json,
    /// one JSON array of those rows)
    #[arg(long)]
    costs: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let journal = lcmem::Memory::open(store).journal()?;
    warn_all(&journal.diagnostics);
    if args.costs {
        return costs(&journal, args.json);
    }
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
    print!("{}", control_free(&render_journal(&journal)));
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

/// `--costs`: spend by day and lane, then the total.
fn costs(journal: &Journal, json: bool) -> anyhow::Result<ExitCode> {
    let rows = lcmem::Memory::spend_by_day(journal);
    if json {
        print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("No seal has asked a model lane: the offline lane costs nothing (extract.lane = \"offline\").");
        return Ok(ExitCode::SUCCESS);
    }
    let mut total = Cost::default();
    for DaySpend { day, seals, fallbacks, cost } in &rows {
        let fell = if *fallbacks > 0 { format!(", {fallbacks} fell back to offline") } else { String::new() };
        println!("{day}  {}  {seals} seal(s){fell} · {}", control_free(&cost.asked), spend(cost));
        total.add(cost);
    }
    println!("total  {}", spend(&total));
    Ok(ExitCode::SUCCESS)
}
