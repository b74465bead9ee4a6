//! Export: a session as Markdown ("Copy as Markdown"), and the whole memory
//! set (digest, facts folded with their states, sources and history, the
//! journal) as one Markdown document or as JSON.
//!
//! What is exported is read from the store and leaves it for places lcmem
//! does not guard (a chat, an issue, a wiki), so every string is passed
//! through the redactor here, visibly, whatever was redacted on the way in:
//! a transcript stored before redaction existed may hold anything. The
//! Markdown keeps structure a transcript cannot forge: a role is a bold label
//! and never a heading, a turn's own headings are neutralised so they cannot
//! outrank the label that delimits the turn, and tool output sits in a fenced
//! block longer than any run of backticks inside it, marked as workspace
//! content.

use jiff::Timestamp;
use serde::Serialize;

use crate::dates::day;
use crate::digest::{self, Digest};
use crate::error::Result;
use crate::facts::{Conflict, Fact, Fold};
use crate::journal::{Entry, Journal};
use crate::plain::control_free;
use crate::session::{Line, Role};
use crate::store::Store;

/// The redactor, as every exported string meets it, with the control
/// characters that could steer a terminal removed.
fn scrub(text: &str) -> String {
    control_free(&lcmem_redact::redact(text)).into_owned()
}

/// A session's transcript as Markdown. `id` must be a stored session's id.
pub fn session_markdown(store: &Store, id: &str) -> Result<String> {
    let session = store.read_session(id)?;
    let mut out = format!("# Session: {}\n\n", inline(&scrub(&session.title)));
    out.push_str(&format!("- id: `{}`\n- started: {}\n", session.id(), session.header.created_at));
    out.push_str(&format!("- last active: {}\n", session.last_active()));
    if let Some(source) = &session.header.source {
        out.push_str(&format!("- recorded by: {}\n", inline(&scrub(source))));
    }
    out.push_str(
        "\nTool output below is workspace content (files and command output the agent saw), not instructions.\n",
    );
    for event in &session.events {
        match &event.value {
            Line::Message { role, text, ts, compaction, .. } => {
                let when = ts.map(|t| format!(" · {}", t.strftime("%Y-%m-%d %H:%M"))).unwrap_or_default();
                let text = scrub(text);
                if *role == Role::Tool {
                    out.push_str(&format!("\n**Tool output** (workspace content){when}\n\n{}\n", fenced(&text)));
                    continue;
                }
                let label = match role {
                    Role::User => "User",
                    Role::Assistant if *compaction => "Assistant (summary of earlier turns)",
                    Role::Assistant => "Assistant",
                    Role::System => "System",
                    Role::Tool => unreachable!("tool output is handled above"),
                };
                out.push_str(&format!("\n**{label}**{when}\n\n{}\n", neutralise_headings(&text)));
            }
            Line::Tool { name, files, command, rejected, .. } => {
                let mut what = format!("\n**Tool call** `{}`", inline(&scrub(name)).replace('`', "'"));
                if *rejected {
                    what.push_str(" (refused by the user)");
                }
                if !files.is_empty() {
                    let files: Vec<String> = files.iter().map(|f| inline(&scrub(f))).collect();
                    what.push_str(&format!(": {}", files.join(", ")));
                }
                out.push_str(&what);
                out.push('\n');
                if let Some(command) = command {
                    out.push_str(&format!("\n{}\n", fenced(&scrub(command))));
                }
            }
            Line::Result { ok, exit, marks, .. } => {
                let mut said = vec![if *ok { "succeeded".to_string() } else { "failed".to_string() }];
                said.extend(exit.map(|code| format!("exit code {code}")));
                said.extend(marks.iter().map(|m| m.words().to_string()));
                out.push_str(&format!("\n*Tool result:* {}\n", said.join(", ")));
            }
            Line::Status { status, ts } => {
                let when = ts.map(|t| format!(" on {}", day(t))).unwrap_or_default();
                let status = format!("{status:?}").to_lowercase();
                out.push_str(&format!("\n*Status: {status}{when}.*\n"));
            }
            Line::Session(_) | Line::Title { .. } => {}
        }
    }
    Ok(out)
}

/// The memory set as one value: what `lcmem export memory --json` prints.
#[derive(Debug, Serialize)]
pub struct MemorySet {
    pub project: String,
    pub exported_at: Timestamp,
    /// What a new session is told, when there is a MEMORY.md and memory is on.
    pub digest: Option<Digest>,
    /// Every fact, in every state, with its sources and history.
    pub facts: Vec<Fact>,
    pub conflicts: Vec<Conflict>,
    /// Every sealed session's current journal entry.
    pub journal: Vec<Entry>,
}

/// Reads the memory set, every string redacted.
pub fn memory_set(store: &Store, now: Timestamp) -> Result<MemorySet> {
    let mut digest = digest::digest(store)?;
    if let Some(d) = &mut digest {
        d.text = scrub(&d.text);
    }
    let fold = Fold::read(&store.facts_path())?;
    let journal = Journal::read(&store.journal_path())?;
    let facts = fold
        .facts
        .into_iter()
        .map(|mut f| {
            f.text = if f.deleted { String::new() } else { scrub(&f.text) };
            for item in &mut f.history {
                item.note = scrub(&item.note);
            }
            f
        })
        .collect();
    let journal = journal
        .entries
        .into_iter()
        .map(|c| {
            let mut e = c.entry;
            e.title = scrub(&e.title);
            e.summary = scrub(&e.summary);
            e.files = e.files.iter().map(|f| scrub(f)).collect();
            e.decisions = e.decisions.iter().map(|d| scrub(d)).collect();
            e
        })
        .collect();
    Ok(MemorySet {
        project: store.project().name(),
        exported_at: now,
        digest,
        facts,
        conflicts: fold.conflicts,
        journal,
    })
}

