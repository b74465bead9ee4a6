//! `lcmem share`: team memory in the repository (`.lcmem/team.md`), and the
//! managed block in the files agents already read (`AGENTS.md`, `CLAUDE.md`).

use std::process::ExitCode;

use lcmem::{AgentsFile, BlockOutcome, Shared, TEAM_FILE};
use serde_json::json;

use crate::context::Context;

#[derive(clap::Args)]
#[command(after_help = "\
What is shared: the facts and conventions you confirmed (or wrote, or said yourself in two sessions), never an \
inferred one, never one waiting for your confirm. The redactor runs again on the way out: a fact whose text holds \
a secret is not shared. Items already in the file stay as they are; an item you marked not true, or that was \
replaced, is taken out. Running it twice changes nothing.

Each item says who confirmed it, when, and the session it came from:
  - We use conventional commits. (confirmed by alice, 2026-11-20; 2026-11-06-release) [fe9bae8d7e1]

Review with `git diff .lcmem/team.md`, commit and push. A teammate's lcmem reads the file at session start and \
shows each item in the digest as the team's, with the commit that brought it (`git blame`). An item that reads \
as an order waits until the teammate confirms it (`lcmem facts pending`); one that contradicts their own fact is \
listed by `lcmem facts conflicts`.

--agents-md and --claude-md keep the confirmed conventions in a block between `<!-- lcmem:begin` and \
`<!-- lcmem:end -->` in AGENTS.md or CLAUDE.md (the files agents read a project's instructions from), for teammates whatever \
agent they use and whether or not they run lcmem. Nothing outside the block is touched. Change a line in it and \
the next share reads it back as your correction; add a line and it is your convention; take one out and that \
fact is marked not true. `--remove` reads your changes back, then takes the block out, leaving the file as it \
was byte for byte.

Examples:
  lcmem share                       add confirmed items to .lcmem/team.md
  lcmem share --agents-md           also keep the block in AGENTS.md
  lcmem share --remove              take the block out of AGENTS.md and CLAUDE.md")]
pub struct Args {
    /// Also keep the block of confirmed conventions in AGENTS.md
    #[arg(long)]
    agents_md: bool,
    /// Also keep the block of confirmed conventions in CLAUDE.md
    #[arg(long)]
    claude_md: bool,
    /// Take the block out of AGENTS.md and CLAUDE.md (or only the one named); the team file is left alone
    #[arg(long)]
    remove: bool,
    /// Who is sharing, as the items say "confirmed by NAME" (default: git config user.name, else $USER)
    #[arg(long = "as", value_name = "NAME")]
    by: Option<String>,
    /// Print one JSON object: team (what the team file got), and each agents file's block
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let memory = lcmem::Memory::open(store.clone());
    let now = context.now()?;
    let named: Vec<AgentsFile> = AgentsFile::ALL
        .into_iter()
        .filter(|f| match f {
            AgentsFile::AgentsMd => args.agents_md,
            AgentsFile::ClaudeMd => args.claude_md,
        })
        .collect();
    if args.remove {
        let files = if named.is_empty() { AgentsFile::ALL.to_vec() } else { named };
        let run = memory.unshare(&files, now)?;
        warn_not_consolidated(&run);
        let outcomes = run.files;
        if args.json {
            println!("{}", json!({"removed": outcomes.iter().map(|(_, o)| o).collect::<Vec<_>>()}));
        } else {
            for (file, outcome) in &outcomes {
                let what = if outcome.wrote { "block taken out" } else { "no lcmem block" };
                println!("{}: {what}{}", file.name(), read_back_note(outcome));
            }
        }
        return Ok(ExitCode::SUCCESS);
    }
    let by = args.by.clone().or_else(|| memory.sharer()).unwrap_or_else(|| {
        std::env::var("USER").ok().filter(|u| !u.is_empty()).unwrap_or_else(|| "a teammate".to_string())
    });
    let run = memory.share(&by, &named, now)?;
    warn_not_consolidated(&run.blocks);
    let (shared, blocks) = (run.shared, run.blocks.files);
    if args.json {
        let blocks: Vec<&BlockOutcome> = blocks.iter().map(|(_, o)| o).collect();
        println!("{}", json!({"team": shared, "blocks": blocks}));
    } else {
        print_shared(&shared);
        for (file, outcome) in &blocks {
            let what = if outcome.wrote { "block written" } else { "block already up to date" };
            println!("{}: {what}, {} conventions{}", file.name(), outcome.lines, read_back_note(outcome));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// MEMORY.md keeps the team items it had: said, never a failure (the share is written).
fn warn_not_consolidated(run: &lcmem::Blocks) {
    if let Some(e) = &run.consolidate_error {
        eprintln!(
            "warning: MEMORY.md was not brought up to date ({}); `lcmem consolidate` tries again",
            crate::error_words::cli(e)
        );
    }
}

fn print_shared(shared: &Shared) {
    let (added, kept, dropped) = (shared.added.len(), shared.kept, shared.dropped.len());
    if !shared.wrote {
        println!("{TEAM_FILE}: already up to date ({kept} items)");
    } else {
        println!("{TEAM_FILE}: {added} added, {kept} kept, {dropped} taken out");
    }
    for (id, text) in &shared.added {
        println!("  + {text} [{id}]");
    }
    for text in &shared.dropped {
        println!("  - {text} (you marked it not true, or it was replaced)");
    }
    if !shared.secrets.is_empty() {
        println!(
            "  {} confirmed facts hold a secret and were not shared: {}",
            shared.secrets.len(),
            shared.secrets.join(", ")
        );
    }
    if shared.orders > 0 {
        let (items, read) = if shared.orders == 1 { ("item reads", "an order") } else { ("items read", "orders") };
        println!("  {} shared {items} as {read}: each teammate confirms it before it counts", shared.orders);
    }
    if shared.wrote {
        println!("next: review with `git diff {TEAM_FILE}`, then commit and push");
    }
}

fn read_back_note(outcome: &BlockOutcome) -> String {
    let mut parts = Vec::new();
    if !outcome.edited.is_empty() {
        parts.push(format!("{} changed lines read back as your corrections", outcome.edited.len()));
    }
    if !outcome.added.is_empty() {
        parts.push(format!("{} lines you added kept as your conventions", outcome.added.len()));
    }
    if !outcome.removed.is_empty() {
        parts.push(format!("{} lines you took out marked not true", outcome.removed.len()));
    }
    if !outcome.withheld.is_empty() {
        parts.push(format!(
            "{} changed or new lines read as orders: they wait for your confirm (`lcmem facts pending`)",
            outcome.withheld.len()
        ));
    }
    if parts.is_empty() { String::new() } else { format!(" ({})", parts.join("; ")) }
}
