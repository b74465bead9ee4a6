//! `lcmem import`: add v1 session files to the store.

use std::path::PathBuf;
use std::process::ExitCode;

use lcmem::store::ImportOutcome;

use crate::context::Context;
use crate::output::warn_all;

#[derive(clap::Args)]
#[command(after_help = "Each file must be a session in format v1 (docs/session-format.md): a header line, \
then messages, tool actions and status changes. Malformed lines are reported as file:line warnings and kept \
in the stored copy. Importing the same file twice changes nothing; a file that grew is appended to.")]
pub struct Args {
    /// Session files to import
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    store.ensure_enabled()?;
    let mut failed = 0;
    for file in &args.files {
        match store.import_file(file) {
            Ok((outcome, diagnostics)) => {
                warn_all(&diagnostics);
                let note = if diagnostics.is_empty() {
                    String::new()
                } else {
                    format!(" ({} line(s) skipped, kept in the file)", diagnostics.len())
                };
                match outcome {
                    ImportOutcome::Added { id } => println!("added     {id}{note}"),
                    ImportOutcome::Extended { id, lines } => {
                        println!("extended  {id}: {lines} new line(s){note}")
                    }
                    ImportOutcome::Unchanged { id } => println!("unchanged {id}"),
                }
            }
            Err(lcmem::Error::MemoryOff { .. }) => {
                return Err(store.ensure_enabled().unwrap_err().into());
            }
            Err(error) => {
                failed += 1;
                eprintln!("lcmem: {error}");
            }
        }
    }
    if failed > 0 {
        eprintln!("lcmem: {failed} of {} file(s) not imported", args.files.len());
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
