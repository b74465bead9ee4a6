//! `lcmem facts`: see and correct what the project believes.

use std::process::ExitCode;

use lcmem::facts::{self, Action, Fact, Fold, State, SubjectKeyJudge};
use lcmem::{Memory, Whose};

use crate::context::Context;
use crate::output::{day, print_json, warn_all};

#[derive(clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "States: confirmed (a user said so), observed (seen in two or more independent sessions), \
inferred (seen once), superseded (replaced by a newer fact), unconfirmed-instruction (reads as an order: \
recorded, never promoted until a user confirms it), team (an item of the repository's .lcmem/team.md: a teammate \
confirmed it; see `lcmem share`), withdrawn (it left the team file). A [convention] is how the team works (\"we use \
conventional commits\"); one that reads as an order waits for your confirmation: see `lcmem facts pending`. \
Without --all, only facts that may appear in the digest are listed. --user acts on your own facts, for every \
project, instead of this project's."
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    /// Also list superseded, not-true, withheld and deleted facts
    #[arg(long)]
    all: bool,
    /// Print one JSON array of facts with their sources and history
    #[arg(long)]
    json: bool,
    /// Your own facts, for every project (kept under the store root in person/), instead of this project's:
    /// `lcmem facts add --user "I use pnpm everywhere."`
    #[arg(long, global = true)]
    user: bool,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Confirm a fact: it holds its place until superseded
    Confirm { id: String },
    /// Take back a confirm: the fact stands on its evidence again (a fact you added yourself cannot be
    /// unconfirmed; edit or delete it)
    Unconfirm { id: String },
    /// Pin a fact: it stays in the digest
    Pin { id: String },
    /// Unpin a fact
    Unpin { id: String },
    /// Mark a fact not true: it leaves the digest and never comes back when seen again
    NotTrue { id: String },
    /// Delete a fact: its text is removed from disk (the history keeps a tombstone)
    Delete { id: String },
    /// Undo not-true or supersede
    Restore { id: String },
    /// Change a fact's wording (the fact becomes confirmed)
    Edit { id: String, text: String },
    /// Add a fact of your own (confirmed)
    Add {
        text: String,
        /// It is a convention: how the team works ("We use conventional commits."), shown as one and kept in the
        /// block `lcmem share --agents-md` writes
        #[arg(long)]
        convention: bool,
    },
    /// List facts withheld until you confirm them (conventions first), e.g. "never push to main"
    Pending {
        /// Print one JSON array of the waiting facts
        #[arg(long)]
        json: bool,
    },
    /// List possible contradictions that need your decision
    Conflicts {
        #[arg(long)]
        json: bool,
    },
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let project = if args.user { None } else { Some(context.store()?) };
    let store = match &project {
        Some(store) => store.clone(),
        None => lcmem::Store::person(&context.home()?),
    };
    // A fact of the person's is written to the person's store; this
    // project's digest (when there is a project here) follows it at once.
    let (whose, memory) = match &project {
        Some(here) => (Whose::Project, Memory::open(here.clone())),
        None => (Whose::Person, Memory::open(context.store().unwrap_or_else(|_| store.clone()))),
    };
    let now = context.now()?;
    let (id, verb) = match args.command {
        None => return list(&memory.facts(whose)?, args.all, args.json),
        Some(Command::Conflicts { json }) => {
            let person = if project.is_some() { memory.facts(Whose::Person)? } else { Fold::default() };
            return conflicts(&memory.facts(whose)?, &person, json);
        }
        Some(Command::Pending { json }) => return pending(&memory.facts(whose)?, json),
        // A rule or a way of working is a convention without being told so.
        Some(Command::Add { text, convention }) => (memory.add_fact(&text, whose, convention, now)?, "added"),
        Some(Command::Delete { id }) => (memory.delete_fact(&id, whose, now)?, "deleted"),
        Some(command) => {
            let (id, action, verb, already) = match command {
                Command::Confirm { id } => (id, Action::Confirm, "confirmed", "is confirmed already"),
                Command::Unconfirm { id } => (id, Action::Unconfirm, "unconfirmed", "is not confirmed"),
                Command::Pin { id } => (id, Action::Pin, "pinned", "is pinned already"),
                Command::Unpin { id } => (id, Action::Unpin, "unpinned", "is not pinned"),
                Command::NotTrue { id } => (id, Action::NotTrue, "marked not true", "is marked not true already"),
                Command::Restore { id } => {
                    (id, Action::Restore, "restored", "stands already (neither marked not true nor replaced)")
                }
                Command::Edit { id, text } => (id, Action::Edit(text), "edited", "says that already"),
                Command::Add { .. } | Command::Delete { .. } | Command::Conflicts { .. } | Command::Pending { .. } => {
                    unreachable!()
                }
            };
            let applied = memory.act_on_fact(&id, action, whose, now)?;
            if !applied.changed {
                println!("unchanged: fact {} {already}; nothing was written", applied.id);
                return Ok(ExitCode::SUCCESS);
            }
            (applied.id, verb)
        }
    };
    let fold = memory.facts(whose)?;
    let every = if args.user { ", for every project" } else { "" };
    match fold.get(&id) {
        Some(fact) if !fact.deleted => {
            println!("{verb} {id}: {} [{}]{every}", lcmem::control_free(&fact.text), fact.state)
        }
        _ => println!("{verb} {id}{every}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn list(fold: &Fold, all: bool, json: bool) -> anyhow::Result<ExitCode> {
    warn_all(&fold.diagnostics);
    let shown: Vec<&Fact> = fold.facts.iter().filter(|f| all || f.is_active()).collect();
    if json {
        print_json(&shown)?;
        return Ok(ExitCode::SUCCESS);
    }
    if shown.is_empty() {
        let hidden = fold.facts.len();
        println!(
            "No facts yet{}. Facts are learned when sessions are sealed, or added with `lcmem facts add TEXT`.",
            if hidden > 0 { format!(" in the digest ({hidden} more with --all)") } else { String::new() }
        );
        return Ok(ExitCode::SUCCESS);
    }
    for fact in shown {
        // The text is the store's; a hand edit may hold anything a terminal obeys.
        print!("{}", lcmem::control_free(&render(fold, fact)));
    }
    if !fold.conflicts.is_empty() {
        println!("\n{} possible conflict(s): see `lcmem facts conflicts`.", fold.conflicts.len());
    }
    if let Some(note) = facts::pending_note(fold) {
        println!("\n{note}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The facts waiting for a person's confirmation.
fn pending(fold: &Fold, json: bool) -> anyhow::Result<ExitCode> {
    warn_all(&fold.diagnostics);
    let waiting = fold.pending();
    if json {
        print_json(&waiting)?;
        return Ok(ExitCode::SUCCESS);
    }
    if waiting.is_empty() {
        println!("Nothing waits for your confirmation.");
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(note) = facts::pending_note(fold) {
        println!("{note}\n");
    }
    for fact in waiting {
        print!("{}", lcmem::control_free(&render(fold, fact)));
    }
    println!("\nconfirm one: `lcmem facts confirm ID`; drop one: `lcmem facts not-true ID`");
    Ok(ExitCode::SUCCESS)
}

fn render(fold: &Fold, fact: &Fact) -> String {
    let mut flags = Vec::new();
    if fact.pinned {
        flags.push("pinned");
    }
    if fact.not_true {
        flags.push("NOT TRUE");
    }
    if fact.deleted {
        flags.push("deleted");
    }
    if fact.convention {
        flags.push("convention");
    }
    let flags = if flags.is_empty() { String::new() } else { format!(" [{}]", flags.join(", ")) };
    let text = if fact.deleted { "(text deleted)" } else { fact.text.as_str() };
    let mut out = format!("{}  {:<23}  {:.2}  {text}{flags}\n", fact.id, fact.state.as_str(), fact.confidence);
    if fact.state == State::UnconfirmedInstruction {
        out.push_str("    withheld: reads as an instruction; it is not acted on unless you confirm it\n");
    }
    if fact.state == State::WorkspaceEcho {
        out.push_str(
            "    not load-bearing: only ever seen repeating workspace content, so it stays out of the digest \
             unless you confirm it\n",
        );
    }
    if let Some((theirs, not_true)) = fact.proposes.as_ref().filter(|_| fact.is_proposal()) {
        let what = if *not_true { "mark your fact not true" } else { "replace your fact" };
        let text = fold.get(theirs).map(|f| f.text.as_str()).unwrap_or("?");
        out.push_str(&format!(
            "    the agent proposes to {what} {theirs}: {text}\n    nothing changes unless you accept it: `lcmem facts \
             confirm {}` accepts, `lcmem facts not-true {}` refuses\n",
            fact.id, fact.id
        ));
    }
    if let Some(by) = &fact.superseded_by {
        let newer = fold.get(by).map(|f| f.text.as_str()).unwrap_or("?");
        out.push_str(&format!("    superseded by {by}: {newer}\n"));
    }
    let sources: Vec<String> = fact
        .sources
        .iter()
        .map(|s| match s.team_label() {
            Some(team) => format!("the team file ({team})"),
            None => format!("{} ({}, {})", s.session, day(s.at), s.provenance().as_str()),
        })
        .collect();
    if !sources.is_empty() {
        out.push_str(&format!("    sources: {}\n", sources.join(", ")));
    } else if fact.user_authored {
        out.push_str("    source: you\n");
    }
    for item in &fact.history {
        out.push_str(&format!("    {}  {}\n", day(item.at), item.note));
    }
    out
}

/// The store's open conflicts; for a project, also its facts that may
/// contradict one of the person's (every project).
fn conflicts(fold: &Fold, person: &Fold, json: bool) -> anyhow::Result<ExitCode> {
    let mut all = fold.conflicts.clone();
    all.extend(facts::person_conflicts(fold, person, &SubjectKeyJudge));
    if json {
        print_json(&all)?;
        return Ok(ExitCode::SUCCESS);
    }
    if all.is_empty() {
        println!("No open conflicts.");
    }
    for c in &all {
        let text = |fold: &Fold, id: &str| fold.get(id).map(|f| f.text.clone()).unwrap_or_default();
        println!("{}  {}: these may contradict each other", day(c.at), c.reason);
        println!("    {}  {}", c.fact, lcmem::control_free(&text(fold, &c.fact)));
        if c.persons {
            println!("    {}  {} (yours, every project)", c.with, lcmem::control_free(&text(person, &c.with)));
            println!(
                "    settle it: `lcmem facts not-true {}` or `lcmem facts edit {} TEXT` here, or `lcmem facts --user \
                 edit {} TEXT` for every project",
                c.fact, c.fact, c.with
            );
        } else {
            println!("    {}  {}", c.with, lcmem::control_free(&text(fold, &c.with)));
            println!(
                "    settle it: `lcmem facts confirm ID`, `lcmem facts not-true ID` or `lcmem facts edit ID TEXT`"
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
