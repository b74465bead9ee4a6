//! `lcmem project`: which memory a folder belongs to, and keeping it when a
//! project moves.

use std::path::PathBuf;
use std::process::ExitCode;

use lcmem::move_store;
use serde_json::json;

use crate::context::Context;

#[derive(clap::Subcommand)]
pub enum Command {
    /// Show the project this folder resolves to: its root, slug and store folder
    #[command(after_help = "A folder inside a git repository (the main checkout, a subfolder or a linked \
worktree) belongs to the repository: all of them share one memory. `--project SLUG` names a store directly, \
for sessions recorded in a folder this machine does not have.")]
    Show {
        /// Print one JSON object: root, slug, store, exists
        #[arg(long)]
        json: bool,
    },
    /// Keep a moved project's memory: rename the store of OLD to the slug of NEW
    #[command(after_help = "After `mv ~/src/shop ~/code/shop`, run `lcmem project move ~/src/shop ~/code/shop`. \
OLD is where the project was (it need not exist any more) or its store's slug; NEW is where it is now. \
Nothing is merged: if NEW already has a memory, nothing is moved.")]
    Move {
        /// Where the project was, or the slug of its store
        old: PathBuf,
        /// Where the project is now
        new: PathBuf,
        /// Print one JSON object: from, to, store
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    match command {
        Command::Show { json } => {
            let store = context.store()?;
            let project = store.project();
            let exists = store.dir().exists();
            if json {
                let out = json!({"root": project.root, "slug": project.slug, "store": store.dir(), "exists": exists});
                println!("{out}");
            } else {
                println!("project {}", project.root.display());
                println!("slug    {}", project.slug);
                println!("store   {}{}", store.dir().display(), if exists { "" } else { " (nothing recorded yet)" });
            }
        }
        Command::Move { old, new, json } => {
            let home = context.home()?;
            let moved = move_store(&home, &old, &new)?;
            let store = home.join("sessions").join(&moved.to.slug);
            if json {
                println!("{}", json!({"from": moved.from, "to": moved.to.slug, "store": store}));
            } else if moved.from == moved.to.slug {
                println!("{} already uses the memory {}: nothing to move", new.display(), moved.from);
            } else {
                println!("moved the memory {} to {} ({})", moved.from, moved.to.slug, store.display());
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
