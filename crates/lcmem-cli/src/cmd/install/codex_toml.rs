//! Codex's config.toml, the user's hand-written TOML, edited as text: a
//! table appended at the end, a key added under its table, a value replaced
//! in place; and the same taken out again. Comments, layout and line ends
//! stay; the result is parsed again before anything is written.

use std::ops::Range;
use std::path::Path;

use anyhow::{Context as _, bail};

use super::files::{Change, backup_of, read};

const SERVER: &str = "[mcp_servers.lcmem]";
const FEATURES: &str = "[features]";

/// What `[mcp_servers.lcmem]` should say.
pub struct Server<'a> {
    pub command: &'a str,
    pub args: Vec<String>,
    /// Let `LEVELCODE_HOME` through to the server (Codex passes on only a few
    /// variables of its own environment).
    pub env_vars: bool,
}

fn parse(path: &Path, text: &str) -> anyhow::Result<toml::Table> {
    text.parse::<toml::Table>().map_err(|e| {
        anyhow::anyhow!("{}: not valid TOML ({}); fix it by hand, nothing was changed", path.display(), e.message())
    })
}

fn newline(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

fn strings(values: &[String]) -> toml::Value {
    toml::Value::Array(values.iter().map(|v| toml::Value::String(v.clone())).collect())
}

/// Adds the server and turns on `feature` (`hooks`, or `codex_hooks` for an
/// older Codex), keeping what is there.
pub fn install(path: &Path, server: &Server, feature: &str) -> anyhow::Result<Change> {
    let before = read(path)?;
    let mut text = before.clone().unwrap_or_default();
    let nl = newline(&text);
    let table = parse(path, &text)?;
    let command = toml::Value::String(server.command.to_string()).to_string();
    let args = strings(&server.args).to_string();
    let by_hand =
        |what: &str| format!("{}: {SERVER} is not a table of its own; set its {what} by hand", path.display());
    match table.get("mcp_servers").and_then(|s| s.get("lcmem")) {
        None => {
            let mut block = format!("{SERVER}{nl}command = {command}{nl}args = {args}{nl}");
            if server.env_vars {
                block.push_str(&format!("env_vars = [\"LEVELCODE_HOME\"]{nl}"));
            }
            append(&mut text, &block, nl);
        }
        Some(entry) => {
            let current = entry.get("command").and_then(toml::Value::as_str);
            if current.is_some_and(|c| c.contains("lcmem")) {
                if current != Some(server.command) {
                    replace_key(&mut text, SERVER, "command", &command).with_context(|| by_hand("command"))?;
                }
                if entry.get("args") != Some(&strings(&server.args)) {
                    replace_key(&mut text, SERVER, "args", &args).with_context(|| by_hand("args"))?;
                }
                if server.env_vars && entry.get("env_vars").is_none() {
                    let line = "env_vars = [\"LEVELCODE_HOME\"]";
                    insert_after_header(&mut text, SERVER, line, nl).with_context(|| by_hand("env_vars"))?;
                }
            }
        }
    }
    match table.get("features").map(|f| f.get(feature)) {
        None => append(&mut text, &format!("{FEATURES}{nl}{feature} = true{nl}"), nl),
        Some(None) => insert_after_header(&mut text, FEATURES, &format!("{feature} = true"), nl)
            .with_context(|| format!("{}: add `{feature} = true` to [features] by hand", path.display()))?,
        Some(Some(value)) => {
            if value.as_bool() != Some(true) {
                eprintln!("note: {} sets [features] {feature} = {value}: Codex runs no hooks", path.display());
            }
        }
    }
    if feature == "hooks" && table.get("features").and_then(|f| f.get("codex_hooks")).is_some() {
        eprintln!(
            "note: {} also sets [features] codex_hooks, which this Codex reports as deprecated at every start: \
             you can delete that line",
            path.display()
        );
    }
    parse(path, &text).context("lcmem's change to config.toml would not be valid TOML: nothing was written")?;
    let after = if before.is_none() && text.is_empty() { None } else { Some(text) };
    Ok(Change { path: path.to_path_buf(), before, after, keep_original: true, drop_backup: false })
}

/// Takes the `[mcp_servers.lcmem]` table out, and the hooks switch lcmem
/// turned on: one the original (the backup) did not have, or, with no
/// backup, when `keep_switch` is false (no other hooks are left); and the
/// trust Codex recorded for lcmem's hooks (`[hooks.state."KEY"]` for each of
/// `trusted`). The original comes back byte for byte when only layout
/// differs from it.
pub fn uninstall(path: &Path, keep_switch: bool, trusted: &[String]) -> anyhow::Result<Change> {
    let before = read(path)?;
    let Some(mut text) = before.clone() else {
        return Ok(Change { path: path.to_path_buf(), before, after: None, keep_original: false, drop_backup: false });
    };
    parse(path, &text)?;
    let original = read(&backup_of(path))?;
    let features_of = |t: &toml::Table| t.get("features").and_then(toml::Value::as_table).cloned();
    let original_table = original.as_deref().and_then(|o| o.parse::<toml::Table>().ok());
    let original_features = original_table.as_ref().map(features_of);
    let trust: Vec<String> =
        trusted.iter().map(|key| format!("[hooks.state.{}]", toml::Value::String(key.clone()))).collect();
    let ours = |h: &str| h == SERVER || h.starts_with("[mcp_servers.lcmem.") || trust.iter().any(|t| t == h);
    while let Some(range) = block(&text, ours) {
        text.replace_range(range, "");
    }
    // Nothing of lcmem's here (no server, no hooks of its in hooks.json): the switch is not its either.
    let lcmem_was_here = text != *before.as_deref().unwrap_or_default() || !trusted.is_empty();
    // The tables that held those, when nothing else is in them now and the original had none.
    let original_hooks = original_table.as_ref().map(|t| t.contains_key("hooks"));
    let bare = |v: &toml::Value| {
        v.as_table().is_some_and(|t| t.values().all(|v| v.as_table().is_some_and(toml::Table::is_empty)))
    };
    for header in ["[hooks.state]", "[hooks]"] {
        let left = parse(path, &text)?.get("hooks").is_some_and(bare);
        if !trusted.is_empty()
            && original_hooks != Some(true)
            && left
            && let Some(range) = block(&text, |h| h == header)
        {
            text.replace_range(range, "");
        }
    }
    let mut switched_off = false;
    for switch in ["hooks", "codex_hooks"] {
        let lcmem_added = match &original_features {
            Some(features) => features.as_ref().is_none_or(|f| f.get(switch).is_none()),
            None => !keep_switch,
        };
        let on = parse(path, &text).ok().and_then(|t| features_of(&t)).and_then(|f| f.get(switch)?.as_bool());
        if lcmem_was_here && lcmem_added && on == Some(true) {
            remove_key(&mut text, FEATURES, switch);
            switched_off = true;
        }
    }
    let emptied = parse(path, &text).ok().and_then(|t| features_of(&t)).is_some_and(|f| f.is_empty());
    if switched_off
        && emptied
        && original_features.as_ref().is_none_or(Option::is_none)
        && let Some(range) = block(&text, |h| h == FEATURES)
    {
        text.replace_range(range, "");
    }
    // A last line without a newline gets one when a table is appended after it: it loses it again.
    if original.as_ref().is_some_and(|o| !o.is_empty() && !o.ends_with('\n')) && text.ends_with('\n') {
        text.truncate(text.len() - if text.ends_with("\r\n") { 2 } else { 1 });
    }
    let after = match &original {
        Some(original) if same_lines(original, &text) => Some(original.clone()),
        None if text.trim().is_empty() => None,
        _ => Some(text),
    };
    Ok(Change { path: path.to_path_buf(), before, after, keep_original: false, drop_backup: original.is_some() })
}

/// The same lines, blank ones and line ends aside.
fn same_lines(a: &str, b: &str) -> bool {
    let lines = |t: &str| t.lines().map(str::trim_end).filter(|l| !l.is_empty()).map(String::from).collect::<Vec<_>>();
    lines(a) == lines(b)
}

/// The lines of `text` with where each starts.
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split_inclusive('\n').scan(0, |at, line| {
        let start = *at;
        *at += line.len();
        Some((start, line))
    })
}

