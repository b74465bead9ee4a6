//! Secrets recognised by the key they are assigned to rather than by shape:
//! `password=…`, `"client_secret": "…"`, `--token …`, `<password>…</password>`,
//! `if ("…" == admin_password)`. The key name decides whether the value is a
//! credential (see [`classify_key`]); the value decides whether it is a real
//! literal or a reference, placeholder or piece of code to keep.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::candidate::{Candidate, PRIO_CONTEXT, PRIO_PROSE, captures};
use crate::placeholder::is_placeholder;
use crate::value::{
    Class, accepts, classify_key, has_interpolation, is_code, kind_for, names_stored_secret, split_words,
    strong_password, token_like, trim_trailing_punct,
};

static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?P<key>[A-Za-z0-9_.\-]*(?:pass|pwd|secret|token|key|auth|cred|sig)[A-Za-z0-9_.\-]*)(?P<kq>["'`]?)[ \t]*(?P<sep>:=|=>|===|==|!==|!=|=|:)(?P<ws>[ \t]*)"#,
    )
    .unwrap()
});

static COMPARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?P<q>["'])(?P<t>[^"'\n]{1,256})["'][ \t]*(?:===|!==|==|!=)[ \t]*(?P<k>[A-Za-z_][A-Za-z0-9_.]*)"#)
        .unwrap()
});

static XML: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"<(?P<o>[A-Za-z_][A-Za-z0-9_:.\-]*)>(?P<t>[^<\n]{1,512})</(?P<c>[A-Za-z_][A-Za-z0-9_:.\-]*)>").unwrap()
});

static FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|\s)--(?P<k>[A-Za-z0-9\-]*(?:password|passwd|token|secret|api-key|apikey|access-key|secret-key|auth-key))[ \t]+(?P<t>["']?[^\s"']+)"#,
    )
    .unwrap()
});

static PROSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[^A-Za-z0-9_])(?:password|passwd|passphrase)[ \t]+(?:is|was)[ \t]*:?[ \t]+["'`]?(?P<t>[^\s"'`]+)"#,
    )
    .unwrap()
});

static TUPLE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:auth|basicauth|httpbasicauth|httpdigestauth|credentials?)[ \t]*=?[ \t]*\([ \t]*["'][^"'\n]*["'][ \t]*,[ \t]*["'](?P<t>[^"'\n]+)["']"#,
    )
    .unwrap()
});

/// `.netrc`: `machine h login u password p`.
static NETRC: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)(?:^|\s)login[ \t]+\S+[ \t]+(?:password|passwd)[ \t]+(?P<t>\S+)").unwrap());

/// A line holding only `password <value>` (multi-line `.netrc`, notes).
static LONE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?im)^[ \t]*(?:password|passwd)[ \t]+(?P<t>\S+)[ \t]*\r?$").unwrap());

/// `aws configure set aws_secret_access_key …`, `npm config set //…:_authToken …`,
/// `git config user.password …`: the key and value are separate words.
static CONFIG_SET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:config(?:ure)?[ \t]+set|git[ \t]+config)[ \t]+(?:--?[A-Za-z\-]+[ \t]+)*(?P<k>[^\s="']+)[ \t]+["']?(?P<t>[^\s"']+)"#,
    )
    .unwrap()
});

/// `gh secret set NAME --body …`.
static SECRET_SET: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)secrets?[ \t]+set[ \t]+\S+[ \t]+(?:-b|--body)[ \t]+["']?(?P<t>[^\s"']+)"#).unwrap()
});

static SQL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^A-Za-z0-9_])(?:password|identified[ \t]+by)[ \t]+'(?P<t>[^'\n]+)'").unwrap()
});

fn abs(off: usize, m: regex::Match<'_>) -> Range<usize> {
    off + m.start()..off + m.end()
}

