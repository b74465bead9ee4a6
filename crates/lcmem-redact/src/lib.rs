//! Secret redaction for text on its way into project memory.
//!
//! Memory is plain JSONL and Markdown that people read, grep and commit, so a
//! secret must be gone before anything reaches disk. The redactor recognises
//! named shapes only (vendor token prefixes, PEM blocks, JWTs, credentials in
//! URLs, headers and `key = value` assignments) and never guesses from
//! "looks random": a git SHA, a digest, a UUID or an integrity hash is a true
//! fact, and corrupting a fact is worse than missing an exotic token. Context
//! decides the hard cases: a hex value under `client_secret` is a secret, the
//! same hex under `checksum` is not.
//!
//! Every redacted value becomes a typed marker such as
//! `[REDACTED:github-token]`; the key, user name, host and surrounding text
//! stay. Redaction is idempotent and never panics.

#![forbid(unsafe_code)]

mod aws;
mod candidate;
mod context;
mod fold;
mod pem;
mod placeholder;
mod rules;
mod scan;
mod value;
mod web;

use std::borrow::Cow;
use std::ops::Range;

/// One secret found in a text: what it is and the bytes it occupies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The marker kind, e.g. `github-token`, `password`, `private-key`.
    pub kind: &'static str,
    /// Byte range of the secret value in the scanned text.
    pub range: Range<usize>,
}

/// Every secret in `text`, non-overlapping and sorted by position.
///
/// This is one scan of `text` as given; [`redact`] may rescan its own output
/// (see there) and so can remove slightly more in contrived inputs.
///
/// Callers that only need the clean text use [`redact`]; this is for callers
/// that want to report what was removed (kinds and positions, never values).
pub fn find_secrets(text: &str) -> Vec<Finding> {
    found(text).findings
}

/// One scan of `text` read with its disguises folded away (invisible
/// characters, full-width forms; see `fold`), its findings placed on `text`.
fn found(text: &str) -> scan::Scan {
    match fold::fold(text) {
        None => scan::find(text),
        Some(folded) => {
            let mut scan = scan::find(&folded.text);
            scan.findings = folded.map(scan.findings);
            scan
        }
    }
}

/// Replaces every recognised secret in `text` with a typed marker such as
/// `[REDACTED:github-token]`. Text without secrets is returned borrowed.
///
/// Redaction is idempotent: `redact(redact(x)) == redact(x)`. A replacement
/// can change how its neighbourhood reads (a token run that continued into a
/// key block now ends at the marker), so the lines around each marker are
/// checked again, and in that rare case the whole output is rescanned until
/// nothing changes.
pub fn redact(text: &str) -> Cow<'_, str> {
    let first = found(text);
    if first.findings.is_empty() {
        return Cow::Borrowed(text);
    }
    let (mut out, markers) = apply(text, &first.findings);
    if first.dormant_pem || !settled(&out, &markers) {
        for _ in 0..MAX_ROUNDS {
            let again = found(&out).findings;
            if again.is_empty() {
                break;
            }
            let (next, _) = apply(&out, &again);
            if next == out {
                break;
            }
            out = next;
        }
    }
    Cow::Owned(out)
}

/// Upper bound on rescans; real text settles in none or one.
const MAX_ROUNDS: usize = 8;

/// Writes the markers; returns the text and where each marker starts.
fn apply(text: &str, findings: &[Finding]) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut markers = Vec::with_capacity(findings.len());
    let mut last = 0;
    for f in findings {
        out.push_str(&text[last..f.range.start]);
        markers.push(out.len());
        out.push_str("[REDACTED:");
        out.push_str(f.kind);
        out.push(']');
        last = f.range.end;
    }
    out.push_str(&text[last..]);
    (out, markers)
}

/// Whether the logical lines holding markers scan clean. Every rule but the
/// private key block reads only its logical line, so text elsewhere is as
/// the first scan left it, except the line after a marker: a replaced block
/// may have ended in a backslash that joined that line to it.
fn settled(out: &str, markers: &[usize]) -> bool {
    let mut checked_to = 0;
    for &m in markers {
        let next = out[m..].find('\n').map(|i| m + i + 1).filter(|&n| n < out.len());
        for pos in [Some(m), next].into_iter().flatten() {
            if pos < checked_to {
                continue;
            }
            let line = scan::logical_line(out, pos);
            checked_to = line.end.max(pos + 1);
            if !found(&out[line]).findings.is_empty() {
                return false;
            }
        }
    }
    true
}
