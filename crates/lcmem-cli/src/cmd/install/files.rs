//! The user's settings files: reading them, planning a change as an edit
//! of their text (so only lcmem's bytes change), showing it as a diff of
//! only the lines that change, and writing it atomically with the file's
//! mode kept.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde_json::Value;

use super::json_text::{Doc, tokens};

/// One settings file and what lcmem does to it.
pub struct Change {
    pub path: PathBuf,
    pub before: Option<String>,
    /// The new text, or `None` to remove a file lcmem alone made.
    pub after: Option<String>,
    /// Install keeps a copy of the original the first time it changes a file.
    pub keep_original: bool,
    /// Uninstall is done with that copy.
    pub drop_backup: bool,
}

impl Change {
    pub fn unchanged(&self) -> bool {
        self.before == self.after
    }
}

/// The copy of a file's original that the first change keeps beside it.
pub fn backup_of(path: &Path) -> PathBuf {
    PathBuf::from(format!("{}.lcmem-backup", path.display()))
}

pub fn read(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// `text` as a document to edit (nothing or blank is a new, empty object).
/// A file that is not a JSON object is an error: it is never overwritten.
fn parse(path: &Path, text: Option<&str>) -> anyhow::Result<Doc> {
    let text = text.unwrap_or("");
    if !text.trim().is_empty() {
        // Read as a value too: what lcmem decides on must be what it edits.
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(_)) => {}
            Ok(_) => bail!("{} is not a JSON object; fix it by hand, nothing was changed", path.display()),
            Err(e) => bail!(
                "{}:{}:{}: not valid JSON ({e}); fix it by hand, nothing was changed",
                path.display(),
                e.line(),
                e.column()
            ),
        }
    }
    Ok(Doc::new(text))
}

/// Reads `path` (a missing file is an empty object), applies `edit` to its
/// text, and returns both texts.
pub fn plan(path: &Path, edit: impl FnOnce(&mut Doc)) -> anyhow::Result<Change> {
    let before = read(path)?;
    let mut doc = parse(path, before.as_deref())?;
    let start = doc.text.clone();
    edit(&mut doc);
    let after = if doc.text == start { before.clone() } else { Some(doc.text) };
    Ok(Change { path: path.to_path_buf(), before, after, keep_original: true, drop_backup: false })
}

/// Reads `path` and takes lcmem out of it with `edit`, which is given the
/// original install kept (`<file>.lcmem-backup`), to keep what was there
/// before. When what is left has the original's tokens (only layout
/// differs), the original comes back byte for byte; when nothing is left
/// of a file lcmem made (no backup), the file goes. The backup goes either way.
pub fn plan_removal(path: &Path, edit: impl FnOnce(&mut Doc, Option<&Value>)) -> anyhow::Result<Change> {
    let before = read(path)?;
    let Some(text) = before.clone() else {
        return Ok(Change { path: path.to_path_buf(), before, after: None, keep_original: false, drop_backup: false });
    };
    let mut doc = parse(path, Some(&text))?;
    let backup = read(&backup_of(path))?;
    let original = backup.as_deref().and_then(|b| serde_json::from_str::<Value>(b).ok());
    let start = doc.text.clone();
    edit(&mut doc, original.as_ref());
    if doc.text == start {
        return Ok(Change {
            path: path.to_path_buf(),
            before,
            after: Some(text),
            keep_original: false,
            drop_backup: backup.is_some(),
        });
    }
    let left = tokens(&doc.text);
    let after = match &backup {
        Some(original) if tokens(original) == left || (tokens(original).is_empty() && left == ["{", "}"]) => {
            Some(original.clone())
        }
        None if left == ["{", "}"] => None,
        _ => Some(doc.text),
    };
    Ok(Change { path: path.to_path_buf(), before, after, keep_original: false, drop_backup: backup.is_some() })
}

/// Shows each change (only the lines that change) and, unless `dry_run`,
/// writes it. Returns how many files change.
pub fn apply(changes: &[Change], dry_run: bool, unchanged_because: &str) -> anyhow::Result<usize> {
    let mut changed = 0;
    for change in changes {
        if change.unchanged() {
            println!("unchanged {}: {unchanged_because}", change.path.display());
            if change.drop_backup && !dry_run {
                remove_backup(&change.path)?;
            }
            continue;
        }
        changed += 1;
        match &change.after {
            Some(after) => {
                println!("--- {}", change.path.display());
                print!("{}", diff(change.before.as_deref().unwrap_or(""), after));
            }
            None => println!("remove {} (lcmem made it; nothing else is in it)", change.path.display()),
        }
        if !dry_run {
            write(change)?;
        }
    }
    Ok(changed)
}

