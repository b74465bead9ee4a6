//! What the commands share, as peers: the agents named on the command line
//! and where their transcripts are, durations, the progress bar, the search
//! cache brought up to date after a command wrote sessions, and the journal
//! as a person reads it (`journal_text`), the hooks' log (`hook_log`), an
//! agent's settings as lcmem reads them (`agent_settings`, which `install`
//! writes and `doctor` checks).

pub(crate) mod agent_settings;
pub mod hook_log;
mod journal_text;

pub use journal_text::{lane_line, render_journal, spend};

use std::path::PathBuf;
use std::time::Duration;

use anyhow::bail;
use clap::builder::TypedValueParser as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use lcmem::Format;
use lcmem::agents::{SOURCES, Source};
use lcmem::recall::Progress;

/// An agent named on the command line: one of the engine's sources
/// (`lcmem::agents::SOURCES`), whichever it is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Agent(pub &'static dyn Source);

impl Agent {
    /// The agent's name on the command line and in the log.
    pub(crate) fn name(self) -> &'static str {
        self.0.name()
    }

    /// The agent in a sentence.
    pub(crate) fn possessive(self) -> String {
        format!("{}'s", self.0.title())
    }

    /// The format of the transcript its hook input points at.
    pub(crate) fn format(self) -> Format {
        Format::of(self.0)
    }
}

/// A value parser for the agents `keep` admits, each listed in `--help`
/// with what `say` tells of it.
pub(crate) fn agents(
    keep: fn(&dyn Source) -> bool,
    say: fn(&dyn Source) -> String,
) -> impl clap::builder::TypedValueParser<Value = Agent> {
    let values =
        SOURCES.iter().filter(|s| keep(**s)).map(|s| clap::builder::PossibleValue::new(s.name()).help(say(*s)));
    clap::builder::PossibleValuesParser::new(values)
        .map(|name| Agent(lcmem::agents::source(&name).expect("a listed agent is a source")))
}

/// Each agent's transcripts folder that exists on this machine (the agents'
/// own variables first, then the home folder).
pub(crate) fn transcript_folders() -> Vec<(&'static dyn Source, PathBuf)> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    lcmem::agents::agent_folders(|v| std::env::var_os(v), home.as_deref())
}

/// The name of the first agent, in the registry's order, whose hooks lcmem
/// answers.
pub(crate) fn first_with_hooks() -> &'static str {
    SOURCES.iter().find(|s| s.wiring().hooks.is_some()).map_or("", |s| s.name())
}

/// The agents whose hooks lcmem answers.
pub(crate) fn with_hooks() -> impl clap::builder::TypedValueParser<Value = Agent> {
    agents(|s| s.wiring().hooks.is_some(), |s| format!("{} hooks (`lcmem install {}`)", possessive(s), s.name()))
}

fn possessive(source: &dyn Source) -> String {
    format!("{}'s", source.title())
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

/// A duration as a person writes it: `90s`, `10m`, `1h 30m`.
pub(crate) fn parse_duration(s: &str) -> Result<Duration, String> {
    let span: jiff::SignedDuration =
        s.parse().map_err(|_| format!("{s:?} is not a duration: use 90s, 10m, 1h or 1h 30m"))?;
    Duration::try_from(span).map_err(|_| format!("{s:?} is negative"))
}

/// Brings the index up to date after a command wrote session files. The
/// index is a cache: a failure is a warning, and recall scans what the index
/// lacks.
pub fn refresh_after_write(memory: &lcmem::Memory) {
    if let Err(e) = memory.refresh_caches(&mut Bar::new()) {
        warn_cache_not_refreshed(&e);
    }
}

/// The derived caches could not be refreshed: a warning, never a failure.
pub fn warn_cache_not_refreshed(error: &lcmem::Error) {
    eprintln!(
        "warning: the search index was not updated ({}); recall reads the new sessions directly",
        crate::error_words::cli(error)
    );
}

/// An indicatif progress bar on stderr, drawn only when stderr is a terminal.
pub struct Bar(Option<ProgressBar>);

impl Bar {
    pub fn new() -> Bar {
        Bar(None)
    }
}

impl Progress for Bar {
    fn start(&mut self, what: &str, total: u64) {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        // Indexing counts bytes of session files; embedding counts texts; reading counts files.
        let template = if what.starts_with("embedding") {
            "{msg} [{bar:30}] {pos}/{len} texts, {per_sec}, {eta} left"
        } else if what.starts_with("reading") {
            "{msg} [{bar:30}] {pos}/{len} files"
        } else {
            "{msg} [{bar:30}] {bytes}/{total_bytes} ({eta})"
        };
        bar.set_style(ProgressStyle::with_template(template).expect("the template is valid").progress_chars("=> "));
        bar.set_message(what.to_string());
        self.0 = Some(bar);
    }
    fn advance(&mut self, units: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(units);
        }
    }
    fn finish(&mut self) {
        if let Some(bar) = self.0.take() {
            bar.finish_and_clear();
        }
    }
}