/// Parses the value that starts at `pos` on the current line. Returns its
/// range (inside the quotes when quoted) and whether it was quoted.
pub(crate) fn parse_value(text: &str, pos: usize, stop_amp: bool) -> Option<(Range<usize>, bool)> {
    let line_end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    let line = text[pos..line_end].trim_end_matches('\r');
    let b = line.as_bytes();
    let first = *b.first()?;
    let quote = match first {
        b'"' | b'\'' | b'`' => Some((1, first)),
        b'r' | b'b' | b'f' | b'u' | b'R' | b'B' | b'F' | b'U' if matches!(b.get(1), Some(b'"' | b'\'')) => {
            Some((2, b[1]))
        }
        _ => None,
    };
    if let Some((start, q)) = quote {
        let mut i = start;
        while i < b.len() && b[i] != q {
            i += if b[i] == b'\\' { 2 } else { 1 };
        }
        let end = i.min(b.len());
        return (end > start).then_some((pos + start..pos + end, true));
    }
    let end = (0..b.len())
        .find(|&i| {
            let c = b[i];
            c.is_ascii_whitespace()
                || matches!(c, b'"' | b'\'' | b'`' | b';')
                || (c == b'&' && (stop_amp || query_param_at(&b[i + 1..])))
        })
        .unwrap_or(b.len());
    let raw = &line[..end];
    let mut v = raw.trim_end_matches([',', ';', ':']);
    for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
        while v.ends_with(close) && v.matches(open).count() < v.matches(close).count() {
            v = &v[..v.len() - 1];
        }
    }
    // `User(name=name, password=hashed)`, `{ token: tok }`: a bare
    // identifier closed by argument punctuation is a variable.
    let closed = raw.len() > v.len();
    let ident = v.bytes().next().is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && v.bytes().all(|c| c.is_ascii_alphabetic() || c == b'_');
    if v.is_empty() || (closed && ident) {
        return None;
    }
    Some((pos..pos + v.len(), false))
}

/// Query parameters that carry a credential only in a URL: a signed URL's
/// `sig=`/`X-Amz-Signature=`, and a bare `key=` (`?key=…&q=…`).
fn query_key(key: &str, in_query: bool) -> Option<Class> {
    let last = split_words(key).pop()?;
    (in_query && matches!(last.as_str(), "sig" | "signature" | "key")).then_some(Class::Token)
}

/// One opaque run such as an API key or a signature, not a path or a name.
fn opaque(v: &str) -> bool {
    v.len() >= 16
        && v.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'%' | b'+' | b'/' | b'='))
        && !v.contains("//")
        && v.bytes().any(|c| c.is_ascii_digit())
}

/// `name=` after an `&`: the value was the previous query parameter.
fn query_param_at(rest: &[u8]) -> bool {
    let n = rest.iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'_').count();
    n > 0 && rest[0].is_ascii_alphabetic() && rest.get(n) == Some(&b'=')
}

/// An unquoted letters-only value followed by more words is prose
/// (`password: see vault`) or code (`password = await hash(…)`).
fn prose_follows(text: &str, value: &Range<usize>) -> bool {
    let v = &text[value.clone()];
    if !v.bytes().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let rest = &text.as_bytes()[value.end..];
    let spaces = rest.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    spaces > 0 && rest.get(spaces).is_some_and(|c| c.is_ascii_alphabetic())
}

