//! Finding transcripts on disk.

use std::path::{Path, PathBuf};

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
        walk(dir, 0, &mut files)?;
    }
    files.sort();
    Ok(files)
}

fn walk(dir: &Path, depth: usize, files: &mut Vec<PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).at(dir)? {
        let entry = entry.at(dir)?;
        let path = entry.path();
        let kind = entry.file_type().at(&path)?;
        if kind.is_dir() {
            if depth < MAX_DEPTH {
                walk(&path, depth + 1, files)?;
            }
        } else if path.extension().is_some_and(|e| e == "jsonl") && (kind.is_file() || path.is_file()) {
            files.push(path);
        }
    }
    Ok(())
}

/// Claude Code's session transcripts under `root` (normally
/// `~/.claude/projects`): every `*.jsonl`, except subagents' own
/// transcripts (`agent-*.jsonl`, and anything under a `subagents` folder).
/// A subagent's file records the parent's session id and holds only the
/// subagent's side of the work, whose result the parent transcript already
/// has as a tool result.
pub fn discover_claude_code(root: &Path) -> Result<Vec<PathBuf>> {
    let mut files = jsonl_files(root)?;
    files.retain(|path| {
        let relative = path.strip_prefix(root).unwrap_or(path);
        let agent = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("agent-"));
        !agent && !relative.components().any(|c| c.as_os_str() == "subagents")
    });
    Ok(files)
}

/// Codex CLI's rollouts under `root` (normally `~/.codex/sessions`, laid out
/// as `YYYY/MM/DD/rollout-*.jsonl`): every `*.jsonl`, oldest first.
pub fn discover_codex(root: &Path) -> Result<Vec<PathBuf>> {
    jsonl_files(root)
}
