//! Codex: SessionStart and Stop hooks in `hooks.json`, and the MCP server and
//! the hooks feature switch in `config.toml`, both in `$CODEX_HOME` (else
//! `~/.codex`), or a project's `.codex/`. Codex's hooks.json has Claude
//! Code's shape (event → matcher groups → handlers); hooks run only with
//! `[features] codex_hooks = true`.
//!
//! config.toml is the user's hand-written TOML, so it is edited as text:
//! a table appended at the end, a key added under its table, a command line
//! replaced in place. Comments and layout stay; the result is parsed again
//! before anything is written.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use serde_json::{Map, Value, json};

use super::files::{Change, plan, plan_removal, read};

/// The events lcmem's Codex hook handles: matcher, and the seconds each may take.
const EVENTS: [(&str, Option<&str>, u64); 2] =
    [("SessionStart", Some("startup|resume|clear|compact"), 10), ("Stop", None, 30)];

fn codex_dir(top: Option<&Path>) -> anyhow::Result<PathBuf> {
    Ok(match top {
        Some(root) => root.join(".codex"),
        None => match std::env::var_os("CODEX_HOME").filter(|d| !d.is_empty()) {
            Some(dir) => PathBuf::from(dir),
            None => super::home_dir()?.join(".codex"),
        },
    })
}

pub fn install(top: Option<&Path>, command: &str) -> anyhow::Result<Vec<Change>> {
    let dir = codex_dir(top)?;
    let hook = format!("{} hook codex", super::quoted(command));
    let hooks = plan(&dir.join("hooks.json"), |doc: &mut Map<String, Value>| {
        let hooks = doc.entry("hooks").or_insert_with(|| json!({}));
        let Some(hooks) = hooks.as_object_mut() else { return };
        for (event, matcher, timeout) in EVENTS {
            let groups = hooks.entry(event).or_insert_with(|| json!([]));
            let Some(groups) = groups.as_array_mut() else { continue };
            let runs_lcmem = |g: &Value| {
                g.get("hooks").and_then(Value::as_array).into_iter().flatten().any(|h| super::is_lcmem_hook(h, "codex"))
            };
            if !groups.iter().any(runs_lcmem) {
                let mut group = json!({"hooks": [{"type": "command", "command": hook, "timeout": timeout}]});
                if let Some(matcher) = matcher {
                    group.as_object_mut().expect("an object").shift_insert(0, "matcher".into(), json!(matcher));
                }
                groups.push(group);
            }
            super::update_stale(groups, "codex", &hook);
        }
    })?;
    Ok(vec![hooks, config_install(&dir.join("config.toml"), command)?])
}

pub fn uninstall(top: Option<&Path>) -> anyhow::Result<Vec<Change>> {
    let dir = codex_dir(top)?;
    let hooks = plan_removal(&dir.join("hooks.json"), |doc| super::remove_lcmem_hooks(doc, "codex"))?;
    Ok(vec![hooks, config_uninstall(&dir.join("config.toml"))?])
}

fn parse(path: &Path, text: &str) -> anyhow::Result<toml::Table> {
    text.parse::<toml::Table>().map_err(|e| {
        anyhow::anyhow!("{}: not valid TOML ({}); fix it by hand, nothing was changed", path.display(), e.message())
    })
}

fn config_install(path: &Path, command: &str) -> anyhow::Result<Change> {
    let before = read(path)?;
    let mut text = before.clone().unwrap_or_default();
    let table = parse(path, &text)?;
    let quoted = toml::Value::String(command.to_string()).to_string();
    match table.get("mcp_servers").and_then(|s| s.get("lcmem")) {
        None => append(&mut text, &format!("[mcp_servers.lcmem]\ncommand = {quoted}\nargs = [\"mcp\"]\n")),
        Some(entry) => {
            let current = entry.get("command").and_then(toml::Value::as_str);
            if current.is_some_and(|c| c.contains("lcmem") && c != command) {
                replace_key(&mut text, "[mcp_servers.lcmem]", "command", &quoted).with_context(|| {
                    format!(
                        "{}: [mcp_servers.lcmem] is not a table of its own; set its command by hand",
                        path.display()
                    )
                })?;
            }
        }
    }
    match table.get("features").map(|f| f.get("codex_hooks")) {
        None => append(&mut text, "[features]\ncodex_hooks = true\n"),
        Some(None) => insert_after_header(&mut text, "[features]", "codex_hooks = true")
            .with_context(|| format!("{}: add `codex_hooks = true` to [features] by hand", path.display()))?,
        Some(Some(value)) => {
            if value.as_bool() != Some(true) {
                eprintln!("note: {} sets [features] codex_hooks = {value}: Codex runs no hooks", path.display());
            }
        }
    }
    parse(path, &text).context("lcmem's change to config.toml would not be valid TOML: nothing was written")?;
    let after = if before.is_none() && text.is_empty() { None } else { Some(text) };
    Ok(Change { path: path.to_path_buf(), before, after, drop_backup: false })
}

/// Takes the `[mcp_servers.lcmem]` table out (its header and the lines up to
/// the next table). The features switch stays: other hooks may need it.
fn config_uninstall(path: &Path) -> anyhow::Result<Change> {
    let before = read(path)?;
    let Some(text) = before.clone() else {
        return Ok(Change { path: path.to_path_buf(), before, after: None, drop_backup: false });
    };
    parse(path, &text)?;
    let mut out = Vec::new();
    let mut skipping = false;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            skipping = trimmed == "[mcp_servers.lcmem]";
        }
        if !skipping {
            out.push(line);
        }
    }
    let mut after = out.concat();
    if after != text {
        while after.ends_with("\n\n") {
            after.pop();
        }
        let original = read(&super::files::backup_of(path))?;
        let drop_backup = original.as_deref() == Some(after.as_str());
        return Ok(Change { path: path.to_path_buf(), before, after: Some(after), drop_backup });
    }
    Ok(Change { path: path.to_path_buf(), before, after: Some(text), drop_backup: false })
}

/// Appends a table, a blank line away from what is there.
fn append(text: &mut String, table: &str) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(table);
}

fn header_line(text: &str, header: &str) -> Option<usize> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim() == header {
            return Some(at + line.len());
        }
        at += line.len();
    }
    None
}

fn insert_after_header(text: &mut String, header: &str, line: &str) -> anyhow::Result<()> {
    let Some(at) = header_line(text, header) else { bail!("{header} is not a table header of its own") };
    if !text[..at].ends_with('\n') {
        text.insert(at, '\n');
        text.insert_str(at + 1, &format!("{line}\n"));
    } else {
        text.insert_str(at, &format!("{line}\n"));
    }
    Ok(())
}

/// Replaces the value of `key` in the table under `header`, in place.
fn replace_key(text: &mut String, header: &str, key: &str, value: &str) -> anyhow::Result<()> {
    let Some(start) = header_line(text, header) else { bail!("no {header} header") };
    let mut at = start;
    for line in text[start..].split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with('[') {
            break;
        }
        if let Some(rest) = trimmed.strip_prefix(key)
            && rest.trim_start().starts_with('=')
        {
            let end = at + line.trim_end_matches(['\n', '\r']).len();
            text.replace_range(at..end, &format!("{key} = {value}"));
            return Ok(());
        }
        at += line.len();
    }
    bail!("no {key} under {header}")
}
