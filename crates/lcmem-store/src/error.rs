//! Errors of the engine, as types. Front-ends turn them into sentences.
//!
//! The messages here are the engine's own plain account of what went wrong:
//! they name the file, the line, the id or the value, and never a front-end's
//! syntax (no command lines, no argument names). Each edge says what to do
//! about it in its own terms: the CLI names the command to run, the MCP server
//! names the argument to change. See `lcmem-cli/src/error_words.rs`.

use std::path::PathBuf;

/// Which settings file a setting lives in (re-exported as
/// `config::Scope`). Defined here, at the bottom, because an error names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Global,
    Project,
}

/// Everything the engine can fail with. Each variant carries enough context
/// (a path, a line, an id) for the front-end to say what went wrong, where,
/// and what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// `memory.enabled = false` in `file`, which is the settings file of `scope`.
    #[error("memory is off for this project (memory.enabled = false in {})", file.display())]
    MemoryOff { scope: Scope, file: PathBuf },
    /// A settings file that cannot be read, or a value in it of the wrong kind.
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    /// A setting this build does not know.
    #[error("unknown setting {key:?}")]
    UnknownSetting { key: String },
    /// A value that does not fit its setting; `expected` says what does.
    #[error("{key} takes {expected}, not {value:?}")]
    BadSettingValue { key: String, value: String, expected: String },
    #[error("{}:{line}: {message}", path.display())]
    Format { path: PathBuf, line: usize, message: String },
    #[error("no session matches {query:?} in this project")]
    NoSuchSession { query: String },
    /// An id that names no session exactly, where only an exact id will do
    /// (forget); `near` are the ids that look like it.
    #[error(
        "no session has the id {query:?} in this project{}",
        if near.is_empty() { String::new() } else { format!("; ids close to it: {}", near.join(", ")) }
    )]
    NotExactSession { query: String, near: Vec<String> },
    /// The session was forgotten: it is not written into the store again
    /// (by an import or a seal) unless its transcript is imported by hand.
    #[error("session {id} was forgotten on {on}; it is not taken in again unless its transcript is imported by hand")]
    SessionForgotten { id: String, on: String },
    #[error("{query:?} matches several sessions ({}); give more of the id", candidates.join(", "))]
    AmbiguousSession { query: String, candidates: Vec<String> },
    #[error(
        "{}: session {id} already exists in the store with different content; remove {} first if you mean to replace it",
        path.display(), stored.display()
    )]
    SessionConflict { id: String, path: PathBuf, stored: PathBuf },
    #[error("no fact has id {query:?}")]
    NoSuchFact { query: String },
    #[error("{query:?} matches {} facts ({}); give more of the id", candidates.len(), candidates.join(", "))]
    AmbiguousFact { query: String, candidates: Vec<String> },
    #[error("fact {id} was deleted and its text is gone from disk")]
    FactDeleted { id: String },
    /// An unconfirm of a fact the person wrote themselves: it has no other
    /// standing to fall back to.
    #[error("fact {id} is your own (added by you), so there is no confirmation to take back")]
    OwnFactUnconfirmed { id: String },
    /// A fact added, or a fact's new wording, with no text.
    #[error("{}", if *edit { "the new text is empty" } else { "a fact needs some text" })]
    EmptyFact { edit: bool },
    #[error("extraction failed for session {session}: {message}")]
    Extract { session: String, message: String },
    /// A recall query that cannot be answered as asked.
    #[error("{0}")]
    BadQuery(QueryProblem),
    /// Consolidation cannot fit even the user's pinned blocks under the cap.
    #[error(
        "the pinned blocks of {} alone come to {tokens} tokens, over the cap of {cap}: MEMORY.md was not rewritten",
        path.display()
    )]
    PinnedOverCap { path: PathBuf, tokens: usize, cap: usize },
    #[error("there is no earlier MEMORY.md to go back to: history is empty")]
    NoHistory,
    /// A folder or file of the store is a symbolic link leading out of it
    /// (or nowhere): nothing is written through it.
    #[error(
        "refusing to write through {}: it is a symbolic link to {}, outside the store",
        path.display(), target.display()
    )]
    SymlinkOutside { path: PathBuf, target: PathBuf },
    /// A file lcmem was asked to read is no regular file (a pipe, a device,
    /// a folder): it is never opened, so nothing blocks or reads forever.
    #[error("{}: not taken in: it is {what}, not a regular file", path.display())]
    NotAFile { path: PathBuf, what: &'static str },
    /// A file lcmem was asked to read is larger than it takes in.
    #[error("{}: not taken in: it is {size} bytes, more than the {max} lcmem reads", path.display())]
    InputTooLarge { path: PathBuf, size: u64, max: u64 },
    /// A `memory.cap_tokens` over `config::CAP_TOKENS_MAX`: being
    /// set, or (`file`) found in a settings file.
    #[error(
        "{}memory.cap_tokens takes at most {max}, not {value}: {}",
        file.as_ref().map(|f| format!("{}: ", f.display())).unwrap_or_default(),
        cap_reason(*max)
    )]
    CapTooLarge { value: String, max: u32, file: Option<PathBuf> },
    /// A project folder (or slug) with no store to move.
    #[error("{} has no memory in the store (no folder {})", project.display(), dir.display())]
    NoProjectStore { project: PathBuf, dir: PathBuf },
    /// The folder a store would be moved to is taken: nothing is merged.
    #[error("{} already has a memory ({}); nothing was moved", project.display(), dir.display())]
    ProjectStoreExists { project: PathBuf, dir: PathBuf },
    /// Team memory or an agents file asked for a project that has no
    /// checkout on this machine (a store named by its slug).
    #[error("this project has no checkout here to share into: run it from inside the repository")]
    NoCheckout,
    /// A file team memory writes in the repository (`AGENTS.md`,
    /// `CLAUDE.md`) holds a managed block that is opened and never closed,
    /// or twice: it is not rewritten until a person fixes it.
    #[error("{}:{line}: {message}; fix the block's markers by hand (nothing was written)", path.display())]
    BadBlock { path: PathBuf, line: usize, message: String },
    #[error("cannot load the o200k tokenizer: {0}")]
    Tokenizer(String),
    /// The embedding model of the semantic recall lane (`recall.model`)
    /// cannot be loaded or run.
    #[error(
        "embedding model in {}: {message} (recall.model must name a folder holding model.safetensors, \
         tokenizer.json and config.json of a BERT sentence encoder such as all-MiniLM-L6-v2; see docs/recall.md)",
        dir.display()
    )]
    Model { dir: PathBuf, message: String },
    /// `lcmem model install` could not fetch a file of the pinned model.
    #[error("cannot fetch {url}: {message}")]
    Fetch { url: String, message: String },
}

