//! Secrets recognised by the key they are assigned to rather than by shape:
//! `password=…`, `"client_secret": "…"`, `--token …`, `<password>…</password>`,
//! `if ("…" == admin_password)`. The key name decides whether the value is a
//! credential (see [`classify_key`]); the value decides whether it is a real
//! literal or a reference, placeholder or piece of code to keep.

use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;

use crate::scan::{Candidate, PRIO_CONTEXT, PRIO_PROSE};
use crate::value::{
    Class, accepts, classify_key, is_code, kind_for, strong_password, trim_trailing_punct,
};

static ASSIGN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?P<key>[A-Za-z0-9_.\-]*(?:pass|pwd|secret|token|key|auth|cred)[A-Za-z0-9_.\-]*)(?P<kq>["'`]?)[ \t]*(?P<sep>:=|=>|===|==|!==|!=|=|:)(?P<ws>[ \t]*)"#,
    )
    .unwrap()
});

static COMPARE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?P<q>["'])(?P<t>[^"'\n]{1,256})["'][ \t]*(?:===|!==|==|!=)[ \t]*(?P<k>[A-Za-z_][A-Za-z0-9_.]*)"#,
    )
    .unwrap()
});

static XML: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"<(?P<o>[A-Za-z_][A-Za-z0-9_:.\-]*)>(?P<t>[^<\n]{1,512})</(?P<c>[A-Za-z_][A-Za-z0-9_:.\-]*)>",
    )
    .unwrap()
});

static FLAG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?:^|[ \t])--(?P<k>[A-Za-z0-9\-]*(?:password|passwd|token|secret|api-key|apikey|access-key|secret-key|auth-key))[ \t]+(?P<t>["']?[^\s"']+)"#,
    )
    .unwrap()
});

static PROSE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?:^|[^A-Za-z0-9_])(?:password|passwd|passphrase)[ \t]+(?:is|was)[ \t]*:?[ \t]+["'`]?(?P<t>[^\s"'`]+)"#,
    )
    .unwrap()
});

static SQL: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)(?:^|[^A-Za-z0-9_])(?:password|identified[ \t]+by)[ \t]+'(?P<t>[^'\n]+)'")
        .unwrap()
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
        b'r' | b'b' | b'f' | b'u' | b'R' | b'B' | b'F' | b'U'
            if matches!(b.get(1), Some(b'"' | b'\'')) =>
        {
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
    let end = b
        .iter()
        .position(|&c| {
            c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'`') || (stop_amp && c == b'&')
        })
        .unwrap_or(b.len());
    let mut v = line[..end].trim_end_matches([',', ';']);
    for (open, close) in [('(', ')'), ('[', ']'), ('{', '}')] {
        while v.ends_with(close) && v.matches(open).count() < v.matches(close).count() {
            v = &v[..v.len() - 1];
        }
    }
    (!v.is_empty()).then_some((pos..pos + v.len(), false))
}

/// An unquoted letters-only value followed by more words is prose
/// (`password: see vault`) or code (`password = await hash(…)`).
fn prose_follows(text: &str, value: &Range<usize>) -> bool {
    let v = &text[value.clone()];
    if !v.bytes().all(|c| c.is_ascii_alphabetic()) {
        return false;
    }
    let rest = text[value.end..].as_bytes();
    let spaces = rest.iter().take_while(|c| matches!(c, b' ' | b'\t')).count();
    spaces > 0 && rest.get(spaces).is_some_and(|c| c.is_ascii_alphabetic())
}

/// `key = value` in every syntax: env, shell, YAML, JSON, TOML, INI, code,
/// query strings and headers. Also comparisons, XML elements and CLI flags.
pub(crate) fn assignments(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let hay = &text[win.clone()];
    let off = win.start;
    for caps in ASSIGN.captures_iter(hay) {
        let (Some(key), Some(sep), Some(all)) = (caps.name("key"), caps.name("sep"), caps.get(0))
        else {
            continue;
        };
        let Some(class) = classify_key(key.as_str()) else {
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
        let key_start = off + key.start();
        let stop_amp = key_start > 0 && matches!(text.as_bytes()[key_start - 1], b'?' | b'&');
        let Some((range, quoted)) = parse_value(text, pos, stop_amp) else {
            continue;
        };
        let v = &text[range.clone()];
        if !accepts(class, v, quoted) || (!quoted && prose_follows(text, &range)) {
            continue;
        }
        out.push(Candidate::new(range, kind_for(key.as_str(), class), PRIO_CONTEXT));
    }
    comparisons(text, win.clone(), out);
    xml_elements(text, win.clone(), out);
    flags(text, win, out);
}

/// `if ("literal" == admin_password)`: the literal is what the code checks against.
fn comparisons(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in COMPARE.captures_iter(&text[win.clone()]) {
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
        if accepts(class, t.as_str(), true) {
            out.push(Candidate::new(abs(off, t), kind_for(k.as_str(), class), PRIO_CONTEXT));
        }
    }
}

/// `<password>…</password>`, `<ApiKey>…</ApiKey>` in XML configs.
fn xml_elements(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in XML.captures_iter(&text[win.clone()]) {
        let (Some(o), Some(t), Some(c)) = (caps.name("o"), caps.name("t"), caps.name("c")) else {
            continue;
        };
        if o.as_str() != c.as_str() {
            continue;
        }
        let Some(class) = classify_key(o.as_str()) else {
            continue;
        };
        if accepts(class, t.as_str().trim(), true) {
            out.push(Candidate::new(abs(off, t), kind_for(o.as_str(), class), PRIO_CONTEXT));
        }
    }
}

/// `--password hunter2x`, `--api-key …`: the `=` form is an assignment.
fn flags(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    for caps in FLAG.captures_iter(&text[win.clone()]) {
        let (Some(k), Some(t)) = (caps.name("k"), caps.name("t")) else {
            continue;
        };
        let Some(class) = classify_key(k.as_str()) else {
            continue;
        };
        let mut r = abs(off, t);
        let quoted = matches!(t.as_str().as_bytes()[0], b'"' | b'\'');
        if quoted {
            r.start += 1;
        }
        let v = &text[r.clone()];
        if accepts(class, v, quoted) {
            out.push(Candidate::new(r, kind_for(k.as_str(), class), PRIO_CONTEXT));
        }
    }
}

/// `the password is Xk3!pq9Z`, `IDENTIFIED BY 'pw'`: stricter, because prose
/// mentions passwords far more often than it states one.
pub(crate) fn phrases(text: &str, win: Range<usize>, out: &mut Vec<Candidate>) {
    let off = win.start;
    let hay = &text[win.clone()];
    for caps in PROSE.captures_iter(hay) {
        let Some(t) = caps.name("t") else { continue };
        let v = trim_trailing_punct(t.as_str());
        if strong_password(v) && !is_code(v) {
            let start = off + t.start();
            out.push(Candidate::new(start..start + v.len(), "password", PRIO_PROSE));
        }
    }
    for caps in SQL.captures_iter(hay) {
        let Some(t) = caps.name("t") else { continue };
        if accepts(Class::Password, t.as_str(), true) {
            out.push(Candidate::new(abs(off, t), "password", PRIO_PROSE));
        }
    }
}
