//! `lcmem journal`: what each sealed session achieved.

use std::process::ExitCode;

use lcmem::DaySpend;
use lcmem::journal::{Cost, Entry, Journal};

use lcmem::plain::control_free;

use crate::context::Context;
use crate::output::{day, print_json, warn_all};

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
    let journal = Journal::read(&store.journal_path())?;
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
        if let Some(line) = lane_line(e) {
            out.push_str(&format!("    {line}\n"));
        }
    }
    out
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

/// Which lane wrote an entry, why it fell back and what it cost, when a
/// model lane was involved: `by openai:m · 1 request · … · $0.0005`.
pub fn lane_line(entry: &Entry) -> Option<String> {
    if entry.cost.is_none() && entry.fallback.is_none() {
        return None;
    }
    let fell = entry.fallback.as_ref().map_or(String::new(), |r| format!(" (fallback: {r})"));
    let spent = entry.cost.as_ref().map_or(" · nothing spent".to_string(), |c| format!(" · {}", spend(c)));
    Some(control_free(&format!("by {}{fell}{spent}", entry.extractor)).into_owned())
}

/// A cost in one line: `2 requests · 2,310 tokens in, 182 out · $0.0005`
/// (and the time waited, when it was measured).
pub fn spend(cost: &Cost) -> String {
    let requests = match cost.requests {
        1 => "1 request".to_string(),
        n => format!("{n} requests"),
    };
    let priced = if cost.priced_by == "default" { " (unknown model: priced as a large one)" } else { "" };
    let waited = if cost.ms > 0 { format!(" · {:.1} s", cost.ms as f64 / 1000.0) } else { String::new() };
    format!(
        "{requests} · {} tokens in, {} out · ${:.4}{priced}{waited}",
        thousands(cost.tokens_in),
        thousands(cost.tokens_out),
        cost.usd
    )
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}
