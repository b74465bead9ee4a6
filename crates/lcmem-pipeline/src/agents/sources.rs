//! The registry: every agent lcmem knows, one line each. An agent is one
//! file implementing [`Source`]; adding one is that file and its line here.

use crate::emit::converted::{AgentName, Format};
use super::source::Source;

/// Every agent, in the order lists and help show them.
pub static SOURCES: &[&dyn Source] =
    &[&super::claude_code::ClaudeCode, &super::codex::Codex, &super::cursor::Cursor, &super::gemini_cli::GeminiCli];

/// The agent of that name (`claude-code`).
pub fn source(name: &str) -> Option<&'static dyn Source> {
    SOURCES.iter().copied().find(|s| s.name() == name)
}

/// The agents whose transcripts lcmem imports.
pub fn importable() -> impl Iterator<Item = &'static dyn Source> {
    SOURCES.iter().copied().filter(|s| s.transcripts().is_some())
}

/// Each agent whose transcripts lcmem reads, with its transcripts folder
/// where that folder exists, given the environment's lookup and the user's
/// home (the front-end's, since the engine reads neither).
pub fn agent_folders(
    var: impl Fn(&str) -> Option<std::ffi::OsString>,
    home: Option<&std::path::Path>,
) -> Vec<(&'static dyn Source, std::path::PathBuf)> {
    importable()
        .filter_map(|s| Some((s, s.transcripts()?.folder(&var, home)?)))
        .filter(|(_, folder)| folder.is_dir())
        .collect()
}

/// The agent whose reader saves its state under `tag`.
pub(crate) fn by_tag(tag: &str) -> Option<&'static dyn Source> {
    SOURCES.iter().copied().find(|s| s.tag() == tag)
}

impl Format {
    /// The format of `source`'s transcripts.
    pub fn of(source: &'static dyn Source) -> Format {
        Format::Agent(AgentName(source.name()))
    }

    /// The format of that name: `v1`, or an agent whose transcripts lcmem
    /// imports.
    pub fn named(name: &str) -> Option<Format> {
        match name {
            "v1" => Some(Format::V1),
            _ => source(name).filter(|s| s.transcripts().is_some()).map(Format::of),
        }
    }

    /// What an import of this format is over a stored copy: a user's file
    /// (v1), or a conversion that may replace the one stored before when
    /// its agent says its sessions can be converted again.
    pub fn incoming(self) -> crate::store::Incoming {
        match self.source() {
            Some(source) if source.reconvertible() => crate::store::Incoming::Conversion,
            _ => crate::store::Incoming::File,
        }
    }

    /// The agent whose transcripts these are; `None` for v1.
    pub fn source(self) -> Option<&'static dyn Source> {
        match self {
            Format::V1 => None,
            Format::Agent(AgentName(name)) => source(name),
        }
    }
}
