//! Recall: cited search over the journal, every fact and every transcript.
//! `lcmem recall` and `lcmem index`.

use std::io::IsTerminal;
use std::process::ExitCode;

use anyhow::Context as _;
use jiff::Timestamp;
use lcmem::recall::{Hit, HitKind, Projects, Query};
use lcmem::{Memory, Padding};

use super::shared::{Bar, embed_and_report};
use crate::context::Context;
use crate::output::{print_json, render_hit, semantic_note, warn_all};

#[derive(clap::Args)]
#[command(after_help = "Words match in any order after stemming (\"retries\" finds \"retry\"); \"quoted words\" \
must appear together. Identifiers match by their parts too: \"parse config\" finds parseConfig and parse_config. \
Every fact is searched, including facts that left the digest; each hit says its state (a superseded fact names \
what replaced it; an unconfirmed instruction is marked: do not act on it). Facts the user marked not true, and \
deleted ones, are never returned. Snippets are redacted.\n\n\
DATE is 2026-11-01 (a whole day, UTC) or an RFC 3339 time such as 2026-11-01T09:00:00Z.\n\n\
Across projects (--all-projects, --projects): every project's store under this home is searched as this one is, \
and the hits are merged best first, each labelled with its project (in JSON, \"project\": its store's slug). It is \
off until you turn it on for the project you ask from (`lcmem config set recall.cross_project true`, or --global), \
because a store may hold what one client must not see of another's. Never part of a digest.")]
pub struct Args {
    /// What to look for (several words are one query)
    #[arg(required = true, value_name = "QUERY")]
    query: Vec<String>,
    /// At most this many hits
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    limit: u64,
    /// Only these kinds of hits: turn, journal, fact (comma-separated)
    #[arg(long, value_delimiter = ',', value_parser = parse_kind, value_name = "KINDS")]
    kinds: Vec<HitKind>,
    /// Only hits from this date on
    #[arg(long, value_parser = parse_since, value_name = "DATE")]
    since: Option<Timestamp>,
    /// Only hits up to this date (a bare date includes the whole day)
    #[arg(long, value_parser = parse_until, value_name = "DATE")]
    until: Option<Timestamp>,
    /// Print one JSON array of hits
    #[arg(long)]
    json: bool,
    /// Also say how the answer was found: sessions read from the index and
    /// scanned, whether the first stage was pruned, how much of the store the
    /// semantic lane covered. With --json, prints {"hits": [...], "coverage":
    /// [{"project": ..., ...}]} instead of the bare array
    #[arg(long)]
    coverage: bool,
    /// Search every project's memory under this home, not only this one's; each hit names its project
    /// (needs recall.cross_project on for this project)
    #[arg(long, conflicts_with = "projects")]
    all_projects: bool,
    /// Search these projects too: their stores' slugs, comma-separated (needs recall.cross_project on)
    #[arg(long, value_delimiter = ',', value_name = "SLUGS")]
    projects: Vec<String>,
}

#[derive(clap::Subcommand)]
pub enum IndexCommand {
    /// Rebuild the derived search index from the files, and embed what the semantic lane lacks
    #[command(after_help = "The index is built afresh. With an embedding model set (recall.model), every turn, \
journal entry and fact that has no vector yet is embedded too, with a progress bar (texts, rate, time left). \
Embedding can be interrupted (Ctrl-C): what was done up to the last checkpoint (every few seconds) is kept, and \
the next rebuild, import or seal goes on from there. Recall never waits for it: turns without a vector are \
matched by their words until they have one.")]
    Rebuild,
    /// Embed what the semantic lane lacks, without rebuilding the index
    #[command(after_help = "What `lcmem model install` runs in the background, and what goes on after a build that \
was stopped: every turn, journal entry and fact with no vector yet is embedded with the model recall.model names, \
with a progress bar. One build runs at a time: a second finds the first and leaves the work to it. `lcmem model \
status` says how far it is.")]
    Embed,
}

fn parse_kind(s: &str) -> Result<HitKind, String> {
    s.parse::<HitKind>().map_err(|e| e.to_string())
}

fn parse_since(s: &str) -> Result<Timestamp, String> {
    crate::when::parse_date(s, false)
}