/// What is wrong with a recall query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum QueryProblem {
    /// A kind of hit that does not exist.
    UnknownKind(String),
    /// A limit of zero hits.
    ZeroLimit,
    /// The time range ends before it starts.
    EmptyRange { since: jiff::Timestamp, until: jiff::Timestamp },
    /// Other projects were asked for, and `recall.cross_project` is off.
    CrossProjectOff,
    /// A project named that has no store under this home.
    UnknownProject(String),
}

impl std::fmt::Display for QueryProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QueryProblem::UnknownKind(kind) => write!(f, "unknown kind {kind:?}: use turn, journal or fact"),
            QueryProblem::ZeroLimit => write!(f, "the limit must be at least 1"),
            QueryProblem::EmptyRange { since, until } => {
                write!(f, "the range starts at {since}, after it ends at {until}: nothing can match")
            }
            QueryProblem::CrossProjectOff => write!(
                f,
                "recall across projects is off for this project: turn it on with `lcmem config set \
                 recall.cross_project true` (add --global for every project)"
            ),
            QueryProblem::UnknownProject(slug) => {
                write!(
                    f,
                    "no project {slug:?} has a store here: a project is named by its store's slug, a folder under sessions/"
                )
            }
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches a path to an I/O error, so no error ever reaches the user without
/// saying which file it was about.
pub trait IoContext<T> {
    fn at(self, path: impl Into<PathBuf>) -> Result<T>;
}

impl<T> IoContext<T> for std::io::Result<T> {
    fn at(self, path: impl Into<PathBuf>) -> Result<T> {
        self.map_err(|source| Error::Io { path: path.into(), source })
    }
}

/// Why `memory.cap_tokens` has a ceiling of `max`, in one clause.
fn cap_reason(max: u32) -> String {
    format!(
        "a digest of more than {max} tokens can pass the 10,000 characters an agent takes from a \
         session-start hook, and would be cut off"
    )
}
