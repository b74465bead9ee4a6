//! `lcmem export`: a session, or the whole memory set, as Markdown or JSON.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;

use crate::context::Context;

#[derive(clap::Subcommand)]
pub enum Command {
    /// A session's transcript as Markdown: roles as bold labels, tool output fenced as workspace content
    #[command(after_help = "Every string passes through the redactor on the way out. A role is a bold label, \
never a heading, and a heading inside a turn is escaped, so no turn can pass itself off as another; tool output \
is in a fenced block longer than any run of backticks inside it.")]
    Session {
        /// A session id (or a unique prefix)
        #[arg(value_name = "SESSION")]
        session: String,
        /// Write to FILE instead of stdout (replaced atomically)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// The memory set: the digest, every fact with its state, sources and history, and the journal
    Memory {
        /// Write to FILE instead of stdout (replaced atomically)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// One JSON document instead of Markdown
        #[arg(long)]
        json: bool,
    },
}

pub fn run(command: Command, context: &Context) -> anyhow::Result<ExitCode> {
    let memory = lcmem::Memory::open(context.store()?);
    let (text, out) = match command {
        Command::Session { session, out } => (memory.export_session(&session)?, out),
        Command::Memory { out, json: false } => (memory.export_memory(context.now()?)?, out),
        Command::Memory { out, json: true } => {
            let set = memory.export_set(context.now()?)?;
            (format!("{}\n", serde_json::to_string_pretty(&set)?), out)
        }
    };
    match out {
        Some(path) => write_out(&path, &text)?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn write_out(path: &Path, text: &str) -> anyhow::Result<()> {
    // A bare file name is in the current folder (whose path is then `.`, not empty).
    let path = match path.parent() {
        Some(dir) if dir.as_os_str().is_empty() => Path::new(".").join(path),
        _ => path.to_path_buf(),
    };
    let path = path.as_path();
    lcmem::atomic_write(path, text.as_bytes()).with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!("wrote {}", path.display());
    Ok(())
}
