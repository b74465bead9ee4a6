//! The user's settings files: reading them, planning a change as an edit
//! of their text (so only lcmem's bytes change), showing it as a diff of
//! only the lines that change, and writing it atomically with the file's
//! mode kept.

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
                println!("{}", summary(change));
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

/// Lines of context shown around each run of changes.
const CONTEXT: usize = 2;

/// The lines that differ, as `-`/`+` lines with up to [`CONTEXT`] unchanged
/// lines (` `) around them, under an `@@ line N` mark (N: the first line
/// shown, in the new text) for each run of changes: the longest common
/// subsequence of the lines between the common head and tail.
pub fn diff(before: &str, after: &str) -> String {
    let ops = line_ops(before, after);
    let changed: Vec<usize> = ops.iter().enumerate().filter(|(_, op)| op.0 != ' ').map(|(i, _)| i).collect();
    let mut out = String::new();
    let mut k = 0;
    while k < changed.len() {
        // A hunk: changes whose gaps are small enough for their contexts to meet.
        let mut end = k;
        while end + 1 < changed.len() && changed[end + 1] - changed[end] <= 2 * CONTEXT + 1 {
            end += 1;
        }
        let first = changed[k].saturating_sub(CONTEXT);
        let last = (changed[end] + CONTEXT).min(ops.len() - 1);
        out.push_str(&format!("@@ line {}\n", ops[first].2 + 1));
        for (kind, text, _) in &ops[first..=last] {
            out.push_str(&format!("{kind}{text}\n"));
        }
        k = end + 1;
    }
    out
}

/// Every line of both texts as `(' ' | '-' | '+', line, its index in the
/// new text)`: unchanged lines once, removed and added lines where they go.
fn line_ops<'a>(before: &'a str, after: &'a str) -> Vec<(char, &'a str, usize)> {
    let (old, new): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..].iter().rev().zip(new[head..].iter().rev()).take_while(|(a, b)| a == b).count();
    let (old_mid, new_mid) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut ops: Vec<(char, &str, usize)> = new[..head].iter().enumerate().map(|(j, l)| (' ', *l, j)).collect();
    let (n, m) = (old_mid.len(), new_mid.len());
    if n.saturating_mul(m) > 4_000_000 {
        // Past a few million cells, show the middle whole rather than spend the memory.
        ops.extend(old_mid.iter().map(|l| ('-', *l, head)));
        ops.extend(new_mid.iter().enumerate().map(|(j, l)| ('+', *l, head + j)));
    } else {
        let mut lcs = vec![vec![0u32; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] =
                    if old_mid[i] == new_mid[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && old_mid[i] == new_mid[j] {
                ops.push((' ', old_mid[i], head + j));
                (i, j) = (i + 1, j + 1);
            } else if j == m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1]) {
                ops.push(('-', old_mid[i], head + j));
                i += 1;
            } else {
                ops.push(('+', new_mid[j], head + j));
                j += 1;
            }
        }
    }
    let tail_start = new.len() - tail;
    ops.extend(new[tail_start..].iter().enumerate().map(|(j, l)| (' ', *l, tail_start + j)));
    ops
}

/// One line saying what a change does to its file, counted from both texts:
/// lcmem's hook handlers and MCP server entries added or taken out
/// ("3 hooks and 1 MCP server added to ~/.claude/settings.json").
pub fn summary(change: &Change) -> String {
    let count = |text: Option<&str>| text.map_or((0, 0), lcmem_parts);
    let (hooks_before, servers_before) = count(change.before.as_deref());
    let (hooks_after, servers_after) = count(change.after.as_deref());
    let part = |n: usize, one: &str, many: &str| match n {
        0 => None,
        1 => Some(format!("1 {one}")),
        n => Some(format!("{n} {many}")),
    };
    let phrase = |hooks: usize, servers: usize| {
        let parts: Vec<String> =
            [part(hooks, "hook", "hooks"), part(servers, "MCP server", "MCP servers")].into_iter().flatten().collect();
        parts.join(" and ")
    };
    let path = change.path.display();
    let added = phrase(hooks_after.saturating_sub(hooks_before), servers_after.saturating_sub(servers_before));
    let removed = phrase(hooks_before.saturating_sub(hooks_after), servers_before.saturating_sub(servers_after));
    match (added.is_empty(), removed.is_empty()) {
        (false, true) => format!("{added} added to {path}"),
        (true, false) => format!("{removed} taken out of {path}"),
        (false, false) => format!("{added} added to {path}, {removed} taken out"),
        (true, true) => format!("lcmem's entries in {path} brought up to date"),
    }
}

