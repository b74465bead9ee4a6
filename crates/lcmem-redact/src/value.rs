//! Judging a value that its context has already put in a secret position.
//!
//! Nothing here decides on its own that a string is a secret: these helpers
//! only run on the value after a key such as `client_secret =`, a header or a
//! flag. Their job is the other direction: keep references, placeholders, code
//! and names byte-identical, because corrupting a true fact in memory is worse
//! than missing an exotic token.

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
const KEY_PREFIXES: &[&str] = &[
    "api", "secret", "access", "private", "auth", "encryption", "encrypt", "decryption", "signing",
    "sign", "master", "client", "app", "application", "account", "admin", "service", "session",
    "shared", "webhook", "consumer", "hmac", "subscription", "deploy", "license", "bot", "write",
    "ingest", "server", "root", "crypto", "cipher", "aes", "jwt", "cookie", "csrf", "openai",
    "anthropic", "stripe", "google", "gemini", "mistral", "groq", "cohere", "sendgrid", "mailgun",
    "mailchimp", "twilio", "algolia", "pusher", "mapbox", "datadog", "dd", "newrelic", "sentry",
    "segment", "firebase", "supabase", "pinecone", "replicate", "together", "fireworks",
    "deepseek", "perplexity", "xai", "huggingface", "hf", "github", "gitlab", "slack", "discord",
    "telegram", "aws", "azure", "gcp", "cloudflare", "vercel", "netlify", "heroku", "linear",
    "notion", "airtable", "shopify", "paypal", "braintree", "plaid", "okta",
];

/// Values that are documentation, defaults or type names rather than secrets.
const PLACEHOLDER_WORDS: &[&str] = &[
    "password", "passwd", "pass", "pwd", "secret", "token", "key", "apikey", "api_key", "changeme",
    "changeit", "none", "null", "nil", "true", "false", "undefined", "empty", "string", "str",
    "&str", "required", "optional", "foo", "bar", "baz", "foobar", "test", "testing", "value",
    "user", "username", "admin", "root", "guest", "demo", "default", "todo", "tbd", "n/a", "na",
    "hidden", "masked", "secret123", "password123", "passw0rd", "p@ssw0rd", "p@ssword", "hunter2",
    "letmein", "qwerty", "123456", "12345678", "abc123", "mypassword", "mysecret", "mytoken",
    "secretpassword", "supersecret", "s3cr3t", "notasecret",
];

/// Substrings that mark documentation examples in any value, token bodies included.
const FAKE_MARKS: &[&str] = &[
    "example", "placeholder", "dummy", "fake", "redacted", "xxxx", "sample", "...", "\u{2026}",
    "changeme", "change_me", "change-me", "changeit", "replace_me", "replace-me", "replaceme",
    "insert_your", "insert-your", "notreal", "not_real", "not-a-real",
];

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
    if last.ends_with("secret") {
        return Some(Class::Secret);
    }
    if last.ends_with("token") || matches!(last, "auth" | "credential" | "credentials" | "creds") {
        return Some(Class::Token);
    }
    if last.ends_with("apikey")
        || matches!(
            last,
            "secretkey" | "accesskey" | "privatekey" | "authkey" | "masterkey" | "signingkey"
        )
        || (last == "key" && KEY_PREFIXES.contains(&prev))
    {
        return Some(Class::ApiKey);
    }
    None
}

/// The marker kind for a value under `key`, naming the vendor where the key does.
pub(crate) fn kind_for(key: &str, class: Class) -> &'static str {
    let lower = key.to_ascii_lowercase();
    if class != Class::Password
        && lower.contains("secret")
        && (lower.contains("aws") || lower.contains("access"))
    {
        return "aws-secret-access-key";
    }
    if lower.ends_with("_authtoken") {
        return "npm-token";
    }
    class.kind()
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
        b'{' | b'<' => true,
        b'%' => second.is_ascii_alphabetic() || matches!(second, b'(' | b'_'),
        b'#' => second == b'{',
        b'!' => second.is_ascii_alphabetic(),
        b'[' => true,
        _ => false,
    }
}

