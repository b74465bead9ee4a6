//! Errors of the engine, as types. Front-ends turn them into sentences.

use std::path::PathBuf;

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
    #[error(
        "memory is off for this project ({reason}); turn it on with `lcmem config set memory.enabled true{}`",
        if *global { " --global" } else { "" }
    )]
    MemoryOff { reason: String, global: bool },
    #[error("{}: {message}", path.display())]
    Config { path: PathBuf, message: String },
    #[error("{}:{line}: {message}", path.display())]
    Format { path: PathBuf, line: usize, message: String },
    #[error("no session matches {query:?} in this project; `lcmem sessions` lists them")]
    NoSuchSession { query: String },
    #[error("{query:?} matches several sessions ({}); give more of the id", candidates.join(", "))]
    AmbiguousSession { query: String, candidates: Vec<String> },
    #[error(
        "{}: session {id} already exists in the store with different content; remove {} first if you mean to replace it",
        path.display(), stored.display()
    )]
    SessionConflict { id: String, path: PathBuf, stored: PathBuf },
    #[error("extraction failed for session {session}: {message}")]
    Extract { session: String, message: String },
    #[error("{0}")]
    Invalid(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches a path to an I/O error, so no error ever reaches the user without
/// saying which file it was about.
pub(crate) trait IoContext<T> {
    fn at(self, path: impl Into<PathBuf>) -> Result<T>;
}

impl<T> IoContext<T> for std::io::Result<T> {
    fn at(self, path: impl Into<PathBuf>) -> Result<T> {
        self.map_err(|source| Error::Io { path: path.into(), source })
    }
}
