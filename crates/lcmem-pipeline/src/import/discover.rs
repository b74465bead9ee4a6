//! Finding transcripts on disk.

use std::path::{Path, PathBuf};

use crate::agents::source::Source;
use crate::error::{IoContext, Result};

/// Folders nested deeper than this are not searched: transcript stores are
/// two to four levels deep, and a bound keeps a mistaken `--from /` finite.
const MAX_DEPTH: usize = 12;

/// Every file under `dir` that may hold a session (`*.jsonl`, and `*.json`
/// for the agents that write a session as one document), or `dir` itself
/// if it is a file, sorted by path. Symbolic links to folders are not
/// followed, so a link loop cannot trap the walk. A missing `dir` holds no
/// files.
pub fn session_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    if dir.is_file() {
        files.push(dir.to_path_buf());
    } else if dir.is_dir() {
        walk(dir, 0, &mut |path| path.extension().is_some_and(|e| e == "jsonl" || e == "json"), &mut files)?;
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
        walk(root, 0, &mut |path| source.is_session(path), &mut files)?;
    }
    files.sort();
    Ok(files)
}

/// A transcript of a project found in an agent's folder.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: PathBuf,
    pub source: &'static dyn Source,
    /// The id its session has in the store, once its start was read.
    pub session: Option<String>,
}

/// The transcripts `source` keeps of the project checked out at `root`,
/// under `folder` (its transcripts folder), changed within `within` (`None`:
/// any time), by path, of those `wanted` admits (read no further than their
/// name). A transcript is the project's when the working folder
/// it recorded is `root` or inside it; one that records none, when it lies
/// in a folder the source files this project's transcripts in.
pub fn project_transcripts(
    source: &'static dyn Source,
    folder: &Path,
    root: &Path,
    within: Option<std::time::Duration>,
    wanted: &dyn Fn(&Path) -> bool,
) -> Vec<Found> {
    let Some(format) = source.transcripts().map(|_| crate::emit::converted::Format::of(source)) else { return Vec::new() };
    let mut out: Vec<Found> = Vec::new();
    for dir in source.project_folders(folder, root) {
        let filed = dir != folder;
        let mut files = Vec::new();
        if walk(&dir, 0, &mut |path: &Path| source.is_session(path), &mut files).is_err() {
            continue;
        }
        for path in files {
            let recent = within.is_none_or(|w| {
                std::fs::metadata(&path).and_then(|m| m.modified()).is_ok_and(|t| crate::ambient::since(t) < w)
            });
            if !recent || !wanted(&path) || out.iter().any(|f| f.path == path) {
                continue;
            }
            let Ok(seen) = super::survey::survey(&path, Some(format)) else { continue };
            let ours = match &seen.cwd {
                Some(cwd) => cwd.starts_with(root),
                None => filed,
            };
            if ours {
                out.push(Found { path, source, session: seen.session });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}
