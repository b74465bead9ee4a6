//! Orders hidden by encoding: base64 blobs and reversed text.
//!
//! An instruction does not have to be legible to a person to work on a
//! model, which decodes base64 and reads backwards text without being asked.
//! Decoding is cheap, so blobs that decode to readable text are judged like
//! any other text, and text with reversed trigger words is judged reversed.

use std::sync::LazyLock;

use regex::Regex;

/// Base64 runs long enough to carry a sentence.
static BLOB: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"[A-Za-z0-9+/_-]{16,}={0,2}").expect("blob regex"));

/// Reversed spellings of words that carry most overrides.
static REVERSED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)\b(snoitcurtsni|erongi|dragersid|tegrof|tpmorp|terces|drowssap|nekot)\b").expect("reversed regex")
});

/// Texts hidden in `text` that deserve a verdict of their own, with the
/// label to record when they turn out to be instructions.
pub(crate) fn hidden_texts(text: &str) -> Vec<(&'static str, String)> {
    let mut found = Vec::new();
    for m in BLOB.find_iter(text).take(8) {
        if let Some(decoded) = decode_base64(m.as_str()).filter(|d| looks_like_prose(d)) {
            found.push(("encoded:base64", decoded));
        }
    }
    if REVERSED.is_match(text) {
        found.push(("reversed-text", text.chars().rev().collect()));
    }
    found
}

/// Decoded bytes count as prose when they are UTF-8, have no control
/// characters besides whitespace, and contain at least two words.
fn looks_like_prose(text: &str) -> bool {
    !text.chars().any(|c| c.is_control() && !c.is_whitespace())
        && text.split_whitespace().filter(|w| w.chars().any(char::is_alphabetic)).count() >= 2
}

/// Standard or URL-safe base64, padding optional; `None` if malformed or
/// not UTF-8.
fn decode_base64(blob: &str) -> Option<String> {
    let body = blob.trim_end_matches('=');
    if body.len() % 4 == 1 {
        return None;
    }
    let mut bits: u32 = 0;
    let mut nbits = 0;
    let mut out = Vec::with_capacity(body.len() * 3 / 4);
    for b in body.bytes() {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        };
        bits = (bits << 6) | u32::from(v);
        nbits += 6;
        if nbits >= 8 {
            nbits -= 8;
            out.push((bits >> nbits) as u8);
            bits &= (1 << nbits) - 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_padded_and_unpadded_base64() {
        assert_eq!(decode_base64("aGVsbG8gd29ybGQ=").as_deref(), Some("hello world"));
        assert_eq!(decode_base64("aGVsbG8gd29ybGQ").as_deref(), Some("hello world"));
        assert_eq!(decode_base64("a"), None);
    }

    #[test]
    fn binary_blobs_are_not_prose() {
        // The start of a PNG file.
        let png = decode_base64("iVBORw0KGgoAAAANSUhEUgAA");
        assert!(png.is_none_or(|p| !looks_like_prose(&p)));
    }
}
