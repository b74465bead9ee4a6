//! Telling a stand-in from a secret, for a value that its context (a key
//! such as `password =`, a header, a flag, URL userinfo) has already put in
//! a secret position.
//!
//! A value there is redacted unless it visibly holds no secret. It stays
//! when it is:
//!
//! 1. empty, or a mask of at most two distinct letters or digits (`***`,
//!    `xxxxxxxx`, `••••`);
//! 2. a reference or template: `${DB_PASSWORD}`, `$DB_PASSWORD`, `%APP_KEY%`,
//!    `{{ vault.password }}`, `<your password>`, `[PASSWORD]`, `!vault`;
//! 3. the name of an environment variable (`DB_PASSWORD`, `GITHUB_TOKEN`);
//! 4. one of the well-known stand-in words, whole and in any case:
//!    `changeme`, `password`, `secret`, `hunter2`, `test` ([`PLACEHOLDER_WORDS`]);
//! 5. words with no number in them, one of which marks documentation or
//!    names what the value stands for: `your-password-here`, `somefakekey`,
//!    `test-m2m-secret`, `replace_me` (a digit may sit inside a word, as in
//!    `m2m`, never as a number of two or more digits);
//! 6. a vendor documentation body: a run of `xxxx`, an ellipsis, or the
//!    capitalised `EXAMPLE` that vendors put in their published sample keys.
//!
//! Anything else is redacted whatever words it contains: `yoursample2024!`,
//! `Sample-Prod-9931` and `your-team-secret-8812` are realistic passwords
//! that merely mention "sample" or "your". A documentation word excuses a
//! value only when the value is nothing but words.

/// Values that are documentation, defaults or type names rather than secrets.
const PLACEHOLDER_WORDS: &str = concat!(
    "password passwd pass pwd secret token key apikey api_key changeme changeit none ",
    "null nil true false undefined empty string str &str required optional foo bar ",
    "baz foobar test testing value user username admin root guest demo default todo ",
    "tbd n/a na hidden masked secret123 password123 passw0rd p@ssw0rd p@ssword ",
    "hunter2 letmein qwerty 123456 12345678 abc123 mypassword mysecret mytoken ",
    "secretpassword supersecret s3cr3t notasecret token123 pass123 test123 admin123 ",
    "bool boolean char int integer float double long number object any bytes sekrit xyz abc 123 1234 ",
);

/// Substrings that mark documentation examples in a token body.
const FAKE_MARKS: &str = concat!(
    "example placeholder dummy fake redacted xxxx sample ... \u{2026} changeme ",
    "change_me change-me changeit replace_me replace-me replaceme insert_your ",
    "insert-your notreal not_real not-a-real ",
);

/// Whole words that make a value of words a stand-in (rule 5).
const STAND_IN_WORDS: &str = concat!(
    "secret token password passwd pass pw pwd key apikey test testing example dummy ",
    "fake sample demo my your changeme ",
);

/// Whether `word` is one of the space-separated `list`.
pub(crate) fn has_word(list: &str, word: &str) -> bool {
    !word.is_empty() && list.split_whitespace().any(|w| w == word)
}

/// A reference to a value kept elsewhere: `${DB_PASSWORD}`, `$(cmd)`,
/// `{{ secrets.X }}`, `<your-token>`, `%APP_KEY%`, `!vault`, `[PASSWORD]`.
pub(crate) fn is_reference(v: &str) -> bool {
    let b = v.as_bytes();
    let Some(&first) = b.first() else {
        return true;
    };
    let second = b.get(1).copied().unwrap_or(0);
    match first {
        b'$' => second.is_ascii_alphabetic() || matches!(second, b'_' | b'{' | b'(' | b'$'),
        // `<your token>` and `{your key}` often hold spaces, so a value cut
        // at the first space still starts with the bracket.
        b'{' | b'<' | b'[' => true,
        b'%' => second.is_ascii_alphabetic() || matches!(second, b'(' | b'_'),
        b'#' => second == b'{',
        b'!' => second.is_ascii_alphabetic(),
        _ => false,
    }
}

/// A token body that documentation uses for illustration (`AKIA…EXAMPLE`,
/// `ghs_xxxx…`, `hf_xxxx…`). Redacting it would remove nothing real. This
/// judges bodies after a vendor prefix, which people do not choose; a value
/// someone typed under a key is judged by [`is_placeholder`].
pub(crate) fn is_fake_body(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    if FAKE_MARKS.split_whitespace().any(|m| lower.contains(m)) || lower.starts_with("your") {
        return true;
    }
    is_mask(&lower)
}

/// At most two distinct letters or digits: `***`, `xxxxxxxx`, `aaaa1111`.
fn is_mask(v: &str) -> bool {
    let mut seen = [false; 128];
    let mut distinct = 0;
    for b in v.bytes().filter(u8::is_ascii_alphanumeric) {
        let b = b.to_ascii_lowercase();
        if !seen[b as usize] {
            seen[b as usize] = true;
            distinct += 1;
        }
    }
    distinct <= 2
}