/// `key = value` in every syntax: env, shell, YAML, JSON, TOML, INI, code,
/// query strings and headers. Also comparisons, XML elements and CLI flags.
pub(crate) fn assignments(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let hay = &text[win.clone()];
    let off = win.start;
    // Cheap gates first: most lines that mention a password or a key are
    // prose with no separator at all.
    let cmp = hay.contains("==") || hay.contains("!=");
    let close_tag = hay.contains("</");
    let dash2 = hay.contains("--");
    let paren = hay.contains('(');
    let (eq, colon) = (hay.contains('='), hay.contains(':'));
    if cmp {
        comparisons(text, win.clone(), out);
    }
    if close_tag {
        xml_elements(text, win.clone(), out);
    }
    if dash2 {
        flags(text, win.clone(), out);
    }
    if paren {
        for caps in captures(&TUPLE, hay) {
            let Some(t) = caps.name("t") else { continue };
            if accepts(Class::Password, t.as_str(), true) {
                out.push(Candidate::new(abs(off, t), "password", PRIO_CONTEXT));
            }
        }
    }
    if !eq && !colon {
        return;
    }
    for caps in captures(&ASSIGN, hay) {
        let (Some(key), Some(sep), Some(all)) = (caps.name("key"), caps.name("sep"), caps.get(0)) else {
            continue;
        };
        let key_start = off + key.start();
        let in_query = key_start > 0 && matches!(text.as_bytes()[key_start - 1], b'?' | b'&');
        let Some(class) = classify_key(key.as_str()).or_else(|| query_key(key.as_str(), in_query)) else {
            continue;
        };
        let quoted_key = caps.name("kq").is_some_and(|q| !q.is_empty());
        let spaced = caps.name("ws").is_some_and(|w| !w.is_empty());
        let pos = off + all.end();
        // `group:artifact:version`, `io.jsonwebtoken:jjwt`: a colon with no
        // space after an unquoted key is not a mapping.
        if sep.as_str() == ":" && !quoted_key && !spaced {
            let next = text.as_bytes().get(pos);
            if !matches!(next, Some(b'"' | b'\'')) {
                continue;
            }
        }
        let Some((range, quoted)) = parse_value(text, pos, in_query) else {
            continue;
        };
        let v = &text[range.clone()];
        // `prompt='Password: '`: the key sat inside a string that the
        // "value" quote closes.
        let enclosing = key_start.checked_sub(1).map(|i| text.as_bytes()[i]);
        if quoted
            && !quoted_key
            && enclosing.is_some_and(|q| matches!(q, b'"' | b'\'') && Some(&q) == text.as_bytes().get(pos))
        {
            continue;
        }
        // A comparison tests a value; a bare word there is a name.
        let compares = matches!(sep.as_str(), "==" | "===" | "!=" | "!==");
        if compares && v.bytes().all(|c| c.is_ascii_alphabetic()) {
            continue;
        }
        // `NAME: Type = value` declares a type.
        let after = text[range.end..].trim_start_matches([' ', '\t']);
        if !quoted && after.starts_with('=') && !after.starts_with("==") {
            continue;
        }
        // Query values are never code, whatever they start with.
        let ok = if in_query {
            !is_placeholder(v) && !has_interpolation(v) && token_like(v)
        } else {
            accepts(class, v, quoted)
                && (quoted || !prose_follows(text, &range))
                && !names_stored_secret(key.as_str(), class, v)
        };
        if !ok {
            continue;
        }
        if in_query && classify_key(key.as_str()).is_none() && !opaque(v) {
            continue;
        }
        let kind = match classify_key(key.as_str()) {
            Some(_) => kind_for(key.as_str(), class),
            None if key.as_str().to_ascii_lowercase().ends_with("key") => "api-key",
            None => "url-signature",
        };
        out.push(Candidate::new(range, kind, PRIO_CONTEXT));
    }
}

/// `if ("literal" == admin_password)`: the literal is what the code checks against.
fn comparisons(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in captures(&COMPARE, &text[win.clone()]) {
        let (Some(q), Some(t), Some(k)) = (caps.name("q"), caps.name("t"), caps.name("k")) else {
            continue;
        };
        let close = text.as_bytes()[off + t.end()];
        if close != q.as_str().as_bytes()[0] {
            continue;
        }
        let Some(class) = classify_key(k.as_str()) else {
            continue;
        };
        let word = t.as_str().bytes().all(|c| c.is_ascii_alphabetic() || c == b' ');
        if !word && accepts(class, t.as_str(), true) {
            out.push(Candidate::new(abs(off, t), kind_for(k.as_str(), class), PRIO_CONTEXT));
        }
    }
}

