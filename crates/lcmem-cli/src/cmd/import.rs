//! `lcmem import`: add sessions to the store. v1 session files are stored as
//! they are; every agent's transcripts (the sources `--format` names) are converted first
//! (docs/importers.md).

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::builder::TypedValueParser as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lcmem::agents::Source;
use lcmem::{Candidate, Format, ImportOutcome, Named, Placement, Project, Surveyed, Taken};
use lcmem::{FileReport, Home, Memory, Store, ToImport};

use super::shared::{Agent, Bar, default_root};
use crate::context::Context;
use crate::output::warn_all;

/// The help's closing part: the formats and where each agent keeps its
/// transcripts, from the engine's list of agents.
fn after_help() -> String {
    let mut out = String::from("Formats (--format; auto tells each file apart by its content):\n");
    out.push_str(
        "  v1           lcmem's own sessions (docs/session-format.md), stored as they are but for redacted secrets\n",
    );
    for source in lcmem::agents::importable() {
        out.push_str(&format!("  {:<12} {} transcripts, {}\n", source.name(), source.title(), place(source)));
    }
    out.push_str(
        "\nA transcript is converted to a v1 session: prompts and replies, each tool action with the files it \
         touched, and tool output (searchable by recall, never turned into memory). Malformed lines are reported \
         as file:line warnings and skipped. Importing again changes nothing; a file or transcript that grew is \
         appended to. A folder given as DIR is searched for *.jsonl files.\n\n\
         Every transcript at once, each into the project of the folder it was recorded in (--project is not used):\n",
    );
    for source in lcmem::agents::importable() {
        out.push_str(&format!("  lcmem import --all {:<12} from {}\n", source.name(), place(source)));
    }
    out.push_str("  lcmem import --all AGENT --from DIR\nProjects whose memory is off are skipped with a message.");
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
    let names = ["auto", "v1"].into_iter().chain(lcmem::agents::importable().map(|s| s.name()));
    clap::builder::PossibleValuesParser::new(names).map(|name| Forced(Format::named(&name)))
}

/// `--all`: an agent whose transcripts lcmem reads.
fn tools() -> impl clap::builder::TypedValueParser<Value = Agent> {
    super::shared::agents(|s| s.transcripts().is_some(), |s| format!("{} transcripts, {}", s.title(), place(s)))
}

#[derive(clap::Args)]
#[command(after_help = after_help())]
pub struct Args {
    /// Session files or transcripts to import, or folders to search for them (*.jsonl, *.json)
    #[arg(value_name = "FILE|DIR", required_unless_present_any = ["all", "undo"], conflicts_with_all = ["all", "from", "undo"])]
    paths: Vec<PathBuf>,
    /// What the files are
    #[arg(long, value_parser = formats(), default_value = "auto")]
    format: Forced,
    /// Import every transcript TOOL kept, each into the project it was recorded in
    #[arg(long, value_parser = tools(), value_name = "TOOL", conflicts_with_all = ["format", "undo"])]
    all: Option<Agent>,
    /// With --all: search DIR instead of TOOL's own folder
    #[arg(long, value_name = "DIR", requires = "all")]
    from: Option<PathBuf>,
    /// List what would be imported, and into which project, without writing anything
    #[arg(long, conflicts_with = "undo")]
    dry_run: bool,
    /// Import without asking, however many sessions were found
    #[arg(long, short = 'y')]
    yes: bool,
    /// Take back the last import into this project: forget every session it added
    #[arg(long)]
    undo: bool,
}

/// More new sessions than this, found in folders and recorded in other
/// projects, and the import asks first.
const HANDFUL: usize = 5;

pub fn run(args: Args, context: &Context) -> anyhow::Result<ExitCode> {
    if args.undo {
        return undo(context);
    }
    match args.all {
        Some(tool) => run_all(tool, args.from, context),
        None => run_paths(&args, context),
    }
}