/// The lines that differ, as `-`/`+` lines under an `@@ line N` mark for
/// each run of changes: the longest common subsequence of the lines between
/// the common head and tail, so lines that stay are not shown.
pub fn diff(before: &str, after: &str) -> String {
    let (old, new): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut out = String::new();
    // Past a few million cells, show the middle whole rather than spend the memory.
    if old_mid.len().saturating_mul(new_mid.len()) > 4_000_000 {
        out.push_str(&format!("@@ line {}\n", head + 1));
        old_mid.iter().for_each(|l| out.push_str(&format!("-{l}\n")));
        new_mid.iter().for_each(|l| out.push_str(&format!("+{l}\n")));
        return out;
    }
    let (n, m) = (old_mid.len(), new_mid.len());
    let mut lcs = vec![vec![0u32; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            lcs[i][j] = if old_mid[i] == new_mid[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut in_run) = (0, 0, false);
    while i < n || j < m {
        if i < n && j < m && old_mid[i] == new_mid[j] {
            (i, j, in_run) = (i + 1, j + 1, false);
            continue;
        }
        if !in_run {
            out.push_str(&format!("@@ line {}\n", head + j + 1));
            in_run = true;
        }
        if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("-{}\n", old_mid[i]));
            i += 1;
        } else {
            out.push_str(&format!("+{}\n", new_mid[j]));
            j += 1;
        }
    }
    out
}

fn write(change: &Change) -> anyhow::Result<()> {
    // A settings file that is a link (a dotfiles repository) is written where it leads.
    let path = std::fs::canonicalize(&change.path).unwrap_or_else(|_| change.path.clone());
    match &change.after {
        None => {
            std::fs::remove_file(&path).with_context(|| format!("cannot remove {}", path.display()))?;
            remove_empty_folder(&change.path);
        }
        Some(after) => {
            let backup = backup_of(&change.path);
            if let Some(before) = change.before.as_ref().filter(|_| change.keep_original && !backup.exists()) {
                atomic_write(&backup, before.as_bytes(), Some(&path))?;
            }
            atomic_write(&path, after.as_bytes(), Some(&path))?;
        }
    }
    if change.drop_backup {
        remove_backup(&change.path)?;
    }
    Ok(())
}

fn remove_backup(path: &Path) -> anyhow::Result<()> {
    let backup = backup_of(path);
    match std::fs::remove_file(&backup) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove {}", backup.display()))
        }
        _ => Ok(()),
    }
}

/// The agent's folder a file lcmem made was in (`.claude`, `.gemini`: where
/// some agent keeps its settings, as its wiring says), once that file is gone
/// and nothing else is in it: lcmem made it along with the file. Any other
/// folder, or one with anything in it, stays.
fn remove_empty_folder(file: &Path) {
    let Some(folder) = file.parent() else { return };
    let agents = lcmem::import::SOURCES.iter().flat_map(|s| s.wiring().folders());
    let ours = folder.file_name().is_some_and(|name| agents.into_iter().any(|a| name == a));
    if ours && std::fs::remove_dir(folder).is_ok() {
        println!("remove {} (lcmem made it; it is empty now)", folder.display());
    }
}

/// Writes `path` by way of a temporary file in its folder, renamed over it:
/// a crash leaves the old file or the new one. The new file gets the mode of
/// `mode_of` when that exists; a new file is 0644, as an editor makes it.
fn atomic_write(path: &Path, content: &[u8], mode_of: Option<&Path>) -> anyhow::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let context = || format!("cannot write {}", path.display());
    let mut tmp = tempfile::Builder::new().prefix(".lcmem-tmp-").tempfile_in(dir).with_context(context)?;
    tmp.write_all(content).with_context(context)?;
    match mode_of.and_then(|p| std::fs::metadata(p).ok()).map(|m| m.permissions()) {
        Some(permissions) => tmp.as_file().set_permissions(permissions).with_context(context)?,
        None => {
            use std::os::unix::fs::PermissionsExt as _;
            tmp.as_file().set_permissions(std::fs::Permissions::from_mode(0o644)).with_context(context)?;
        }
    }
    tmp.as_file().sync_all().with_context(context)?;
    tmp.persist(path).map_err(|e| e.error).with_context(context)?;
    lcmem::jsonl::sync_dir(dir)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn the_diff_shows_only_the_lines_that_change() {
        let before = "{\n  \"a\": \"/old/lcmem\",\n  \"b\": 1,\n  \"c\": \"/old/lcmem\"\n}\n";
        let after = "{\n  \"a\": \"/new/lcmem\",\n  \"b\": 1,\n  \"c\": \"/new/lcmem\"\n}\n";
        let shown = diff(before, after);
        assert!(!shown.contains("\"b\""), "{shown}");
        assert_eq!(shown.matches("@@").count(), 2, "{shown}");
        assert_eq!(diff("x\n", "x\n"), "");
    }
}