/// A value that stands in for a secret; see the module documentation for
/// the six rules.
pub(crate) fn is_placeholder(v: &str) -> bool {
    let t = v.trim();
    if t.is_empty() || is_mask(t) || is_reference(t) || is_vendor_filler(t) {
        return true;
    }
    let lower = t.to_ascii_lowercase();
    if has_word(PLACEHOLDER_WORDS, &lower) || is_stand_in_words(&lower) {
        return true;
    }
    let env_name = t.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    env_name && ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "KEY", "PASS", "PWD"].iter().any(|w| t.contains(w))
}

/// Rule 6: `xxxx`, `...`, `…`, or the capitalised `EXAMPLE` of published keys.
fn is_vendor_filler(v: &str) -> bool {
    v.contains("EXAMPLE") || v.contains("...") || v.contains('\u{2026}') || v.to_ascii_lowercase().contains("xxxx")
}

/// Rule 5, on a lowercased value: words (each a letter followed by letters,
/// with at most one digit in a row) joined by `-`, `_`, `.` or spaces, one of
/// them a documentation mark or the name of what the value stands for.
/// Issued secrets are random, not made of words; a number in the value is
/// where a person hides the secret part (`team-secret-8812`).
fn is_stand_in_words(lower: &str) -> bool {
    let segments: Vec<&str> = lower.split(['-', '_', '.', ' ']).collect();
    let words = segments.iter().all(|s| {
        let b = s.as_bytes();
        b.first().is_some_and(u8::is_ascii_lowercase)
            && b.iter().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            && !b.windows(2).any(|w| w[0].is_ascii_digit() && w[1].is_ascii_digit())
    });
    words
        && (FAKE_MARKS.split_whitespace().any(|m| lower.contains(m))
            || lower.starts_with("your")
            || segments.iter().any(|s| has_word(STAND_IN_WORDS, s)))
}

#[cfg(test)]
mod tests {
    use super::is_placeholder;
    use crate::redact;

    /// Realistic values that only mention a documentation word.
    const WORDED: &[&str] = &["yourtrial2031!", "Demo-Stage-4417", "your-crew-secret-5306", "fakeHarbor#77"];

    #[test]
    fn worded_values_are_not_placeholders() {
        for v in WORDED {
            assert!(!is_placeholder(v), "{v}");
        }
        for v in ["", "***", "xxxxxxxx", "${DB_PW}", "<your password>", "{{ db.pw }}", "%DB_PW%", "$DB_PW"] {
            assert!(is_placeholder(v), "{v:?}");
        }
        for v in ["changeme", "Password", "APP_DB_PASSWORD", "your-password-here", "somedummykey", "test-k8s-secret"] {
            assert!(is_placeholder(v), "{v}");
        }
        for v in ["Zt4dEXAMPLE0q", "abc...xyz", "sk-xxxx-9921"] {
            assert!(is_placeholder(v), "{v}");
        }
    }

    fn gone(text: &str, value: &str, kind: &str) {
        let out = redact(text);
        assert!(!out.contains(value), "{value} survived: {out}");
        assert!(out.contains(&format!("[REDACTED:{kind}]")), "no {kind} marker: {out}");
        assert_eq!(redact(&out), out, "not idempotent");
    }

    fn kept(text: &str) {
        assert_eq!(redact(text), text);
    }

    #[test]
    fn values_under_password_like_keys_go_whatever_their_wording() {
        gone("password: \"yourtrial2031!\"", "yourtrial2031!", "password");
        gone("DB_PASSWORD=Demo-Stage-4417", "Demo-Stage-4417", "password");
        gone("  \"client_secret\": \"your-crew-secret-5306\",", "your-crew-secret-5306", "secret");
        gone("api_key = 'sample-tenant-key-6610'", "sample-tenant-key-6610", "api-key");
        gone("pwd=fakeHarbor#77", "fakeHarbor#77", "password");
        gone("<password>Test-Queue-2208</password>", "Test-Queue-2208", "password");
        gone("postgres://app:Demo-Stage-4417@db.internal:5432/app", "Demo-Stage-4417", "url-password");
        gone("The password is yourtrial2031! for staging.", "yourtrial2031!", "password");
    }

    #[test]
    fn placeholders_under_the_same_keys_stay() {
        for text in [
            "password: <your password>",
            "PASSWORD=${DB_PASSWORD}",
            "password = \"\"",
            "db_password: \"********\"",
            "passwd = $PGPASS",
            "pwd: '%DB_PWD%'",
            "password: \"{{ db_password }}\"",
            "password = \"changeme\"",
            "\"client_secret\": \"your-client-secret\"",
            "api_key = \"somedummykey\"",
            "client_secret: \"test-k8s-secret\"",
            "secret: team-vault-entry-2031",
            "postgres://app:<password>@db.internal:5432/app",
        ] {
            kept(text);
        }
    }
}
