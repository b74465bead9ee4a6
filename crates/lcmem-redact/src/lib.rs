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

mod context;
mod pem;
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
/// Callers that only need the clean text use [`redact`]; this is for callers
/// that want to report what was removed (kinds and positions, never values).
pub fn find_secrets(text: &str) -> Vec<Finding> {
    scan::find(text)
}

/// Replaces every recognised secret in `text` with a typed marker such as
/// `[REDACTED:github-token]`. Text without secrets is returned borrowed.
pub fn redact(text: &str) -> Cow<'_, str> {
    let findings = find_secrets(text);
    if findings.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for f in &findings {
        out.push_str(&text[last..f.range.start]);
        out.push_str("[REDACTED:");
        out.push_str(f.kind);
        out.push(']');
        last = f.range.end;
    }
    out.push_str(&text[last..]);
    Cow::Owned(out)
}
