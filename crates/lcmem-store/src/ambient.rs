//! What the engine reads from the machine beyond the store: the wall clock
//! and the environment. Every read of either is here, so that "where does
//! the engine look at the time or the environment?" has one answer (the
//! floors test, `tests/it/floors.rs`, keeps it so).
//!
//! The time a memory is dated with is not read here: front-ends pass it in
//! (`now: Timestamp` on every call that writes). What is read here is the
//! age of files (a dead writer's leftovers, a quiet transcript, a folder
//! that may still change), the API key a model lane's settings name, and the
//! working folder a relative path is taken from.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// The wall clock, now.
pub fn now() -> SystemTime {
    SystemTime::now()
}

/// How long ago `then` was (zero for a time in the future).
pub fn since(then: SystemTime) -> Duration {
    now().duration_since(then).unwrap_or_default()
}

/// The environment variable `name`, when it is set and not empty.
pub fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The system's folder for temporary files: where a command lane runs, so
/// that an agent's CLI asked for an answer reads no project's settings.
pub fn temp_dir() -> PathBuf {
    std::env::temp_dir()
}

/// The working folder of this process.
pub(crate) fn current_dir() -> std::io::Result<PathBuf> {
    std::env::current_dir()
}
