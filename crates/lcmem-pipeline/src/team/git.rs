//! What git says about the team file: who last wrote each line, in which
//! commit and when (`git blame`), and the name of the person sharing.
//!
//! The engine's one other place that starts a process (docs/architecture.md,
//! "Where the engine does I/O"). It runs the user's own `git`, read-only, with
//! no shell, nothing from memory on its command line, and the repository's
//! file-system monitor turned off (a hostile checkout's configuration must not
//! get a command run by reading it). No git, or a folder git does not know,
//! is not an error: the file's own words are then all there is.

use std::path::Path;
use std::process::{Command, Stdio};

use jiff::Timestamp;

/// Who last wrote one line of a file, as `git blame` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineMark {
    /// The commit's full hash; `None` for a line not committed yet.
    pub commit: Option<String>,
    pub author: String,
    pub at: Timestamp,
}

fn git(root: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C").arg(root).args(["-c", "core.fsmonitor=false", "-c", "core.quotepath=false"]);
    for var in ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_CONFIG_PARAMETERS"] {
        cmd.env_remove(var);
    }
    cmd.stdin(Stdio::null()).stderr(Stdio::null());
    cmd
}

/// One mark per line of `relative` (a path under `root`) as it is in the
/// working tree, in order; `None` when git cannot say (no git, not a
/// repository, the file not tracked and not addable).
pub(crate) fn blame(root: &Path, relative: &str) -> Option<Vec<LineMark>> {
    let output = git(root).args(["blame", "--line-porcelain", "--no-textconv", "--", relative]).output().ok()?;
    if !output.status.success() {
        return None;
    }
    Some(parse_porcelain(&String::from_utf8_lossy(&output.stdout)))
}

/// Reads `git blame --line-porcelain`: each line of the file is a header
/// (`<hash> <orig> <final> [<count>]`), `key value` lines, then the line
/// itself after a tab.
fn parse_porcelain(text: &str) -> Vec<LineMark> {
    let mut marks = Vec::new();
    let (mut commit, mut author, mut at) = (None::<String>, String::new(), Timestamp::UNIX_EPOCH);
    for line in text.lines() {
        if line.starts_with('\t') {
            marks.push(LineMark { commit: commit.take(), author: std::mem::take(&mut author), at });
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "author" => author = value.to_string(),
            "author-time" => {
                at = value.parse::<i64>().ok().and_then(|s| Timestamp::from_second(s).ok()).unwrap_or(at);
            }
            hash if hash.len() == 40 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => {
                commit = (!hash.bytes().all(|b| b == b'0')).then(|| hash.to_string());
            }
            _ => {}
        }
    }
    marks
}

/// `git config user.name` in `root`, when it is set.
pub fn user_name(root: &Path) -> Option<String> {
    let output = git(root).args(["config", "user.name"]).output().ok()?;
    let name = String::from_utf8_lossy(&output.stdout).trim().to_string();
    (output.status.success() && !name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn porcelain_gives_each_line_its_commit_author_and_time() {
        let hash = "3f2a1b9c".repeat(5);
        let text = format!(
            "{hash} 1 1 1\nauthor alice\nauthor-mail <a@x>\nauthor-time 1763596800\nsummary share\nfilename t.md\n\t- one\n\
             {} 2 2 1\nauthor Not Committed Yet\nauthor-time 1764000000\nfilename t.md\n\t- two\n",
            "0".repeat(40)
        );
        let marks = parse_porcelain(&text);
        assert_eq!(marks.len(), 2);
        assert_eq!(marks[0].commit.as_deref(), Some(hash.as_str()));
        assert_eq!(marks[0].author, "alice");
        assert_eq!(marks[0].at.to_string(), "2025-11-20T00:00:00Z");
        assert_eq!(marks[1].commit, None);
    }
}
