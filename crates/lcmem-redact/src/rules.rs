//! Named token shapes: vendor prefixes with a known alphabet and length.
//!
//! Each shape is found by its literal prefix (the prefilter's anchors), then
//! matched greedily and checked in code: exact lengths, word boundaries, and
//! the documentation bodies (`…EXAMPLE`, `xxxx`) that must stay as they are.

use std::ops::Range;

use crate::value::is_fake_body;

/// One vendor token shape.
pub(crate) struct Shape {
    pub kind: &'static str,
    /// Literals, matched ASCII-case-insensitively, that must occur in a line
    /// before the pattern is run on it.
    pub anchors: &'static [&'static str],
    /// Matched greedily; a named group `t` narrows what is redacted.
    pub pattern: &'static str,
    /// Given the full text, the whole match and the `t` range, returns the
    /// range to redact, or `None` to leave the text alone.
    pub check: fn(&str, Range<usize>, Range<usize>) -> Option<Range<usize>>,
}

fn prev_byte(text: &str, pos: usize) -> Option<u8> {
    pos.checked_sub(1).map(|p| text.as_bytes()[p])
}

fn next_byte(text: &str, pos: usize) -> Option<u8> {
    text.as_bytes().get(pos).copied()
}

/// True when the token does not continue a longer word to its left.
fn left_free(text: &str, start: usize) -> bool {
    !prev_byte(text, start).is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// The common check: boundary on the left, body length in `len`, and a body
/// that is not a documentation placeholder.
fn body<'t>(
    text: &'t str,
    m: &Range<usize>,
    skip: usize,
    len: std::ops::RangeInclusive<usize>,
) -> Option<&'t str> {
    let body = text.get(m.start + skip..m.end)?;
    (left_free(text, m.start) && len.contains(&body.len()) && !is_fake_body(body)).then_some(body)
}

fn has_digit(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_digit())
}

fn has_upper(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_uppercase())
}

fn has_lower(s: &str) -> bool {
    s.bytes().any(|b| b.is_ascii_lowercase())
}

fn whole(m: Range<usize>, ok: bool) -> Option<Range<usize>> {
    ok.then_some(m)
}

/// Hugging Face tokens are random letters; identifiers such as
/// `hf_requiredCharacteristicTypes…` are mostly lowercase camel case.
fn random_case(s: &str) -> bool {
    let upper = s.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = s.bytes().filter(u8::is_ascii_lowercase).count();
    let letters = upper + lower;
    letters > 0 && upper * 4 >= letters && lower * 4 >= letters
}

/// The line around `pos`, for shapes that need a word of context.
fn line_at(text: &str, pos: usize) -> &str {
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    &text[start..end]
}

