//! Warnings about input that was read around rather than read.

use std::path::{Path, PathBuf};

/// A problem with one line of one file: reported, never fatal, and never a
/// reason to touch the line itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub path: PathBuf,
    pub line: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn new(path: &Path, line: usize, message: impl Into<String>) -> Diagnostic {
        Diagnostic { path: path.to_path_buf(), line, message: message.into() }
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.path.display(), self.line, self.message)
    }
}
