//! `lcmem tour`: the whole pipeline on the bundled example project, in a
//! temporary store, so the user's own store is never touched.

use std::path::Path;
use std::process::ExitCode;

use lcmem::recall::{HitKind, Projects, Query};
use lcmem::{Memory, Padding, SealOutcome, Store, ToSeal};

use super::shared::{Bar, render_journal};

macro_rules! example {
    ($name:literal) => {
        (
            concat!("examples/shop/sessions/", $name, ".jsonl"),
            include_str!(concat!("../../../../examples/shop/sessions/", $name, ".jsonl")),
        )
    };
}

/// The example project's sessions, compiled into the binary so the tour
/// runs from anywhere.
const EXAMPLES: &[(&str, &str)] = &[
    example!("2026-10-08-product-cache"),
    example!("2026-10-12-graphql-spike"),
    example!("2026-10-15-orders-refactor"),
    example!("2026-10-20-flaky-checkout"),
    example!("2026-10-23-fixture-import"),
    example!("2026-11-02-stripe-webhooks"),
    example!("2026-11-06-cache-postgres"),
    example!("2026-11-10-migrations-question"),
    example!("2026-11-12-refund-retries"),
    example!("2026-11-18-changelog-104"),
    example!("2026-11-24-vitest"),
    example!("2026-11-27-rate-limits"),
];

/// The tour's "today": the day after the example's last session, so the
/// example's weeks read as they were written whatever the real date is.
pub const TOUR_NOW: &str = "2026-11-28T18:00:00Z";

#[derive(clap::Args)]
pub struct Args {
    /// Keep the temporary store and print where it is, to explore it afterwards
    #[arg(long)]
    keep: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let temp = tempfile::Builder::new().prefix("lcmem-tour-").tempdir()?;
    let home = temp.path().join("levelcode");
    let project = temp.path().join("shop");
    std::fs::create_dir_all(&project)?;
    let store = Store::open(&home, &project)?;
    let now = TOUR_NOW.parse()?;

    heading("1. Import the example project's sessions");
    for (name, content) in EXAMPLES {
        store.import_bytes(Path::new(name), content.as_bytes().to_vec())?;
    }
    println!("{} sessions imported into {}", EXAMPLES.len(), store.dir().display());

    heading("2. Seal each session: extract what it achieved, then consolidate MEMORY.md");
    // Through the front door, as `lcmem seal` does: each session sealed with
    // the lane the settings choose (the rules: the tour's store is new), then
    // MEMORY.md consolidated and the search index built.
    let mut memory = Memory::open(store.clone());
    let ids = store.session_ids()?;
    let run = memory.seal(ToSeal::Named(&ids), None, now, &mut Bar::new(), &mut |id, _, outcome| {
        if let SealOutcome::Sealed { entry, facts } = outcome {
            println!("sealed {:<34} {:?}, {facts} candidate fact(s)", id, entry.outcome);
        }
    })?;

    heading("3. The journal (memory/journal.jsonl)");
    print!("{}", render_journal(&memory.journal()?));

    heading("4. Facts (memory/facts.jsonl, folded)");
    let fold = memory.facts(lcmem::Whose::Project)?;
    for fact in &fold.facts {
        let replaced = fact
            .superseded_by
            .as_deref()
            .and_then(|id| fold.get(id))
            .map(|newer| format!(" -> replaced by \"{}\"", newer.text))
            .unwrap_or_default();
        println!("- [{}] {}{replaced}", fact.state, fact.text);
    }

    heading("5. What the consolidation wrote: memory/MEMORY.md");
    let consolidated = match run.sealed.consolidated {
        Some(report) => Some(report),
        None => memory.consolidate(now)?,
    };
    if let Some(report) = consolidated {
        println!(
            "{} tokens of a {}-token cap: {} facts, {} pinned thread(s), {} recent session(s); {} item(s) left out, \
             {} session(s) faded after 30 days without activity (still in the journal and in recall)",
            report.tokens,
            report.cap,
            report.facts,
            report.pinned_threads,
            report.recently,
            report.evicted,
            report.archived.len()
        );
    }

    heading("6. What a new session is told (lcmem digest)");
    if let lcmem::DigestAnswer::Digest(digest) = memory.digest()? {
        print!("{}", digest.text);
    }

    heading("7. The welcome-back strip (lcmem welcome)");
    if let Some(line) = memory.welcome(now)? {
        println!("{line}");
    }

    heading("8. Deep when asked: lcmem recall --kinds journal,fact \"what did we do about refunds\"");
    let mut query = Query::new("what did we do about refunds".to_string());
    query.limit = 3;
    query.kinds = vec![HitKind::Journal, HitKind::Fact];
    let recalled = memory.recall(&query, &Projects::This, Padding::Kept, now, &mut Bar::new())?;
    for found in recalled.answer.hits {
        let hit = found.hit;
        println!("- {} [{}]", hit.citation, hit.state);
        println!("    {}", hit.snippet.split_whitespace().collect::<Vec<_>>().join(" "));
    }

    heading("9. What never reached memory");
    check_absent(&store, "note to AI", "the instruction planted in a fixture file (tool output)");
    check_absent(&store, "sk_test_51", "the API key a user pasted");

    heading("Next: give your own project a memory");
    let agents: Vec<&str> = lcmem::agents::SOURCES.iter().map(|s| s.name()).collect();
    let (first, others) = agents.split_first().expect("lcmem knows agents");
    let install = format!("lcmem install {first}");
    println!("{install:<27} # or {}: the digest at every session start,", others.join(", "));
    println!("{:<27} # import and seal at its end, recall over MCP (prints each change first)", "");
    println!("{:<27} # then check the wiring; `lcmem import --all {first}` takes in the past", "lcmem doctor");
    if args.keep {
        let kept = temp.keep();
        println!("\nThe tour's store is kept at {}", kept.join("levelcode").display());
        println!(
            "Explore it with: lcmem --home {} --project {} sessions",
            kept.join("levelcode").display(),
            kept.join("shop").display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn heading(title: &str) {
    println!("\n== {title}\n");
}

/// Says whether `needle` is absent from every memory file.
fn check_absent(store: &Store, needle: &str, what: &str) {
    let mut found = Vec::new();
    for path in [store.journal_path(), store.facts_path(), store.memory_md_path()] {
        if let Ok(text) = std::fs::read_to_string(&path)
            && text.contains(needle)
        {
            found.push(path.display().to_string());
        }
    }
    if found.is_empty() {
        println!("ok: {what} is in no memory file");
    } else {
        println!("LEAK: {what} was found in {}", found.join(", "));
    }
}
