//! Judging a value that its context has already put in a secret position.
//!
//! Nothing here decides on its own that a string is a secret: these helpers
//! only run on the value after a key such as `client_secret =`, a header or a
//! flag. Their job is the other direction: keep references, placeholders, code
//! and names byte-identical, because corrupting a true fact in memory is worse
//! than missing an exotic token.

use crate::placeholder::{has_word, is_placeholder};

/// What a key name says about the value assigned to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Passwords may be short, dictionary-like or contain spaces when quoted.
    Password,
    Secret,
    Token,
    ApiKey,
}

impl Class {
    /// The marker kind used when a value of this class is redacted.
    pub(crate) fn kind(self) -> &'static str {
        match self {
            Class::Password => "password",
            Class::Secret => "secret",
            Class::Token => "token",
            Class::ApiKey => "api-key",
        }
    }
}

/// Words that, placed before `key`, make it a credential (`api_key`,
/// `signing_key`, `STRIPE_KEY`). A bare `key` or `bucket_key` names data.
const KEY_PREFIXES: &str = concat!(
    "api secret access private auth encryption encrypt decryption signing sign master ",
    "client app application account admin service session shared webhook consumer ",
    "hmac subscription deploy license bot write ingest server root crypto cipher aes ",
    "jwt cookie csrf openai anthropic stripe google gemini mistral groq cohere ",
    "sendgrid mailgun mailchimp twilio algolia pusher mapbox datadog dd newrelic ",
    "sentry firebase supabase pinecone replicate together fireworks deepseek ",
    "perplexity xai huggingface hf github gitlab slack discord telegram aws azure gcp ",
    "cloudflare vercel netlify heroku linear notion airtable shopify paypal braintree ",
    "plaid okta ",
);

/// Splits a key name into lowercase words: `AWS_SECRET_ACCESS_KEY`,
/// `auth.rootPassword` and `X-Api-Key` all split on separators and camel humps.
pub(crate) fn split_words(key: &str) -> Vec<String> {
    let chars: Vec<char> = key.chars().collect();
    let mut words = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if c.is_ascii_uppercase() && !cur.is_empty() {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase() || (prev.is_ascii_uppercase() && next_lower) {
                words.push(std::mem::take(&mut cur));
            }
        }
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// Decides from a key name whether its value is a credential. The last word
/// is the head noun: `secret_length`, `token_url` and `credentialId` name
/// something else, `client_secret` and `PGPASSWORD` do not.
pub(crate) fn classify_key(key: &str) -> Option<Class> {
    let words = split_words(key);
    let last = words.last()?.trim_end_matches(|c: char| c.is_ascii_digit());
    let prev = words.len().checked_sub(2).map_or("", |i| words[i].as_str());
    if last.ends_with("password")
        || last.ends_with("passwd")
        || last.ends_with("passphrase")
        || last == "pwd"
        || (last.ends_with("pass") && last.len() <= 6 && last != "bypass")
    {
        return Some(Class::Password);
    }
    if last.ends_with("secret") || last == "secretkey" || (last == "key" && prev == "secret") {
        return Some(Class::Secret);
    }
    if last.ends_with("token") || matches!(last, "auth" | "credential" | "credentials" | "creds") {
        return Some(Class::Token);
    }
    if last.ends_with("apikey")
        || matches!(last, "accesskey" | "privatekey" | "authkey" | "masterkey" | "signingkey")
        || (last == "key" && has_word(KEY_PREFIXES, prev))
    {
        return Some(Class::ApiKey);
    }
    None
}

/// The marker kind for a value under `key`, naming the vendor where the key does.
pub(crate) fn kind_for(key: &str, class: Class) -> &'static str {
    let lower = key.to_ascii_lowercase();
    if class != Class::Password && lower.contains("secret") && (lower.contains("aws") || lower.contains("access")) {
        return "aws-secret-access-key";
    }
    if lower.ends_with("_authtoken") {
        return "npm-token";
    }
    class.kind()
}