/// The key a `key = value` line sets.
fn key_of(line: &str) -> Option<&str> {
    let line = line.trim();
    if line.starts_with(['#', '[']) {
        return None;
    }
    line.split_once('=').map(|(key, _)| key.trim().trim_matches('"'))
}

/// The table whose header `is_header` picks: its header, its lines up to
/// the last that is not blank or a comment (those after it belong to what
/// follows), and the blank lines before it.
fn block(text: &str, is_header: impl Fn(&str) -> bool) -> Option<Range<usize>> {
    let mut found: Option<(usize, usize)> = None;
    let mut blank_from = None;
    for (at, line) in lines(text) {
        let trimmed = line.trim();
        match found {
            None if trimmed.starts_with('[') && is_header(trimmed) => {
                found = Some((blank_from.unwrap_or(at), at + line.len()));
            }
            None => blank_from = if trimmed.is_empty() { blank_from.or(Some(at)) } else { None },
            Some(_) if trimmed.starts_with('[') => break,
            Some((start, _)) if !trimmed.is_empty() && !trimmed.starts_with('#') => {
                found = Some((start, at + line.len()));
            }
            Some(_) => {}
        }
    }
    found.map(|(start, end)| start..end)
}

/// Takes out the `key = …` line under `header`.
fn remove_key(text: &mut String, header: &str, key: &str) {
    let mut inside = false;
    let found = lines(text).find(|(_, line)| {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            inside = trimmed == header;
            return false;
        }
        inside && key_of(trimmed) == Some(key)
    });
    if let Some((at, line)) = found.map(|(at, line)| (at, line.len())) {
        text.replace_range(at..at + line, "");
    }
}