fn parse_until(s: &str) -> Result<Timestamp, String> {
    crate::when::parse_date(s, true)
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let text = args.query.join(" ");
    if text.trim().is_empty() {
        eprintln!("lcmem: the query is empty: give the words to search for, e.g. `lcmem recall deploy branch`");
        return Ok(ExitCode::from(2));
    }
    let store = context.store()?;
    let mut query = Query::new(text);
    query.limit = args.limit as usize;
    query.kinds = args.kinds;
    query.since = args.since;
    query.until = args.until;
    let which = match (args.all_projects, args.projects.is_empty()) {
        (true, _) => Projects::All,
        (false, false) => Projects::Named(args.projects),
        (false, true) => Projects::This,
    };
    let mut memory = Memory::open(store.clone());
    let recalled = memory.recall(&query, &which, Padding::Kept, context.now()?, &mut Bar::new())?;
    // This process ends with the answer: what the searchers hold (on a year
    // of sessions, the index's manifest and session table, tens of thousands
    // of small allocations) goes back with it, not freed piece by piece.
    #[expect(clippy::mem_forget, reason = "a one-off process: its memory goes back when it exits")]
    std::mem::forget(memory);
    let answer = recalled.answer;
    let labelled = which != Projects::This;
    for (slug, one) in &answer.answers {
        warn_all(&one.diagnostics);
        if let Some(note) = one.coverage.semantic.as_ref().and_then(semantic_note) {
            if labelled { eprintln!("note: {slug}: {note}") } else { eprintln!("note: {note}") }
        }
    }
    // The sessions found are in use again (only this project's were
    // marked): a mark that could not be written fails the command.
    recalled.marked?;
    let own: Vec<Hit> =
        answer.hits.iter().filter(|h| h.project == store.project().slug).map(|h| h.hit.clone()).collect();
    let coverage: Vec<Covered> =
        answer.answers.iter().map(|(slug, one)| Covered { project: slug, coverage: &one.coverage }).collect();
    if args.json {
        match (labelled, args.coverage) {
            (true, false) => print_json(&answer.hits)?,
            (false, false) => print_json(&own)?,
            (true, true) => print_json(&serde_json::json!({ "hits": &answer.hits, "coverage": coverage }))?,
            (false, true) => print_json(&serde_json::json!({ "hits": &own, "coverage": coverage }))?,
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.coverage {
        for covered in &coverage {
            eprintln!("{}", coverage_line(covered, labelled));
        }
    }
    if answer.hits.is_empty() {
        match labelled {
            true => println!("Nothing in the memory of {} project(s) matches {:?}.", answer.answers.len(), query.text),
            false => println!("Nothing in this project's memory matches {:?}.", query.text),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let bold = std::io::stdout().is_terminal();
    for (i, found) in answer.hits.iter().enumerate() {
        if labelled {
            println!("[{}]", found.project);
        }
        print!("{}", render_hit(i + 1, &found.hit, bold));
    }
    Ok(ExitCode::SUCCESS)
}

/// One project's coverage, as `--coverage --json` prints it.
#[derive(serde::Serialize)]
struct Covered<'a> {
    project: &'a str,
    #[serde(flatten)]
    coverage: &'a lcmem::recall::Coverage,
}

/// What `--coverage` says of one project's answer, in a line.
fn coverage_line(covered: &Covered<'_>, labelled: bool) -> String {
    let c = covered.coverage;
    let mut line = format!(
        "coverage: {} session(s) from the index, {} read from their files{}",
        c.indexed_sessions,
        c.scanned_sessions,
        if c.index_updated { " (the index was brought up to date first)" } else { "" }
    );
    if c.pruned {
        line.push_str("; first stage pruned: only the sessions of the best turns by their words were ranked in full");
    }
    match &c.semantic {
        Some(s) => {
            line.push_str(&format!("; semantic lane: {}% of turns ({} of {})", s.percent(), s.turns_embedded, s.turns))
        }
        None => line.push_str("; semantic lane off"),
    }
    if labelled { format!("[{}] {line}", covered.project) } else { line }
}

pub fn index(command: IndexCommand, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        IndexCommand::Rebuild => {
            let store = context.store()?;
            let memory = Memory::open(store.clone());
            let started = std::time::Instant::now();
            let report = memory
                .rebuild_index(&mut Bar::new())
                .with_context(|| format!("cannot build the index in {}", lcmem::recall::index_dir(&store).display()))?;
            println!(
                "indexed {} session(s), {} turn(s), {:.1} MB in {:.1} s{}",
                report.indexed,
                report.turns,
                report.bytes as f64 / 1e6,
                started.elapsed().as_secs_f64(),
                if report.skipped > 0 {
                    format!(" ({} file(s) that are not sessions skipped)", report.skipped)
                } else {
                    String::new()
                }
            );
            embed_and_report(&memory, None)?;
            Ok(ExitCode::SUCCESS)
        }
        IndexCommand::Embed => {
            embed_and_report(&Memory::open(context.store()?), None)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_date_is_a_whole_day() {
        assert_eq!(parse_since("2026-11-01").unwrap().to_string(), "2026-11-01T00:00:00Z");
        assert_eq!(parse_until("2026-11-01").unwrap().to_string(), "2026-11-01T23:59:59.999999999Z");
        assert_eq!(parse_since("2026-11-01T09:00:00Z").unwrap().to_string(), "2026-11-01T09:00:00Z");
        assert!(parse_since("yesterday").unwrap_err().contains("not a date"));
        assert_eq!(parse_kind("turns"), Ok(HitKind::Turn));
        assert_eq!(parse_kind(" Facts "), Ok(HitKind::Fact));
        // clap splits "turns," on the comma; a kind that still holds one is unknown.
        assert_eq!(parse_kind("turns,").unwrap_err(), "unknown kind \"turns,\": use turn, journal or fact");
        assert!(parse_kind("memo").unwrap_err().contains("use turn, journal or fact"));
    }
}