/// lcmem's hook handlers (commands that run `lcmem … hook`) and MCP server
/// entries (`lcmem` under a servers table, in JSON or TOML) in a settings text.
fn lcmem_parts(text: &str) -> (usize, usize) {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => {
            let (mut hooks, mut servers) = (0, 0);
            count_json(&value, &mut hooks, &mut servers);
            (hooks, servers)
        }
        Err(_) => {
            let servers = text.lines().filter(|l| l.trim() == "[mcp_servers.lcmem]").count();
            let hooks = text.lines().filter(|l| l.contains("lcmem") && l.contains(" hook ")).count();
            (hooks, servers)
        }
    }
}

fn count_json(value: &Value, hooks: &mut usize, servers: &mut usize) {
    match value {
        Value::Object(map) => {
            if let Some(command) = map.get("command").and_then(Value::as_str)
                && command.contains("lcmem")
                && command.split_whitespace().any(|w| w == "hook")
            {
                *hooks += 1;
            }
            for (key, inner) in map {
                if key == "lcmem" && inner.get("command").is_some() {
                    *servers += 1;
                }
                count_json(inner, hooks, servers);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| count_json(v, hooks, servers)),
        _ => {}
    }
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
    let agents = lcmem::agents::SOURCES.iter().flat_map(|s| s.wiring().folders());
    let ours = folder.file_name().is_some_and(|name| agents.into_iter().any(|a| name == a));
    if ours && std::fs::remove_dir(folder).is_ok() {
        println!("remove {} (lcmem made it; it is empty now)", folder.display());
    }
}

/// Writes `path` by way of a temporary file in its folder, renamed over it:
/// a crash leaves the old file or the new one. The new file gets the mode of
/// `mode_of` when that exists; a new file is 0644, as an editor makes it.
fn atomic_write(path: &Path, content: &[u8], mode_of: Option<&Path>) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt as _;
    let permissions = mode_of
        .and_then(|p| std::fs::metadata(p).ok())
        .map_or_else(|| std::fs::Permissions::from_mode(0o644), |m| m.permissions());
    lcmem::atomic_write_as(path, content, Some(permissions)).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn the_diff_shows_the_lines_that_change_with_two_lines_of_context() {
        let before = "{\n  \"a\": \"/old/lcmem\",\n  \"b\": 1,\n  \"c\": \"/old/lcmem\"\n}\n";
        let after = "{\n  \"a\": \"/new/lcmem\",\n  \"b\": 1,\n  \"c\": \"/new/lcmem\"\n}\n";
        let shown = diff(before, after);
        assert_eq!(
            shown,
            "@@ line 1\n {\n-  \"a\": \"/old/lcmem\",\n+  \"a\": \"/new/lcmem\",\n   \"b\": 1,\n\
             -  \"c\": \"/old/lcmem\"\n+  \"c\": \"/new/lcmem\"\n }\n"
        );
        assert_eq!(diff("x\n", "x\n"), "");
        // Changes far apart are hunks of their own, each with its context.
        let before: String = (0..20).map(|i| format!("line {i}\n")).collect();
        let after = before.replace("line 2\n", "line two\n").replace("line 17\n", "line seventeen\n");
        let shown = diff(&before, &after);
        assert_eq!(shown.matches("@@").count(), 2, "{shown}");
        assert!(
            shown.starts_with("@@ line 1\n line 0\n line 1\n-line 2\n+line two\n line 3\n line 4\n@@ line 16\n"),
            "{shown}"
        );
    }

    #[test]
    fn the_summary_counts_what_lcmem_adds_and_takes_out() {
        let change = |before: &str, after: &str| super::Change {
            path: "/h/.claude/settings.json".into(),
            before: Some(before.into()),
            after: Some(after.into()),
            keep_original: true,
            drop_backup: false,
        };
        let hook = r#"{"type": "command", "command": "/bin/lcmem hook claude-code"}"#;
        let installed = format!(
            r#"{{"hooks": {{"SessionStart": [{{"hooks": [{hook}]}}], "Stop": [{{"hooks": [{hook}]}}]}}, "mcpServers": {{"lcmem": {{"command": "/bin/lcmem", "args": ["mcp"]}}}}}}"#
        );
        assert_eq!(
            super::summary(&change("{}", &installed)),
            "2 hooks and 1 MCP server added to /h/.claude/settings.json"
        );
        assert_eq!(
            super::summary(&change(&installed, "{}")),
            "2 hooks and 1 MCP server taken out of /h/.claude/settings.json"
        );
    }
}
