//! `lcmem import`: add sessions to the store. v1 session files are stored as
//! they are; Claude Code and Codex CLI transcripts are converted first
//! (docs/importers.md).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lcmem::Store;
use lcmem::import::{Format, Placement, Report};
use lcmem::project::Project;
use lcmem::store::ImportOutcome;

use crate::context::Context;
use crate::output::warn_all;

const AFTER_HELP: &str = "\
Formats (--format; auto tells each file apart by its content):
  v1           lcmem's own sessions (docs/session-format.md), stored as they are but for redacted secrets
  claude-code  Claude Code transcripts, ~/.claude/projects/<folder>/<session>.jsonl
  codex        Codex CLI rollouts, ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl

A transcript is converted to a v1 session: prompts and replies, each tool action with the files it touched, \
and tool output (searchable by recall, never turned into memory). Malformed lines are reported as file:line \
warnings and skipped. Importing again changes nothing; a file or transcript that grew is appended to. A folder \
given as DIR is searched for *.jsonl files.

Every transcript at once, each into the project of the folder it was recorded in (--project is not used):
  lcmem import --all claude-code    from $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects
  lcmem import --all codex          from $CODEX_HOME/sessions, else ~/.codex/sessions
  lcmem import --all codex --from DIR
Projects whose memory is off are skipped with a message.";

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FormatArg {
    Auto,
    V1,
    ClaudeCode,
    Codex,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Tool {
    ClaudeCode,
    Codex,
}

#[derive(clap::Args)]
#[command(after_help = AFTER_HELP)]
pub struct Args {
    /// Session files or transcripts to import, or folders to search for *.jsonl
    #[arg(value_name = "FILE|DIR", required_unless_present = "all", conflicts_with_all = ["all", "from"])]
    paths: Vec<PathBuf>,
    /// What the files are
    #[arg(long, value_enum, default_value_t = FormatArg::Auto)]
    format: FormatArg,
    /// Import every transcript TOOL kept, each into the project it was recorded in
    #[arg(long, value_enum, value_name = "TOOL", conflicts_with = "format")]
    all: Option<Tool>,
    /// With --all: search DIR instead of TOOL's own folder
    #[arg(long, value_name = "DIR", requires = "all")]
    from: Option<PathBuf>,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    match args.all {
        Some(tool) => run_all(tool, args.from, context),
        None => run_paths(&args.paths, args.format, context),
    }
}

/// `lcmem import FILE|DIR…`: everything into the one project of `--project`.
fn run_paths(paths: &[PathBuf], format: FormatArg, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    store.ensure_enabled()?;
    let forced = match format {
        FormatArg::Auto => None,
        FormatArg::V1 => Some(Format::V1),
        FormatArg::ClaudeCode => Some(Format::ClaudeCode),
        FormatArg::Codex => Some(Format::Codex),
    };
    let (mut failed, mut total) = (0, 0);
    for path in paths {
        // A file found in a folder may be anything; a file named on the
        // command line was meant, and is read as v1 when nothing else fits so
        // that the error says what v1 expects.
        let found_in_folder = path.is_dir();
        let files = if found_in_folder { lcmem::import::jsonl_files(path)? } else { vec![path.clone()] };
        if found_in_folder && files.is_empty() {
            eprintln!("lcmem: no *.jsonl files in {}", path.display());
        }
        for file in &files {
            total += 1;
            match import_one(&store, forced, file, found_in_folder) {
                Ok(()) => {}
                Err(lcmem::Error::MemoryOff { .. }) => {
                    return Err(store.ensure_enabled().unwrap_err().into());
                }
                Err(error) => {
                    failed += 1;
                    eprintln!("lcmem: {}", crate::words::cli(&error));
                }
            }
        }
    }
    if failed < total {
        super::recall::refresh_after_write(&store);
    }
    if failed > 0 {
        eprintln!("lcmem: {failed} of {total} file(s) not imported");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

fn import_one(store: &Store, forced: Option<Format>, file: &Path, found_in_folder: bool) -> lcmem::Result<()> {
    let report = if found_in_folder {
        match lcmem::import::import_found(store, forced, file)? {
            Some(report) => report,
            None => {
                println!("skipped   {}: not a session or a transcript lcmem knows", file.display());
                return Ok(());
            }
        }
    } else {
        match lcmem::import::import_file(store, forced, file) {
            // Named by hand: the person means it, and the session comes back.
            Err(lcmem::Error::SessionForgotten { id, on }) => {
                store.lift_tombstone(&id)?;
                println!("unforgot  {id}: it was forgotten on {on}; importing it by hand brings it back");
                lcmem::import::import_file(store, forced, file)?
            }
            other => other?,
        }
    };
    warn_all(&report.diagnostics);
    match &report.outcome {
        Some(outcome) => println!("{}", describe(outcome, &report)),
        None => println!("nothing   {}: no user prompt in it yet", file.display()),
    }
    Ok(())
}

/// One line about one imported file. v1 files keep the wording they always had.
fn describe(outcome: &ImportOutcome, report: &Report) -> String {
    let skipped = report.diagnostics.len();
    if report.format == Format::V1 {
        let note = if skipped == 0 { String::new() } else { format!(" ({skipped} line(s) skipped, kept in the file)") };
        return match outcome {
            ImportOutcome::Added { id } => format!("added     {id}{note}"),
            ImportOutcome::Extended { id, lines } => format!("extended  {id}: {lines} new line(s){note}"),
            ImportOutcome::Reconverted { id, lines } => reconverted(id, *lines, &note),
            ImportOutcome::Unchanged { id } => format!("unchanged {id}"),
        };
    }
    let note = if skipped == 0 { String::new() } else { format!(", {skipped} line(s) skipped") };
    let format = report.format;
    match outcome {
        ImportOutcome::Added { id } => format!(
            "added     {id} ({format}: {} message(s), {} tool action(s){note})",
            report.counts.messages, report.counts.tools
        ),
        ImportOutcome::Extended { id, lines } => format!("extended  {id}: {lines} new line(s) ({format}{note})"),
        ImportOutcome::Reconverted { id, lines } => reconverted(id, *lines, &format!(" ({format}{note})")),
        ImportOutcome::Unchanged { id } => format!("unchanged {id}"),
    }
}

/// A stored copy replaced by this version's conversion of the transcript.
fn reconverted(id: &str, lines: usize, note: &str) -> String {
    format!("updated   {id}: converted again by this version, {lines} line(s), pins and closing status kept{note}")
}

/// `lcmem import --all TOOL`: every transcript, each into its own project.
fn run_all(tool: Tool, from: Option<PathBuf>, context: &Context) -> anyhow::Result<ExitCode> {
    if let Some(project) = context.explicit_project() {
        eprintln!(
            "warning: --project {} is not used with --all: each transcript goes to the project it was recorded in",
            project.display()
        );
    }
    let home = context.home()?;
    let root = match from {
        Some(dir) => dir,
        None => default_root(tool)?,
    };
    let (format, files) = match tool {
        Tool::ClaudeCode => (Format::ClaudeCode, lcmem::import::discover_claude_code(&root)?),
        Tool::Codex => (Format::Codex, lcmem::import::discover_codex(&root)?),
    };
    if files.is_empty() {
        println!("no {format} transcripts under {}", root.display());
        return Ok(ExitCode::SUCCESS);
    }
    // Drawn only when stderr is a terminal: hidden in pipes, logs and tests.
    let bar = ProgressBar::with_draw_target(Some(files.len() as u64), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}") {
        bar.set_style(style);
    }
    let mut tally = Tally::default();
    let result = lcmem::import::import_all(&home, format, &files, &mut |path, placement| {
        bar.set_message(path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        bar.suspend(|| tally.record(path, placement));
        bar.inc(1);
    });
    bar.finish_and_clear();
    result?;
    for project in tally.changed.drain(..) {
        super::recall::refresh_after_write(&Store::new(&home, project));
    }
    println!(
        "{} {format} transcript(s) into {} project(s): {} added, {} extended, {} unchanged, {} with no prompt yet, \
         {} skipped, {} failed",
        files.len(),
        tally.projects.len(),
        tally.added,
        tally.extended,
        tally.unchanged,
        tally.empty,
        tally.skipped,
        tally.failed
    );
    Ok(if tally.failed > 0 { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

/// Where a tool keeps its transcripts, as the tool itself decides it.
pub fn default_root(tool: Tool) -> anyhow::Result<PathBuf> {
    let (variable, below, fallback) = match tool {
        Tool::ClaudeCode => ("CLAUDE_CONFIG_DIR", "projects", ".claude/projects"),
        Tool::Codex => ("CODEX_HOME", "sessions", ".codex/sessions"),
    };
    if let Some(dir) = std::env::var_os(variable).filter(|d| !d.is_empty()) {
        return Ok(PathBuf::from(dir).join(below));
    }
    match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(fallback)),
        None => bail!("cannot find ~/{fallback}: set HOME or {variable}, or pass --from DIR"),
    }
}

/// What `--all` did, for the closing line.
#[derive(Default)]
struct Tally {
    projects: HashSet<String>,
    /// Projects whose store got new lines: their search index is refreshed.
    changed: Vec<Project>,
    memory_off: HashSet<String>,
    added: usize,
    extended: usize,
    unchanged: usize,
    empty: usize,
    skipped: usize,
    failed: usize,
}

impl Tally {
    fn record(&mut self, path: &Path, placement: lcmem::Result<Placement>) {
        match placement {
            Ok(Placement::Stored { project, report }) => {
                warn_all(&report.diagnostics);
                self.projects.insert(project.slug.clone());
                let root = project.root.display();
                let changed = report.outcome.as_ref().is_some_and(ImportOutcome::wrote);
                if changed && !self.changed.iter().any(|p| p.slug == project.slug) {
                    self.changed.push(project.clone());
                }
                match report.outcome {
                    Some(ImportOutcome::Added { id }) => {
                        self.added += 1;
                        println!("added     {id} into {root}");
                    }
                    Some(ImportOutcome::Extended { id, lines }) => {
                        self.extended += 1;
                        println!("extended  {id}: {lines} new line(s) in {root}");
                    }
                    Some(ImportOutcome::Reconverted { id, lines }) => {
                        // Counted with the extended ones in the closing line.
                        self.extended += 1;
                        println!("{} in {root}", reconverted(&id, lines, ""));
                    }
                    Some(ImportOutcome::Unchanged { .. }) => self.unchanged += 1,
                    None => self.empty += 1,
                }
            }
            Ok(Placement::Empty { .. }) => self.empty += 1,
            Ok(Placement::NoProject { .. }) => {
                self.skipped += 1;
                eprintln!(
                    "skipped   {}: it records no working directory; import it with `lcmem import --project DIR FILE`",
                    path.display()
                );
            }
            Ok(Placement::MemoryOff { project, why }) => {
                let reason = crate::words::cli(&why);
                self.skipped += 1;
                if self.memory_off.insert(project.slug.clone()) {
                    eprintln!("skipped   transcripts of {}: {reason}", project.root.display());
                }
            }
            Err(error) => {
                self.failed += 1;
                eprintln!("lcmem: {}", crate::words::cli(&error));
            }
        }
    }
}
