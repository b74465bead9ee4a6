//! `lcmem sessions`, `lcmem pin`, `lcmem unpin`.

use std::process::ExitCode;

use serde::Serialize;

use crate::context::Context;
use crate::output::{day, print_json, table};

#[derive(clap::Args)]
pub struct Args {
    /// Print one JSON array instead of a table
    #[arg(long)]
    json: bool,
}

#[derive(clap::Args)]
pub struct PinArgs {
    /// A session id (or a unique prefix)
    #[arg(value_name = "SESSION")]
    session: String,
}

#[derive(Serialize)]
struct Row {
    id: String,
    title: String,
    created_at: jiff::Timestamp,
    last_active: jiff::Timestamp,
    status: &'static str,
    pinned: bool,
    sealed: bool,
    messages: usize,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let journal = lcmem::Memory::open(store.clone()).journal()?;
    let mut rows = Vec::new();
    for id in store.session_ids()? {
        let session = match store.read_session(&id) {
            Ok(s) => s,
            Err(error) => {
                eprintln!("warning: {error}");
                continue;
            }
        };
        let standing = journal.standing(&id, session.closing_status(), session.pinned());
        rows.push(Row {
            id: id.clone(),
            // Transcripts stored before they were redacted on import may hold anything.
            title: store.shown(&session.title),
            created_at: session.header.created_at,
            last_active: session.last_active(),
            status: standing.status.as_str(),
            pinned: standing.pinned,
            sealed: standing.sealed,
            messages: session.message_count(),
        });
    }
    rows.sort_by_key(|r| r.created_at);
    if args.json {
        print_json(&rows)?;
        return Ok(ExitCode::SUCCESS);
    }
    if rows.is_empty() {
        println!("No sessions in {} yet. Add some with `lcmem import FILE…`.", store.dir().display());
        return Ok(ExitCode::SUCCESS);
    }
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            let yes = |b: bool| if b { "yes" } else { "no" }.to_string();
            vec![day(r.created_at), r.status.to_string(), yes(r.sealed), yes(r.pinned), r.id.clone(), r.title.clone()]
        })
        .collect();
    print!("{}", table(&["CREATED", "STATUS", "SEALED", "PINNED", "ID", "TITLE"], &cells));
    Ok(ExitCode::SUCCESS)
}

pub fn pin(args: PinArgs, context: &Context, pinned: bool) -> anyhow::Result<ExitCode> {
    let id = lcmem::Memory::open(context.store()?).set_pinned(&args.session, pinned, context.now()?)?;
    println!("{} {id}", if pinned { "pinned" } else { "unpinned" });
    Ok(ExitCode::SUCCESS)
}
