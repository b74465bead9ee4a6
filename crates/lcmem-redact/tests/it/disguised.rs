//! Secrets in disguise: split by an invisible character, written in
//! full-width letters, a bearer token after `:` or `=`, and vendor prefixes
//! added later; each beside a near-miss twin that must be kept.

use crate::common::*;

/// What is left of `text` after redaction, and whether any byte of the
/// disguised `secret` (its visible characters) survived in a row of 8.
fn redacted(text: &str) -> String {
    lcmem_redact::redact(text).into_owned()
}

#[test]
fn a_token_split_by_an_invisible_character_is_redacted_whole() {
    let token = format!("ghp_{}", fake(31, ALNUM, 36));
    for invisible in ['\u{200B}', '\u{200C}', '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{00AD}'] {
        let (head, tail) = token.split_at(12);
        let text = format!("the deploy token is {head}{invisible}{tail} for now");
        let out = redacted(&text);
        assert_eq!(out, "the deploy token is [REDACTED:github-token] for now", "U+{:04X}", invisible as u32);
        assert_eq!(redacted(&out), out, "idempotent");
    }
}

#[test]
fn a_token_in_full_width_letters_is_redacted_whole() {
    let token = format!("sk-ant-api03-{}AA", fake(32, URLSAFE, 93));
    let wide: String = token.chars().map(|c| char::from_u32(c as u32 - 0x21 + 0xFF01).unwrap()).collect();
    let text = format!("key：{wide}。");
    let out = redacted(&text);
    assert_eq!(out, "key：[REDACTED:anthropic-key]。", "{out}");
}

#[test]
fn full_width_and_invisible_text_that_holds_no_secret_is_kept() {
    assert_kept("全角の文字：ＡＢＣ１２３ と\u{200B}ゼロ幅スペース");
    assert_kept("ｇｈｐ＿ｓｈｏｒｔ is too short to be a token");
    assert_kept("soft\u{00AD}hyphen and a word\u{2060}joiner");
}

#[test]
fn a_bearer_token_after_a_colon_or_an_equals_sign_is_redacted() {
    let token = fake(33, URLSAFE, 40);
    for text in [
        format!("Bearer: {token}"),
        format!("use bearer:{token} for the staging API"),
        format!("GET /v1/items?bearer={token}"),
    ] {
        assert_redacted(&text, &token, "bearer-token");
    }
    // A type annotation and a sentence name no token.
    assert_kept("interface Auth { bearer: string; expires: number }");
    assert_kept("The bearer: whoever holds the card.");
}

#[test]
fn vendor_prefixes_added_for_the_third_pass() {
    let cases = [
        (format!("shpat_{}", fake(40, HEX, 32)), "shopify-token"),
        (format!("tskey-auth-k{}CNTRL-{}", fake(41, ALNUM, 10), fake(42, ALNUM, 33)), "tailscale-key"),
        (format!("pscale_tkn_{}", fake(43, ALNUM, 43)), "planetscale-token"),
        (format!("bkua_{}", fake(44, HEX, 40)), "buildkite-token"),
        (format!("lsv2_pt_{}_{}", fake(45, HEX, 32), fake(46, HEX, 10)), "langsmith-key"),
        (format!("pcsk_{}_{}", fake(47, ALNUM, 6), fake(48, ALNUM, 60)), "pinecone-key"),
        (format!("figd_{}", fake(49, URLSAFE, 40)), "figma-token"),
        (format!("pnu_{}", fake(50, ALNUM, 36)), "prefect-key"),
        (format!("CFPAT-{}", fake(51, URLSAFE, 43)), "contentful-token"),
        (format!("nfp_{}", fake(52, ALNUM, 36)), "netlify-token"),
        (format!("sk.eyJ{}.{}", fake(53, ALNUM, 60), fake(54, URLSAFE, 22)), "mapbox-secret-token"),
    ];
    for (token, kind) in &cases {
        let out = assert_redacted(&format!("export SERVICE_CREDENTIAL={token} # rotated"), token, kind);
        assert!(out.ends_with(" # rotated"), "{out}");
        assert_redacted(&format!("the new one is {token}, use it"), token, kind);
    }
    // Near-miss twins: names and documentation that share the prefix.
    assert_kept("shpat_example is the name the docs give it");
    assert_kept("see tskey-auth-docs for how keys are made");
    assert_kept("the pscale_tkn_ prefix marks a service token");
    assert_kept("bkua_ tokens are user tokens; figd_ ones are Figma's");
    assert_kept("pnu_settings and nfp_options are field names");
    assert_kept("pk.eyJ1IjoiYWNtZSIsImEiOiJjbDB4eXoxMjMifQ.abcdEFGHijklMNOPqrstuv is the public token");
}
