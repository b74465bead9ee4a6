//! `lcmem import`: add sessions to the store. v1 session files are stored as
//! they are; Claude Code and Codex CLI transcripts are converted first
//! (docs/importers.md).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::bail;
use clap::builder::TypedValueParser as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lcmem::Store;
use lcmem::import::{Format, Placement, Report, Source};
use lcmem::project::Project;
use lcmem::store::ImportOutcome;

use super::hook_log::Agent;
use crate::context::Context;
use crate::output::warn_all;

/// The help's closing part: the formats and where each agent keeps its
/// transcripts, from the engine's list of agents.
fn after_help() -> String {
    let mut out = String::from("Formats (--format; auto tells each file apart by its content):\n");
    out.push_str(
        "  v1           lcmem's own sessions (docs/session-format.md), stored as they are but for redacted secrets\n",
    );
    for source in lcmem::import::importable() {
        out.push_str(&format!("  {:<12} {} transcripts, {}\n", source.name(), source.title(), place(source)));
    }
    out.push_str(
        "\nA transcript is converted to a v1 session: prompts and replies, each tool action with the files it \
         touched, and tool output (searchable by recall, never turned into memory). Malformed lines are reported \
         as file:line warnings and skipped. Importing again changes nothing; a file or transcript that grew is \
         appended to. A folder given as DIR is searched for *.jsonl files.\n\n\
         Every transcript at once, each into the project of the folder it was recorded in (--project is not used):\n",
    );
    for source in lcmem::import::importable() {
        out.push_str(&format!("  lcmem import --all {:<12} from {}\n", source.name(), place(source)));
    }
    out.push_str("  lcmem import --all codex --from DIR\nProjects whose memory is off are skipped with a message.");
    out
}

/// Where an agent keeps its transcripts, in words.
fn place(source: &dyn Source) -> String {
    let Some(t) = source.transcripts() else { return String::new() };
    match t.env {
        Some(var) => format!("${var}/{}, else ~/{}", t.under_env, t.under_home),
        None => format!("~/{}", t.under_home),
    }
}

/// `--format`: `auto` (no format forced), `v1` or an agent whose transcripts
/// lcmem reads.
#[derive(Clone, Copy)]
struct Forced(Option<Format>);

fn formats() -> impl clap::builder::TypedValueParser<Value = Forced> {
    let names = ["auto", "v1"].into_iter().chain(lcmem::import::importable().map(|s| s.name()));
    clap::builder::PossibleValuesParser::new(names).map(|name| Forced(Format::named(&name)))
}

/// `--all`: an agent whose transcripts lcmem reads.
fn tools() -> impl clap::builder::TypedValueParser<Value = Agent> {
    super::hook_log::agents(|s| s.transcripts().is_some(), |s| format!("{} transcripts, {}", s.title(), place(s)))
}

#[derive(clap::Args)]
#[command(after_help = after_help())]
pub struct Args {
    /// Session files or transcripts to import, or folders to search for *.jsonl
    #[arg(value_name = "FILE|DIR", required_unless_present = "all", conflicts_with_all = ["all", "from"])]
    paths: Vec<PathBuf>,
    /// What the files are
    #[arg(long, value_parser = formats(), default_value = "auto")]
    format: Forced,
    /// Import every transcript TOOL kept, each into the project it was recorded in
    #[arg(long, value_parser = tools(), value_name = "TOOL", conflicts_with = "format")]
    all: Option<Agent>,
    /// With --all: search DIR instead of TOOL's own folder
    #[arg(long, value_name = "DIR", requires = "all")]
    from: Option<PathBuf>,
}

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    match args.all {
        Some(tool) => run_all(tool, args.from, context),
        None => run_paths(&args.paths, args.format.0, context),
    }
}

/// `lcmem import FILE|DIR…`: everything into the one project of `--project`.
fn run_paths(paths: &[PathBuf], forced: Option<Format>, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    store.ensure_enabled()?;
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
fn run_all(tool: Agent, from: Option<PathBuf>, context: &Context) -> anyhow::Result<ExitCode> {
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
    let (format, files) = (tool.format(), lcmem::import::discover(tool.0, &root)?);
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

/// Where an agent keeps its transcripts, as the agent itself decides it.
pub fn default_root(tool: Agent) -> anyhow::Result<PathBuf> {
    let Some(transcripts) = tool.0.transcripts() else { bail!("lcmem reads no transcripts of {}", tool.0.title()) };
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    match transcripts.folder(|v| std::env::var_os(v), home.as_deref()) {
        Some(folder) => Ok(folder),
        None => {
            let variable = transcripts.env.map(|v| format!(" or {v}")).unwrap_or_default();
            bail!("cannot find ~/{}: set HOME{variable}, or pass --from DIR", transcripts.under_home)
        }
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
