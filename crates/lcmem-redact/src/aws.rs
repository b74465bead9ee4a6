//! AWS secret access keys written in prose: "the key id is AKIA… and the
//! secret is …", "use secret access key … for prod", "AWS secret: …".
//!
//! A secret access key has no prefix of its own: it is 40 characters of
//! base64, which a hash or a blob can also be. So the value alone never
//! decides. It is redacted only when it stands on the same logical line as,
//! and within [`REACH`] bytes of, a cue that names AWS credentials: an access
//! key id (`AKIA…`, `ASIA…`) or the words "secret access key" / "aws secret"
//! in any case, with a space, an underscore or nothing between them. A
//! redaction marker is never a cue (its words are joined by dashes), so
//! redacting a line cannot make a hash beside it look like a secret.
//! A lone 40-character string, and any 40-character hex digest, stays.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::candidate::{Candidate, PRIO_AWS, captures};
use crate::placeholder::is_fake_body;

/// Anchors that call this rule: the key id prefixes and the cue words.
pub(crate) const ANCHORS: &[&str] = &[
    "akia",
    "asia",
    "abia",
    "acca",
    "a3t",
    "secret access",
    "secret_access",
    "secretaccess",
    "aws secret",
    "aws_secret",
    "awssecret",
];

/// How far, in bytes, a secret may stand from its cue on the line.
const REACH: usize = 160;

/// Length of an AWS secret access key.
const LEN: usize = 40;

static CUE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i:secret[ _]?access[ _]?key|aws[ _]?secret)|\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b")
        .unwrap()
});

/// A byte of the secret's alphabet.
fn b64(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'+' || c == b'/'
}

/// Runs of exactly [`LEN`] base64 characters that stand alone in the line:
/// not part of a longer word, path, URL, file name or padded blob.
fn runs(hay: &str) -> Vec<Range<usize>> {
    let b = hay.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b64(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && b64(b[i]) {
            i += 1;
        }
        if i - start != LEN {
            continue;
        }
        let before = start.checked_sub(1).map(|p| b[p]);
        let after = b.get(i).copied();
        let left = before.is_none_or(|c| c.is_ascii_whitespace() || b"\"'`([<{:=,".contains(&c));
        // `://` before a run starting with `/` is a URL, not a value.
        let url = before == Some(b':') && b[start] == b'/';
        // A full stop ends a sentence only when nothing follows it.
        let full_stop = after == Some(b'.') && b.get(i + 1).is_none_or(|c| c.is_ascii_whitespace());
        let right = after.is_none_or(|c| c.is_ascii_whitespace() || b"\"'`)]>},;:!?".contains(&c)) || full_stop;
        if left && right && !url {
            out.push(start..i);
        }
    }
    out
}

/// Shaped like an issued secret key: both cases and a digit or a symbol, as
/// 40 random base64 characters nearly always have. Hex digests (one case),
/// words and documentation bodies (`…EXAMPLEKEY`) are not.
fn secret_shaped(v: &str) -> bool {
    let b = v.as_bytes();
    let upper = b.iter().any(u8::is_ascii_uppercase);
    let lower = b.iter().any(u8::is_ascii_lowercase);
    let other = b.iter().any(|c| c.is_ascii_digit() || *c == b'+' || *c == b'/');
    upper && lower && other && !is_fake_body(v)
}

/// Byte distance between two disjoint ranges.
fn gap(a: &Range<usize>, b: &Range<usize>) -> usize {
    if a.end <= b.start { b.start - a.end } else { a.start - b.end }
}

/// 40-character secrets near an AWS cue on the logical line `win`.
pub(crate) fn prose_secrets(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let hay = &text[win.clone()];
    // Gate first: most lines that mention AWS hold no 40-character run.
    let runs = runs(hay);
    if runs.is_empty() {
        return;
    }
    let cues: Vec<Range<usize>> = captures(&CUE, hay).filter_map(|c| c.get(0)).map(|m| m.range()).collect();
    for run in runs {
        let apart = |c: &&Range<usize>| c.start >= run.end || c.end <= run.start;
        let near = cues.iter().filter(apart).any(|c| gap(c, &run) <= REACH);
        if near && secret_shaped(&hay[run.clone()]) {
            out.push(Candidate::new(win.start + run.start..win.start + run.end, "aws-secret-access-key", PRIO_AWS));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::redact;

    /// Made up for these tests: 40 base64 characters, a key id in base32.
    const SECRET: &str = "q7Vd2Lm9/RtX4bNc8Hs+0PwZk3Ej6Ua1Gy5Fo9Ti";
    const KEY_ID: &str = "AKIAW3RT6NQX2ZLM7VBD";
    const MARK: &str = "[REDACTED:aws-secret-access-key]";

    fn redacted(text: &str) -> String {
        let out = redact(text).into_owned();
        assert!(!out.contains(SECRET), "secret survived: {out}");
        assert!(out.contains(MARK), "no aws marker: {out}");
        assert_eq!(redact(&out), out, "not idempotent");
        out
    }

    fn kept(text: &str) {
        assert_eq!(redact(text), text);
    }

    #[test]
    fn secrets_beside_their_key_id_or_name() {
        let out = redacted(&format!("the key id is {KEY_ID} and the secret is {SECRET}"));
        assert_eq!(out, format!("the key id is [REDACTED:aws-access-key-id] and the secret is {MARK}"));
        redacted(&format!("use secret access key {SECRET} for the prod account"));
        redacted(&format!("AWS secret: {SECRET}"));
        redacted(&format!("the aws_secret_access_key is {SECRET}."));
        redacted(&format!("the SecretAccessKey ({SECRET}) was rotated"));
        redacted(&format!("creds: `{SECRET}` goes with ASIAQ4MT7RZK2NWX5LPB"));
        let hex = "9c1f3e5a7b2d4f608e1a3c5b7d9f0e2a4c6b8d0f";
        let out = redacted(&format!("aws secret {SECRET}, commit {hex}"));
        assert!(out.ends_with(hex), "the digest beside it changed: {out}");
    }

    #[test]
    fn forty_characters_without_aws_context_stay() {
        // The same value with no cue: it may be a hash or a blob.
        kept(&format!("the build cache id is {SECRET} for the prod account"));
        kept(&format!("the secret is {SECRET}"));
        // A 40-character hex digest next to a cue is still a digest.
        let hex = "9c1f3e5a7b2d4f608e1a3c5b7d9f0e2a4c6b8d0f";
        let out = redact(&format!("the key id is {KEY_ID} and commit {hex}")).into_owned();
        assert_eq!(out, format!("the key id is [REDACTED:aws-access-key-id] and commit {hex}"));
        kept(&format!("aws secret rotated in {hex}"));
        // Too far from its cue, part of a path, or a longer blob.
        kept(&format!("aws secret rotation is documented{}; see {SECRET}", " at length".repeat(20)));
        kept(&format!("aws secret at s3://bucket/{SECRET}/data.csv"));
        kept(&format!("aws secret in the bundle {SECRET}Qx9"));
        // A marker's words are joined by dashes: never a cue.
        kept(&format!("{MARK} was rotated, cache id {SECRET}"));
        // A documentation body stays, as it does under a key.
        kept("AWS secret: Lm9/RtX4bNc8Hs+0PwZk3Ej6Ua1GyEXAMPLEKEY2");
    }
}
