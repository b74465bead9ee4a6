//! Importing a session again over its stored copy: what to write, decided
//! from the two contents alone (the store takes the lock and writes it).
//!
//! A file that grew is appended to: the stored copy is a byte prefix of it.
//! A stored copy that an importer converted, imported again from a new
//! conversion of the same agent's transcript ([`Incoming::Conversion`]: the
//! agent's source says its sessions can be converted again), gets two more
//! chances before a difference is a conflict, because lcmem itself changes
//! such copies and its converters improve:
//!
//! - lcmem appends status lines to it (pin, unpin, done, archived), which the
//!   transcript never holds. They are set aside; if what is left is a prefix
//!   of the new conversion, line for line, the new conversion is stored with
//!   each status line back after the converted line it followed.
//! - A newer converter reads more of each transcript line (a tool's command,
//!   a compaction summary), so the same transcript converts to other lines.
//!   When the new conversion has the same id and at least as many messages
//!   (the transcript did not shrink), it replaces the stored copy, with the
//!   status lines carried over at the end, in their order.
//!
//! Anything else, and any difference in a session that was not converted
//! (the user's own v1 file), is a conflict. See `docs/importers.md`.


use serde_json::Value;

/// What is being imported over a stored copy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Incoming {
    /// A session file as the user wrote it: it may only grow.
    File,
    /// A new conversion of an agent's transcript, which may replace the
    /// conversion stored before (the rules above).
    Conversion,
}

/// What importing `new` over a stored copy comes to.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Merge {
    /// The stored copy already is what would be written.
    Unchanged,
    /// The first `complete` bytes of the stored copy (its whole lines) are
    /// the start of what is to be stored: `tail` (whole lines) follows them.
    Append { complete: usize, tail: Vec<u8> },
    /// The stored copy is replaced by `bytes`: a re-conversion.
    Rewrite { bytes: Vec<u8> },
    /// The two differ in a way no rule covers.
    Conflict,
}

/// Decides how `new` (whole lines, each ended by `\n`) joins the stored copy.
pub(crate) fn merge(stored: &[u8], new: &[u8], incoming: Incoming) -> Merge {
    if stored == new {
        return Merge::Unchanged;
    }
    let (whole, _) = complete(stored);
    if let Some(tail) = new.strip_prefix(stored).and_then(|_| new.get(whole.len()..)) {
        // A copy whose last line was cut off by a killed append is a prefix
        // too (the cut line is the start of the file's next one).
        return Merge::Append { complete: whole.len(), tail: tail.to_vec() };
    }
    let reconverted = match incoming {
        Incoming::Conversion => reconverted(stored, new),
        Incoming::File => None,
    };
    let Some(out) = reconverted else { return Merge::Conflict };
    if out == stored {
        Merge::Unchanged
    } else if let Some(tail) = out.strip_prefix(whole) {
        Merge::Append { complete: whole.len(), tail: tail.to_vec() }
    } else {
        Merge::Rewrite { bytes: out }
    }
}

/// What a converted stored copy becomes with `new`, by the two rules of the
/// module; `None` when neither applies.
fn reconverted(stored: &[u8], new: &[u8]) -> Option<Vec<u8>> {
    let source = converted_source(stored)?;
    let new_lines = lines(new);
    if converted_source(new) != Some(source) {
        return None;
    }
    // The stored copy's converted lines, and each status line with how many
    // converted lines came before it.
    let mut kept: Vec<&[u8]> = Vec::new();
    let mut statuses: Vec<(usize, &[u8])> = Vec::new();
    for line in lines(stored) {
        if field(line, "type").as_deref() == Some("status") {
            statuses.push((kept.len(), line));
        } else {
            kept.push(line);
        }
    }
    let mut out: Vec<&[u8]> = Vec::with_capacity(new_lines.len() + statuses.len());
    if new_lines.starts_with(&kept) {
        let mut pending = statuses.iter().peekable();
        for (i, line) in new_lines.iter().enumerate() {
            while let Some((_, status)) = pending.next_if(|(after, _)| *after <= i) {
                out.push(status);
            }
            out.push(line);
        }
        out.extend(pending.map(|(_, status)| *status));
    } else if field(kept.first()?, "id") == field(new_lines.first()?, "id") && messages(&new_lines) >= messages(&kept) {
        out.extend(&new_lines);
        out.extend(statuses.iter().map(|(_, status)| *status));
    } else {
        return None;
    }
    let mut bytes = Vec::with_capacity(new.len() + statuses.iter().map(|(_, s)| s.len() + 1).sum::<usize>());
    for line in out {
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
    }
    Some(bytes)
}