/// `<password>…</password>`, `<ApiKey>…</ApiKey>` in XML configs.
fn xml_elements(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in captures(&XML, &text[win.clone()]) {
        let (Some(o), Some(t), Some(c)) = (caps.name("o"), caps.name("t"), caps.name("c")) else {
            continue;
        };
        if o.as_str() != c.as_str() {
            continue;
        }
        let Some(class) = classify_key(o.as_str()) else {
            continue;
        };
        let v = t.as_str().trim();
        if accepts(class, v, true) && !names_stored_secret(o.as_str(), class, v) {
            out.push(Candidate::new(abs(off, t), kind_for(o.as_str(), class), PRIO_CONTEXT));
        }
    }
}

/// `--password hunter2x`, `--api-key …`: the `=` form is an assignment.
fn flags(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in captures(&FLAG, &text[win.clone()]) {
        let (Some(k), Some(t)) = (caps.name("k"), caps.name("t")) else {
            continue;
        };
        let Some(class) = classify_key(k.as_str()) else {
            continue;
        };
        let mut r = abs(off, t);
        let quoted = matches!(t.as_str().as_bytes()[0], b'"' | b'\'');
        if t.as_str().starts_with('-') {
            continue; // the next flag, not a value
        }
        if quoted {
            r.start += 1;
        }
        let v = &text[r.clone()];
        let v = if quoted { v } else { trim_trailing_punct(v) };
        r.end = r.start + v.len();
        // `--password options`, `the --token flag`: prose about the flag.
        let word = v.bytes().all(|c| c.is_ascii_lowercase());
        if !word && accepts(class, v, quoted) && !names_stored_secret(k.as_str(), class, v) {
            out.push(Candidate::new(r, kind_for(k.as_str(), class), PRIO_CONTEXT));
        }
    }
}

/// Secrets set through a CLI's config or secret store, as separate words.
pub(crate) fn config_commands(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    let hay = &text[win.clone()];
    for caps in captures(&CONFIG_SET, hay) {
        let (Some(k), Some(t)) = (caps.name("k"), caps.name("t")) else { continue };
        if let Some(class) = classify_key(k.as_str())
            && accepts(class, t.as_str(), true)
        {
            out.push(Candidate::new(abs(off, t), kind_for(k.as_str(), class), PRIO_CONTEXT));
        }
    }
    for caps in captures(&SECRET_SET, hay) {
        let Some(t) = caps.name("t") else { continue };
        if accepts(Class::Secret, t.as_str(), true) {
            out.push(Candidate::new(abs(off, t), "secret", PRIO_CONTEXT));
        }
    }
}

/// "The password is …" and SQL's `IDENTIFIED BY '…'`: stricter, because prose
/// mentions passwords far more often than it states one.
pub(crate) fn phrases(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    let hay = &text[win.clone()];
    // Gates first: each pattern needs a word or a character most lines lack.
    let lone = hay.lines().any(|l| {
        let l = l.trim_start().as_bytes();
        l.len() > 6 && l[..6].eq_ignore_ascii_case(b"passwd") || l.len() > 8 && l[..8].eq_ignore_ascii_case(b"password")
    });
    for caps in captures(&PROSE, hay) {
        let Some(t) = caps.name("t") else { continue };
        let v = trim_trailing_punct(t.as_str());
        if strong_password(v) && !is_code(v) {
            let start = off + t.start();
            out.push(Candidate::new(start..start + v.len(), "password", PRIO_PROSE));
        }
    }
    for caps in captures(&NETRC, hay) {
        let Some(t) = caps.name("t") else { continue };
        if accepts(Class::Password, t.as_str(), true) {
            out.push(Candidate::new(abs(off, t), "password", PRIO_PROSE));
        }
    }
    for caps in captures(&LONE, if lone { hay } else { "" }) {
        let Some(t) = caps.name("t") else { continue };
        if strong_password(t.as_str()) && !t.as_str().ends_with(['.', ',', ';', ':', '!', '?']) {
            out.push(Candidate::new(abs(off, t), "password", PRIO_PROSE));
        }
    }
    for caps in captures(&SQL, if hay.contains('\'') { hay } else { "" }) {
        let Some(t) = caps.name("t") else { continue };
        if accepts(Class::Password, t.as_str(), true) {
            out.push(Candidate::new(abs(off, t), "password", PRIO_PROSE));
        }
    }
}
