//! PEM and PGP private key blocks, which span lines.
//!
//! The whole block is redacted, armour included, so no line of key material
//! survives. A block cut off before its `-----END` line (a truncated paste, a
//! transcript that stops mid-key) is redacted through its last body line.
//! Public keys and certificates are not secrets and stay.

use std::sync::LazyLock;

use regex::Regex;

use crate::candidate::{Candidate, PRIO_PEM};
use crate::placeholder::is_fake_body;

static BEGIN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^-----BEGIN (?P<label>(?:[A-Z0-9]+ )*)PRIVATE KEY(?P<block> BLOCK)?-----").unwrap());

/// How far past `BEGIN` an `END` line may be and still close this block.
const MAX_BLOCK: usize = 64 * 1024;

/// A private key block starting exactly at `start`, if there is one.
pub(crate) fn block_at(text: &str, start: usize) -> Option<Candidate> {
    let caps = BEGIN.captures(&text[start..])?;
    let after = start + caps.get(0)?.end();
    let label = caps.name("label").map_or("", |m| m.as_str());
    let suffix = if caps.name("block").is_some() { " BLOCK" } else { "" };
    let end_marker = format!("-----END {label}PRIVATE KEY{suffix}-----");

    let mut limit = text.len().min(after + MAX_BLOCK);
    while !text.is_char_boundary(limit) {
        limit -= 1;
    }
    let region = &text[after..limit];
    let next_begin = region.find("-----BEGIN ").unwrap_or(region.len());
    if let Some(p) = region[..next_begin].find(&end_marker) {
        let body = &region[..p];
        if placeholder_body(body) {
            return None;
        }
        let end = after + p + end_marker.len();
        return Some(Candidate::new(start..end, "private-key", PRIO_PEM));
    }
    let end = truncated_end(text, after);
    // A bare BEGIN line in code (`starts_with("-----BEGIN …")`) holds no key
    // material; one at the very end of the input is a paste cut short.
    if end == after && after < text.len() {
        return None;
    }
    Some(Candidate::new(start..end, "private-key", PRIO_PEM))
}

/// `anything`, `...`, `<your key here>`: a body too short to be key material.
fn placeholder_body(body: &str) -> bool {
    let b64 = body
        .replace("\\n", "")
        .bytes()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
        .count();
    b64 < 24 || body.contains("...") || is_fake_body(body.trim())
}

fn is_body_line(line: &str) -> bool {
    let t = line.trim().trim_matches(|c| matches!(c, '"' | '\'' | ','));
    !t.is_empty() && t.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'=' | b'\\'))
}

fn is_header_line(line: &str) -> bool {
    let t = line.trim();
    ["Proc-Type:", "DEK-Info:", "Comment:", "Version:", "Hash:"].iter().any(|h| t.starts_with(h))
}

/// End of a block whose `END` line never came: the `BEGIN` line's escaped
/// remainder (`\nMIIE…` inside a JSON string), then every following line that
/// looks like armour headers or base64 body.
fn truncated_end(text: &str, after: usize) -> usize {
    let bytes = text.as_bytes();
    let mut end = after;
    while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || matches!(bytes[end], b'+' | b'/' | b'=' | b'\\'))
    {
        end += 1;
    }
    if end < bytes.len() && !matches!(bytes[end], b'\n' | b'\r') {
        return end;
    }
    let mut after_header = false;
    let mut cursor = end;
    loop {
        let mut p = cursor;
        if bytes.get(p) == Some(&b'\r') {
            p += 1;
        }
        if bytes.get(p) != Some(&b'\n') {
            break;
        }
        let line_start = p + 1;
        let line_end = text[line_start..].find('\n').map_or(text.len(), |i| line_start + i);
        let line = text[line_start..line_end].trim_end_matches('\r');
        if is_header_line(line) {
            after_header = true;
        } else if (line.trim().is_empty() && after_header) || is_body_line(line) {
            after_header = false;
        } else {
            break;
        }
        end = line_start + line.len();
        cursor = line_end;
    }
    end
}
