//! `.lcmem/team.md` as text: reading its items back, and adding and taking
//! out item lines while every other byte stays as the team left it.
//!
//! An item is a list line (`- `) under `## Conventions` or `## Facts` (or any
//! other heading, read as facts). `lcmem share` writes each one as
//! `- TEXT (confirmed by NAME, DATE; SESSION) [ID]`; a line a person writes by
//! hand needs only the text. Lines inside an HTML comment are never items: a
//! comment does not show in a rendered pull request, so what hides there was
//! never reviewed.

use std::sync::LazyLock;

use regex::Regex;

use crate::plain::{inline, unescape};

pub const CONVENTIONS: &str = "## Conventions";
pub const FACTS: &str = "## Facts";

/// What a new team file starts with.
pub const HEADER: &str = "# Team memory\n\n\
<!-- Written by `lcmem share` from this project's confirmed facts and conventions, each with who confirmed it, \
when, and the session it came from. Review changes to it like code. Every teammate's lcmem reads it at session \
start: an item that reads as an order waits until that teammate confirms it. -->\n";

/// One item of the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The line number, from 1.
    pub line: usize,
    pub text: String,
    pub convention: bool,
    /// The name the line gives: "confirmed by NAME, DATE".
    pub by: Option<String>,
    pub on: Option<String>,
}

static ID: LazyLock<Regex> = LazyLock::new(|| crate::pattern::regex(r"\s*\[f[0-9a-f]{10}\]\s*$"));
static PROVENANCE: LazyLock<Regex> =
    LazyLock::new(|| crate::pattern::regex(r"\s*\(confirmed by ([^,()]+), (\d{4}-\d{2}-\d{2})(?:; [^()]*)?\)\s*$"));

/// Every item of `text`, in order.
pub fn items(text: &str) -> Vec<Item> {
    let mut out = Vec::new();
    let mut convention = false;
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let hidden = in_comment || line.starts_with("<!--");
        in_comment = comment_open_after(line, in_comment);
        if hidden {
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            convention = heading.trim().eq_ignore_ascii_case("conventions");
            continue;
        }
        let Some(body) = line.strip_prefix("- ").or_else(|| line.strip_prefix("* ")) else { continue };
        let body = ID.replace(body, "");
        let (by, on) = match PROVENANCE.captures(&body) {
            Some(c) => (Some(c[1].trim().to_string()), Some(c[2].to_string())),
            None => (None, None),
        };
        let text = unescape(PROVENANCE.replace(&body, "").trim());
        if text.chars().filter(|c| c.is_alphanumeric()).count() >= 3 {
            out.push(Item { line: i + 1, text, convention, by, on });
        }
    }
    out
}

/// Whether an HTML comment is still open after `line`.
fn comment_open_after(line: &str, open: bool) -> bool {
    let mut open = open;
    let mut rest = line;
    loop {
        if open {
            match rest.find("-->") {
                Some(end) => {
                    open = false;
                    rest = &rest[end + 3..];
                }
                None => return true,
            }
        } else {
            match rest.find("<!--") {
                Some(start) => {
                    open = true;
                    rest = &rest[start + 4..];
                }
                None => return false,
            }
        }
    }
}

/// A line `lcmem share` writes.
pub fn item_line(text: &str, by: &str, on: &str, session: &str, id: &str) -> String {
    let by: String = inline(by).chars().filter(|c| !"(),;".contains(*c)).collect();
    format!("- {} (confirmed by {by}, {on}; {session}) [{id}]", inline(text))
}

/// `text` without the lines numbered in `drop` (from 1), and with `added`
/// lines put at the end of their section (the section made at the end of the
/// file when it has none). Every other byte stays.
pub fn edited(text: &str, drop: &[usize], added: &[(bool, String)]) -> String {
    let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
    for &n in drop.iter().rev() {
        if n >= 1 && n <= lines.len() {
            lines.remove(n - 1);
        }
    }
    for convention in [true, false] {
        let new: Vec<&String> = added.iter().filter(|(c, _)| *c == convention).map(|(_, l)| l).collect();
        if new.is_empty() {
            continue;
        }
        let heading = if convention { CONVENTIONS } else { FACTS };
        let at = match lines.iter().position(|l| l.trim().eq_ignore_ascii_case(heading)) {
            Some(h) => {
                let end = lines[h + 1..]
                    .iter()
                    .position(|l| l.trim_start().starts_with('#'))
                    .map_or(lines.len(), |p| h + 1 + p);
                // After the section's last non-blank line.
                (h + 1..end).rev().find(|&i| !lines[i].trim().is_empty()).map_or(h + 1, |i| i + 1)
            }
            None => {
                if let Some(last) = lines.last_mut()
                    && !last.ends_with('\n')
                {
                    last.push('\n');
                }
                lines.push("\n".to_string());
                lines.push(format!("{heading}\n"));
                lines.push("\n".to_string());
                lines.len()
            }
        };
        if let Some(prev) = at.checked_sub(1).and_then(|p| lines.get_mut(p))
            && !prev.ends_with('\n')
        {
            prev.push('\n');
        }
        for (k, line) in new.into_iter().enumerate() {
            lines.insert(at + k, format!("{line}\n"));
        }
    }
    lines.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_read_with_their_section_and_provenance_and_comments_hide_nothing_in() {
        let text = "# Team memory\n\n<!-- a note\n- Hidden items are not items.\n-->\n## Conventions\n\n\
                    - We use conventional commits. (confirmed by alice, 2026-11-20; s1) [f0123456789]\n\
                    ## Facts\n- The cache lives in Redis.\n- ok\n";
        let items = items(text);
        assert_eq!(items.len(), 2, "{items:?}");
        assert_eq!(items[0].text, "We use conventional commits.");
        assert!(items[0].convention);
        assert_eq!((items[0].by.as_deref(), items[0].on.as_deref()), (Some("alice"), Some("2026-11-20")));
        assert_eq!(items[0].line, 8);
        assert_eq!(items[1].text, "The cache lives in Redis.");
        assert!(!items[1].convention);
        assert_eq!(items[1].by, None);
    }

    #[test]
    fn edits_add_under_their_heading_and_keep_every_other_byte() {
        let text = "# T\n\nmy words\n\n## Facts\n\n- a fact here\n\n## Other\nend";
        let out = edited(text, &[], &[(false, "- new fact".into()), (true, "- new rule".into())]);
        assert_eq!(
            out,
            "# T\n\nmy words\n\n## Facts\n\n- a fact here\n- new fact\n\n## Other\nend\n\n## Conventions\n\n- new rule\n"
        );
        let back = edited(&out, &[8], &[]);
        assert!(!back.contains("new fact") && back.contains("- a fact here\n\n## Other"));
    }
}