/// Letters (and `_`/`-`) only, naming a secret rather than being one:
/// `mySecretToken`, `PASSWORD`, `password = password`.
pub(crate) fn names_a_secret(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    lower.bytes().all(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'-')
        && ["pass", "pwd", "secret", "token", "key", "cred", "auth"].iter().any(|w| lower.contains(w))
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Code rather than a literal, for unquoted values: calls and indexing
/// (`os.environ["X"]`, `getenv(...)`), attribute paths (`settings.SECRET`,
/// `X25519.KeyPair`), snake_case variables, CONSTANTS, type names
/// (`SecretString`, `Option<String>`) and file paths.
pub(crate) fn is_code(v: &str) -> bool {
    let b = v.as_bytes();
    if b.is_empty() {
        return false;
    }
    if is_path(v) {
        return true;
    }
    // `&secrets[i]`, `*token`, `!flag`, `&mut buf`: an expression.
    if matches!(b[0], b'&' | b'*' | b'!') && b.get(1).is_some_and(|&c| is_ident_start(c)) {
        let rest = v[1..].trim_start_matches("mut ");
        return rest.bytes().all(is_ident) || is_code(rest);
    }
    // Also a tuple, or a symbol (`:name`, Sphinx's `:py:data:`).
    if is_number_literal(v) || is_primitive_type(v) || b[0] == b'(' || (b[0] == b':' && b.len() > 1) {
        return true;
    }
    if !is_ident_start(b[0]) {
        return false;
    }
    // Longest prefix of the form ident(.ident | ::ident)*
    let mut i = 0;
    let mut dotted = false;
    loop {
        while i < b.len() && is_ident(b[i]) {
            i += 1;
        }
        let sep = if b[i..].starts_with(b"::") || b[i..].starts_with(b"->") {
            2
        } else if b.get(i) == Some(&b'.') {
            1
        } else {
            0
        };
        if sep > 0 && b.get(i + sep).copied().is_some_and(is_ident_start) {
            dotted = true;
            i += sep;
            continue;
        }
        break;
    }
    if i < b.len() {
        // A call, an index, generics, or a Rust macro (`braced!(…)`, `Token![…]`).
        // Also a turbofish (`parse::<T>()`) or Rust's `?`.
        let call = matches!(b[i], b'(' | b'[' | b'<');
        let mac = b[i] == b'!' && matches!(b.get(i + 1), Some(b'(' | b'[' | b'{'));
        return call || mac || b[i..].starts_with(b"::") || b[i] == b'?';
    }
    if dotted {
        return true;
    }
    let has_upper = b.iter().any(u8::is_ascii_uppercase);
    let has_lower = b.iter().any(u8::is_ascii_lowercase);
    let has_digit = b.iter().any(u8::is_ascii_digit);
    if v.contains('_') && !(has_upper && has_lower) && !has_digit {
        return true; // snake_case variable or CONSTANT_NAME
    }
    is_type_name(b)
}

/// `0x04`, `0b1010`, `1024`, `3.5`: a constant in code. Decimal runs of six
/// or more digits are not taken as code (a numeric password or PIN).
fn is_number_literal(v: &str) -> bool {
    let b = v.as_bytes();
    let radix = b.len() > 2 && b[0] == b'0' && matches!(b[1], b'x' | b'X' | b'b' | b'B' | b'o' | b'O');
    if radix {
        return b[2..].iter().all(|c| c.is_ascii_hexdigit() || *c == b'_');
    }
    b.len() < 6 && !b.is_empty() && b[0].is_ascii_digit() && b.iter().all(|c| c.is_ascii_digit() || *c == b'.')
}

/// `u32`, `__u64`, `usize`, `f64`: a type annotation, not a value.
fn is_primitive_type(v: &str) -> bool {
    let t = v.trim_start_matches('_');
    let Some(rest) = t.strip_prefix(['u', 'i', 'f']) else {
        return false;
    };
    matches!(rest, "8" | "16" | "32" | "64" | "128" | "size")
}

/// `SecretString`, `PathBuf`: two or more capitalised humps, letters only.
fn is_type_name(b: &[u8]) -> bool {
    if !b[0].is_ascii_uppercase() || !b.iter().all(u8::is_ascii_alphabetic) {
        return false;
    }
    let humps = b.windows(2).filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase()).count();
    humps >= 1 && b.windows(2).all(|w| !(w[0].is_ascii_uppercase() && w[1].is_ascii_uppercase()))
}