/// The agent named by the header of a converted session.
fn converted_source(content: &[u8]) -> Option<String> {
    let header = *lines(content).first()?;
    let source = field(header, "source")?;
    (field(header, "type").as_deref() == Some("session")).then_some(source)
}

/// The whole lines of `content` (without their `\n`), blank ones left out;
/// a last line without its newline is left out too (a torn append).
fn lines(content: &[u8]) -> Vec<&[u8]> {
    complete(content).0.split(|&b| b == b'\n').filter(|l| !l.iter().all(u8::is_ascii_whitespace)).collect()
}

/// `content` split after its last newline: its whole lines, and what a torn
/// append left after them.
fn complete(content: &[u8]) -> (&[u8], &[u8]) {
    let end = content.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    content.split_at_checked(end).unwrap_or((content, &[]))
}

/// A string field of a JSON line.
fn field(line: &[u8], key: &str) -> Option<String> {
    let value: Value = serde_json::from_slice(line).ok()?;
    value.get(key)?.as_str().map(str::to_string)
}

/// How many message lines there are.
fn messages(lines: &[&[u8]]) -> usize {
    lines.iter().filter(|l| field(l, "type").as_deref() == Some("message")).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str =
        r#"{"type":"session","v":1,"id":"s1","title":"T","created_at":"2026-11-01T09:00:00Z","source":"claude-code"}"#;
    const PIN: &str = r#"{"type":"status","status":"pinned","ts":"2026-11-02T00:00:00Z"}"#;

    fn msg(text: &str) -> String {
        format!(r#"{{"type":"message","role":"user","text":"{text}"}}"#)
    }
    fn tool(extra: &str) -> String {
        format!(r#"{{"type":"tool","name":"Bash","files":[]{extra}}}"#)
    }
    fn conv(stored: &[u8], new: &[u8]) -> Merge {
        merge(stored, new, Incoming::Conversion)
    }
    fn file(lines: &[&str]) -> Vec<u8> {
        lines.iter().flat_map(|l| format!("{l}\n").into_bytes()).collect()
    }

    #[test]
    fn status_lines_stay_after_the_line_they_followed_and_new_lines_are_appended() {
        let (a, b, c) = (msg("a"), msg("b"), msg("c"));
        let stored = file(&[HEADER, &a, PIN]);
        let merged = conv(&stored, &file(&[HEADER, &a, &b, &c]));
        assert_eq!(merged, Merge::Append { complete: stored.len(), tail: file(&[&b, &c]) });
        assert_eq!(
            conv(&stored, &file(&[HEADER, &a])),
            Merge::Unchanged,
            "an unchanged transcript of a pinned session"
        );
    }

    #[test]
    fn a_status_in_the_middle_is_put_back_in_the_middle() {
        let (a, b, c) = (msg("a"), msg("b"), msg("c"));
        // A stored copy whose status sits between converted lines, as after an
        // earlier extension, but whose tail changed shape: rewritten in place.
        let stored = file(&[HEADER, &a, PIN, &b, &tool("")]);
        let new = file(&[HEADER, &a, &b, &tool(r#","command":"ls""#), &c]);
        let Merge::Rewrite { bytes } = conv(&stored, &new) else { panic!("not a rewrite") };
        assert_eq!(
            bytes,
            file(&[HEADER, &a, &b, &tool(r#","command":"ls""#), &c, PIN]),
            "reconverted: status at the end"
        );
        let stored = file(&[HEADER, &a, PIN, &b]);
        assert_eq!(
            conv(&stored, &file(&[HEADER, &a, &b, &c])),
            Merge::Append { complete: stored.len(), tail: file(&[&c]) }
        );
    }

    #[test]
    fn an_improved_converter_replaces_the_copy_but_a_shrunk_transcript_conflicts() {
        let (a, b) = (msg("a"), msg("b"));
        let stored = file(&[HEADER, &a, &tool(""), &b]);
        let new = file(&[HEADER, &a, &tool(r#","command":"cargo test""#), &b]);
        assert_eq!(conv(&stored, &new), Merge::Rewrite { bytes: new.clone() });
        assert_eq!(conv(&stored, &file(&[HEADER, &a, &tool(r#","command":"x""#)])), Merge::Conflict);
        let other = HEADER.replace("\"s1\"", "\"s2\"");
        assert_eq!(conv(&stored, &file(&[&other, &a, &tool("x"), &b])), Merge::Conflict);
    }

    #[test]
    fn the_users_own_sessions_still_conflict() {
        let v1 = HEADER.replace(r#","source":"claude-code""#, "");
        let (a, b) = (msg("a"), msg("b"));
        assert_eq!(conv(&file(&[&v1, &a, PIN]), &file(&[&v1, &a, &b])), Merge::Conflict);
        assert_eq!(conv(&file(&[&v1, &a]), &file(&[&v1, &b, &a])), Merge::Conflict);
        // A v1 file claiming to replace a converted copy is no conversion.
        assert_eq!(conv(&file(&[HEADER, &a, PIN]), &file(&[&v1, &a, &b])), Merge::Conflict);
        // Nor is a file shaped like one but imported as the user's own.
        let stored = file(&[HEADER, &a, &tool(""), &b]);
        let new = file(&[HEADER, &a, &tool(r#","command":"cargo test""#), &b]);
        assert_eq!(merge(&stored, &new, Incoming::File), Merge::Conflict);
        assert_eq!(
            merge(&stored, &file(&[HEADER, &a, &tool(""), &b, &a]), Incoming::File),
            Merge::Append { complete: stored.len(), tail: file(&[&a]) }
        );
    }

    #[test]
    fn every_agent_whose_conversion_is_imported_again_is_reconciled() {
        // Not a list of agents: whatever source converted the copy.
        let gemini = HEADER.replace("claude-code", "gemini-cli");
        let (a, b) = (msg("a"), msg("b"));
        let stored = file(&[&gemini, &a, &tool(""), PIN]);
        let new = file(&[&gemini, &a, &tool(r#","command":"ls""#), &b]);
        assert_eq!(
            conv(&stored, &new),
            Merge::Rewrite { bytes: file(&[&gemini, &a, &tool(r#","command":"ls""#), &b, PIN]) }
        );
    }

    #[test]
    fn a_torn_stored_line_is_cut_back_and_written_whole() {
        let (a, b) = (msg("a"), msg("b"));
        let mut stored = file(&[HEADER, &a]);
        let complete = stored.len();
        stored.extend_from_slice(&b.as_bytes()[..5]);
        assert_eq!(conv(&stored, &file(&[HEADER, &a, &b])), Merge::Append { complete, tail: file(&[&b]) });
        let mut pinned = file(&[HEADER, &a, PIN]);
        let complete = pinned.len();
        pinned.extend_from_slice(&b.as_bytes()[..5]);
        assert_eq!(conv(&pinned, &file(&[HEADER, &a, &b])), Merge::Append { complete, tail: file(&[&b]) });
    }
}