/// Appends a table, a blank line away from what is there.
fn append(text: &mut String, table: &str, nl: &str) {
    if !text.is_empty() && !text.ends_with('\n') {
        text.push_str(nl);
    }
    if !text.is_empty() {
        text.push_str(nl);
    }
    text.push_str(table);
}

fn header_end(text: &str, header: &str) -> Option<usize> {
    lines(text).find(|(_, line)| line.trim() == header).map(|(at, line)| at + line.len())
}

fn insert_after_header(text: &mut String, header: &str, line: &str, nl: &str) -> anyhow::Result<()> {
    let Some(at) = header_end(text, header) else { bail!("{header} is not a table header of its own") };
    if text[..at].ends_with('\n') {
        text.insert_str(at, &format!("{line}{nl}"));
    } else {
        text.insert_str(at, &format!("{nl}{line}"));
    }
    Ok(())
}

/// Replaces the value of `key` in the table under `header`, in place (a
/// value on one line).
fn replace_key(text: &mut String, header: &str, key: &str, value: &str) -> anyhow::Result<()> {
    let Some(start) = header_end(text, header) else { bail!("no {header} header") };
    let found = lines(&text[start..])
        .take_while(|(_, line)| !line.trim_start().starts_with('['))
        .find(|(_, line)| key_of(line) == Some(key))
        .map(|(at, line)| {
            let trimmed = line.trim_start();
            (start + at + (line.len() - trimmed.len()), start + at + line.trim_end_matches(['\n', '\r']).len())
        });
    let Some((begin, end)) = found else { bail!("no {key} under {header}") };
    text.replace_range(begin..end, &format!("{key} = {value}"));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::block;

    #[test]
    fn a_block_is_its_header_its_keys_and_the_blank_lines_before_it() {
        let text = "a = 1\n\n[x]\nk = 2\n# about y\n[y]\n";
        assert_eq!(&text[block(text, |h| h == "[x]").unwrap()], "\n[x]\nk = 2\n");
        assert_eq!(block(text, |h| h == "[z]"), None);
    }
}