/// A lowercase slug such as `db-credentials-2024` or `my-app-secret`: a name.
fn is_slug(v: &str) -> bool {
    let segments: Vec<&str> = v.split(['-', '_', '.']).filter(|s| !s.is_empty()).collect();
    segments.len() >= 2
        && segments.iter().all(|s| {
            let b = s.as_bytes();
            let letters = b.iter().take_while(|c| c.is_ascii_lowercase()).count();
            let digits = b[letters..].iter().all(u8::is_ascii_digit);
            digits && (letters == b.len() || letters <= 2)
        })
}

/// Character-class counts of a value.
struct Mix {
    len: usize,
    upper: usize,
    lower: usize,
    digit: usize,
    symbol: usize,
    space: bool,
}

fn mix(v: &str) -> Mix {
    let mut m = Mix { len: 0, upper: 0, lower: 0, digit: 0, symbol: 0, space: false };
    for c in v.chars() {
        m.len += 1;
        if c.is_ascii_uppercase() {
            m.upper += 1;
        } else if c.is_ascii_lowercase() {
            m.lower += 1;
        } else if c.is_ascii_digit() {
            m.digit += 1;
        } else if c.is_whitespace() {
            m.space = true;
        } else if !matches!(c, '-' | '_' | '.') {
            m.symbol += 1;
        }
    }
    m
}

/// Shaped like an issued credential rather than a word or a name: at least
/// eight characters, no spaces, letters mixed with digits or symbols (or a
/// long mixed-case run). Only ever asked about a value in a secret position.
pub(crate) fn token_like(v: &str) -> bool {
    token_shaped(v) && !is_slug(v)
}

/// [`token_like`] without the slug exception: for a value that a key names
/// a credential, where `team-secret-8812` is a value, not a name.
fn token_shaped(v: &str) -> bool {
    let m = mix(v);
    if m.len < 8 || m.space || m.upper + m.lower == 0 {
        return false;
    }
    m.digit > 0 || (m.symbol > 0 && m.len >= 12) || (m.len >= 16 && random_case(v))
}

/// `secret: db-credentials-2024`: a one-word key such as `secret` or `token`
/// often names a secret stored elsewhere (Kubernetes, CI), so a lowercase
/// slug under it is a name. A compound key (`client_secret`, `api_key`)
/// holds the value itself, and passwords are never slugs.
pub(crate) fn names_stored_secret(key: &str, class: Class, v: &str) -> bool {
    class != Class::Password && is_slug(v) && split_words(key).len() == 1
}

/// A password stated in prose or a shell line: six or more characters,
/// letters with digits or symbols, not a placeholder.
pub(crate) fn strong_password(v: &str) -> bool {
    let m = mix(v);
    m.len >= 6 && !m.space && m.upper + m.lower > 0 && (m.digit > 0 || m.symbol > 0) && !is_placeholder(v)
}

/// Whether a value found under a key of `class` should be redacted.
pub(crate) fn accepts(class: Class, v: &str, quoted: bool) -> bool {
    if is_placeholder(v) || v.contains("://") || names_a_secret(v) || is_version(v) || has_interpolation(v) {
        return false;
    }
    if is_path(v) || (!quoted && is_code(v)) {
        return false;
    }
    match class {
        // Unquoted, a lowercase or camel-case word is a variable or a type
        // (`password = split`, `pwd: PathBuf`); a password has more in it.
        Class::Password if !quoted => {
            let letters = v.bytes().all(|c| c.is_ascii_alphabetic() || c == b'_');
            v.len() >= 3 && (!letters || random_case(v))
        }
        Class::Password => v.chars().count() >= 3,
        _ => token_shaped(v),
    }
}

