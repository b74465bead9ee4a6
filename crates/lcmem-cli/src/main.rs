//! `lcmem`: the command-line front-end. Parsing, printing and exit codes
//! live here; everything else is the `lcmem` library.

// The only unsafe code is resetting SIGPIPE, below, and the allocator's
// advice to the kernel (alloc.rs).
#![deny(unsafe_code)]

mod alloc;
mod cmd;
mod context;
mod error_words;
mod mcp;
mod output;
mod ui;
mod when;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;

use crate::context::Context;

#[global_allocator]
static ALLOCATOR: alloc::Allocator = alloc::Allocator;

const EXIT_CODES: &str = "\
Exit codes:
  0  success (warnings about skipped lines go to stderr)
  1  an error: the message names the file and says what to do
  2  bad usage: unknown command, flag or value
  3  memory is off for this project (nothing was written)

Environment:
  LEVELCODE_HOME  the store root (default ~/.levelcode); --home overrides it
  LCMEM_NOW       an RFC 3339 time to use as \"now\" (for reproducible runs)";

#[derive(Parser)]
#[command(
    name = "lcmem",
    version,
    about = "Project memory for AI coding assistants: a small digest always, cited recall on demand, all in plain files",
    long_about = "lcmem keeps a project's memory in plain files under ~/.levelcode/sessions/<project-slug>/: \
the sessions (JSONL), a journal of what each sealed session achieved, durable facts with their sources, \
and MEMORY.md, the short digest a new session is given. Everything is yours to read, edit, grep and delete.\n\n\
Start with `lcmem tour` to see it work on a bundled example project.",
    after_help = EXIT_CODES,
    after_long_help = EXIT_CODES
)]
struct Cli {
    /// The store root [env: LEVELCODE_HOME] [default: ~/.levelcode]
    #[arg(long, global = true, value_name = "DIR")]
    home: Option<PathBuf>,
    /// The project: a path inside it (a worktree or subfolder of a git repository is the repository), or a store slug [default: .]
    #[arg(long, global = true, value_name = "PATH")]
    project: Option<PathBuf>,
    #[command(subcommand)]
    command: cmd::Command,
}

fn main() -> ExitCode {
    restore_default_sigpipe();
    let cli = Cli::parse();
    let context = Context::new(cli.home, cli.project);
    match cmd::run(cli.command, &context) {
        Ok(code) => code,
        Err(error) => output::report_error(&error),
    }
}

/// A command piped into `head` should stop quietly when the pipe closes, as
/// Unix tools do, instead of failing on a write to a closed pipe.
#[allow(unsafe_code)]
fn restore_default_sigpipe() {
    // SAFETY: called first thing in main, before any thread exists; setting a
    // signal's disposition to its default has no other precondition.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
