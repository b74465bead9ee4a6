//! What a conversion makes: a transcript as session format v1, the format it
//! was read from, and how many lines of each kind it wrote.

use std::path::PathBuf;

use crate::diagnostic::Diagnostic;

/// What a file holds: a session in lcmem's own format, or an agent's
/// transcript (the agent is named by the registry, `import::sources`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// A session in lcmem's own format v1: stored byte for byte.
    V1,
    /// A transcript of the agent of this name.
    Agent(AgentName),
}

/// The name of an agent the registry lists: made only from a source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AgentName(pub(crate) &'static str);

impl Format {
    /// The name used on the command line and in converted headers.
    pub fn name(self) -> &'static str {
        match self {
            Format::V1 => "v1",
            Format::Agent(AgentName(name)) => name,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// How many lines of each kind a conversion wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Counts {
    /// Message lines, of every role.
    pub messages: usize,
    /// Tool action lines.
    pub tools: usize,
}

/// A transcript converted to format v1.
#[derive(Debug, Clone)]
pub struct Converted {
    pub format: Format,
    /// The session id, once there is a session.
    pub id: Option<String>,
    /// The v1 session: a header and its lines, each ended by `\n`. Empty when
    /// the transcript holds no user prompt yet, so nothing to import.
    pub session_bytes: Vec<u8>,
    /// The working directory the transcript was recorded in, as recorded.
    pub cwd: Option<PathBuf>,
    pub counts: Counts,
    /// Input lines that were skipped, and why, as `file:line` warnings.
    pub diagnostics: Vec<Diagnostic>,
}

impl Converted {
    /// Whether there is nothing to import (yet).
    pub fn is_empty(&self) -> bool {
        self.session_bytes.is_empty()
    }
}
