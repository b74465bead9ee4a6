//! Credentials in HTTP and shell idioms: `Authorization:` headers, `Bearer`
//! tokens, session cookies, `scheme://user:password@host`,
//! `curl -u user:pass`, password flags of `docker login`, `mysql`,
//! `redis-cli` and friends, and "login is bob / …" in prose.

use std::ops::Range;
use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::Regex;

use crate::candidate::{Candidate, PRIO_AUTH, PRIO_BEARER, PRIO_CLI, PRIO_PROSE, PRIO_URL, captures, contains_ci};
use crate::placeholder::is_placeholder;
use crate::value::{is_code, strong_password, token_like, trim_trailing_punct};

static AUTHZ: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[^A-Za-z0-9_\-])(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*(?:[rbf]?["'`])?(?:(?P<s>bearer|basic|token|bot|apikey|api-key|sso-key|key|digest|negotiate|ntlm|aws4-hmac-sha256|hmac)[ \t]+)?(?P<t>[^\s"'`,;]+)"#,
    )
    .unwrap()
});

/// `Bearer <token>`, and `bearer: <token>` / `bearer=<token>` as tokens are
/// pasted into notes and query strings.
static BEARER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^A-Za-z0-9_])bearer(?:[ \t]*[:=][ \t]*|[ \t]+)(?P<t>[A-Za-z0-9_\-.~+/]+=*)").unwrap()
});

static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"[A-Za-z][A-Za-z0-9+.\-]*://(?P<u>[^\s:/?#@"'<>\[\]]*):(?P<t>[^\s/?#"'<>]+)@[A-Za-z0-9\[_]"#).unwrap()
});