/// Letters in both cases at random, as in issued tokens (an identifier such
/// as `_EllipticCurvePrivateKey` is mostly lowercase).
pub(crate) fn random_case(s: &str) -> bool {
    let upper = s.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = s.bytes().filter(u8::is_ascii_lowercase).count();
    let letters = upper + lower;
    letters > 0 && upper * 4 >= letters && lower * 4 >= letters
}

/// `1.302103`, `v2.3.1-rc.1`: a version, not a credential.
fn is_version(v: &str) -> bool {
    let core = v.strip_prefix('v').unwrap_or(v);
    let core = core.split(['-', '+']).next().unwrap_or("");
    core.contains('.') && core.split('.').all(|p| !p.is_empty() && p.bytes().all(|c| c.is_ascii_digit()))
}

/// A file path: `/run/secrets/db`, `~/.pgpass`, `./key.pem`, `C:\keys`.
fn is_path(v: &str) -> bool {
    let b = v.as_bytes();
    v.starts_with("~/")
        || v.starts_with("./")
        || v.starts_with("../")
        || (b.first() == Some(&b'/') && v[1..].contains('/'))
        || (b.len() > 2 && b[0].is_ascii_alphabetic() && b[1] == b':' && b[2] == b'\\')
}

/// A value built from a template: `anonymous:$FROM_EMAIL`, `${USER}-${PASS}`,
/// `{{ vault.password }}` inside a longer string.
pub(crate) fn has_interpolation(v: &str) -> bool {
    let b = v.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        let rest = &b[i + 1..];
        if c == b'$' && rest.first() == Some(&b'{') {
            let n = rest[1..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
            if n > 0 && rest.get(n + 1) == Some(&b'}') {
                return true;
            }
        }
        if c == b'$' {
            let n = rest.iter().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || **c == b'_').count();
            if n >= 2 && rest.get(n).is_none_or(|c| !c.is_ascii_alphanumeric()) {
                return true;
            }
        }
    }
    v.find("{{").is_some_and(|i| v[i + 2..].find("}}").is_some_and(|j| !v[i + 2..i + 2 + j].contains(['{', '}'])))
}

/// Strips punctuation that ends a sentence or a shell word from a value.
pub(crate) fn trim_trailing_punct(v: &str) -> &str {
    v.trim_end_matches(['.', ',', ';', ':', ')', '?'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_words() {
        assert_eq!(split_words("auth.rootPassword"), ["auth", "root", "password"]);
        assert_eq!(split_words("X-Api-Key"), ["x", "api", "key"]);
        assert_eq!(split_words("APIKey"), ["api", "key"]);
        assert_eq!(classify_key("credentialId"), None);
        assert_eq!(classify_key("secret_length"), None);
        assert_eq!(classify_key("PGPASSWORD"), Some(Class::Password));
        assert_eq!(classify_key("db_pass"), Some(Class::Password));
        assert_eq!(classify_key("bucket_key"), None);
        assert_eq!(classify_key("OPENAI_API_KEY"), Some(Class::ApiKey));
        assert_eq!(classify_key("user_token1"), Some(Class::Token));
    }

    #[test]
    fn code_and_refs() {
        assert!(is_code("os.environ[\"X\"]"));
        assert!(is_code("X25519.KeyPair"));
        assert!(is_code("my_super_password"));
        assert!(is_code("SecretString"));
        assert!(!is_code("Qm9vb2xlYW4gdmFsdWU"));
        assert!(is_placeholder("xxx"));
        assert!(is_placeholder("GITHUB_TOKEN"));
        assert!(!is_placeholder("Vq3-zz81Lk"));
        assert!(is_slug("my-app-secret-v2"));
        assert!(!is_slug("c4ed6c21-9dd5-4a05"));
    }
}
