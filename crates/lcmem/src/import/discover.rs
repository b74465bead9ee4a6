//! Finding transcripts on disk.

use std::path::{Path, PathBuf};

use super::source::Source;
use crate::error::{IoContext, Result};

/// Folders nested deeper than this are not searched: transcript stores are
/// two to four levels deep, and a bound keeps a mistaken `--from /` finite.
const MAX_DEPTH: usize = 12;

/// Every `*.jsonl` file under `dir` (or `dir` itself if it is a file),
/// sorted by path. Symbolic links to folders are not followed, so a link
/// loop cannot trap the walk. A missing `dir` holds no files.
pub fn jsonl_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if dir.is_file() {
        files.push(dir.to_path_buf());
    } else if dir.is_dir() {
        walk(dir, 0, &mut |path| path.extension().is_some_and(|e| e == "jsonl"), &mut files)?;
    }
    files.sort();
    Ok(files)
}

fn walk(dir: &Path, depth: usize, wanted: &mut dyn FnMut(&Path) -> bool, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).at(dir)? {
        let entry = entry.at(dir)?;
        let path = entry.path();
        let kind = entry.file_type().at(&path)?;
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                walk(&path, depth + 1, wanted, files)?;
            }
        } else if wanted(&path) && (kind.is_file() || path.is_file()) {
            files.push(path);
        }
    }
    Ok(())
}

/// `source`'s session transcripts under `root` (normally the folder its
/// [`Source::transcripts`] names), sorted by path: every file the source
/// takes for a session.
pub fn discover(source: &dyn Source, root: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if root.is_file() {
        files.push(root.to_path_buf());
    } else if root.is_dir() {
        walk(root, 0, &mut |path| source.is_session(path.strip_prefix(root).unwrap_or(path)), &mut files)?;
    }
    files.sort();
    Ok(files)
}