static CURL_USER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|\s)(?:-u|--user)(?:[ \t]+|=)?["']?(?P<u>[^\s:"'`]*):(?P<t>[^\s"'`]*)"#).unwrap()
});

static LOGIN_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?:^|[^A-Za-z0-9_])login(?:$|[^A-Za-z0-9_])").unwrap());

static LOGIN_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[^A-Za-z0-9_])(?:login|log-in|credentials?|creds)(?:[ \t]+(?:is|are)[ \t]*:?|[ \t]*[:=])[ \t]*["'`]?(?P<u>[A-Za-z0-9_.@+\-]{1,64})["'`]?[ \t]*[/:][ \t]*["'`]?(?P<t>[^\s"'`]+)"#,
    )
    .unwrap()
});

/// Command-line tools that take a password as a flag value, the word that
/// names them on a command line, and how the flag is written.
pub(crate) const CLI_TOOLS: &[&str] =
    &["login", "sshpass", "mysql", "mariadb", "redis-cli", "sqlcmd", "bcp ", "mongo", "ldap"];

static TOOLS: LazyLock<AhoCorasick> =
    LazyLock::new(|| AhoCorasick::builder().ascii_case_insensitive(true).build(CLI_TOOLS).expect("tool names build"));

/// `-p VALUE` / `--password VALUE`: `docker login`, `sshpass`, `mongosh`.
static FLAG_P: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|\s)(?:-p|--password)(?:[ \t]+|=)["']?(?P<t>[^\s"'`]+)"#).unwrap());
/// `-pVALUE` glued, as mysql takes it (`-p db` prompts and names a database).
static FLAG_P_GLUED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"(?:^|\s)-p["']?(?P<t>[^\s"'`]+)"#).unwrap());
/// `redis-cli -a VALUE`.
static FLAG_A: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|\s)(?:-a|--pass)(?:[ \t]+|=)["']?(?P<t>[^\s"'`]+)"#).unwrap());
/// `sqlcmd -P VALUE`, `bcp … -P VALUE`.
static FLAG_UPPER_P: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|\s)-P[ \t]*["']?(?P<t>[^\s"'`]+)"#).unwrap());
/// `ldapsearch -w VALUE`.
static FLAG_W: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"(?:^|\s)-w[ \t]+["']?(?P<t>[^\s"'`]+)"#).unwrap());

static COOKIE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)(?:^|[^A-Za-z0-9_\-])(?:set-)?cookie["']?[ \t]*:[ \t]*(?P<v>[^\r\n"']+)"#).unwrap()
});

fn abs(off: usize, m: regex::Match<'_>) -> Range<usize> {
    off + m.start()..off + m.end()
}

/// `Authorization: Bearer …`, `Authorization: Basic …`, `Authorization: Token …`.
pub(crate) fn authorization(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in captures(&AUTHZ, &text[win.clone()]) {
        let Some(t) = caps.name("t") else { continue };
        let scheme = caps.name("s").map(|s| s.as_str().to_ascii_lowercase());
        let v = t.as_str();
        if is_placeholder(v) {
            continue;
        }
        let (kind, ok) = match scheme.as_deref() {
            Some("digest" | "aws4-hmac-sha256") => continue, // parameters, not one credential
            Some("basic") => ("basic-auth", v.len() >= 4),
            Some("bearer") => ("bearer-token", v.len() >= 8),
            Some(_) => ("authorization", v.len() >= 8),
            None => ("authorization", token_like(v) && !is_code(v)),
        };
        if ok {
            out.push(Candidate::new(abs(off, t), kind, PRIO_AUTH));
        }
    }
}

/// `Bearer <token>` anywhere (also after `:` or `=`): headers built in code,
/// tokens pasted in prose.
pub(crate) fn bearer(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in captures(&BEARER, &text[win.clone()]) {
        let Some(t) = caps.name("t") else { continue };
        // `Bearer realm="api", scope="read"` in a challenge names parameters.
        let param =
            t.as_str().strip_suffix('=').is_some_and(|p| p.bytes().all(|c| c.is_ascii_lowercase() || c == b'_'));
        if !param && token_like(t.as_str()) && !is_placeholder(t.as_str()) {
            out.push(Candidate::new(abs(off, t), "bearer-token", PRIO_BEARER));
        }
    }
}

/// The password in `scheme://user:password@host`; the user and host stay.
pub(crate) fn url_credentials(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in captures(&URL, &text[win.clone()]) {
        let (Some(u), Some(t)) = (caps.name("u"), caps.name("t")) else {
            continue;
        };
        let v = t.as_str();
        // `postgres:postgres@localhost` is a well-known default, not a leak.
        if !is_placeholder(v) && v != u.as_str() {
            out.push(Candidate::new(abs(off, t), "url-password", PRIO_URL));
        }
    }
}

/// `curl -u user:password`, `curl --user 'user:password'`, only on a curl or
/// wget command line (`docker run -u 1000:1000` names a uid and gid).
pub(crate) fn curl_user(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    let hay = &text[win.clone()];
    if !contains_ci(hay, "curl") && !contains_ci(hay, "wget") {
        return;
    }
    for caps in captures(&CURL_USER, hay) {
        let (Some(u), Some(t)) = (caps.name("u"), caps.name("t")) else {
            continue;
        };
        let v = trim_trailing_punct(t.as_str());
        if v.len() >= 4 && !is_placeholder(v) && v != u.as_str() {
            let start = off + t.start();
            out.push(Candidate::new(start..start + v.len(), "password", PRIO_CLI));
        }
    }
}

/// A user and password pair stated in prose: "login is bob / …",
/// "credentials: deploy:…".
pub(crate) fn login(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    let hay = &text[win.clone()];
    for caps in captures(&LOGIN_PAIR, hay) {
        let Some(t) = caps.name("t") else { continue };
        let v = trim_trailing_punct(t.as_str());
        // `credentials: Arc::new(…)` is a path, not `user:password`.
        if strong_password(v) && !v.starts_with(':') && !is_code(v) {
            let start = off + t.start();
            out.push(Candidate::new(start..start + v.len(), "password", PRIO_PROSE));
        }
    }
}

/// Password flags of the tools in [`CLI_TOOLS`], on their own command lines.
pub(crate) fn cli_passwords(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let hay = &text[win.clone()];
    // Which tools the line names, in one pass (indexes into CLI_TOOLS).
    let mut named = 0u32;
    for m in TOOLS.find_iter(hay) {
        named |= 1 << m.pattern().as_u32();
    }
    let has = |i: usize| named & (1 << i) != 0;
    let mut flags: Vec<&Regex> = Vec::new();
    if (has(0) && LOGIN_WORD.is_match(hay)) || has(1) || has(7) {
        flags.push(&FLAG_P);
    }
    if has(2) || has(3) {
        flags.push(&FLAG_P_GLUED);
    }
    if has(4) {
        flags.push(&FLAG_A);
    }
    if has(5) || has(6) {
        flags.push(&FLAG_UPPER_P);
    }
    if has(8) {
        flags.push(&FLAG_W);
    }
    for re in flags {
        for caps in captures(re, hay) {
            let Some(t) = caps.name("t") else { continue };
            let v = t.as_str();
            let port = v.bytes().all(|c| c.is_ascii_digit()) && v.len() <= 5;
            if !port && v.len() >= 3 && !is_placeholder(v) {
                out.push(Candidate::new(abs(win.start, t), "password", PRIO_CLI));
            }
        }
    }
}

/// Session and auth cookies in `Cookie:` and `Set-Cookie:` headers.
pub(crate) fn cookies(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    for caps in captures(&COOKIE, &text[win.clone()]) {
        let Some(v) = caps.name("v") else { continue };
        let mut pos = win.start + v.start();
        for pair in v.as_str().split(';') {
            if let Some((name, value)) = pair.split_once('=') {
                let name = name.trim().to_ascii_lowercase();
                let sensitive = ["sess", "sid", "auth", "token", "jwt", "remember", "login", "secret"]
                    .iter()
                    .any(|w| name.contains(w));
                let start = pos + pair.find('=').map_or(0, |i| i + 1);
                let value = value.trim_end();
                if sensitive && token_like(value) && !is_placeholder(value) {
                    out.push(Candidate::new(start..start + value.len(), "cookie", PRIO_CLI));
                }
            }
            pos += pair.len() + 1;
        }
    }
}
