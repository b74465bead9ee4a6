//! Named token shapes: vendor prefixes with a known alphabet and length.
//!
//! Each shape is found by its literal prefix (the prefilter's anchors), then
//! matched greedily and checked in code: exact lengths, word boundaries, and
//! the documentation bodies (`…EXAMPLE`, `xxxx`) that must stay as they are.

use std::ops::Range;

use crate::placeholder::is_fake_body;
use crate::value::random_case;

/// Given the full text, the whole match and the `t` range, returns the range
/// to redact, or `None` to leave the text alone.
pub(crate) type Check = fn(&str, Range<usize>, Range<usize>) -> Option<Range<usize>>;

/// One vendor token shape.
pub(crate) struct Shape {
    pub kind: &'static str,
    /// Literals, matched ASCII-case-insensitively, that must occur in a line
    /// before the pattern is run on it.
    pub anchors: &'static [&'static str],
    /// Matched greedily; a named group `t` narrows what is redacted.
    pub pattern: &'static str,
    pub check: Check,
    /// An optional cheap test on the line before the pattern runs, for
    /// shapes whose pattern has no literal prefix to search for.
    pub gate: Option<fn(&str) -> bool>,
}

/// A shape with no gate.
const fn shape(kind: &'static str, anchors: &'static [&'static str], pattern: &'static str, check: Check) -> Shape {
    Shape { kind, anchors, pattern, check, gate: None }
}

/// The usual check, for patterns of a literal prefix of `SKIP` bytes and a
/// body of `MIN..=MAX` bytes: free on the left, and not a documentation body.
fn prefixed<const SKIP: usize, const MIN: usize, const MAX: usize>(
    t: &str,
    m: Range<usize>,
    _: Range<usize>,
) -> Option<Range<usize>> {
    body(t, &m, SKIP, MIN..=MAX).map(|_| m)
}

/// Like [`prefixed`], and the body must mix letters and digits as issued
/// tokens do (an identifier after the prefix does not).
fn random<const SKIP: usize, const MIN: usize, const MAX: usize>(
    t: &str,
    m: Range<usize>,
    _: Range<usize>,
) -> Option<Range<usize>> {
    let b = body(t, &m, SKIP, MIN..=MAX)?;
    (has_digit(b) && b.bytes().any(|c| c.is_ascii_alphabetic())).then_some(m)
}

/// Two dots six or seven token characters apart, as in a Discord token.
fn dotted_triplet(line: &str) -> bool {
    let b = line.as_bytes();
    line.match_indices('.').any(|(i, _)| b.get(i + 7) == Some(&b'.') || b.get(i + 8) == Some(&b'.'))
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
fn body<'t>(text: &'t str, m: &Range<usize>, skip: usize, len: std::ops::RangeInclusive<usize>) -> Option<&'t str> {
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

/// The line around `pos`, for shapes that need a word of context.
fn line_at(text: &str, pos: usize) -> &str {
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    &text[start..end]
}

pub(crate) static SHAPES: &[Shape] = &[
    shape("github-token", &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], r"gh[pousr]_[A-Za-z0-9]+", prefixed::<4, 36, 255>),
    shape("github-token", &["github_pat_"], r"github_pat_[A-Za-z0-9_]+", prefixed::<11, 22, 255>),
    shape("anthropic-key", &["sk-ant-"], r"sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_\-]+", |t, m, _| {
        let skip = t[m.clone()].match_indices('-').nth(2)?.0 + 1;
        whole(m.clone(), body(t, &m, skip, 20..=400).is_some())
    }),
    shape("openai-key", &["sk-"], r"sk-[A-Za-z0-9_\-]+", |t, m, _| {
        let s = &t[m.clone()];
        if s.starts_with("sk-ant-") {
            return None;
        }
        // `sk-proj-`, `sk-svcacct-`, `sk-or-v1-`: short lowercase segments
        // name the key type; the random body follows.
        let mut skip = 3;
        while let Some(seg) = s[skip..].split('-').next()
            && seg.len() <= 8
            && seg.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && s.len() > skip + seg.len() + 1
        {
            skip += seg.len() + 1;
        }
        let b = body(t, &m, skip, 20..=400)?;
        let hex = b.len() >= 32 && b.bytes().all(|c| c.is_ascii_hexdigit());
        whole(m, hex || (has_digit(b) && has_upper(b) && has_lower(b)))
    }),
    shape(
        "stripe-key",
        &["sk_live_", "sk_test_", "rk_live_", "rk_test_"],
        r"[sr]k_(?:live|test)_[A-Za-z0-9]+",
        prefixed::<8, 16, 255>,
    ),
    shape("stripe-webhook-secret", &["whsec_"], r"whsec_[A-Za-z0-9+/=]+", prefixed::<6, 24, 255>),
    shape(
        "aws-access-key-id",
        &["akia", "asia", "abia", "acca", "a3t"],
        r"(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z0-9]+",
        |t, m, _| {
            let b = body(t, &m, 4, 16..=16)?;
            let base32 = b.bytes().all(|c| c.is_ascii_uppercase() || (b'2'..=b'7').contains(&c));
            let dna = b.bytes().all(|c| b"ACGTN".contains(&c));
            let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric());
            whole(m, base32 && !dna && right)
        },
    ),
    shape("google-api-key", &["aiza"], r"AIza[A-Za-z0-9_\-]+", prefixed::<4, 35, 35>),
    shape("google-oauth-secret", &["gocspx-"], r"GOCSPX-[A-Za-z0-9_\-]+", prefixed::<7, 28, 28>),
    shape("google-oauth-token", &["ya29."], r"ya29\.[A-Za-z0-9_\-]+", random::<5, 30, 4096>),
    shape("slack-token", &["xox"], r"xox[abposre]-[A-Za-z0-9\-]+", random::<5, 20, 400>),
    shape("slack-token", &["xapp-"], r"xapp-[0-9]-[A-Za-z0-9\-]+", prefixed::<7, 20, 400>),
    shape(
        "slack-webhook",
        &["hooks.slack.com"],
        r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<t>[A-Za-z0-9+/_\-]+)",
        |t, _, s| (s.len() >= 20 && !is_fake_body(&t[s.clone()])).then_some(s),
    ),
    shape(
        "gitlab-token",
        &[
            "glpat-", "gldt-", "glptt-", "glrt-", "gloas-", "glcbt-", "glimt-", "glft-", "glsoat-", "glagent-",
            "glffct-",
        ],
        r"gl(?:pat|dt|ptt|rt|rtr|oas|cbt|imt|ft|soat|agent|ffct)-[A-Za-z0-9_\-.]+",
        |t, m, _| {
            let m = m.start..m.start + t[m.clone()].trim_end_matches('.').len();
            let skip = t[m.clone()].find('-')? + 1;
            whole(m.clone(), body(t, &m, skip, 20..=400).is_some())
        },
    ),
    shape("gitlab-token", &["gr1348941"], r"GR1348941[A-Za-z0-9_\-]+", prefixed::<9, 20, 64>),
    shape("npm-token", &["npm_"], r"npm_[A-Za-z0-9]+", prefixed::<4, 36, 36>),
    shape("pypi-token", &["pypi-ageic"], r"pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_\-]+", prefixed::<19, 50, 4096>),
    shape("huggingface-token", &["hf_", "api_org_"], r"(?:hf|api_org)_[A-Za-z0-9]+", |t, m, _| {
        let skip = t[m.clone()].rfind('_')? + 1;
        let b = body(t, &m, skip, 30..=40)?;
        whole(m.clone(), next_byte(t, m.end) != Some(b'_') && random_case(b))
    }),
    shape("sendgrid-key", &["sg."], r"SG\.[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+", |t, m, _| {
        let (a, b) = t[m.start + 3..m.end].split_once('.')?;
        let ok = left_free(t, m.start) && (16..=32).contains(&a.len()) && (30..=64).contains(&b.len());
        whole(m, ok && !is_fake_body(b))
    }),
    shape("twilio-key", &["twilio", "sid", "secret", "token", "client("], r"SK[0-9a-fA-F]+", |t, m, _| {
        let b = body(t, &m, 2, 32..=32)?;
        let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric());
        whole(m, right && has_digit(b) && b.bytes().any(|c| c.is_ascii_alphabetic()))
    }),
    shape("twilio-sid", &["twilio", "sid"], r"AC[0-9a-f]+", |t, m, _| {
        let b = body(t, &m, 2, 32..=32)?;
        let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric());
        let line = line_at(t, m.start).to_ascii_lowercase();
        whole(m, right && (line.contains("twilio") || line.contains("sid")) && has_digit(b))
    }),
    shape(
        "shopify-token",
        &["shpat_", "shpss_", "shpca_", "shppa_"],
        r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]+",
        prefixed::<6, 32, 32>,
    ),
    shape("digitalocean-token", &["dop_v1_", "doo_v1_", "dor_v1_"], r"do[por]_v1_[a-f0-9]+", prefixed::<7, 64, 64>),
    Shape {
        kind: "discord-token",
        anchors: &["discord", "token", ".run("],
        pattern: r"[MNO][A-Za-z0-9_\-]{23,27}\.[A-Za-z0-9_\-]{6,7}\.[A-Za-z0-9_\-]{27,40}",
        check: |t, m, _| {
            let s = &t[m.clone()];
            let right =
                !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
            let ok = left_free(t, m.start) && right && has_digit(s) && has_upper(s);
            whole(m, ok && has_lower(s) && !is_fake_body(s))
        },
        gate: Some(dotted_triplet),
    },
    shape(
        "discord-webhook",
        &["discord"],
        r"discord(?:app)?\.com/api/webhooks/[0-9]+/(?P<t>[A-Za-z0-9_\-]+)",
        |t, _, s| (s.len() >= 60 && !is_fake_body(&t[s.clone()])).then_some(s),
    ),
    shape("telegram-bot-token", &[":aa"], r"[0-9]+:AA[A-Za-z0-9_\-]+", |t, m, _| {
        let (digits, rest) = t[m.clone()].split_once(':')?;
        whole(m, (5..=16).contains(&digits.len()) && rest.len() == 35 && !is_fake_body(rest))
    }),
    shape("jwt", &["eyj"], r"eyJ[A-Za-z0-9_\-]+\.ey[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]*=*", |t, m, _| {
        let mut parts = t[m.clone()].split('.');
        let (h, p) = (parts.next()?, parts.next()?);
        let left = !prev_byte(t, m.start).is_some_and(|b| b.is_ascii_alphanumeric() || b"_-+/".contains(&b));
        whole(m, left && h.len() >= 10 && p.len() >= 10)
    }),
    shape("vault-token", &["hvs.", "hvb.", "hvr."], r"hv[sbr]\.[A-Za-z0-9_\-]+", random::<4, 24, 400>),
    shape("atlassian-token", &["atatt3"], r"ATATT3[A-Za-z0-9_\-=]+", prefixed::<6, 100, 400>),
    shape("linear-key", &["lin_api_"], r"lin_api_[A-Za-z0-9]+", prefixed::<8, 40, 40>),
    shape("notion-token", &["secret_"], r"secret_[A-Za-z0-9]+", |t, m, _| {
        let b = body(t, &m, 7, 43..=43)?;
        whole(m, has_digit(b) && has_upper(b) && has_lower(b))
    }),
    shape("notion-token", &["ntn_"], r"ntn_[A-Za-z0-9]+", random::<4, 46, 46>),
    shape("postman-key", &["pmak-"], r"PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]+", prefixed::<30, 34, 34>),
    shape("grafana-token", &["glsa_"], r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]+", prefixed::<38, 8, 8>),
    shape("grafana-token", &["glc_"], r"glc_[A-Za-z0-9+/]+=*", random::<4, 32, 400>),
    shape(
        "doppler-token",
        &["dp.pt.", "dp.st.", "dp.sa.", "dp.ct."],
        r"dp\.(?:pt|st|sa|ct)\.[A-Za-z0-9]+",
        random::<6, 40, 44>,
    ),
    shape("newrelic-key", &["nrak-"], r"NRAK-[A-Z0-9]+", prefixed::<5, 27, 27>),
    shape("pulumi-token", &["pul-"], r"pul-[a-f0-9]+", prefixed::<4, 40, 40>),
    shape("databricks-token", &["dapi"], r"dapi[a-f0-9]+", |t, m, _| {
        let b = body(t, &m, 4, 32..=32)?;
        let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
        whole(m, right && has_digit(b) && b.bytes().any(|c| c.is_ascii_alphabetic()))
    }),
    shape("age-secret-key", &["age-secret-key-1"], r"AGE-SECRET-KEY-1[02-9AC-HJ-NP-Z]+", prefixed::<16, 58, 58>),
    shape("sentry-token", &["sntrys_", "sntryu_"], r"sntry[us]_[A-Za-z0-9_=+/]+", prefixed::<7, 40, 400>),
    shape("supabase-token", &["sbp_"], r"sbp_[a-f0-9]+", prefixed::<4, 40, 40>),
    shape("groq-key", &["gsk_"], r"gsk_[A-Za-z0-9]+", random::<4, 52, 52>),
    shape("replicate-token", &["r8_"], r"r8_[A-Za-z0-9]+", random::<3, 37, 40>),
    shape("perplexity-key", &["pplx-"], r"pplx-[A-Za-z0-9]+", random::<5, 48, 56>),
    shape("xai-key", &["xai-"], r"xai-[A-Za-z0-9]+", random::<4, 70, 90>),
    shape("heroku-key", &["hrku-"], r"HRKU-[A-Za-z0-9_\-]+", prefixed::<5, 30, 100>),
    shape("square-token", &["sq0atp-", "sq0csp-"], r"sq0(?:atp|csp)-[A-Za-z0-9_\-]+", prefixed::<7, 22, 60>),
    shape("bitbucket-token", &["atbb"], r"ATBB[A-Za-z0-9_\-=]+", random::<4, 28, 120>),
    shape("fly-token", &["fo1_"], r"fo1_[A-Za-z0-9_\-]+", random::<4, 40, 120>),
    shape("fly-token", &["flyv1 fm"], r"FlyV1 fm[12]_[A-Za-z0-9_\-+/=,]+", prefixed::<10, 40, 4096>),
    shape("mailgun-key", &["key-"], r"key-[0-9a-f]+", |t, m, _| {
        let b = body(t, &m, 4, 32..=32)?;
        let right = !next_byte(t, m.end).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_');
        whole(m, right && has_digit(b) && b.bytes().any(|c| c.is_ascii_alphabetic()))
    }),
    shape(
        "shopify-token",
        &["shpat_", "shpss_", "shpca_", "shppa_"],
        r"shp(?:at|ss|ca|pa)_[a-fA-F0-9]+",
        random::<6, 32, 32>,
    ),
    shape(
        "tailscale-key",
        &["tskey-"],
        r"tskey-(?:api|auth|client|webhook|scim)-[A-Za-z0-9]+-[A-Za-z0-9]+",
        |t, m, _| {
            let b = body(t, &m, 6, 20..=160)?;
            whole(m, has_digit(b) && has_upper(b))
        },
    ),
    shape("planetscale-token", &["pscale_"], r"pscale_(?:tkn|pw|oauth)_[A-Za-z0-9_=.\-]+", |t, m, _| {
        let b = body(t, &m, 7, 35..=72)?;
        whole(m, has_digit(b))
    }),
    shape("buildkite-token", &["bkua_"], r"bkua_[a-f0-9]+", random::<5, 40, 40>),
    shape("langsmith-key", &["lsv2_"], r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]+", prefixed::<41, 10, 10>),
    shape("pinecone-key", &["pcsk_"], r"pcsk_[A-Za-z0-9_]+", random::<5, 40, 120>),
    shape("figma-token", &["figd_"], r"figd_[A-Za-z0-9_\-]+", random::<5, 30, 80>),
    shape("prefect-key", &["pnu_"], r"pnu_[A-Za-z0-9]+", random::<4, 36, 36>),
    shape("contentful-token", &["cfpat-"], r"CFPAT-[A-Za-z0-9_\-]+", random::<6, 43, 43>),
    shape("netlify-token", &["nfp_"], r"nfp_[A-Za-z0-9]+", random::<4, 36, 40>),
    // A Mapbox secret token; its public twin (`pk.eyJ…`) is meant to be shipped.
    shape("mapbox-secret-token", &["sk.eyj"], r"sk\.eyJ[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+", |t, m, _| {
        let b = body(t, &m, 6, 40..=400)?;
        whole(m, has_digit(b))
    }),
    // A private key's DER body without its PEM header (pasted alone, or
    // left when a header was cut off): PKCS#8 and PKCS#1 RSA, SEC1 and
    // PKCS#8 EC, Ed25519. A certificate's body ("MIID…CCA…gAwIBAgI") has
    // none of these openings and is kept.
    shape(
        "private-key",
        &["mii", "mig", "mhccaqee", "mc4caqawbqydk2vw"],
        r"(?:MII[A-Za-z0-9+/]{3}IBA(?:DAN|AKC)|MIG[A-Za-z0-9+/]AgE(?:AM|BBD)|MHcCAQEE|MC4CAQAwBQYDK2Vw)[A-Za-z0-9+/=]*(?:\r?\n[ \t]*[A-Za-z0-9+/=]{16,})*",
        |t, m, _| whole(m.clone(), left_free(t, m.start) && m.len() >= 60),
    ),
    shape("azure-client-secret", &["q~"], r"[A-Za-z0-9_~.]{3}[0-9]Q~[A-Za-z0-9_~.\-]+", |t, m, _| {
        let b = body(t, &m, 6, 31..=34)?;
        whole(m, has_upper(b) && has_lower(b))
    }),
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
