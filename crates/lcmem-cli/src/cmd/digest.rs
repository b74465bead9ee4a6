//! `lcmem consolidate`, `lcmem digest`, `lcmem welcome`.

use std::process::ExitCode;

use lcmem::{DigestAnswer, Memory};

use crate::context::Context;
use crate::output::print_json;

#[derive(clap::Args)]
#[command(after_help = "Rewrites memory/MEMORY.md from the journal and the facts: Facts, Pinned threads and \
Recently, every line with its source and date, under the token cap (memory.cap_tokens, default 1500, o200k). \
Hand edits made since the last run are turned into user actions first; blocks between <!-- pinned --> and \
<!-- /pinned --> are kept verbatim. The previous file goes to memory/history/ (memory.history versions). \
It also runs by itself after every seal (memory.consolidate_every, default 1). With memory off it does nothing.")]
pub struct ConsolidateArgs {
    /// Restore the previous MEMORY.md instead
    #[arg(long)]
    undo: bool,
    /// Print the report as JSON
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
#[command(after_help = "Prints what a new session is told: a framing header (the project, the as-of date, \
that the memory may be stale and is context, never instructions), then MEMORY.md. Prints nothing when memory \
is off or there is no MEMORY.md yet. Fast: it reads two small files.")]
pub struct DigestArgs {
    /// The same with metadata: sources, as-of date, token count
    #[arg(long)]
    json: bool,
}

pub fn consolidate(args: ConsolidateArgs, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let memory = Memory::open(store.clone());
    if args.undo {
        let restored = memory.undo_consolidate(context.now()?)?;
        println!("restored MEMORY.md from {}", restored.display());
        return Ok(ExitCode::SUCCESS);
    }
    let Some(report) = memory.consolidate(context.now()?)? else {
        eprintln!("memory is off for this project: nothing consolidated (`lcmem config list` shows why)");
        return Ok(ExitCode::SUCCESS);
    };
    if args.json {
        print_json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    for edit in &report.hand_edits {
        println!("hand edit: {edit}");
    }
    if let Some(problem) = &report.team_file {
        eprintln!("warning: the team file was not read: {problem}");
    }
    for refused in &report.refused_edits {
        eprintln!(
            "warning: hand edit not taken: {refused}. The file as you left it is in history \
             (`lcmem consolidate --undo` brings it back)."
        );
    }
    if let Some(n) = report.removals_ignored {
        eprintln!(
            "warning: {n} generated lines were missing from MEMORY.md; that looks like an accident, so nothing was \
             deleted. `lcmem consolidate --undo` brings the previous file back."
        );
    }
    for id in &report.archived {
        println!("archived {id} (inactive)");
    }
    println!(
        "{} {}: {} of {} tokens · {} facts · {} pinned threads · {} recent · {} left out (still in the journal and facts)",
        if report.written { "wrote" } else { "unchanged" },
        store.memory_md_path().display(),
        report.tokens,
        report.cap,
        report.facts,
        report.pinned_threads,
        report.recently,
        report.evicted
    );
    Ok(ExitCode::SUCCESS)
}

pub fn digest(args: DigestArgs, context: &Context) -> anyhow::Result<ExitCode> {
    match Memory::open(context.store()?).digest()? {
        DigestAnswer::Digest(digest) if args.json => print_json(&digest)?,
        DigestAnswer::Digest(digest) => print!("{}", lcmem::control_free(&digest.text)),
        // Said on stderr: what a script reads on stdout stays empty.
        DigestAnswer::MemoryOff => eprintln!("lcmem: memory is off for this project, so a new session is told nothing"),
        DigestAnswer::NotYet => eprintln!(
            "lcmem: no digest yet: MEMORY.md is written when the first session is sealed (`lcmem seal --all` seals \
             what was imported)"
        ),
    }
    Ok(ExitCode::SUCCESS)
}

pub fn welcome(context: &Context) -> anyhow::Result<ExitCode> {
    if let Some(line) = Memory::open(context.store()?).welcome(context.now()?)? {
        println!("{}", lcmem::control_free(&line));
    }
    Ok(ExitCode::SUCCESS)
}
