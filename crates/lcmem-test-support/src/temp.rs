//! A throwaway folder holding a store home, a project and an inbox.

use std::path::{Path, PathBuf};

/// `<tmp>/home` (the store, not created: the store creates it),
/// `<tmp>/<project>` and `<tmp>/inbox` (both created). Removed on drop.
#[derive(Debug)]
pub struct TempDirs {
    dir: tempfile::TempDir,
    project: String,
}

impl TempDirs {
    /// With the project folder named `project`.
    pub fn new() -> TempDirs {
        TempDirs::with_project("project")
    }

    /// With the project folder named `name` (the project's name in memory).
    pub fn with_project(name: &str) -> TempDirs {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let dirs = TempDirs { dir, project: name.to_string() };
        for path in [dirs.project(), dirs.inbox()] {
            std::fs::create_dir_all(&path).unwrap_or_else(|e| panic!("creating {}: {e}", path.display()));
        }
        dirs
    }

    /// The temporary folder itself.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    pub fn project(&self) -> PathBuf {
        self.dir.path().join(&self.project)
    }

    /// Where tests put files to import.
    pub fn inbox(&self) -> PathBuf {
        self.dir.path().join("inbox")
    }
}

impl Default for TempDirs {
    fn default() -> TempDirs {
        TempDirs::new()
    }
}
