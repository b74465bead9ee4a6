//! Which project a command is about, and the name of its folder in the store.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{IoContext, Result};

/// A project: the folder a user works in, resolved to its git top level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Project {
    /// Canonical path of the project's root.
    pub root: PathBuf,
    /// The folder name under `sessions/`: see [`slug_for`].
    pub slug: String,
}

impl Project {
    /// Resolves `path` to its project: canonicalised, then walked up to the
    /// nearest folder holding `.git` (a directory, or a file for worktrees and
    /// submodules). A path outside any repository is its own project.
    pub fn resolve(path: &Path) -> Result<Project> {
        let canonical = std::fs::canonicalize(path).at(path)?;
        let root = git_top_level(&canonical).unwrap_or(canonical);
        let slug = slug_for(&root);
        Ok(Project { root, slug })
    }

    /// The display name of the project: the last component of its root.
    pub fn name(&self) -> String {
        self.root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "root".to_string())
    }
}

fn git_top_level(start: &Path) -> Option<PathBuf> {
    start.ancestors().find(|dir| dir.join(".git").exists()).map(Path::to_path_buf)
}

/// The slug is `<name>-<hash>`: the root's folder name lowercased with
/// anything outside `[a-z0-9._-]` turned into `-` (at most 40 characters),
/// then the first 8 hex digits of the SHA-256 of the canonical path's bytes.
/// The name makes the store browsable by hand; the hash keeps two projects
/// that share a folder name apart. Same path, same slug, on every run.
pub fn slug_for(root: &Path) -> String {
    let raw = root.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut name: String = raw
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '-' { c } else { '-' }
        })
        .take(40)
        .collect();
    let trimmed = name.trim_matches(|c| c == '-' || c == '.').to_string();
    name = if trimmed.is_empty() { "project".to_string() } else { trimmed };
    let digest = Sha256::digest(root.as_os_str().as_encoded_bytes());
    let hash: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("{name}-{hash}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slug_is_readable_and_stable() {
        let a = slug_for(Path::new("/home/ana/Code/My Shop"));
        assert!(a.starts_with("my-shop-"), "{a}");
        assert_eq!(a.len(), "my-shop-".len() + 8);
        assert_eq!(a, slug_for(Path::new("/home/ana/Code/My Shop")));
        assert_ne!(a, slug_for(Path::new("/home/bo/Code/My Shop")));
    }

    #[test]
    fn slug_of_odd_names_is_safe() {
        assert!(slug_for(Path::new("/")).starts_with("project-"));
        assert!(slug_for(Path::new("/x/..hidden..")).starts_with("hidden-"));
        let s = slug_for(Path::new("/x/プロジェクト"));
        assert!(s.chars().all(|c| c.is_ascii_alphanumeric() || "-._".contains(c)), "{s}");
    }
}
