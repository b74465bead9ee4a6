//! What an agent is to lcmem: one [`Source`], implemented in one file per
//! agent (`claude_code.rs`, `codex.rs`, `cursor.rs`, `gemini_cli.rs`) and
//! listed once in [`super::sources::SOURCES`]. Everything that differs from
//! one agent to another is said here: its name, where its transcripts live
//! and which files there are sessions, how a line of one is recognised and
//! read (and the reading resumed), what its hook events mean, and what
//! `lcmem install` writes into its settings ([`super::wiring`]). The
//! importers, discovery, `watch`, the hook, `install`, `uninstall` and
//! `doctor` read the registry, and name no agent.

use std::path::{Path, PathBuf};

use serde_json::Value;
use serde_json::value::RawValue;

use crate::emit::emitter::Emitter;
use super::wiring::Wiring;

/// An agent lcmem takes sessions from or wires itself into.
pub trait Source: Sync {
    /// The agent's name on the command line, in hook commands, in the
    /// hooks' log and in a converted session's header: `claude-code`.
    fn name(&self) -> &'static str;

    /// The agent as a sentence names it: `Claude Code`.
    fn title(&self) -> &'static str;

    /// The key its reader's state is saved under in a transcript's import
    /// state (`cache/transcripts/*.json`); never changed once released.
    fn tag(&self) -> &'static str {
        self.name()
    }

    /// Where the agent keeps its session transcripts; `None` for an agent
    /// whose sessions lcmem does not import.
    fn transcripts(&self) -> Option<Transcripts> {
        None
    }

    /// Whether a session converted from this agent's transcript may be
    /// replaced by a new conversion of the same transcript (a newer
    /// converter, a transcript the agent rewrote in place): true of every
    /// agent whose transcripts lcmem reads, unless its conversions must only
    /// ever grow.
    fn reconvertible(&self) -> bool {
        self.transcripts().is_some()
    }

    /// Whether the file at `path`, found in the agent's transcripts folder,
    /// is a session transcript rather than the agent's bookkeeping: told by
    /// its name and the folders just above it.
    fn is_session(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "jsonl")
    }

    /// Whether one line of a file (a JSON object) is typical of this
    /// agent's transcripts: the first such line tells a file's format.
    fn recognises(&self, _line: &serde_json::Map<String, Value>) -> bool {
        false
    }

    /// The records of a transcript this agent wrote as one JSON document
    /// rather than a record a line (an older version's session file, a saved
    /// or exported conversation), in the order its reader reads them; `None`
    /// when `document` is no transcript of this agent's. `path` names the
    /// file, whose name may carry what the document does not (its time).
    fn document_records(&self, _document: &Value, _path: &Path) -> Option<Vec<Value>> {
        None
    }

    /// A reader of this agent's transcripts, fresh (`saved` is `None`) or
    /// going on from the state a reader saved ([`LineReader::save`]);
    /// `None` when the agent has no transcripts, or the state is not one
    /// this build's reader wrote.
    fn reader(&self, _saved: Option<&RawValue>) -> Option<Box<dyn LineReader>> {
        None
    }

    /// What a hook event of this agent asks of lcmem; `None`: nothing.
    fn hook_step(&self, event: &str) -> Option<HookStep> {
        match event {
            "SessionStart" => Some(HookStep::Start),
            "Stop" => Some(HookStep::TakeIn),
            "SessionEnd" => Some(HookStep::End),
            _ => None,
        }
    }

    /// The folders under `folder` (the agent's transcripts folder, from
    /// [`Source::transcripts`]) that may hold transcripts of the project
    /// checked out at `root`, where a catch-up and `doctor` look for sessions
    /// no hook took in. By default the whole folder: each transcript's
    /// recorded working folder tells whose it is
    /// ([`crate::import::project_transcripts`]).
    fn project_folders(&self, folder: &Path, _root: &Path) -> Vec<PathBuf> {
        vec![folder.to_path_buf()]
    }

    /// What `lcmem install` writes into the agent's settings.
    fn wiring(&self) -> Wiring;
}

impl std::fmt::Debug for dyn Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl PartialEq for dyn Source {
    fn eq(&self, other: &Self) -> bool {
        self.name() == other.name()
    }
}

impl Eq for dyn Source {}

/// Where an agent keeps its transcripts: under `$ENV/<under_env>` when the
/// variable is set and not empty, else under `~/<under_home>`.
#[derive(Debug, Clone, Copy)]
pub struct Transcripts {
    pub env: Option<&'static str>,
    pub under_env: &'static str,
    pub under_home: &'static str,
}

impl Transcripts {
    /// The folder, given the environment's lookup and the user's home;
    /// `None` when neither the variable nor the home is there.
    pub fn folder(&self, var: impl Fn(&str) -> Option<std::ffi::OsString>, home: Option<&Path>) -> Option<PathBuf> {
        match self.env.and_then(var).filter(|v| !v.is_empty()) {
            Some(dir) => Some(PathBuf::from(dir).join(self.under_env)),
            None => home.map(|home| home.join(self.under_home)),
        }
    }
}

/// What a hook event asks of lcmem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HookStep {
    /// A session starts: the digest is its context.
    Start,
    /// A turn ended: take in the transcript so far.
    TakeIn,
    /// The session ended: take it in and seal it.
    End,
}

/// Reads a transcript one line at a time, remembering what later lines need
/// of earlier ones.
pub trait LineReader: Send {
    /// Converts one line (already parsed) into format v1 through `e`.
    fn line(&mut self, e: &mut Emitter<'_>, value: &Value);

    /// The reader's memory of the lines so far, to go on from later.
    fn save(&self) -> Box<RawValue>;

    fn boxed_clone(&self) -> Box<dyn LineReader>;
}

/// A [`LineReader`] made of a state and a function that reads a line with
/// it: what each source's reader is.
pub(crate) struct StateReader<S> {
    pub state: S,
    pub read: fn(&mut Emitter<'_>, &Value, &mut S),
}

impl<S> LineReader for StateReader<S>
where
    S: serde::Serialize + Clone + Send + 'static,
{
    fn line(&mut self, e: &mut Emitter<'_>, value: &Value) {
        (self.read)(e, value, &mut self.state)
    }

    #[expect(
        clippy::expect_used,
        reason = "a reader's state is plain data (strings, numbers, sets, maps with string keys): serialising it cannot fail"
    )]
    fn save(&self) -> Box<RawValue> {
        serde_json::value::to_raw_value(&self.state).expect("a reader's state serialises")
    }

    fn boxed_clone(&self) -> Box<dyn LineReader> {
        Box::new(StateReader { state: self.state.clone(), read: self.read })
    }
}

/// A reader for `S`, fresh or from its saved state.
pub(crate) fn state_reader<S>(
    saved: Option<&RawValue>,
    read: fn(&mut Emitter<'_>, &Value, &mut S),
) -> Option<Box<dyn LineReader>>
where
    S: serde::Serialize + serde::de::DeserializeOwned + Clone + Default + Send + 'static,
{
    let state = match saved {
        None => S::default(),
        Some(raw) => serde_json::from_str(raw.get()).ok()?,
    };
    Some(Box::new(StateReader { state, read }))
}
