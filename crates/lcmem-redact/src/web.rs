//! Credentials in HTTP and shell idioms: `Authorization:` headers, `Bearer`
//! tokens, `scheme://user:password@host`, `curl -u user:pass`,
//! `docker login -p …`, `mysql -p…`, and "login is admin / …" in prose.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::scan::{Candidate, PRIO_AUTH, PRIO_BEARER, PRIO_CLI, PRIO_PROSE, PRIO_URL};
use crate::value::{is_placeholder, strong_password, token_like, trim_trailing_punct};

static AUTHZ: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[^A-Za-z0-9_\-])(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*(?:[rbf]?["'`])?(?:(?P<s>bearer|basic|token|bot|apikey|api-key|sso-key|key|digest|negotiate|ntlm|aws4-hmac-sha256|hmac)[ \t]+)?(?P<t>[^\s"'`,;]+)"#,
    )
    .unwrap()
});

static BEARER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^A-Za-z0-9_])bearer[ \t]+(?P<t>[A-Za-z0-9_\-.~+/]+=*)").unwrap()
});

static URL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"[A-Za-z][A-Za-z0-9+.\-]*://(?P<u>[^\s:/?#@"'<>\[\]]*):(?P<t>[^\s/?#"'<>]+)@[A-Za-z0-9\[_]"#,
    )
    .unwrap()
});

static CURL_USER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[ \t])(?:-u|--user)(?:[ \t]+|=)?["']?(?P<u>[^\s:"']*):(?P<t>[^\s"']*)"#,
    )
    .unwrap()
});

static LOGIN_WORD: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?:^|[^A-Za-z0-9_])login(?:$|[^A-Za-z0-9_])").unwrap());

static LOGIN_FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?:^|[ \t])(?:-p|--password)(?:[ \t]+|=)["']?(?P<t>[^\s"']+)"#).unwrap()
});

static LOGIN_PAIR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[^A-Za-z0-9_])(?:login|log-in|credentials?|creds)(?:[ \t]+(?:is|are)[ \t]*:?|[ \t]*[:=])[ \t]*["'`]?(?P<u>[A-Za-z0-9_.@+\-]{1,64})["'`]?[ \t]*[/:][ \t]*["'`]?(?P<t>[^\s"'`]+)"#,
    )
    .unwrap()
});

static MYSQL_P: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(?:^|[ \t])-p["']?(?P<t>[^\s"']+)"#).unwrap());

fn abs(off: usize, m: regex::Match<'_>) -> Range<usize> {
    off + m.start()..off + m.end()
}

/// `Authorization: Bearer …`, `Authorization: Basic …`, `Authorization: Token …`.
pub(crate) fn authorization(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in AUTHZ.captures_iter(&text[win.clone()]) {
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
            None => ("authorization", token_like(v)),
        };
        if ok {
            out.push(Candidate::new(abs(off, t), kind, PRIO_AUTH));
        }
    }
}

/// `Bearer <token>` anywhere: headers built in code, tokens pasted in prose.
pub(crate) fn bearer(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in BEARER.captures_iter(&text[win.clone()]) {
        let Some(t) = caps.name("t") else { continue };
        if token_like(t.as_str()) && !is_placeholder(t.as_str()) {
            out.push(Candidate::new(abs(off, t), "bearer-token", PRIO_BEARER));
        }
    }
}

/// The password in `scheme://user:password@host`; the user and host stay.
pub(crate) fn url_credentials(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in URL.captures_iter(&text[win.clone()]) {
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
    let lower = hay.to_ascii_lowercase();
    if !lower.contains("curl") && !lower.contains("wget") {
        return;
    }
    for caps in CURL_USER.captures_iter(hay) {
        let (Some(u), Some(t)) = (caps.name("u"), caps.name("t")) else {
            continue;
        };
        let v = t.as_str();
        if !v.is_empty() && !is_placeholder(v) && v != u.as_str() {
            out.push(Candidate::new(abs(off, t), "password", PRIO_CLI));
        }
    }
}

/// `docker login -u bot -p …` (and podman, helm, oc, cf) plus prose such as
/// "the admin login is admin / …".
pub(crate) fn login(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    let hay = &text[win.clone()];
    if LOGIN_WORD.is_match(hay) {
        for caps in LOGIN_FLAG.captures_iter(hay) {
            let Some(t) = caps.name("t") else { continue };
            let v = t.as_str();
            let port = v.bytes().all(|c| c.is_ascii_digit()) && v.len() <= 5;
            if !port && !is_placeholder(v) && v.len() >= 4 {
                out.push(Candidate::new(abs(off, t), "password", PRIO_CLI));
            }
        }
    }
    for caps in LOGIN_PAIR.captures_iter(hay) {
        let Some(t) = caps.name("t") else { continue };
        let v = trim_trailing_punct(t.as_str());
        if strong_password(v) {
            let start = off + t.start();
            out.push(Candidate::new(start..start + v.len(), "password", PRIO_PROSE));
        }
    }
}

/// `mysql -u root -pSECRET db`: the password is glued to `-p`
/// (`-p db` with a space prompts for the password and names a database).
pub(crate) fn mysql(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in MYSQL_P.captures_iter(&text[win.clone()]) {
        let Some(t) = caps.name("t") else { continue };
        if !is_placeholder(t.as_str()) {
            out.push(Candidate::new(abs(off, t), "password", PRIO_CLI));
        }
    }
}