/// A token body that documentation uses for illustration (`AKIA…EXAMPLE`,
/// `ghs_xxxx…`, `hf_xxxx…`). Redacting it would remove nothing real.
pub(crate) fn is_fake_body(body: &str) -> bool {
    let lower = body.to_ascii_lowercase();
    if FAKE_MARKS.iter().any(|m| lower.contains(m)) || lower.starts_with("your") {
        return true;
    }
    let mut seen = [false; 128];
    let mut distinct = 0;
    for b in lower.bytes().filter(u8::is_ascii_alphanumeric) {
        if !seen[b as usize] {
            seen[b as usize] = true;
            distinct += 1;
        }
    }
    distinct <= 2
}

/// A value that stands in for a secret: empty, a reference, a documentation
/// word, or the name of an environment variable (`'PASSWORD'`, `GITHUB_TOKEN`).
pub(crate) fn is_placeholder(v: &str) -> bool {
    let t = v.trim();
    if t.is_empty() || is_reference(t) || is_fake_body(t) {
        return true;
    }
    let lower = t.to_ascii_lowercase();
    if PLACEHOLDER_WORDS.contains(&lower.as_str()) {
        return true;
    }
    let env_name = t.bytes().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b'_');
    env_name
        && ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "KEY", "PASS", "PWD"]
            .iter()
            .any(|w| t.contains(w))
}

/// Letters (and `_`/`-`) only, naming a secret rather than being one:
/// `mySecretToken`, `PASSWORD`, `password = password`.
pub(crate) fn names_a_secret(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    lower.bytes().all(|c| c.is_ascii_alphabetic() || c == b'_' || c == b'-')
        && ["password", "passwd", "secret", "token", "apikey", "api_key"]
            .iter()
            .any(|w| lower.contains(w))
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
    if v.starts_with("~/") || v.starts_with("./") || v.starts_with("../") {
        return true;
    }
    if b[0] == b'/' && v[1..].contains('/') {
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
        return matches!(b[i], b'(' | b'[' | b'<');
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

/// `SecretString`, `PathBuf`: two or more capitalised humps, letters only.
fn is_type_name(b: &[u8]) -> bool {
    if !b[0].is_ascii_uppercase() || !b.iter().all(u8::is_ascii_alphabetic) {
        return false;
    }
    let humps = b
        .windows(2)
        .filter(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        .count();
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
            digits && (letters == b.len() || letters <= 2 || b.len() - letters == 0)
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
    let m = mix(v);
    if m.len < 8 || m.space || m.upper + m.lower == 0 || is_slug(v) {
        return false;
    }
    m.digit > 0 || (m.symbol > 0 && m.len >= 12) || (m.len >= 16 && m.upper >= 2 && m.lower >= 2)
}

/// A password stated in prose or a shell line: six or more characters,
/// letters with digits or symbols, not a placeholder.
pub(crate) fn strong_password(v: &str) -> bool {
    let m = mix(v);
    m.len >= 6
        && !m.space
        && m.upper + m.lower > 0
        && (m.digit > 0 || m.symbol > 0)
        && !is_placeholder(v)
}

/// Whether a value found under a key of `class` should be redacted.
pub(crate) fn accepts(class: Class, v: &str, quoted: bool) -> bool {
    if is_placeholder(v) || v.contains("://") || names_a_secret(v) {
        return false;
    }
    if !quoted && is_code(v) {
        return false;
    }
    match class {
        Class::Password => v.chars().count() >= 3 && (quoted || !v.contains(char::is_whitespace)),
        _ => token_like(v),
    }
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
        assert!(is_reference("${DB_PASSWORD}"));
        assert!(is_reference("<your-password>"));
        assert!(is_placeholder("xxx"));
        assert!(is_placeholder("GITHUB_TOKEN"));
        assert!(!is_placeholder("Vq3-zz81Lk"));
        assert!(is_slug("my-app-secret-v2"));
        assert!(!is_slug("c4ed6c21-9dd5-4a05"));
    }
}