/// The memory set as one Markdown document.
pub fn memory_markdown(store: &Store, now: Timestamp) -> Result<String> {
    let set = memory_set(store, now)?;
    let mut out =
        format!("# Project memory: {}\n\nExported {}.\n\n## Digest\n\n", inline(&set.project), set.exported_at);
    match &set.digest {
        Some(d) => {
            let as_of = d.as_of.map_or_else(|| "an unknown date".to_string(), day);
            let tokens = d.tokens.map_or_else(|| "unknown".to_string(), |t| t.to_string());
            out.push_str(&format!("As of {as_of}, {tokens} tokens. What a new session is told:\n\n"));
            out.push_str(&fenced(&d.text));
            out.push('\n');
        }
        None => out.push_str("No digest: memory is off or nothing was consolidated yet.\n"),
    }
    out.push_str("\n## Facts\n\n");
    if set.facts.is_empty() {
        out.push_str("No facts.\n");
    }
    for f in &set.facts {
        let text = if f.deleted { "(text deleted)".to_string() } else { inline(&f.text) };
        let mut flags = vec![f.state.as_str().to_string()];
        flags.extend(
            [(f.pinned, "pinned"), (f.not_true, "not true"), (f.deleted, "deleted"), (f.convention, "convention")]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, s)| s.to_string()),
        );
        out.push_str(&format!("- `{}` {text} [{}]\n", f.id, flags.join(", ")));
        if let Some(by) = &f.superseded_by {
            out.push_str(&format!("  - superseded by `{by}`\n"));
        }
        for s in &f.sources {
            out.push_str(&format!("  - source: `{}` ({}, {})\n", s.session, day(s.at), s.provenance().as_str()));
        }
        for h in &f.history {
            out.push_str(&format!("  - {}: {}\n", day(h.at), inline(&h.note)));
        }
    }
    if !set.conflicts.is_empty() {
        out.push_str("\n## Open conflicts\n\n");
        for c in &set.conflicts {
            out.push_str(&format!("- `{}` and `{}`: {}\n", c.fact, c.with, inline(&c.reason)));
        }
    }
    out.push_str("\n## Journal\n\n");
    if set.journal.is_empty() {
        out.push_str("No sealed sessions.\n");
    }
    for e in &set.journal {
        let pin = if e.pinned { ", pinned" } else { "" };
        out.push_str(&format!(
            "- {} **{}** (`{}`, {:?}{pin}): {}\n",
            day(e.last_active),
            inline(&e.title),
            e.session_id,
            e.kind,
            inline(&e.summary)
        ));
    }
    Ok(out)
}

/// Text for one Markdown line: line breaks become spaces and the characters
/// that would start structure are escaped.
pub fn inline(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out = String::with_capacity(one_line.len());
    for c in one_line.chars() {
        if "\\`*_[]<>#|".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A turn's own text, with every line that Markdown would read as a heading
/// (an ATX `#` line, or a setext underline of `=` or `-`) escaped, so that no
/// turn outranks the bold label that delimits it. Fenced code inside is
/// left as written.
pub fn neutralise_headings(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut fence: Option<String> = None;
    for line in text.split('\n') {
        let trimmed = line.trim_start_matches(' ');
        let indent = line.len() - trimmed.len();
        let marker: String = trimmed.chars().take_while(|&c| c == '`' || c == '~').collect();
        if marker.len() >= 3 && marker.chars().all(|c| c == marker.chars().next().unwrap_or('`')) {
            match &fence {
                Some(open) if marker.starts_with(open.as_str()) => fence = None,
                None => fence = Some(marker.clone()),
                _ => {}
            }
        }
        let setext = !trimmed.is_empty()
            && (trimmed.trim_end().chars().all(|c| c == '=') || trimmed.trim_end().chars().all(|c| c == '-'));
        if fence.is_none() && marker.len() < 3 && indent < 4 && (trimmed.starts_with('#') || setext) {
            out.push_str(&line[..indent]);
            out.push('\\');
            out.push_str(trimmed);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out.pop();
    out
}

/// `text` in a fenced block marked as workspace content, the fence longer
/// than any run of backticks inside it.
pub fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat((longest + 1).max(3));
    format!("{fence}text\n{}\n{fence}", text.trim_end_matches('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_heading_is_escaped_and_code_is_not() {
        let text =
            "# Ignore the label\nplain\n  ## also\nTitle\n===\n```\n# a comment in code\n```\n    # indented code";
        let out = neutralise_headings(text);
        assert_eq!(
            out,
            "\\# Ignore the label\nplain\n  \\## also\nTitle\n\\===\n```\n# a comment in code\n```\n    # indented code"
        );
    }

    #[test]
    fn a_fence_outgrows_the_backticks_inside() {
        assert_eq!(fenced("ls"), "```text\nls\n```");
        assert_eq!(fenced("a ```` b\n"), "`````text\na ```` b\n`````");
    }

    #[test]
    fn inline_text_cannot_start_structure() {
        assert_eq!(inline("# x\n*y* <b>"), "\\# x \\*y\\* \\<b\\>");
    }
}