/// `lcmem import FILE|DIR…`: everything into the one project of `--project`,
/// said first when folders were searched, and asked first when they hold more
/// than a handful of new sessions.
fn run_paths(args: &Args, context: &Context) -> anyhow::Result<ExitCode> {
    let store = context.store()?;
    let memory = Memory::open(store.clone());
    memory.on()?;
    let forced = args.format.0;
    let survey = memory.survey(&args.paths, forced, &mut Bar::new());
    for error in &survey.unreadable {
        eprintln!("lcmem: {}", crate::error_words::cli(error));
    }
    for folder in &survey.empty_folders {
        eprintln!("lcmem: no session files (*.jsonl, *.json) in {}", folder.display());
    }
    let (candidates, unreadable) = (survey.candidates, survey.unreadable.len());
    let mut failed = unreadable;
    let searched = args.paths.iter().any(|p| p.is_dir());
    let known: HashSet<String> = store.session_ids()?.into_iter().collect();
    let is_new = |c: &Candidate| c.seen.session.as_ref().is_none_or(|id| !known.contains(id));
    let sessions: Vec<&Candidate> = candidates.iter().filter(|c| c.seen.format.is_some() || !c.in_folder).collect();
    if searched || args.dry_run {
        say_found(&candidates, &store, args.dry_run);
    }
    if args.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    // A folder may hold anything: many sessions recorded in other projects
    // are most likely not meant for this one (lcmem's own sessions that
    // record no folder were written to be imported).
    let root = &store.project().root;
    let foreign = |c: &Candidate| match &c.seen.cwd {
        Some(cwd) => !cwd.starts_with(root),
        None => c.seen.format != Some(Format::V1),
    };
    let new = sessions.iter().filter(|c| c.in_folder && is_new(c) && foreign(c)).count();
    if new > HANDFUL && !args.yes && !confirm(new, &store)? {
        return Ok(ExitCode::from(2));
    }
    let bar = progress(sessions.len());
    // A named file that looks like nothing known is read as v1, so that the
    // error says what v1 expects.
    let files = sessions.iter().map(|c| ToImport {
        path: &c.seen.path,
        format: c.seen.format.or(forced).unwrap_or(Format::V1),
        named: if c.in_folder { Named::InFolder } else { Named::ByHand },
    });
    let imported = memory.import(files, context.now()?, &mut Bar::new(), &mut |file, taken| {
        bar.set_message(file.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        bar.suspend(|| say_taken(file.path, taken));
        bar.inc(1);
    });
    bar.finish_and_clear();
    let imported = imported?;
    failed += imported.failed;
    if let Some(Err(error)) = &imported.caches {
        super::shared::warn_cache_not_refreshed(error);
    }
    let total = sessions.len() + unreadable;
    let count = imported.added.len();
    if count > 1 || searched && count > 0 {
        println!("{count} session(s) added; `lcmem import --undo` takes them back");
    }
    if failed > 0 {
        eprintln!("lcmem: {failed} of {total} file(s) not imported");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// A progress bar on stderr for `len` steps, drawn only on a terminal (and
/// not at all for none).
fn progress(len: usize) -> ProgressBar {
    let target = if len == 0 { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
    let bar = ProgressBar::with_draw_target(Some(len as u64), target);
    if let Ok(style) = ProgressStyle::with_template("{bar:30} {pos}/{len} {wide_msg}") {
        bar.set_style(style);
    }
    bar
}

/// What the folders held, per agent and per project recorded; with
/// `listed`, every file.
fn say_found(candidates: &[Candidate], store: &Store, listed: bool) {
    let root = &store.project().root;
    let sessions: Vec<&Surveyed> = candidates.iter().filter(|c| c.seen.format.is_some()).map(|c| &c.seen).collect();
    let others = candidates.iter().filter(|c| c.seen.format.is_none() && c.in_folder).count();
    let mut formats: Vec<(Format, usize)> = Vec::new();
    let mut projects: Vec<(Option<PathBuf>, usize)> = Vec::new();
    for seen in &sessions {
        let Some(format) = seen.format else { continue };
        match formats.iter_mut().find(|(f, _)| *f == format) {
            Some((_, n)) => *n += 1,
            None => formats.push((format, 1)),
        }
        let project = seen.cwd.clone();
        match projects.iter_mut().find(|(p, _)| *p == project) {
            Some((_, n)) => *n += 1,
            None => projects.push((project, 1)),
        }
    }
    let kinds: Vec<String> = formats.iter().map(|(f, n)| format!("{n} {}", title(*f))).collect();
    let mut line = format!("found {} session(s)", sessions.len());
    if !kinds.is_empty() {
        line.push_str(&format!(" ({})", kinds.join(", ")));
    }
    if others > 0 {
        line.push_str(&format!(" and {others} file(s) that are not sessions, left alone"));
    }
    println!("{line}; to import into {}:", root.display());
    projects.sort_by_key(|p| std::cmp::Reverse(p.1));
    for (project, n) in &projects {
        let place = match project {
            Some(p) if p.starts_with(root) => format!("recorded in {} (this project)", p.display()),
            Some(p) => format!("recorded in {}", p.display()),
            None => "with no working folder recorded".to_string(),
        };
        println!("  {n:>4}  {place}");
    }
    if projects.iter().any(|(p, _)| p.as_ref().is_some_and(|p| !p.starts_with(root))) {
        println!("  (`lcmem import --all AGENT --from DIR` puts each session into the project it was recorded in)");
    }
    if listed {
        for seen in &sessions {
            let id = seen.session.as_deref().unwrap_or("(no prompt yet)");
            println!("  {}  {id}  {}", seen.format.map_or("?", Format::name), seen.path.display());
        }
        for other in candidates.iter().filter(|c| c.seen.format.is_none() && c.in_folder) {
            println!("  not a session or a transcript lcmem knows: {}", other.seen.path.display());
        }
    }
}

/// An agent's title for a format; `v1` for lcmem's own.
fn title(format: Format) -> &'static str {
    format.source().map_or("v1", |s| s.title())
}

/// Asks before importing `new` sessions found in folders; without a terminal
/// to ask on, says how to go ahead.
fn confirm(new: usize, store: &Store) -> anyhow::Result<bool> {
    let root = store.project().root.display();
    if !std::io::stdin().is_terminal() {
        eprintln!(
            "lcmem: {new} new sessions found that were recorded in other projects, more than {HANDFUL}: nothing \
             imported. Run again with --yes to import them into {root}, or --dry-run to list them."
        );
        return Ok(false);
    }
    eprint!("Import {new} new sessions recorded in other projects into {root}? [y/N] ");
    let mut answer = String::new();
    std::io::stdin().read_line(&mut answer)?;
    let yes = matches!(answer.trim().to_lowercase().as_str(), "y" | "yes");
    if !yes {
        eprintln!("nothing imported");
    }
    Ok(yes)
}

/// `lcmem import --undo`: forgets every session the last import added.
fn undo(context: &Context) -> anyhow::Result<ExitCode> {
    match Memory::open(context.store()?).undo_import(context.now()?)? {
        None => println!("no import to take back: lcmem keeps what the last 20 imports into this project added"),
        Some((run, reports)) => {
            println!(
                "took back the import of {}: {} session(s) forgotten ({} already were)",
                crate::output::day(run.at),
                reports.len(),
                run.sessions.len() - reports.len()
            );
            for id in &run.sessions {
                println!("  forgot {id}");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// What importing one file did, in a line (an error on stderr).
fn say_taken(file: &Path, taken: &lcmem::Result<Taken>) {
    let report = match taken {
        Ok(Taken::Imported(report)) => report,
        Ok(Taken::StillForgotten { id, on }) => {
            return println!("skipped   {id}: it was forgotten on {on} (import its file by name to bring it back)");
        }
        Ok(Taken::Unforgot { id, on, report }) => {
            println!("unforgot  {id}: it was forgotten on {on}; importing it by hand brings it back");
            report
        }
        // Memory switched off stops the import: said once, as its error.
        Err(lcmem::Error::MemoryOff { .. }) => return,
        Err(error) => return eprintln!("lcmem: {}", crate::error_words::cli(error)),
    };
    warn_all(&report.diagnostics);
    match &report.outcome {
        Some(outcome) => println!("{}", describe(outcome, report)),
        None => println!("nothing   {}: no user prompt in it yet", file.display()),
    }
}

/// One line about one imported file. v1 files keep the wording they always had.
fn describe(outcome: &ImportOutcome, report: &FileReport) -> String {
    let skipped = report.diagnostics.len();
    if report.format == Format::V1 {
        let note = if skipped == 0 { String::new() } else { format!(" ({skipped} line(s) not read, as warned)") };
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
    let doors = Home::open(&home);
    let (format, files) = (tool.format(), doors.transcripts(tool.0, &root)?);
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
    let result = doors.import_all(format, &files, &mut |path, placement| {
        bar.set_message(path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
        bar.suspend(|| tally.record(path, placement));
        bar.inc(1);
    });
    bar.finish_and_clear();
    result?;
    for project in tally.changed.drain(..) {
        super::shared::refresh_after_write(&doors.project(project));
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
                let reason = crate::error_words::cli(&why);
                self.skipped += 1;
                if self.memory_off.insert(project.slug.clone()) {
                    eprintln!("skipped   transcripts of {}: {reason}", project.root.display());
                }
            }
            Err(error) => {
                self.failed += 1;
                eprintln!("lcmem: {}", crate::error_words::cli(&error));
            }
        }
    }
}
