//! The agents whose hooks lcmem answers, and the hooks' log
//! (`<home>/logs/hooks.log`), shared by `lcmem hook` and the background
//! `lcmem catch-up` it starts.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::builder::TypedValueParser as _;
use jiff::Timestamp;
use lcmem::import::{Format, SOURCES, Source};

use crate::context::Context;

/// The log is cut in two past this size: the older half is kept as `.1`.
const LOG_LIMIT: u64 = 1 << 20;

/// An agent named on the command line: one of the engine's sources
/// (`lcmem::import::SOURCES`), whichever it is.
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
        .map(|name| Agent(lcmem::import::source(&name).expect("a listed agent is a source")))
}

/// Each agent's transcripts folder that exists on this machine (the agents'
/// own variables first, then the home folder).
pub(crate) fn transcript_folders() -> Vec<(&'static dyn Source, PathBuf)> {
    let home = std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from);
    lcmem::import::agent_folders(|v| std::env::var_os(v), home.as_deref())
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

/// The hooks' log: `<home>/logs/hooks.log`.
fn log_path(home: &Path) -> PathBuf {
    home.join("logs").join("hooks.log")
}

/// Appends one line to the log. Logging is best effort: a hook that cannot
/// write its log still must not fail the session.
pub(crate) fn log(context: &Context, agent: Agent, event: &str, message: &str) {
    let Ok(home) = context.home() else { return };
    let path = log_path(&home);
    let _ = std::fs::create_dir_all(path.parent().unwrap_or(&home));
    if std::fs::metadata(&path).is_ok_and(|m| m.len() > LOG_LIMIT) {
        let _ = std::fs::rename(&path, path.with_extension("log.1"));
    }
    let Ok(mut file) = std::fs::OpenOptions::new().create(true).append(true).open(&path) else { return };
    // One write of the whole line: hooks and background seals log at once,
    // and an append made of several writes interleaves with theirs.
    let line = format!("{} {} {event}: {message}\n", Timestamp::now(), agent.name());
    let _ = file.write_all(line.as_bytes());
}