/// Where the semantic cache stands, in a line (`lcmem model status`, `lcmem doctor`).
pub fn embedding_words(state: &lcmem::recall::semantic::EmbedState) -> String {
    use lcmem::recall::semantic::EmbedState;
    let so_far = |p: &lcmem::recall::semantic::BuildProgress| {
        if p.total == 0 {
            "before its first text (loading the model)".to_string()
        } else {
            format!("at {} of {} texts ({}%)", p.done, p.total, p.percent())
        }
    };
    match state {
        EmbedState::Off => {
            "embeddings: none, no model is set (recall.model); `lcmem model install` fetches one".to_string()
        }
        EmbedState::Running { progress: None } => "embeddings: a build is running".to_string(),
        EmbedState::Running { progress: Some(p) } => {
            let ago = jiff::Timestamp::now().duration_since(p.started).as_secs().max(0);
            format!("embeddings: building in process {}, {}, started {ago} s ago", p.pid, so_far(p))
        }
        EmbedState::Stopped { progress: p } => {
            let why = match &p.error {
                Some(error) => format!("failed: {error}"),
                None => "was stopped (killed or interrupted)".to_string(),
            };
            format!(
                "embeddings: the build in process {} {why}, {}; `lcmem index embed` goes on from its last checkpoint",
                p.pid,
                so_far(p)
            )
        }
        EmbedState::Idle { turns, current: true } => {
            format!("embeddings: up to date ({turns} turn(s), and every journal entry and fact, have a vector)")
        }
        EmbedState::Idle { turns, current: false } => format!(
            "embeddings: {turns} turn(s) have a vector; what is newer is embedded by the next import or seal, or now \
             by `lcmem index embed`"
        ),
    }
}

/// Brings the semantic cache up to date (when a model is set) with a
/// progress bar, and says what was done.
pub fn embed_and_report(memory: &lcmem::Memory, model: Option<&std::path::Path>) -> anyhow::Result<()> {
    let report = match model {
        Some(dir) => Some(memory.embed_with(dir, &mut Bar::new())),
        None => memory.embed_new(&mut Bar::new()).transpose(),
    };
    let Some(report) = report else {
        println!("no embedding model is set (recall.model): recall is lexical; `lcmem model install DIR` adds one");
        return Ok(());
    };
    let report = anyhow::Context::context(report, "cannot embed this project's turns for the semantic lane")?;
    crate::output::warn_all(&report.diagnostics);
    if report.busy {
        println!("another lcmem process is embedding this project's turns; it goes on there");
    } else if report.cleared {
        println!("the semantic cache was cleared while this ran (a session was forgotten); nothing was kept");
    } else {
        println!(
            "embedded {} text(s) in {:.1} s ({:.0} a second); the semantic lane covers {} turn(s)",
            report.embedded,
            report.seconds,
            report.rate(),
            report.turns
        );
    }
    Ok(())
}
