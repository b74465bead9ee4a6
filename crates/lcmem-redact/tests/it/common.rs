//! Synthetic secrets for the tests: built from a seeded generator so no test
//! string is copied from a real token or from the shared corpus.

#![allow(dead_code)]

// Alphabets as ranges, expanded by `fake` (`A-Z` is a range, a lone `-` a dash).
pub const ALNUM: &str = "A-Za-z0-9";
pub const LETTERS: &str = "A-Za-z";
pub const HEX: &str = "0-9a-f";
pub const BASE32: &str = "A-Z2-7";
pub const URLSAFE: &str = "A-Za-z0-9-_";
pub const B64: &str = "A-Za-z0-9+/";
pub const DIGITS: &str = "0-9";

/// Expands `A-Z`-style ranges; other characters stand for themselves.
pub fn alphabet(spec: &str) -> Vec<char> {
    let c: Vec<char> = spec.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        if i + 2 < c.len() && c[i + 1] == '-' && c[i] < c[i + 2] {
            out.extend(c[i]..=c[i + 2]);
            i += 3;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

/// A PEM armour line, built at run time: `armour("BEGIN", "EC PRIVATE KEY")`.
pub fn armour(edge: &str, label: &str) -> String {
    format!("{d}{edge} {label}{d}", d = "-----")
}

/// `len` characters from `alphabet`, deterministic in `seed`.
pub fn fake(seed: u64, spec: &str, len: usize) -> String {
    let chars: String = alphabet(spec).into_iter().collect();
    lcmem_test_support::Rng::new(seed).string(&chars, len)
}

/// Unpadded base64url, as JWT segments use.
pub fn b64url(bytes: &[u8]) -> String {
    let table = alphabet(URLSAFE);
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(table[((n >> (18 - 6 * i)) & 63) as usize]);
        }
    }
    out
}

/// A three-part JWT over made-up claims.
pub fn jwt(seed: u64) -> String {
    let header = b64url(br#"{"kid":"unit-7","alg":"ES384","typ":"JWT"}"#);
    let claims = format!(r#"{{"sub":"tester-{seed}","scope":"memory:write","iat":1700000000}}"#);
    format!("{header}.{}.{}", b64url(claims.as_bytes()), fake(seed, URLSAFE, 86))
}

/// A PEM private key block with `lines` body lines of 64 base64 characters;
/// `label` is e.g. `"RSA "` or `""`.
pub fn pem(label: &str, seed: u64, lines: usize, end: bool) -> String {
    let kind = format!("{label}PRIVATE KEY");
    let mut s = armour("BEGIN", &kind);
    s.push('\n');
    for i in 0..lines {
        s.push_str(&fake(seed + i as u64, B64, 64));
        s.push('\n');
    }
    if end {
        s.push_str(&armour("END", &kind));
    }
    s
}

/// Asserts `secret` is gone from the redaction of `text` and the marker of
/// `kind` took its place; returns the redacted text.
#[track_caller]
pub fn assert_redacted(text: &str, secret: &str, kind: &str) -> String {
    assert!(text.contains(secret), "test bug: secret not in text");
    let out = lcmem_redact::redact(text).into_owned();
    assert!(!out.contains(secret), "secret survived:\n  in:  {text}\n  out: {out}");
    let marker = format!("[REDACTED:{kind}]");
    assert!(out.contains(&marker), "expected {marker}:\n  in:  {text}\n  out: {out}");
    assert_eq!(lcmem_redact::redact(&out), out, "not idempotent");
    out
}

/// Asserts `text` comes back byte-identical and borrowed.
#[track_caller]
pub fn assert_kept(text: &str) {
    let out = lcmem_redact::redact(text);
    assert_eq!(out, text, "changed a text that holds no secret");
    assert!(matches!(out, std::borrow::Cow::Borrowed(_)), "allocated for unchanged text");
}