pub(crate) static SHAPES: &[Shape] = &[
    Shape {
        kind: "github-token",
        anchors: &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"],
        pattern: r"gh[pousr]_[A-Za-z0-9]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 4, 36..=255).is_some()),
    },
    Shape {
        kind: "github-token",
        anchors: &["github_pat_"],
        pattern: r"github_pat_[A-Za-z0-9_]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 11, 22..=255).is_some()),
    },
    Shape {
        kind: "anthropic-key",
        anchors: &["sk-ant-"],
        pattern: r"sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_\-]+",
        check: |t, m, _| {
            let skip = t[m.clone()].match_indices('-').nth(2)?.0 + 1;
            whole(m.clone(), body(t, &m, skip, 20..=400).is_some())
        },
    },
    Shape {
        kind: "openai-key",
        anchors: &["sk-"],
        pattern: r"sk-[A-Za-z0-9_\-]+",
        check: |t, m, _| {
            let s = &t[m.clone()];
            if s.starts_with("sk-ant-") {
                return None;
            }
            let skip = ["sk-proj-", "sk-svcacct-", "sk-admin-", "sk-None-"]
                .iter()
                .find(|p| s.starts_with(*p))
                .map_or(3, |p| p.len());
            let b = body(t, &m, skip, 20..=400)?;
            let hex = b.len() >= 32 && b.bytes().all(|c| c.is_ascii_hexdigit());
            whole(m, hex || (has_digit(b) && has_upper(b) && has_lower(b)))
        },
    },
    Shape {
        kind: "stripe-key",
        anchors: &["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
        pattern: r"[sr]k_(?:live|test)_[A-Za-z0-9]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 8, 16..=255).is_some()),
    },
    Shape {
        kind: "stripe-webhook-secret",
        anchors: &["whsec_"],
        pattern: r"whsec_[A-Za-z0-9+/=]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 6, 24..=255).is_some()),
    },
    Shape {
        kind: "aws-access-key-id",
        anchors: &["akia", "asia", "abia", "acca", "a3t"],
        pattern: r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]+",
        check: |t, m, _| {
            let b = body(t, &m, 4, 16..=16)?;
            let base32 = b.bytes().all(|c| c.is_ascii_uppercase() || (b'2'..=b'7').contains(&c));
            let dna = b.bytes().all(|c| b"ACGTN".contains(&c));
            let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric());
            whole(m, base32 && !dna && right)
        },
    },
    Shape {
        kind: "google-api-key",
        anchors: &["aiza"],
        pattern: r"AIza[A-Za-z0-9_\-]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 4, 35..=35).is_some()),
    },
    Shape {
        kind: "slack-token",
        anchors: &["xox"],
        pattern: r"xox[abposre]-[A-Za-z0-9\-]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 5, 20..=400).is_some_and(has_digit)),
    },
    Shape {
        kind: "slack-token",
        anchors: &["xapp-"],
        pattern: r"xapp-[0-9]-[A-Za-z0-9\-]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 7, 20..=400).is_some()),
    },
    Shape {
        kind: "slack-webhook",
        anchors: &["hooks.slack.com"],
        pattern: r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<t>[A-Za-z0-9+/_\-]+)",
        check: |t, _, s| {
            let p = &t[s.clone()];
            (p.len() >= 20 && !is_fake_body(p)).then_some(s)
        },
    },
    Shape {
        kind: "gitlab-token",
        anchors: &[
            "glpat-", "gldt-", "glptt-", "glrt-", "gloas-", "glcbt-", "glimt-", "glft-", "glsoat-",
            "glagent-", "glffct-",
        ],
        pattern: r"gl(?:pat|dt|ptt|rt|rtr|oas|cbt|imt|ft|soat|agent|ffct)-[A-Za-z0-9_\-.]+",
        check: |t, m, _| {
            let end = m.start + t[m.clone()].trim_end_matches('.').len();
            let m = m.start..end;
            let skip = t[m.clone()].find('-')? + 1;
            whole(m.clone(), body(t, &m, skip, 20..=400).is_some())
        },
    },
    Shape {
        kind: "npm-token",
        anchors: &["npm_"],
        pattern: r"npm_[A-Za-z0-9]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 4, 36..=36).is_some()),
    },
    Shape {
        kind: "pypi-token",
        anchors: &["pypi-ageic"],
        pattern: r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 19, 50..=4096).is_some()),
    },
    Shape {
        kind: "huggingface-token",
        anchors: &["hf_", "api_org_"],
        pattern: r"(?:hf|api_org)_[A-Za-z0-9]+",
        check: |t, m, _| {
            let skip = t[m.clone()].rfind('_')? + 1;
            let b = body(t, &m, skip, 30..=40)?;
            let right = next_byte(t, m.end) != Some(b'_');
            whole(m, right && random_case(b))
        },
    },
    Shape {
        kind: "sendgrid-key",
        anchors: &["sg."],
        pattern: r"SG\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+",
        check: |t, m, _| {
            let (a, b) = t[m.start + 3..m.end].split_once('.')?;
            let ok = left_free(t, m.start)
                && (16..=32).contains(&a.len())
                && (30..=64).contains(&b.len())
                && !is_fake_body(b);
            whole(m, ok)
        },
    },
    Shape {
        kind: "twilio-key",
        anchors: &["twilio", "sid", "secret", "token", "client("],
        pattern: r"SK[0-9a-fA-F]+",
        check: |t, m, _| {
            let b = body(t, &m, 2, 32..=32)?;
            let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric());
            whole(m, right && has_digit(b) && b.bytes().any(|c| c.is_ascii_alphabetic()))
        },
    },
    Shape {
        kind: "twilio-sid",
        anchors: &["twilio", "sid"],
        pattern: r"AC[0-9a-f]+",
        check: |t, m, _| {
            let b = body(t, &m, 2, 32..=32)?;
            let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric());
            let line = line_at(t, m.start).to_ascii_lowercase();
            let ctx = line.contains("twilio") || line.contains("sid");
            whole(m, right && ctx && has_digit(b))
        },
    },
    Shape {
        kind: "shopify-token",
        anchors: &["shpat_", "shpss_", "shpca_", "shppa_"],
        pattern: r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 6, 32..=32).is_some()),
    },
    Shape {
        kind: "digitalocean-token",
        anchors: &["dop_v1_", "doo_v1_", "dor_v1_"],
        pattern: r"do[por]_v1_[a-f0-9]+",
        check: |t, m, _| whole(m.clone(), body(t, &m, 7, 64..=64).is_some()),
    },
    Shape {
        kind: "discord-token",
        anchors: &["discord", "token", ".run("],
        pattern: r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,40}",
        check: |t, m, _| {
            let s = &t[m.clone()];
            let right = !next_byte(t, m.end)
                .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
            let ok = left_free(t, m.start) && right && has_digit(s) && has_upper(s);
            whole(m, ok && has_lower(s) && !is_fake_body(s))
        },
    },
    Shape {
        kind: "discord-webhook",
        anchors: &["discord"],
        pattern: r"discord(?:app)?\.com/api/webhooks/[0-9]+/(?P<t>[A-Za-z0-9_\-]+)",
        check: |t, _, s| (s.len() >= 60 && !is_fake_body(&t[s.clone()])).then_some(s),
    },
    Shape {
        kind: "telegram-bot-token",
        anchors: &[":aa"],
        pattern: r"[0-9]+:AA[A-Za-z0-9_\-]+",
        check: |t, m, _| {
            let (digits, rest) = t[m.clone()].split_once(':')?;
            let ok = (5..=16).contains(&digits.len()) && rest.len() == 35 && !is_fake_body(rest);
            whole(m, ok)
        },
    },
    Shape {
        kind: "jwt",
        anchors: &["eyj"],
        pattern: r"eyJ[A-Za-z0-9_\-]+\.ey[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*=*",
        check: |t, m, _| {
            let mut parts = t[m.clone()].split('.');
            let (h, p) = (parts.next()?, parts.next()?);
            let left = !prev_byte(t, m.start)
                .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'+' | b'/'));
            whole(m, left && h.len() >= 10 && p.len() >= 10)
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shape_compiles_and_anchors_its_prefix() {
        for s in SHAPES {
            regex::Regex::new(s.pattern).unwrap();
            assert!(!s.anchors.is_empty(), "{} has no anchor", s.kind);
        }
    }
}
