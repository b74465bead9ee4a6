//! `lcmem recall` and `lcmem index`.

use std::process::ExitCode;

use crate::context::Context;

#[derive(clap::Args)]
pub struct Args {
    /// What to look for
    query: String,
}

#[derive(clap::Subcommand)]
pub enum IndexCommand {
    /// Rebuild the derived search index from the files
    Rebuild,
}

pub fn run(_args: Args, _context: &Context) -> anyhow::Result<ExitCode> {
    anyhow::bail!("recall is not built yet")
}

pub fn index(_command: IndexCommand, _context: &Context) -> anyhow::Result<ExitCode> {
    anyhow::bail!("the index is not built yet")
}
